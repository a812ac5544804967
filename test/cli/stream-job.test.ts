/**
 * The core's streamed job (shared/enrich/job-stream.ts), as the CLI hands it its
 * I/O, driven here with an in-memory store against the in-process emulator
 * (runSync: the job is sans-IO). Its decisions: resume, start over or start
 * afresh; the resolve phase kept in the store and read back; the checkpoint
 * moving only after the host keeps a chunk; and the CLI's store as files.
 */
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAsync, runSync } from "../../shared/core/drivers.ts";
import { EnrichStore } from "../../cli/enrich-files.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { coreDeps, detectColumns, selectFields, StreamJob, STREAM_RESOLVED_PREFIX } from "../../shared/enrich/index.ts";
import type { StreamFacts, StreamLine, StreamSpec } from "../../shared/enrich/index.ts";
import { createEmulator } from "../../emulator/index.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";

const clock = Date.UTC(2025, 5, 1, 9);
const emu = createEmulator({ companies: 400, seed: 5, now: () => clock, startDate: "2025-06-01" });
const names = emu.world.companies
  .filter((c) => emu.companies.findByName(c.name).length === 1)
  .slice(0, 30)
  .map((c) => c.name);
const header = ["Firma"];
const spec: StreamSpec = {
  header,
  mapping: detectColumns(header).mapping,
  fieldIds: ["name", "city"],
  fields: selectFields(["name", "city"]),
  mode: "batch",
  rerun: "new-or-failed",
  lang: "en",
};
const lines = (from: number, to: number): StreamLine[] =>
  names.slice(from, to).map((name, k) => ({ index: from + k, row: [name], earlier: null }));
const facts = (more: Partial<StreamFacts> = {}): StreamFacts => ({
  input: "/in.csv",
  content: "c1",
  encoding: "utf-8",
  unfinishedSize: null,
  unfinishedUsable: false,
  finishedUsable: false,
  ...more,
});

function world() {
  const d = emulatorDrivers(emu, { now: () => clock });
  const ctx: OpContext = {
    client: {
      apiKey: emu.createKey(10_000),
      baseUrl: "http://emulator.test",
      language: "en",
      now: () => clock,
      random: () => 0.5,
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 0,
    maxBatch: 10,
    scope: "stream",
  };
  const resolves = () => d.requests.filter((r) => r.url.includes("/resolve")).length;
  const parts = () => [...d.stores.store.keys()].filter((k) => k.startsWith(STREAM_RESOLVED_PREFIX)).length;
  return { d, ctx, resolves, parts };
}

/** A run killed after its first chunk of 10 rows was kept (the output's mark then 100). */
function killedRun(w: ReturnType<typeof world>) {
  const job = new StreamJob(spec);
  expect(runSync(job.open(facts()), w.d.sync)).toBe("fresh");
  job.estimateLines(lines(0, 30), clock);
  expect(job.estimate()).toMatchObject({ inputRows: 30, estimate: { rows: 30 } });
  runSync(job.begun(10), w.d.sync);
  expect(job.resolvePending).toBe(true);
  runSync(job.resolveAhead(coreDeps, w.ctx, 32), w.d.sync);
  expect(job.resolvePending).toBe(false);
  const { rows, worked } = runSync(job.chunk(coreDeps, w.ctx, lines(0, 10)), w.d.sync);
  expect(worked).toBe(10);
  expect(rows[0]?.[0]).toBe(names[0]);
  expect(rows[0]?.[1]).toMatch(/matched/i);
  // The checkpoint moves only after the host kept the chunk's rows.
  expect(job.rowsDone).toBe(0);
  expect(() => runSync(job.chunk(coreDeps, w.ctx, lines(10, 20)), w.d.sync)).toThrow(/not kept/);
  runSync(job.kept(100), w.d.sync);
  expect(job.rowsDone).toBe(10);
  return job;
}

describe("the streamed job's decisions", () => {
  it("resolves ahead in full batch calls, each group kept in the store; a resume goes on after the last kept chunk and resolves nothing again", () => {
    const w = world();
    const first = killedRun(w);
    expect(w.resolves()).toBe(3); // 30 names, batches of 10
    expect(w.parts()).toBeGreaterThan(0);
    const job = new StreamJob(spec);
    expect(runSync(job.open(facts({ unfinishedSize: 120 })), w.d.sync)).toBe("resume");
    expect(job.cut).toBe(100);
    expect(job.rowsDone).toBe(10);
    expect(job.resolvePending).toBe(false);
    expect(job.memo.keys.size).toBe(first.memo.keys.size);
    runSync(job.chunk(coreDeps, w.ctx, lines(10, 30)), w.d.sync);
    expect(w.resolves()).toBe(3);
  });

  it("the same job on changed content starts over, keeping its resolutions and pairing its rows written; another job starts afresh and drops them when it begins", () => {
    const w = world();
    killedRun(w);
    const restart = new StreamJob(spec);
    const f = facts({ content: "c2", unfinishedSize: 100, unfinishedUsable: true, finishedUsable: true });
    expect(runSync(restart.open(f), w.d.sync)).toBe("restart");
    expect(restart.cut).toBe(100);
    expect(restart.rowsDone).toBe(0);
    expect(restart.earlier).toEqual(["unfinished", "finished"]);
    expect(restart.memo.keys.size).toBe(30);

    // A partial output shorter than its checkpoint says is not this job's: afresh.
    expect(runSync(new StreamJob(spec).open(facts({ unfinishedSize: 50 })), w.d.sync)).toBe("fresh");
    // Other fields: another job. Nothing is dropped before it begins (the user may still say no).
    const other = new StreamJob({ ...spec, fieldIds: ["name"], fields: selectFields(["name"]) });
    expect(runSync(other.open(facts({ unfinishedSize: 100, finishedUsable: true })), w.d.sync)).toBe("fresh");
    expect(other.cut).toBeNull();
    expect(other.earlier).toEqual(["finished"]);
    expect(other.memo.keys.size).toBe(0);
    expect(w.parts()).toBeGreaterThan(0);
    runSync(other.begun(10), w.d.sync);
    expect(w.parts()).toBe(0);
  });
});

describe("the store as files (cli/enrich-files.ts)", () => {
  it("keeps the checkpoint and the resolved names in their files, and reads a resolved file of an earlier version", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cd-stream-"));
    const files = { checkpoint: join(dir, "o.checkpoint.json"), resolved: join(dir, "o.resolved.jsonl") };
    const w = world();
    const store = new EnrichStore(files);
    const job = new StreamJob(spec);
    await runAsync(job.open(facts()), store.driver(w.d.async));
    job.estimateLines(lines(0, 30), clock);
    await runAsync(job.begun(10), store.driver(w.d.async));
    await runAsync(job.resolveAhead(coreDeps, w.ctx, 32), store.driver(w.d.async));
    expect(JSON.parse(readFileSync(files.checkpoint, "utf8"))).toMatchObject({ v: 2, resolved: true, bytesDone: 10 });
    // Read back by a new process: the resume knows every name.
    const again = new StreamJob(spec);
    expect(await runAsync(again.open(facts({ unfinishedSize: 10 })), new EnrichStore(files).driver(w.d.async))).toBe(
      "resume",
    );
    expect(again.memo.keys.size).toBe(30);
    // An earlier version wrote one [key, answer] a line: still read, so its resume pays no name again.
    const [key, answer] = [...again.memo.keys][0]!;
    writeFileSync(files.resolved, JSON.stringify([key, answer]) + "\n");
    const old = new StreamJob(spec);
    await runAsync(old.open(facts({ unfinishedSize: 10 })), new EnrichStore(files).driver(w.d.async));
    expect([...old.memo.keys]).toEqual([[key, answer]]);
  });
});
