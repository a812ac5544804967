import { describe, expect, test } from "vitest";
import { runSync } from "../../shared/core/drivers.ts";
import { LEDGER_DAYS, ledgerKey, readLedger, recordSpend } from "../../shared/credits/ledger.ts";
import { fakeApi, json, testContext } from "../helpers/fake-api.ts";

function setup() {
  const api = fakeApi(() => json(500, {}), Date.UTC(2025, 0, 15, 12));
  const { ctx } = testContext(api.now);
  return { api, ctx, run: <T>(op: Generator<any, T, any>) => runSync(op, api.sync) };
}

describe("usage ledger", () => {
  test("sums per day and operation", () => {
    const { ctx, run, api } = setup();
    run(recordSpend(ctx, "RESOLVE", 3, 1));
    run(recordSpend(ctx, "RESOLVE", 2, 1));
    run(recordSpend(ctx, "PROFILE", 7, 1));
    api.advance(86_400_000);
    run(recordSpend(ctx, "PROFILE", 1, 1));
    expect(run(readLedger(ctx))).toEqual([
      { day: "2025-01-16", operation: "PROFILE", credits: 1, requests: 1, runs: 1 },
      { day: "2025-01-15", operation: "PROFILE", credits: 7, requests: 1, runs: 1 },
      { day: "2025-01-15", operation: "RESOLVE", credits: 5, requests: 2, runs: 2 },
    ]);
  });
  test(`keeps only the last ${LEDGER_DAYS} days and stays under 9 KB`, () => {
    const { ctx, run, api } = setup();
    for (let d = 0; d < 60; d++) {
      for (let k = 0; k < 12; k++) run(recordSpend(ctx, `OPERATION_NUMBER_${k}`, 1000, 10));
      api.advance(86_400_000);
    }
    const days = new Set(run(readLedger(ctx)).map((e) => e.day));
    expect(days.size).toBeLessThanOrEqual(LEDGER_DAYS);
    expect([...days].sort().at(-1)).toBe("2025-03-15");
    expect(api.stores.store.get(ledgerKey(ctx))!.length).toBeLessThan(9 * 1024);
  });
  test("a damaged ledger reads as empty and is rewritten", () => {
    const { ctx, run, api } = setup();
    api.stores.store.set(ledgerKey(ctx), "not json");
    expect(run(readLedger(ctx))).toEqual([]);
    run(recordSpend(ctx, "X", 1, 1));
    expect(run(readLedger(ctx))).toHaveLength(1);
  });
  test("bad input", () => {
    const { ctx, run } = setup();
    expect(() => run(recordSpend(ctx, "", 1, 1))).toThrow(/operation/);
    expect(() => run(recordSpend(ctx, "X", -1, 1))).toThrow(/credits/);
    expect(() => run(recordSpend(ctx, "X", 1, NaN))).toThrow(/requests/);
  });
  test("the ledger key is document-scoped", () => {
    const { ctx } = setup();
    expect(ledgerKey(ctx)).toMatch(/^doc:/);
  });
});
