/**
 * Against the in-process emulator on a virtual clock: the client paces the
 * rate-limited endpoints (waves of the bucket's burst, spaced by its refill),
 * and getChanges pages until every change after `since` is fetched.
 */
import { describe, expect, test } from "vitest";
import { createEmulator } from "../../emulator/index.ts";
import { DEFAULT_RATE_LIMITS as EMULATOR_LIMITS } from "../../emulator/ratelimit.ts";
import { DEFAULT_RATE_LIMITS, Pacer } from "../../shared/api/pacing.ts";
import { runSync } from "../../shared/core/drivers.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { changesPages, getAvailability, getChanges, getProfiles } from "../../shared/operations/company.ts";
import { resolveMany } from "../../shared/operations/resolve.ts";
import { checkPortfolio } from "../../shared/monitor/check.ts";
import { CHANGES_SHEET } from "../../shared/monitor/changelog.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";
import { harness } from "../monitor/harness.ts";
import { nth } from "../helpers/indexed.ts";

const START = Date.UTC(2025, 5, 1, 9);

function setup(companies = 3_000) {
  let clock = START;
  const emu = createEmulator({ companies, seed: 11, now: () => clock, startDate: "2025-06-01" });
  const key = emu.createKey(100_000);
  const d = emulatorDrivers(emu, {
    now: () => clock,
    onSleep: (ms) => {
      clock += ms;
    },
  });
  const ctx: OpContext = {
    client: {
      apiKey: key,
      baseUrl: "http://emulator.test",
      language: "en",
      now: () => clock,
      random: () => 0.5,
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 0,
    maxBatch: 100,
    scope: "pacing",
  };
  const all = emu.companies.ids();
  return { emu, key, ctx, d, idAt: (i: number) => nth(all, i), elapsed: () => clock - START, sync: d.sync };
}

/** Answers the emulator gave, by status. */
function counting(s: ReturnType<typeof setup>) {
  const byStatus = new Map<number, number>();
  const http = s.sync.http;
  s.sync.http = (reqs) => {
    const res = http(reqs);
    for (const r of res) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
    return res;
  };
  return byStatus;
}

describe("pacing of rate-limited endpoints", () => {
  test("the defaults are the emulator's documented buckets", () => {
    for (const [b, l] of Object.entries(EMULATOR_LIMITS)) {
      expect(DEFAULT_RATE_LIMITS[b as keyof typeof DEFAULT_RATE_LIMITS]).toEqual({
        burst: l.capacity,
        perSecond: l.refillPerSecond,
      });
    }
  });

  test("200 availability calls all succeed, without 429s, in the bucket's minimum time", () => {
    const s = setup();
    const byStatus = counting(s);
    const ids = Array.from({ length: 200 }, (_, i) => s.idAt(i));
    const out = runSync(getAvailability(s.ctx, ids), s.sync);
    expect([...out.values()].every((a) => !(a instanceof CompanyDataError))).toBe(true);
    expect(byStatus.get(200)).toBe(200);
    expect(byStatus.get(429) ?? 0).toBeLessThanOrEqual(2);
    // 20 at once, then 180 at 5/s: 36 s is the least the bucket allows.
    const minimum = ((200 - 20) / 5) * 1000;
    expect(s.elapsed()).toBeGreaterThanOrEqual(minimum);
    expect(s.elapsed()).toBeLessThanOrEqual(minimum * 1.05);
    expect(s.d.requests).toHaveLength(200 + (byStatus.get(429) ?? 0));
  });

  test("the bucket model carries over consecutive calls (enrichment chunks)", () => {
    const s = setup();
    const byStatus = counting(s);
    for (let c = 0; c < 4; c++) {
      const ids = Array.from({ length: 25 }, (_, i) => s.idAt(c * 25 + i));
      runSync(getAvailability(s.ctx, ids), s.sync);
    }
    expect(byStatus.get(200)).toBe(100);
    expect(byStatus.get(429) ?? 0).toBe(0);
    expect(s.elapsed()).toBe(((100 - 20) / 5) * 1000);
  });

  test("free resolve is paced by its bucket too; paid profiles go at once", () => {
    const s = setup();
    const byStatus = counting(s);
    const names = Array.from({ length: 25 }, (_, i) => ({ name: `Firma Nummer ${i}` }));
    runSync(resolveMany(s.ctx, names, { mode: "free" }), s.sync);
    expect(byStatus.get(429) ?? 0).toBe(0);
    expect(s.elapsed()).toBe(((25 - 5) / 2) * 1000);
    const before = s.elapsed();
    const ids = Array.from({ length: 60 }, (_, i) => s.idAt(i));
    const profiles = runSync(getProfiles(s.ctx, ids), s.sync);
    expect([...profiles.values()].every((p) => !(p instanceof CompanyDataError))).toBe(true);
    expect(s.elapsed()).toBe(before);
  });

  test("a call that cannot be made before the deadline settles RATE_LIMITED with retryAt", () => {
    const s = setup();
    const ctx = { ...s.ctx, client: { ...s.ctx.client, deadline: START + 2_000 } };
    const ids = Array.from({ length: 40 }, (_, i) => s.idAt(i));
    const out = [...runSync(getAvailability(ctx, ids), s.sync).values()];
    const limited = out.filter((a): a is CompanyDataError => a instanceof CompanyDataError);
    expect(out.length - limited.length).toBe(29); // 20 + 9 refilled before 2 s
    expect(limited.every((e) => e.code === "RATE_LIMITED" && e.details.retryAt! >= START + 2_000)).toBe(true);
  });
});

describe("changes paging", () => {
  function withChanges(n: number) {
    const s = setup(500);
    const id = s.idAt(42);
    for (let k = 0; k < n; k++)
      s.emu.scheduleEvent(id, { day: 1 + Math.floor(k / 10), kind: k % 2 ? "ADDRESS" : "CAPITAL" });
    const watermark = "2025-06-01T23:59:59Z";
    s.emu.clock.advance(Math.ceil(n / 10) + 1);
    return { ...s, id, watermark };
  }

  test("a company with 250 changes after the watermark yields all 250, once each, for 3 credits", () => {
    const s = withChanges(250);
    const before = s.emu.balance(s.key);
    const res = runSync(getChanges(s.ctx, s.id, s.watermark), s.sync);
    const scheduled = res.changes.filter((c) => c.field === "street" || c.field === "capital");
    expect(scheduled.length).toBeGreaterThanOrEqual(250);
    const keys = res.changes.map((c) => JSON.stringify(c));
    expect(new Set(keys).size).toBe(keys.length);
    expect(res.changes.every((c) => c.date > s.watermark)).toBe(true);
    expect(res.complete).toBe(true);
    expect(res.pages).toBe(changesPages(res.changes.length));
    expect(before - s.emu.balance(s.key)).toBe(res.pages);
    // Newest first across pages.
    const days = res.changes.map((c) => c.date.slice(0, 10));
    expect([...days].sort().reverse()).toEqual(days);
    // `until` as the next since: nothing left, one page.
    const next = runSync(getChanges(s.ctx, s.id, res.until!), s.sync);
    expect(next.changes).toEqual([]);
    expect(next.pages).toBe(1);
  });

  test("the page rule: a page shorter than the size is the last", () => {
    expect([0, 1, 99, 100, 101, 250].map((n) => changesPages(n))).toEqual([1, 1, 1, 2, 2, 3]);
    expect(changesPages(20, 10)).toBe(3);
    const s = withChanges(30);
    const before = s.emu.balance(s.key);
    const res = runSync(getChanges(s.ctx, s.id, s.watermark, 10), s.sync);
    expect(res.pages).toBe(changesPages(res.changes.length, 10));
    expect(before - s.emu.balance(s.key)).toBe(res.pages);
    const capped = runSync(getChanges(s.ctx, s.id, s.watermark, 10, { maxPages: 2 }), s.sync);
    expect(capped.changes).toHaveLength(20);
    expect(capped.complete).toBe(false);
  });

  test("monitoring logs all 250 changes of a company once; spent = estimate + the extra pages it reports", () => {
    const h = harness();
    const ids = h.emu.companies.ids().slice(100, 103);
    h.sheets.set("Portfolio", [["ID", "Company"], ...ids.map((id) => [id, ""])]);
    runSync(checkPortfolio(h.ctx), h.driver);
    for (let k = 0; k < 250; k++) h.emu.scheduleEvent(nth(ids, 1), { day: 1 + Math.floor(k / 25), kind: "ADDRESS" });
    h.advance(11);
    const preview = runSync(checkPortfolio(h.ctx, { preview: true }), h.driver);
    const before = h.charged();
    const run = runSync(checkPortfolio(h.ctx), h.driver);
    const log = () => h.sheets.get(CHANGES_SHEET).slice(1);
    const addresses = log().filter((r) => r[1] === ids[1] && /address|anschrift/i.test(String(r[4]) + String(r[3])));
    expect(addresses.length).toBeGreaterThanOrEqual(250);
    expect(run.extraChangePages).toBe(2);
    expect(h.charged() - before).toBe(preview.estimate + run.extraChangePages);
    expect(run.spent).toBe(h.charged() - before);
    expect(run.message.en).toContain("further pages of changes");
    // The next check logs nothing twice.
    h.advance(1);
    runSync(checkPortfolio(h.ctx), h.driver);
    const keys = log().map((r) => String(r[6]));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
