import { describe, expect, test } from "vitest";
import { runSync } from "../../shared/core/drivers.ts";
import { budgetStatus, releaseBudget, reserveBudget, budgetKey } from "../../shared/credits/budget.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { fakeApi, json, testContext } from "../helpers/fake-api.ts";

function setup() {
  const api = fakeApi(() => json(500, {}), Date.UTC(2025, 0, 15, 23, 0));
  const { ctx } = testContext(api.now);
  return { api, ctx, run: <T>(op: Generator<any, T, any>) => runSync(op, api.sync) };
}

describe("daily formula budget", () => {
  test("reserves until the limit, then BUDGET_EXCEEDED without reserving", () => {
    const { ctx, run } = setup();
    run(reserveBudget(ctx, 7, 10));
    run(reserveBudget(ctx, 3, 10));
    let err: unknown;
    try {
      run(reserveBudget(ctx, 1, 10));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CompanyDataError);
    expect((err as CompanyDataError).code).toBe("BUDGET_EXCEEDED");
    expect((err as CompanyDataError).text("de")).toContain("Tagesbudget");
    expect(run(budgetStatus(ctx, 10))).toEqual({ day: "2025-01-15", spent: 10, limit: 10, remaining: 0 });
  });
  test("a new UTC day starts at zero", () => {
    const { ctx, run, api } = setup();
    run(reserveBudget(ctx, 10, 10));
    api.advance(2 * 3600_000);
    expect(run(budgetStatus(ctx, 10))).toMatchObject({ day: "2025-01-16", spent: 0, remaining: 10 });
    run(reserveBudget(ctx, 10, 10));
  });
  test("release gives back unspent credits; no limit means unlimited; zero is free", () => {
    const { ctx, run } = setup();
    run(reserveBudget(ctx, 5, null));
    run(releaseBudget(ctx, 3));
    expect(run(budgetStatus(ctx, undefined))).toMatchObject({ spent: 2, limit: null, remaining: null });
    run(reserveBudget(ctx, 0, 0));
    run(releaseBudget(ctx, 100));
    expect(run(budgetStatus(ctx, 0)).spent).toBe(0);
  });
  test("scoped per ctx.scope, stored under a doc: key", () => {
    const { ctx, run, api } = setup();
    run(reserveBudget(ctx, 4, 10));
    expect(budgetKey(ctx)).toMatch(/^doc:/);
    expect([...api.stores.store.keys()]).toEqual([budgetKey(ctx)]);
    expect(run(budgetStatus({ ...ctx, scope: "other" }, 10)).spent).toBe(0);
  });
  test("a damaged value counts as zero", () => {
    const { ctx, run, api } = setup();
    api.stores.store.set(budgetKey(ctx), "{oops");
    expect(run(budgetStatus(ctx, 10)).spent).toBe(0);
  });
  test("bad input", () => {
    const { ctx, run } = setup();
    expect(() => run(reserveBudget(ctx, -1, 10))).toThrow(/credits/);
    expect(() => run(reserveBudget(ctx, 1.5, 10))).toThrow(/credits/);
    expect(() => run(reserveBudget(ctx, 1, -3))).toThrow(/limit/);
  });
});
