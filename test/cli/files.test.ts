/**
 * The CLI's file ports in isolation: encoding detection and strict decoding,
 * the output lock, the intent journal.
 */
import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { detectEncoding, EncodingError, parseEncoding } from "../../cli/encoding.ts";
import { readCsv } from "../../cli/csv.ts";
import { acquireLock, lockOwner } from "../../node/lock.ts";
import { SpendLedger } from "../../cli/ledger.ts";
import { nodeDriver } from "../../node/driver.ts";
import { createServer } from "node:http";
import type { HttpRequest } from "../../shared/core/http.ts";
import { buildRequest } from "../../shared/api/client.ts";
import { testContext } from "../helpers/fake-api.ts";
import { take } from "../helpers/indexed.ts";

const dir = mkdtempSync(join(tmpdir(), "cd-files-"));
const file = (name: string, bytes: string | Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
};
async function read(path: string, enc?: Parameters<typeof readCsv>[2]) {
  const out: string[][] = [];
  for await (const r of readCsv(path, undefined, enc)) out.push(r);
  return out;
}

describe("encodings", () => {
  const text = "Firma;Ort\r\nMüller & Söhne GmbH;Köln\r\n";
  it("detects UTF-8 with and without BOM, UTF-16 LE/BE by BOM, and Windows-1252 by invalid UTF-8", () => {
    expect(detectEncoding(file("a.csv", text))).toBe("utf-8");
    expect(detectEncoding(file("b.csv", "\ufeff" + text))).toBe("utf-8");
    expect(detectEncoding(file("c.csv", Buffer.from("\ufeff" + text, "utf16le")))).toBe("utf-16le");
    expect(detectEncoding(file("d.csv", Buffer.from("\ufeff" + text, "utf16le").swap16()))).toBe("utf-16be");
    expect(detectEncoding(file("e.csv", Buffer.from(text, "latin1")))).toBe("windows-1252");
    // An invalid byte far beyond the first piece read still decides.
    expect(detectEncoding(file("f.csv", Buffer.concat([Buffer.from("x".repeat(600_000)), Buffer.from([0xfc])])))).toBe(
      "windows-1252",
    );
  });
  it("reads every variant to the same records, the byte-order mark dropped", async () => {
    const want = [
      ["Firma", "Ort"],
      ["Müller & Söhne GmbH", "Köln"],
    ];
    expect(await read(join(dir, "a.csv"))).toEqual(want);
    expect(await read(join(dir, "b.csv"))).toEqual(want);
    expect(await read(join(dir, "c.csv"), "utf-16le")).toEqual(want);
    expect(await read(join(dir, "d.csv"), "utf-16be")).toEqual(want);
    expect(await read(join(dir, "e.csv"), "windows-1252")).toEqual(want);
  });
  it("never decodes to U+FFFD: bytes invalid in the encoding are an EncodingError", async () => {
    await expect(read(join(dir, "e.csv"), "utf-8")).rejects.toBeInstanceOf(EncodingError);
    const torn = file("g.csv", Buffer.concat([Buffer.from("\ufeffFirma\r\nA", "utf16le"), Buffer.from([0x42])]));
    await expect(read(torn, "utf-16le")).rejects.toBeInstanceOf(EncodingError);
  });
  it("accepts the usual names for --encoding", () => {
    expect(parseEncoding("UTF8")).toBe("utf-8");
    expect(parseEncoding("cp1252")).toBe("windows-1252");
    expect(parseEncoding("latin1")).toBe("windows-1252");
    expect(parseEncoding("utf-16")).toBe("utf-16le");
    expect(parseEncoding("ebcdic")).toBeNull();
  });
});

describe("output lock", () => {
  const releases: (() => void)[] = [];
  afterEach(() => releases.splice(0).forEach((r) => r()));

  it("one holder at a time; released, it can be taken again", () => {
    const lock = join(dir, "one.lock");
    const a = acquireLock(lock);
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    // A second holder in this process is refused like another process would be (the file is the lock, not the pid).
    const b = acquireLock(lock);
    expect(b).toEqual({ ok: false, owner: { pid: process.pid, host: hostname() } });
    a.release();
    expect(existsSync(lock)).toBe(false);
    const c = acquireLock(lock);
    expect(c.ok).toBe(true);
    if (c.ok) releases.push(c.release);
  });

  it("takes over the lock of a process that is gone, never one of a live process or another host", () => {
    const dead = Number(
      spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString(),
    );
    const stale = join(dir, "stale.lock");
    writeFileSync(stale, JSON.stringify({ pid: dead, host: hostname() }));
    const a = acquireLock(stale);
    expect(a.ok).toBe(true);
    if (a.ok) releases.push(a.release);
    expect(JSON.parse(readFileSync(stale, "utf8")).pid).toBe(process.pid);

    const live = join(dir, "live.lock");
    writeFileSync(live, JSON.stringify({ pid: process.ppid, host: hostname() }));
    expect(acquireLock(live).ok).toBe(false);
    const remote = join(dir, "remote.lock");
    writeFileSync(remote, JSON.stringify({ pid: dead, host: "another-host" }));
    expect(acquireLock(remote).ok).toBe(false);
    // A torn lock may be one being written this instant: held.
    const torn = join(dir, "torn.lock");
    writeFileSync(torn, "");
    expect(acquireLock(torn)).toEqual({ ok: false, owner: null });
  });

  it("takes over a lock naming this process that this process does not hold (a restart with the same pid), and reads the team server's old pid-only lock", () => {
    const mine = join(dir, "restarted.lock");
    writeFileSync(mine, JSON.stringify({ pid: process.pid, host: hostname() }));
    const a = acquireLock(mine);
    expect(a.ok).toBe(true);
    // Held now: the same process asking again is refused.
    expect(acquireLock(mine).ok).toBe(false);
    if (a.ok) a.release();

    const dead = Number(
      spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString(),
    );
    const old = join(dir, "server.lock");
    writeFileSync(old, String(dead));
    expect(lockOwner(old)).toEqual({ pid: dead, host: hostname() });
    const b = acquireLock(old);
    expect(b.ok).toBe(true);
    if (b.ok) b.release();
    writeFileSync(old, String(process.ppid));
    expect(acquireLock(old)).toEqual({ ok: false, owner: { pid: process.ppid, host: hostname() } });
  });
});

describe("intent journal", () => {
  // As the API client builds them: each carries its price, which the journal writes down.
  const profile = (id: string): HttpRequest =>
    buildRequest(testContext(() => 0).ctx.client, { endpoint: "profile", path: { id } });

  it("counts answered credits, leaves unanswered intents as 'up to', and continues across a resume", () => {
    const path = join(dir, "spent");
    const l = new SpendLedger(path, false);
    const [a, b, c, d] = take(["DEAAAAAAAAAA", "DEBBBBBBBBBB", "DECCCCCCCCCC", "DEDDDDDDDDDD"].map(profile), 4);
    expect(l.charge()).toEqual({ answered: 0, unanswered: 0, inFlight: 0 });
    for (const r of [a, b, c]) l.beforeSend(r);
    const each = l.charge().unanswered / 3;
    expect(each).toBeGreaterThan(0);
    // Sent, no answer yet: in flight (the progress line counts them, named as under way).
    expect(l.charge().inFlight).toBe(3 * each);
    l.onAnswer(a, { status: 200, headers: {}, body: "{}" });
    l.onAnswer(b, { status: 429, headers: {}, body: "" }); // refused: not charged
    l.onAnswer(c, { status: 0, headers: {}, body: "", networkError: "timeout" }); // may have been charged
    expect(l.charge()).toEqual({ answered: each, unanswered: each, inFlight: 0 });
    // A kill now; the resumed run reads the journal (and a torn last line) back.
    writeFileSync(path, readFileSync(path, "utf8") + "i torn");
    const resumed = new SpendLedger(path, true);
    expect(resumed.charge()).toEqual({ answered: each, unanswered: each, inFlight: 0 });
    // What the resumed run writes after the torn line is read back too.
    resumed.beforeSend(d);
    resumed.onAnswer(d, { status: 200, headers: {}, body: "{}" });
    resumed.close();
    expect(new SpendLedger(path, true).charge()).toEqual({ answered: 2 * each, unanswered: each, inFlight: 0 });
    expect(new SpendLedger(path, false).charge()).toEqual({ answered: 0, unanswered: 0, inFlight: 0 });
  });
});

describe("answer journal and intent journal together", () => {
  it("an answer is kept before it is counted as arrived; a kill between the two is recognised on resume, nothing bought again", async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.writeHead(200, { "content-type": "application/json" }).end('{"id":"DEAAAAAAAAAA"}');
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    // Built by the client, so it carries the price the intent journal writes down; sent to this server.
    const built = buildRequest(testContext(() => 0).ctx.client, { endpoint: "profile", path: { id: "DEAAAAAAAAAA" } });
    const req: HttpRequest = { ...built, url: built.url.replace(/^https?:\/\/[^/]+/, `http://127.0.0.1:${port}`) };
    const journal = join(dir, "order.journal.jsonl");
    const spent = join(dir, "order.spent");
    try {
      const ledger = new SpendLedger(spent, false);
      let keptFirst = false;
      const driver = nodeDriver({
        journal,
        beforeSend: ledger.beforeSend,
        onAnswer: (r, res) => {
          keptFirst = existsSync(journal) && readFileSync(journal, "utf8").includes("DEAAAAAAAAAA");
          ledger.onAnswer(r, res);
        },
      });
      expect((await driver.http([req]))[0]?.status).toBe(200);
      expect(keptFirst).toBe(true);
      const price = ledger.charge().answered;
      expect(price).toBeGreaterThan(0);
      ledger.close();
      // A kill right after the answer was kept, before its `a` line: the intent is open.
      writeFileSync(spent, readFileSync(spent, "utf8").replace(/^a .*\n/m, ""));
      const resumed = new SpendLedger(spent, true);
      expect(resumed.charge()).toEqual({ answered: 0, unanswered: price, inFlight: 0 });
      const again = nodeDriver({
        journal,
        beforeSend: resumed.beforeSend,
        onAnswer: resumed.onAnswer,
        onKept: resumed.kept,
      });
      // Reading the answer journal back closes the intent: it arrived, and it is replayed, not bought again.
      expect(resumed.charge()).toEqual({ answered: price, unanswered: 0, inFlight: 0 });
      expect((await again.http([req]))[0]?.body).toContain("DEAAAAAAAAAA");
      expect(hits).toBe(1);
      resumed.close();
      expect(new SpendLedger(spent, true).charge()).toEqual({ answered: price, unanswered: 0, inFlight: 0 });
    } finally {
      server.close();
    }
  });

  it("a paid request that never left (nobody listens) is closed at 0; one that left and got no answer stays 'up to'", async () => {
    // A port nobody listens on: a fresh listen's, closed again.
    const idle = createServer();
    await new Promise<void>((r) => idle.listen(0, "127.0.0.1", r));
    const { port: closed } = idle.address() as { port: number };
    await new Promise((r) => idle.close(r));
    // And one that takes the request and never answers (the timeout comes after the bytes left).
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const { port: mute } = silent.address() as { port: number };
    const built = buildRequest(testContext(() => 0).ctx.client, { endpoint: "profile", path: { id: "DEAAAAAAAAAA" } });
    const to = (port: number): HttpRequest => ({
      ...built,
      url: built.url.replace(/^https?:\/\/[^/]+/, `http://127.0.0.1:${port}`),
    });
    const spent = join(dir, "unsent.spent");
    try {
      const ledger = new SpendLedger(spent, false);
      const driver = nodeDriver({ timeoutMs: 300, beforeSend: ledger.beforeSend, onAnswer: ledger.onAnswer });
      const [refused] = await driver.http([to(closed)]);
      expect(refused).toMatchObject({ status: 0, networkError: "connection", unsent: true });
      expect(ledger.charge()).toEqual({ answered: 0, unanswered: 0, inFlight: 0 });
      const [unanswered] = await driver.http([to(mute)]);
      expect(unanswered).toMatchObject({ status: 0, networkError: "timeout" });
      expect(unanswered?.unsent).toBeUndefined();
      expect(ledger.charge().unanswered).toBeGreaterThan(0);
      ledger.close();
      // The journal says the same after a restart.
      expect(new SpendLedger(spent, true).charge()).toEqual(ledger.charge());
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
