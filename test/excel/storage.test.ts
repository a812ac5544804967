import { describe, expect, it } from "vitest";
import { durableStore, layeredCache, memoryStorage, storageKeyFor } from "../../excel-addin/host/storage.ts";

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
    const broken = { getItems: async () => { throw new Error("x"); }, setItems: async () => { throw new Error("quota"); }, removeItems: async () => {}, getKeys: async () => { throw new Error("x"); } };
    const c = layeredCache(broken, () => 0);
    await c.cachePut({ a: "1" }, 10);
    expect(await c.cacheGet(["a", "b"])).toEqual(["1", null]);
  });
});
