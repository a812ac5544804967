import { describe, expect, test } from "vitest";
import { memoryStores, runAsync, runSync } from "../../shared/core/drivers.ts";
import { all, cacheGet, cachePut, http, sleep, storeGet, storePut, type Operation } from "../../shared/core/effects.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { resolveMany } from "../../shared/operations/resolve.ts";
import { getProfiles } from "../../shared/operations/company.ts";
import { fakeApi, json, testContext } from "../helpers/fake-api.ts";
import { nth, take } from "../helpers/indexed.ts";

function* mixed(): Operation<string> {
  yield* storePut({ "doc:a": "1" });
  const [a] = yield* storeGet(["doc:a"]);
  yield* cachePut({ k: "v" }, 60);
  const [k] = yield* cacheGet(["k"]);
  yield* sleep(10);
  const res = yield* http([{ method: "GET", url: "http://api.test/x", headers: {} }]);
  return `${a}-${k}-${nth(res, 0).status}`;
}

const handler = (_r: unknown, url: URL, body: any) => {
  if (url.pathname === "/x") return json(200, {});
  if (url.pathname === "/v2/companies/batch/resolve")
    return json(200, {
      results: body.companies.map((c: any) => ({
        ref: c.ref,
        status: c.name.startsWith("Zz") ? "not_found" : "matched",
        match: c.name.startsWith("Zz") ? null : { id: "DEAAAAAAAAAA", name: c.name },
        confidence: 0.9,
      })),
    });
  if (url.pathname.startsWith("/v2/companies/"))
    return url.pathname.endsWith("BBBBBBBBBB") ? json(404, {}) : json(200, { id: url.pathname.slice(-12), name: "N" });
  return json(500, {});
};

describe("sync and async drivers run one operation to one result", () => {
  test("basic effects", async () => {
    const a = fakeApi(handler),
      b = fakeApi(handler);
    expect(runSync(mixed(), a.sync)).toBe("1-v-200");
    expect(await runAsync(mixed(), b.async)).toBe("1-v-200");
    expect(a.sleeps).toEqual(b.sleeps);
  });
  test("resolve and profiles give equal results and equal requests", async () => {
    const rows = [{ name: "Siemens AG" }, { name: "Zzz GmbH" }, { name: "" }, { name: "siemens aktiengesellschaft" }];
    const run = async (sync: boolean) => {
      const api = fakeApi(handler);
      const { ctx, spent } = testContext(api.now);
      const op = function* () {
        const r = yield* resolveMany(ctx, rows);
        const p = yield* getProfiles(ctx, ["DEAAAAAAAAAA", "DEBBBBBBBBBB", "bad"]);
        return { r, p: [...p.entries()].map(([k, v]) => [k, v instanceof CompanyDataError ? v.code : v]) };
      };
      const out = sync ? runSync(op(), api.sync) : await runAsync(op(), api.async);
      return { out: JSON.parse(JSON.stringify(out)), urls: api.requests.map((r) => r.url), spent };
    };
    const s = await run(true),
      a = await run(false);
    expect(a).toEqual(s);
    expect(s.spent.reduce((x, y) => x + y.credits, 0)).toBe(2); // 1 batch + 1 profile
  });
  test("a driver failure is thrown into the operation so its finally runs", async () => {
    const log: string[] = [];
    function* op(): Operation<void> {
      try {
        yield* http([{ method: "GET", url: "u", headers: {} }]);
      } finally {
        log.push("cleanup");
      }
    }
    const boom = {
      ...fakeApi(handler).sync,
      http: () => {
        throw new Error("io");
      },
    };
    expect(() => runSync(op(), boom)).toThrow("io");
    const boomA = {
      ...fakeApi(handler).async,
      http: async () => {
        throw new Error("io");
      },
    };
    await expect(runAsync(op(), boomA)).rejects.toThrow("io");
    expect(log).toEqual(["cleanup", "cleanup"]);
  });
  test("a sheet effect without a sheet host is INTERNAL", () => {
    function* op(): Operation<unknown> {
      return yield { kind: "sheet", request: { kind: "selection" } as never };
    }
    expect(() => runSync(op(), fakeApi(handler).sync)).toThrow(CompanyDataError);
  });
  test("all() merges parallel http into one batch", () => {
    const api = fakeApi(handler);
    const get = (): Operation<number> =>
      (function* () {
        const [r] = take(yield* http([{ method: "GET", url: "http://api.test/x", headers: {} }]), 1);
        return r.status;
      })();
    expect(runSync(all([get(), get(), get()]), api.sync)).toEqual([200, 200, 200]);
    expect(api.batches).toEqual([3]);
  });
});

describe("memoryStores", () => {
  test("cache entries expire; null store values delete", () => {
    let t = 0;
    const m = memoryStores(() => t);
    m.cachePut({ a: "1" }, 10);
    expect(m.cacheGet(["a", "b"])).toEqual(["1", null]);
    t = 10_000;
    expect(m.cacheGet(["a"])).toEqual([null]);
    m.storePut({ x: "1" });
    m.storePut({ x: null });
    expect(m.storeGet(["x"])).toEqual([null]);
  });
});
