/**
 * Paid answers survive recalculation under CacheService's real limits
 * (https://developers.google.com/apps-script/reference/cache/cache): at most
 * 1,000 items, "if more than 1,000 items are written, the cache stores the
 * 900 items farthest from expiration"; 100 KB a value; 6 hours at most. The
 * harness's FakeCache enforces all three.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { PackedCache, SHARDS, shardOf } from "../../apps-script/packed-cache.ts";
import { CACHE_KEPT_ITEMS, CACHE_MAX_ITEMS, FakeCache, createSheetsFake } from "./harness.ts";

const OUT = mkdtempSync(join(tmpdir(), "apps-script-cache-"));
let code = "";
let emulator: Emulator;

beforeAll(async () => {
  await buildWithReport(OUT);
  code = readFileSync(join(OUT, "Code.js"), "utf8");
  emulator = createEmulator({ companies: 1500, startDate: "2026-01-15" });
});

describe("the CacheService fake", () => {
  it("keeps the 900 items farthest from expiration once more than 1,000 are written", () => {
    const t = 0;
    const c = new FakeCache(() => t);
    for (let i = 0; i < CACHE_MAX_ITEMS; i++) c.put(`k${i}`, "v", 1000 + i);
    expect(c.map.size).toBe(CACHE_MAX_ITEMS);
    c.put("one-more", "v", 5000);
    expect(c.map.size).toBe(CACHE_KEPT_ITEMS);
    expect(c.get("k0")).toBeNull(); // nearest to expiry: gone
    expect(c.get("one-more")).toBe("v");
    expect(() => c.put("big", "x".repeat(100 * 1024 + 1))).toThrow(/too large/);
    expect(() => c.put("k", "v", 21_601)).toThrow();
  });
});

describe("packed answers", () => {
  it("5,000 answers take at most 256 items; all come back; a full shard drops its soonest-expiring entries only", () => {
    let t = 0;
    const c = new FakeCache(() => t);
    const p = new PackedCache(c, () => t);
    const entries = Object.fromEntries(
      Array.from({ length: 5000 }, (_, i) => [
        `c1|profile|id=${i}`,
        JSON.stringify({ v: 1, data: "x".repeat(1200 + (i % 50)) }),
      ]),
    );
    p.putMany(entries, 21_600);
    expect(c.map.size).toBeLessThanOrEqual(SHARDS);
    expect(c.evicted).toBe(0);
    const keys = Object.keys(entries);
    expect(p.getMany(keys)).toEqual(keys.map((k) => entries[k]));
    for (const { v } of c.map.values()) expect(Buffer.byteLength(v)).toBeLessThanOrEqual(100 * 1024);
    t += 21_600_000 + 1;
    expect(p.getMany(keys.slice(0, 3))).toEqual([null, null, null]);
  });

  it("a shard over its size keeps what expires last", () => {
    const t = 0;
    const c = new FakeCache(() => t);
    const p = new PackedCache(c, () => t);
    // Keys of one shard: find 120 that hash alike.
    const same: string[] = [];
    for (let i = 0; same.length < 120; i++) if (shardOf(`k${i}`) === shardOf("k0")) same.push(`k${i}`);
    same.forEach((k, i) => p.putMany({ [k]: "y".repeat(2000) }, 100 + i));
    const got = p.getMany(same);
    expect(got[same.length - 1]).not.toBeNull();
    expect(got.filter((x) => x !== null).length).toBeLessThan(same.length);
    // The survivors are the last written (longest lifetime).
    const firstKept = got.findIndex((x) => x !== null);
    expect(got.slice(firstKept).every((x) => x !== null)).toBe(true);
  });
});

describe("a range formula over 1,200 ids, recalculated", () => {
  it("buys nothing again (before: about 200 profiles at every recalculation)", () => {
    const f = createSheetsFake({ emulator, dist: OUT });
    f.load(code);
    const key = emulator.createKey(100_000);
    for (const [k, v] of Object.entries({ apiKey: key, language: "en", formulaDailyBudget: "100000" })) f.setUser(k, v);
    const ids = emulator.companies
      .ids()
      .slice(0, 1200)
      .map((id) => [id]);
    const first = f.call("COMPANY_PROFILE", ids) as unknown[][];
    expect(first).toHaveLength(1200);
    const paid = 100_000 - emulator.balance(key);
    expect(paid).toBe(1200);
    expect(f.docCache.map.size).toBeLessThanOrEqual(SHARDS + 1);
    f.resetCounts();
    for (let i = 0; i < 3; i++) expect(f.call("COMPANY_PROFILE", ids)).toEqual(first);
    expect(f.fetches).toEqual([]);
    expect(100_000 - emulator.balance(key)).toBe(paid);
    expect(f.docCache.evicted).toBe(0);
  });
});

/**
 * Issue 25: answers kept longer than CacheService's 6 hours (cache hours 24).
 * Custom functions may read the hidden answer sheet but not write it
 * (https://developers.google.com/apps-script/guides/sheets/functions#using_apps_script_services:
 * "Read only (can use most get*() methods, but not set*())"; the harness
 * throws on a write from a custom function); the next sidebar opened from
 * the menu copies their answers there.
 */
describe("a range formula over 1,200 ids, recalculated after 7 hours", () => {
  const world = () => {
    let t = Date.UTC(2026, 0, 15, 8);
    const f = createSheetsFake({ emulator, dist: OUT, now: () => t });
    f.load(code);
    f.setClock(() => t);
    const key = emulator.createKey(100_000);
    for (const [k, v] of Object.entries({
      apiKey: key,
      language: "en",
      formulaDailyBudget: "100000",
      cacheHours: "24",
    }))
      f.setUser(k, v);
    const ids = emulator.companies
      .ids()
      .slice(0, 1200)
      .map((id) => [id]);
    const first = f.call("COMPANY_PROFILE", ids) as unknown[][];
    return {
      f,
      ids,
      first,
      paid: () => 100_000 - emulator.balance(key),
      later: (hours: number) => {
        t += hours * 3_600_000;
      },
    };
  };

  it("buys nothing again when a sidebar was opened in between: the menu copied the formulas' answers into the answer sheet", () => {
    const w = world();
    expect(w.paid()).toBe(1200);
    expect(w.f.grids.has("Company data (answers)")).toBe(false); // the formula could not write it
    w.later(1);
    w.f.call("showSearch");
    expect(w.f.hidden.has("Company data (answers)")).toBe(true);
    w.later(6); // 7 hours after the first calculation: CacheService has forgotten everything
    expect(w.f.call("COMPANY_PROFILE", w.ids)).toEqual(w.first);
    expect(w.paid()).toBe(1200);
  });

  it("without a sidebar in between the formulas' answers were only in CacheService: all bought again (the figure the bench reports)", () => {
    const w = world();
    w.later(7);
    expect(w.f.call("COMPANY_PROFILE", w.ids)).toEqual(w.first);
    expect(w.paid()).toBe(2400);
  });
});
