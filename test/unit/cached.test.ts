import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { runSync } from "../../shared/core/drivers.ts";
import { cachedCallMany, NOT_FOUND_TTL_SECONDS } from "../../shared/operations/cached.ts";
import {
  boundedKey,
  callKey,
  canonicalJson,
  fitsUtf8,
  hash128,
  MAX_KEY_LENGTH,
  utf8Length,
} from "../../shared/operations/cache-key.ts";
import type { CallSpec } from "../../shared/api/client.ts";
import { fakeApi, json, testContext } from "../helpers/fake-api.ts";
import { nth, take } from "../helpers/indexed.ts";

const profile = (id: string, include?: string): CallSpec => ({
  endpoint: "profile",
  path: { id },
  query: { include },
  cost: { include: include ? (include.split(",") as never) : [] },
});

function setup(
  handler = (url: URL) =>
    url.pathname.endsWith("NOTFOUND00")
      ? json(404, {})
      : url.pathname.endsWith("SERVERERR0")
        ? json(400, {})
        : json(200, { id: url.pathname.split("/")[3], name: "N", big: "x" }),
) {
  const api = fakeApi((_r, url) => handler(url));
  const t = testContext(api.now);
  return { api, ...t, run: <T>(op: Generator<any, T, any>) => runSync(op, api.sync) };
}

describe("cachedCallMany", () => {
  test("second call is a hit: nothing sent, nothing spent", () => {
    const { api, ctx, spent, run } = setup();
    const a = run(cachedCallMany(ctx, [profile("DEAAAAAAAAAA", "people")]));
    const b = run(cachedCallMany(ctx, [profile("DEAAAAAAAAAA", "people")]));
    expect(a[0]).toMatchObject({ ok: true, credits: 2 });
    expect(b[0]).toMatchObject({ ok: true, credits: 0, attempts: 0 });
    const [first, hit] = [nth(a, 0), nth(b, 0)];
    expect(hit.ok && hit.data).toEqual(first.ok && first.data);
    expect(api.requests).toHaveLength(1);
    expect(spent).toEqual([{ endpoint: "profile", credits: 2 }]);
  });
  test("identical specs in one call are sent once; duplicates report 0 credits", () => {
    const { api, ctx, run } = setup();
    const r = run(cachedCallMany(ctx, [profile("DEAAAAAAAAAA"), profile("DEBBBBBBBBBB"), profile("DEAAAAAAAAAA")]));
    expect(api.requests).toHaveLength(2);
    expect(r.map((x) => x.ok && x.credits)).toEqual([1, 1, 0]);
  });
  test("also with the cache off", () => {
    const { api, ctx, run } = setup();
    const off = { ...ctx, cacheTtlSeconds: 0 };
    run(cachedCallMany(off, [profile("DEAAAAAAAAAA"), profile("DEAAAAAAAAAA")]));
    run(cachedCallMany(off, [profile("DEAAAAAAAAAA")]));
    expect(api.requests).toHaveLength(2);
    expect(api.stores.cache.size).toBe(0);
  });
  test("includes, language and scope are part of the key", () => {
    const { api, ctx, run } = setup();
    run(cachedCallMany(ctx, [profile("DEAAAAAAAAAA")]));
    run(cachedCallMany(ctx, [profile("DEAAAAAAAAAA", "people")]));
    run(cachedCallMany({ ...ctx, client: { ...ctx.client, language: "en" } }, [profile("DEAAAAAAAAAA")]));
    run(cachedCallMany({ ...ctx, scope: "other" }, [profile("DEAAAAAAAAAA")]));
    expect(api.requests).toHaveLength(4);
  });
  test("errors are not cached, NOT_FOUND is, briefly", () => {
    const { api, ctx, run } = setup();
    const first = run(cachedCallMany(ctx, [profile("DENOTFOUND00"), profile("DESERVERERR0")]));
    expect(first.map((r) => !r.ok && r.error.code)).toEqual(["NOT_FOUND", "INVALID_INPUT"]);
    const second = run(cachedCallMany(ctx, [profile("DENOTFOUND00"), profile("DESERVERERR0")]));
    expect(second.map((r) => !r.ok && r.error.code)).toEqual(["NOT_FOUND", "INVALID_INPUT"]);
    expect(api.requests.map((r) => r.url.slice(-12))).toEqual(["DENOTFOUND00", "DESERVERERR0", "DESERVERERR0"]);
    api.advance(NOT_FOUND_TTL_SECONDS * 1000);
    run(cachedCallMany(ctx, [profile("DENOTFOUND00")]));
    expect(api.requests).toHaveLength(4);
  });
  test("the account is never cached", () => {
    const { api, ctx, run } = setup(() => json(200, { credits: 9 }));
    run(cachedCallMany(ctx, [{ endpoint: "account" }]));
    run(cachedCallMany(ctx, [{ endpoint: "account" }]));
    expect(api.requests).toHaveLength(2);
  });
  test("values above 100 KB are not cached", () => {
    const { api, ctx, run } = setup(() => json(200, { id: "DEAAAAAAAAAA", summary: "ü".repeat(60_000) }));
    run(cachedCallMany(ctx, [profile("DEAAAAAAAAAA")]));
    run(cachedCallMany(ctx, [profile("DEAAAAAAAAAA")]));
    expect(api.requests).toHaveLength(2);
  });
  test("cache entries expire with the TTL", () => {
    const { api, ctx, run } = setup();
    run(cachedCallMany(ctx, [profile("DEAAAAAAAAAA")]));
    api.advance(ctx.cacheTtlSeconds * 1000 + 1);
    run(cachedCallMany(ctx, [profile("DEAAAAAAAAAA")]));
    expect(api.requests).toHaveLength(2);
  });
  test("a damaged cache entry is a miss", () => {
    const { api, ctx, run } = setup();
    api.stores.cachePut({ [callKey(ctx.scope, "de", profile("DEAAAAAAAAAA"))]: "{garbage" }, 60);
    const [r] = take(run(cachedCallMany(ctx, [profile("DEAAAAAAAAAA")])), 1);
    expect(r.ok).toBe(true);
    expect(api.requests).toHaveLength(1);
  });
});

describe("cache keys", () => {
  test("deterministic: query order and body key order do not matter", () => {
    const a = callKey("s", "de", {
      endpoint: "nearby",
      path: { id: "DEAAAAAAAAAA" },
      query: { size: 5, radiusKm: 10 },
    });
    const b = callKey("s", "de", {
      endpoint: "nearby",
      path: { id: "DEAAAAAAAAAA" },
      query: { radiusKm: 10, size: 5, x: undefined },
    });
    expect(a).toBe(b);
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 2 }] } })).toBe(
      '{"a":{"c":[3,{"e":2,"f":1}],"d":2},"b":1}',
    );
    expect(callKey("s", "de", { endpoint: "search", body: { size: 5, query: "x" } })).toBe(
      callKey("s", "de", { endpoint: "search", body: { query: "x", size: 5 } }),
    );
    expect(callKey("s", "de", { endpoint: "search", body: { query: "x" } })).not.toBe(
      callKey("s", "en", { endpoint: "search", body: { query: "x" } }),
    );
  });
  test("never longer than 250 characters or bytes, and distinct inputs stay distinct", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), fc.string({ maxLength: 600 }), (a, b) => {
        const ka = callKey("scope", "de", { endpoint: "search", body: { query: a } });
        const kb = callKey("scope", "de", { endpoint: "search", body: { query: b } });
        expect(new TextEncoder().encode(ka).length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
        if (a !== b) expect(ka).not.toBe(kb);
      }),
    );
    expect(boundedKey("short")).toBe("short");
    expect(boundedKey("ä".repeat(200))).toMatch(/^h:[0-9a-f]{32}:200$/);
  });
  test("fitsUtf8 (the size check that skips counting when the length decides) agrees with the UTF-8 length", () => {
    // Lone surrogates included: utf8Length counts a high one as 4 bytes, and the check must agree with it exactly.
    const unit = fc.constantFrom("a", "ß", "€", "😀", "\ud800", "\udc00");
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 120 }), fc.integer({ min: 0, max: 500 }), (parts, max) => {
        const s = parts.join("");
        expect(fitsUtf8(s, max)).toBe(utf8Length(s) <= max);
      }),
    );
  });
  test("hash128 is FNV-1a (known vector) and stable", () => {
    expect(hash128("").slice(0, 16)).toBe("cbf29ce484222325");
    expect(hash128("a").slice(0, 16)).toBe("af63dc4c8601ec8c");
    expect(hash128("foobar").slice(0, 16)).toBe("85944171f73967e8");
    expect(hash128("x")).toBe(hash128("x"));
  });
});
