/** The budget lock as a driver decorator: two runs never interleave the counter's read and write. */
import { describe, expect, it } from "vitest";
import { memoryStores, runAsync, type AsyncDriver } from "../../shared/core/drivers.ts";
import { http, storeGet, storePut, type Operation } from "../../shared/core/effects.ts";
import { createLock, pageLock, serialiseBudget } from "../../excel-addin/functions/budget-lock.ts";

const KEY = "doc:budget:test";
const tick = () => new Promise<void>((r) => setTimeout(r, 1));

/** A store whose reads and writes take a moment, so unserialised runs would interleave. */
function slowDriver(): AsyncDriver & { log: string[] } {
  const m = memoryStores();
  const log: string[] = [];
  return {
    log,
    http: async (reqs) => (log.push("http"), reqs.map(() => ({ status: 200, headers: {}, body: "{}" }))),
    sleep: async () => undefined,
    cacheGet: async (k) => m.cacheGet(k),
    cachePut: async (e, t) => m.cachePut(e, t),
    storeGet: async (k) => (await tick(), m.storeGet(k)),
    storePut: async (e) => (await tick(), m.storePut(e)),
  };
}

/** Read the counter, add `n`, write it, then send a request. */
function* spend(n: number, fail = false, key = KEY): Operation<number> {
  const [raw] = yield* storeGet([key]);
  const now = Number(raw ?? 0) + n;
  if (fail) throw new Error("refused between read and write");
  yield* storePut({ [key]: String(now) });
  yield* http([{ method: "GET", url: "https://x.test/", headers: {} }]);
  return now;
}

async function runAll(d: AsyncDriver, ops: Operation<number>[], serialise: boolean) {
  const acquire = createLock();
  return Promise.allSettled(
    ops.map(async (op) => {
      if (!serialise) return runAsync(op, d);
      const s = serialiseBudget(d, acquire);
      try {
        return await runAsync(op, s);
      } finally {
        s.release();
      }
    }),
  );
}

describe("serialiseBudget", () => {
  it("without it, concurrent runs lose updates; with it, every spend counts", async () => {
    const loose = slowDriver();
    await runAll(loose, [spend(1), spend(2), spend(3)], false);
    const [lost] = await loose.storeGet([KEY]);
    expect(Number(lost)).toBeLessThan(6);

    const d = slowDriver();
    await runAll(d, [spend(1), spend(2), spend(3)], true);
    expect(await d.storeGet([KEY])).toEqual(["6"]);
    expect(d.log).toEqual(["http", "http", "http"]);
  });

  it("a run that fails between read and write gives the lock back", async () => {
    const d = slowDriver();
    const out = await runAll(d, [spend(5, true), spend(1), spend(2)], true);
    expect(out.map((o) => o.status)).toEqual(["rejected", "fulfilled", "fulfilled"]);
    expect(await d.storeGet([KEY])).toEqual(["3"]);
  });

  it("other keys and effects do not take the lock; the lock is not held across a request", async () => {
    const d = slowDriver();
    const acquire = createLock();
    const a = serialiseBudget(d, acquire);
    await a.storeGet([KEY]);
    // Held by a: b's budget read waits until a does something else.
    const b = serialiseBudget(d, acquire);
    let bRead = false;
    const pending = b.storeGet([KEY]).then(() => (bRead = true));
    await a.storeGet(["doc:other"]); // not the budget: ends a's critical section
    await pending;
    expect(bRead).toBe(true);
    b.release();
  });

  it("the spend log is locked like the budget: concurrent spends each add their line", async () => {
    const LEDGER = "doc:ledger:test";
    const loose = slowDriver();
    await runAll(loose, [spend(1, false, LEDGER), spend(2, false, LEDGER), spend(3, false, LEDGER)], false);
    expect(Number((await loose.storeGet([LEDGER]))[0])).toBeLessThan(6);
    const d = slowDriver();
    await runAll(d, [spend(1, false, LEDGER), spend(2, false, LEDGER), spend(3, false, LEDGER)], true);
    expect(await d.storeGet([LEDGER])).toEqual(["6"]);
  });

  it("one lock per page: the functions bundle and the task pane bundle get the same one", () => {
    const page: Record<string, unknown> = {};
    expect(pageLock(page)).toBe(pageLock(page));
    expect(pageLock(page)).not.toBe(pageLock({}));
  });
});
