import { describe, expect, it } from "vitest";
import { createGatherer } from "../../excel-addin/functions/gather.ts";

/** A schedule the test flushes by hand, so "the same moment" is explicit. */
function manualSchedule() {
  const pending: (() => void)[] = [];
  return {
    schedule: (f: () => void) => void pending.push(f),
    flush: () => pending.splice(0).forEach((f) => f()),
    get waiting() {
      return pending.length;
    },
  };
}

describe("gatherer", () => {
  it("answers calls made in the same moment with one batch, each distinct call asked once", async () => {
    const clock = manualSchedule();
    const seen: string[][] = [];
    const g = createGatherer<string, string>({
      key: (a) => a,
      schedule: clock.schedule,
      runBatch: async (calls) => {
        seen.push(calls);
        return calls.map((c) => c.toUpperCase());
      },
    });
    const answers = ["a", "b", "a", "c", "b"].map((x) => g(x));
    expect(clock.waiting).toBe(1);
    clock.flush();
    expect(await Promise.all(answers)).toEqual(["A", "B", "A", "C", "B"]);
    expect(seen).toEqual([["a", "b", "c"]]);
    expect(g.batches).toBe(1);
  });

  it("rejects every waiting call when the batch fails: no call stays pending", async () => {
    const clock = manualSchedule();
    const g = createGatherer<number, number>({
      key: String,
      schedule: clock.schedule,
      runBatch: async () => {
        throw new Error("network down");
      },
      toError: (e) => new Error(`wrapped: ${(e as Error).message}`),
    });
    const answers = [1, 2, 3, 2].map((x) => g(x));
    clock.flush();
    const settled = await Promise.allSettled(answers);
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
    expect((settled[0] as PromiseRejectedResult).reason.message).toBe("wrapped: network down");
  });

  it("rejects all when the batch throws synchronously or answers the wrong number of results", async () => {
    const clock = manualSchedule();
    const sync = createGatherer<number, number>({
      key: String,
      schedule: clock.schedule,
      runBatch: () => {
        throw new Error("boom");
      },
    });
    const short = createGatherer<number, number>({ key: String, schedule: clock.schedule, runBatch: async () => [1] });
    const a = [sync(1), sync(2), short(1), short(2)];
    clock.flush();
    expect((await Promise.allSettled(a)).every((s) => s.status === "rejected")).toBe(true);
  });

  it("a call identical to one in flight joins it; a later distinct call starts a new batch", async () => {
    const clock = manualSchedule();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    const g = createGatherer<string, number>({
      key: (a) => a,
      schedule: clock.schedule,
      runBatch: async (calls) => {
        runs++;
        await gate;
        return calls.map((c) => c.length);
      },
    });
    const first = g("xx");
    clock.flush();
    const joined = g("xx");
    expect(clock.waiting).toBe(0);
    const other = g("yyy");
    expect(clock.waiting).toBe(1);
    clock.flush();
    release();
    expect(await Promise.all([first, joined, other])).toEqual([2, 2, 3]);
    expect(runs).toBe(2);
    // After it settled, the same call asks again (the operation's cache decides what that costs).
    const again = g("xx");
    clock.flush();
    expect(await again).toBe(2);
    expect(runs).toBe(3);
  });
});
