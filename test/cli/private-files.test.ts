/**
 * Issue 36 item 1, the CLI's side: the files beside an output that hold
 * answers, spending or the run's owner (journals, the resolve phase's
 * answers, the checkpoint, the intent journal, the lock, the monitor's
 * store) are created 0600 under a umask of 000, and an existing one left
 * 0666 by an earlier version is tightened when it is written again.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnrichStore, paths } from "../../cli/enrich-files.ts";
import { FileStore } from "../../cli/job-files.ts";
import { SpendLedger } from "../../cli/ledger.ts";
import { acquireLock } from "../../node/lock.ts";
import { appendPrivate } from "../../node/private-file.ts";
import { buildRequest } from "../../shared/api/client.ts";
import { STREAM_CHECKPOINT_KEY, STREAM_RESOLVED_PREFIX } from "../../shared/enrich/index.ts";
import { testContext } from "../helpers/fake-api.ts";

const dir = mkdtempSync(join(tmpdir(), "cd-private-"));
const modeOf = (p: string) => (statSync(p).mode & 0o777).toString(8);
let umask = 0;

describe("the CLI's side files are their user's alone, whatever the umask", () => {
  beforeAll(() => {
    umask = process.umask(0);
  });
  afterAll(() => {
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });

  it("a plain file under umask 000 is 0666 (the control), the side files 0600", () => {
    writeFileSync(join(dir, "control"), "x");
    expect(modeOf(join(dir, "control"))).toBe("666");
    const out = join(dir, "out.csv");
    const files = paths(out);
    const lock = acquireLock(files.lock);
    expect(lock.ok).toBe(true);
    expect(modeOf(files.lock)).toBe("600");
    if (lock.ok) lock.release();
    const ledger = new SpendLedger(files.spent, false);
    ledger.beforeSend(
      buildRequest(testContext(() => 0).ctx.client, { endpoint: "profile", path: { id: "DEAAAAAAAAAA" } }),
    );
    ledger.close();
    expect(modeOf(files.spent)).toBe("600");
    const store = new EnrichStore(files);
    store.put({ [STREAM_CHECKPOINT_KEY]: "{}", [STREAM_RESOLVED_PREFIX + "0"]: "[]" });
    expect(modeOf(files.checkpoint)).toBe("600");
    expect(modeOf(files.resolved)).toBe("600");
    const state = new FileStore(join(dir, "portfolio.state.jsonl"));
    state.put({ a: "1" });
    expect(modeOf(join(dir, "portfolio.state.jsonl"))).toBe("600");
    state.compact();
    expect(modeOf(join(dir, "portfolio.state.jsonl"))).toBe("600");
  });

  it("a journal an earlier version left 0666 is tightened at its next write", () => {
    const journal = join(dir, "old.journal.jsonl");
    writeFileSync(journal, "{}\n");
    chmodSync(journal, 0o666);
    appendPrivate(journal, "{}\n");
    expect(modeOf(journal)).toBe("600");
  });
});
