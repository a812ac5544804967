/**
 * Fault soak (issue 8, reliability 1): 10,000 rows through the enrichment job
 * while the emulator answers 10 % of calls with 500/503, sends bursts of 429
 * with Retry-After, drops 2 % of connections, adds random latency, and 1 % of
 * answers are lost after the emulator charged for them. Every row ends
 * correct, none is duplicated or lost, and the only extra credits are those
 * charged for answers that were lost, counted one by one.
 */
import { describe, expect, it } from "vitest";
import { createEmulator } from "../../emulator/index.ts";
import { runAsync } from "../../shared/core/drivers.ts";
import { DEFAULT_FIELDS } from "../../shared/enrich/fields.ts";
import { enrichRows, type EnrichRunResult } from "../support/enrich-rows.ts";
import { benchList } from "../support/lists.ts";
import { paidAnswers, testContext, virtualNet, VirtualClock } from "./helpers.ts";

describe("fault soak: 10,000 rows", () => {
  it("every row correct, none duplicated or lost, extra credits only for lost answers", async () => {
    const clock = new VirtualClock();
    const emu = createEmulator({ startDate: "2026-06-01", now: clock.now, seed: 42 });
    const list = benchList(emu, { total: 10_000, distinct: 2_000, duplicates: 1_000, unknown: 200, seed: 3 });
    expect(list.rows).toHaveLength(10_000);
    const input = {
      rows: list.rows.map((r) => [r.name]),
      mapping: { name: 0 },
      fields: [...DEFAULT_FIELDS],
      options: { chunkSize: 500 },
    };

    // Reference: the same job without faults.
    const refKey = emu.createKey(1_000_000);
    const ref = virtualNet(emu, clock);
    const reference = await runAsync(enrichRows(testContext(refKey, clock), "soak", input), ref.driver);
    const refCredits = 1_000_000 - emu.balance(refKey);
    expect(reference.complete).toBe(true);

    // The soak.
    const key = emu.createKey(1_000_000);
    emu.faults.set({ failRate: 0.1, dropRate: 0.02, latencyMs: 20, jitterMs: 400, burstRetryAfterSeconds: 2 });
    const net = virtualNet(emu, clock, {
      loseAfterCharge: 0.01,
      seed: 9,
      // A burst of 429s every seventh batch.
      beforeBatch: (n) => {
        if (n % 7 === 3) emu.faults.set({ rateLimitBurst: 5 });
      },
    });
    let spent = 0;
    const ctx = testContext(key, clock, {
      onSpend: (_e, c) => {
        spent += c;
      },
    });
    // One run, no rerun: 5xx and dropped connections are retried with backoff, and a
    // 429 that says when to come back is waited out without using up attempts.
    const run: EnrichRunResult = await runAsync(enrichRows(ctx, "soak", input), net.driver);
    expect(run.stats.error).toBe(0);
    emu.faults.reset();

    // Faults really happened.
    const statuses = new Map<number, number>();
    for (const x of net.log) statuses.set(x.res.status, (statuses.get(x.res.status) ?? 0) + 1);
    expect(statuses.get(500)! + statuses.get(503)!).toBeGreaterThan(20);
    expect(statuses.get(429)).toBeGreaterThan(10);
    expect(net.log.filter((x) => x.lost && x.charged === 0).length).toBeGreaterThan(5);
    expect(net.log.filter((x) => x.lost && x.charged > 0).length).toBeGreaterThan(0);

    // Every row correct, in its place; none lost, none twice.
    expect(run.complete).toBe(true);
    expect(run.results).toHaveLength(list.rows.length);
    expect(run.rows).toHaveLength(list.rows.length);
    const wrong: string[] = [];
    list.rows.forEach((row, i) => {
      const r = run.results[i];
      const ok = row.expectId === null ? r?.outcome === "not_found" : r?.outcome === "matched" && r.id === row.expectId;
      if (!ok) wrong.push(`${i} ${row.name}: ${r?.outcome} ${r?.id} ${r?.error?.code ?? ""}`);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(run.rows.map((r) => JSON.stringify(r))).toEqual(reference.rows.map((r) => JSON.stringify(r)));

    // Credits: the reference's, plus exactly what lost answers were charged (then bought again).
    const credits = 1_000_000 - emu.balance(key);
    const lost = net.log.filter((x) => x.lost).reduce((s, x) => s + x.charged, 0);
    expect(lost).toBe(net.lostCharged());
    expect(credits).toBe(refCredits + lost);
    // What the client counted is what arrived: the charge minus the lost answers.
    expect(spent).toBe(credits - lost);
    // Nothing answered was bought twice.
    const { profiles } = paidAnswers(net.log);
    expect([...profiles.values()].filter((n) => n > 1)).toEqual([]);
  }, 120_000);
});
