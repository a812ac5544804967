import { describe, expect, it } from "vitest";
import {
  CACHE_CAP_BYTES,
  durableStore,
  itemBytes,
  layeredCache,
  memoryStorage,
  STORAGE_QUOTA_BYTES,
  storageKeyFor,
} from "../../excel-addin/host/storage.ts";
import { createExcelDriver } from "../../excel-addin/host/driver.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";

describe("Excel storage", () => {
  it("keeps user keys per user and doc keys per workbook", async () => {
    const storage = memoryStorage();
    let doc = "wb1";
    const store = durableStore(storage, async () => doc);
    await store.storePut({ "user:apiKey": "secret", "doc:budget:x": "5" });
    doc = "wb2";
    expect(await store.storeGet(["user:apiKey", "doc:budget:x"])).toEqual(["secret", null]);
    doc = "wb1";
    expect(await store.storeGet(["doc:budget:x"])).toEqual(["5"]);
    await store.storePut({ "user:apiKey": null });
    expect(storage.data.has("cd:user:apiKey")).toBe(false);
    expect(storageKeyFor("checkpoint", "wb9")).toBe("cd:doc:wb9:checkpoint");
  });

  it("caches in memory and in storage, so a new session (reload) still hits", async () => {
    const storage = memoryStorage();
    let t = 1_000;
    const a = layeredCache(storage, () => t);
    await a.cachePut({ k1: "v1" }, 60);
    expect(await a.cacheGet(["k1", "k2"])).toEqual(["v1", null]);
    const reloaded = layeredCache(storage, () => t);
    expect(reloaded.memory.size).toBe(0);
    expect(await reloaded.cacheGet(["k1"])).toEqual(["v1"]);
    expect(reloaded.memory.has("k1")).toBe(true);
    t += 61_000;
    expect(await layeredCache(storage, () => t).cacheGet(["k1"])).toEqual([null]);
  });

  it("a failing storage degrades to memory, never to an error", async () => {
    const broken = {
      getItems: async () => {
        throw new Error("x");
      },
      setItems: async () => {
        throw new Error("quota");
      },
      removeItems: async () => {},
      getKeys: async () => {
        throw new Error("x");
      },
    };
    const c = layeredCache(broken, () => 0);
    await c.cachePut({ a: "1" }, 10);
    expect(await c.cacheGet(["a", "b"])).toEqual(["1", null]);
  });
});

/**
 * OfficeRuntime.storage's documented limit, modelled by memoryStorage: 10 MB
 * per domain, shared with other add-ins of the domain; a refused setItems
 * writes nothing. The cache must never take settings, budget or spend log
 * down with it (issue 12, item 6).
 */
describe("Excel storage that cannot fill up", () => {
  const entry = (v: string, e: number) => JSON.stringify({ v, e });

  it("models the quota: 10 MB per domain, shared, a refused write writes nothing", async () => {
    const s = memoryStorage({ usedByOthers: STORAGE_QUOTA_BYTES - 100 });
    await s.setItems({ a: "x".repeat(10) });
    await expect(s.setItems({ b: "x".repeat(10), c: "y".repeat(40) })).rejects.toThrow(/quota/);
    expect(s.data.has("b")).toBe(false);
    expect(await s.getKeys()).toEqual(["a"]);
  });

  it("deletes expired and damaged entries when it starts, keeps the live ones, and counts their size", async () => {
    const s = memoryStorage();
    const t = 1_000_000;
    s.data.set("cd:cache:old", entry("v", t - 1));
    s.data.set("cd:cache:bad", "{not json");
    s.data.set("cd:cache:live", entry("v", t + 60_000));
    s.data.set("cd:user:apiKey", "k");
    const c = layeredCache(s, () => t);
    expect(await c.durableBytes()).toBe(itemBytes("cd:cache:live", s.data.get("cd:cache:live")!));
    expect([...s.data.keys()].sort()).toEqual(["cd:cache:live", "cd:user:apiKey"]);
  });

  it("caps the durable cache: the entries closest to expiry go first, the cap is never passed", async () => {
    const s = memoryStorage();
    let t = 0;
    const cap = 20_000;
    const c = layeredCache(s, () => t, cap);
    const value = "v".repeat(400);
    for (let i = 0; i < 100; i++) {
      await c.cachePut({ [`k${i}`]: value }, 3600 + (i % 2 === 0 ? 0 : 100_000)); // odd keys live much longer
      expect(await c.durableBytes()).toBeLessThanOrEqual(cap);
    }
    const stored = [...s.data.keys()].map((k) => k.slice("cd:cache:".length));
    expect(stored.length).toBeGreaterThan(5);
    // Who is left are the long-lived ones (and the latest short one).
    expect(stored.filter((k) => Number(k.slice(1)) % 2 === 0).length).toBeLessThanOrEqual(1);
    // The memory layer still answers everything this session.
    t = 1;
    expect(await c.cacheGet(["k0", "k98"])).toEqual([value, value]);
  });

  it("a refused cache write evicts and retries once; if still refused, memory answers and nothing throws", async () => {
    const s = memoryStorage({ quotaBytes: 30_000 });
    const c = layeredCache(s, () => 0, 1_000_000); // a cap above the quota: only the platform refuses
    const value = "v".repeat(1000);
    for (let i = 0; i < 40; i++) await c.cachePut({ [`k${i}`]: value }, 60);
    expect(s.usedBytes()).toBeLessThanOrEqual(30_000);
    expect(s.data.has("cd:cache:k39")).toBe(true); // the newest got in, by evicting older ones
    const full = memoryStorage({ quotaBytes: 30_000, usedByOthers: 30_000 });
    const d = layeredCache(full, () => 0);
    await d.cachePut({ a: value }, 60);
    expect(await d.cacheGet(["a"])).toEqual([value]);
    expect(full.data.size).toBe(0);
  });

  it("settings, budget and spend log never fail because of the cache: a refused write empties the cache and succeeds", async () => {
    const s = memoryStorage();
    const t = 0;
    const driver = createExcelDriver({
      fetch: async () => {
        throw new Error("offline");
      },
      storage: s,
      docId: async () => "wb",
      now: () => t,
    });
    // Another add-in of the same domain took what our cache left: the store is full to the byte.
    const value = "v".repeat(50_000);
    for (let i = 0; i < 40; i++) await driver.cachePut({ [`k${i}`]: value }, 3600);
    expect(await driver.cache.durableBytes()).toBeLessThanOrEqual(CACHE_CAP_BYTES);
    const filler = STORAGE_QUOTA_BYTES - s.usedBytes();
    await s.setItems({ other: "x".repeat(Math.floor(filler / 2) - 10) });
    await expect(s.setItems({ one: "more" })).rejects.toThrow();
    // The budget write goes through: the cache made room.
    await driver.storePut({ "doc:budget:x": JSON.stringify({ day: "2026-11-23", spent: 5 }), "user:apiKey": "secret" });
    expect(await driver.storeGet(["doc:budget:x", "user:apiKey"])).toEqual([
      JSON.stringify({ day: "2026-11-23", spent: 5 }),
      "secret",
    ]);
    expect([...s.data.keys()].some((k) => k.startsWith("cd:cache:"))).toBe(false);
    // Answers of this session are still in memory.
    expect((await driver.cacheGet(["k39"]))[0]).toBe(value);
  });

  it("when even an empty cache leaves no room, the user gets a clear STORAGE_FULL in German and English", async () => {
    const s = memoryStorage({ usedByOthers: STORAGE_QUOTA_BYTES });
    const store = durableStore(
      s,
      async () => "wb",
      async () => false,
    );
    const err = await store.storePut({ "user:language": "de" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CompanyDataError);
    expect((err as CompanyDataError).code).toBe("STORAGE_FULL");
    expect((err as CompanyDataError).text("de")).toMatch(/10 MB/);
    expect((err as CompanyDataError).text("en")).toMatch(/10 MB.*other add-ins/);
  });
});
