import { DEFAULT_RETRY } from "../../shared/core/retry.ts";
import { describe, expect, test } from "vitest";
import { buildRequest, call, callMany, interpret } from "../../shared/api/client.ts";
import { runSync } from "../../shared/core/drivers.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { fakeApi, json, testContext } from "../helpers/fake-api.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { nth, take } from "../helpers/indexed.ts";

const NOW = Date.UTC(2025, 0, 15, 12);
const cfg = (over = {}) => testContext(() => NOW, {}, { apiKey: "sk_live_SECRET", ...over }).ctx.client;

describe("buildRequest", () => {
  test("GET: bearer key in the header only, Accept-Language, no body, no content type", () => {
    const r = buildRequest(cfg({ language: "en" }), {
      endpoint: "profile",
      path: { id: "DEPIYX8Y4M82" },
      query: { include: "people,financials" },
    });
    expect(r.method).toBe("GET");
    expect(r.url).toBe("http://api.test/v2/companies/DEPIYX8Y4M82?include=people%2Cfinancials");
    expect(r.headers.Authorization).toBe("Bearer sk_live_SECRET");
    expect(r.headers["Accept-Language"]).toBe("EN");
    expect(r.headers["Content-Type"]).toBeUndefined();
    expect(r.body).toBeUndefined();
    expect(r.url).not.toContain("SECRET");
  });
  test("POST: JSON body with Content-Type, language DE", () => {
    const r = buildRequest(cfg(), { endpoint: "search", body: { query: "Bäckerei", size: 5 } });
    expect(r.method).toBe("POST");
    expect(r.url).toBe("http://api.test/v2/search");
    expect(r.headers["Content-Type"]).toBe("application/json");
    expect(r.headers["Accept-Language"]).toBe("DE");
    expect(JSON.parse(r.body!)).toEqual({ query: "Bäckerei", size: 5 });
  });
  test("trailing slashes of the base URL, empty and undefined query values dropped", () => {
    const r = buildRequest(cfg({ baseUrl: "http://x.test//" }), {
      endpoint: "peers",
      path: { id: "DEPIYX8Y4M82" },
      query: { size: undefined, x: "" },
    });
    expect(r.url).toBe("http://x.test/v2/companies/DEPIYX8Y4M82/peers");
  });
  test("no key: MISSING_KEY, nothing built", () => {
    expect(() => buildRequest(cfg({ apiKey: "" }), { endpoint: "account" })).toThrow(CompanyDataError);
    try {
      buildRequest(cfg({ apiKey: null }), { endpoint: "account" });
    } catch (e) {
      expect((e as CompanyDataError).code).toBe("MISSING_KEY");
    }
  });
});

describe("interpret", () => {
  const spec = { endpoint: "account" as const };
  const code = (status: number, body: unknown = {}, headers = {}) => {
    const r = interpret(spec, json(status, body, headers), NOW);
    return r.ok ? "ok" : r.error.code;
  };
  test("status codes map onto the taxonomy", () => {
    expect(code(200, { credits: 5 })).toBe("ok");
    expect(code(400)).toBe("INVALID_INPUT");
    expect(code(401)).toBe("INVALID_KEY");
    expect(code(403)).toBe("INVALID_KEY");
    expect(code(402)).toBe("OUT_OF_CREDITS");
    expect(code(404)).toBe("NOT_FOUND");
    expect(code(408)).toBe("TIMEOUT");
    expect(code(413)).toBe("INVALID_INPUT");
    expect(code(429)).toBe("RATE_LIMITED");
    expect(code(500)).toBe("SERVER_ERROR");
    expect(code(503)).toBe("SERVER_ERROR");
    expect(interpret(spec, { status: 0, headers: {}, body: "", networkError: "timeout" }, NOW).ok || "x").toBe("x");
  });
  test("network failures", () => {
    const t = interpret(spec, { status: 0, headers: {}, body: "", networkError: "timeout" }, NOW);
    const c = interpret(spec, { status: 0, headers: {}, body: "", networkError: "connection" }, NOW);
    expect(!t.ok && t.error.code).toBe("TIMEOUT");
    expect(!c.ok && c.error.code).toBe("NETWORK");
  });
  test("429 and 503 carry the retry time from Retry-After or the body", () => {
    const a = interpret(spec, json(429, {}, { "Retry-After": "7" }), NOW);
    expect(!a.ok && a.error.details.retryAt).toBe(NOW + 7_000);
    const b = interpret(spec, json(429, { error: { code: "RATE_LIMITED", retryAfterSeconds: 2 } }), NOW);
    expect(!b.ok && b.error.details.retryAt).toBe(NOW + 2_000);
    const c = interpret(spec, json(503, {}, { "retry-after": "Wed, 15 Jan 2025 12:00:10 GMT" }), NOW);
    expect(!c.ok && c.error.details.retryAt).toBe(NOW + 10_000);
  });
  test("error body field is passed on; non-JSON error pages still map by status", () => {
    const r = interpret(spec, json(400, { error: { code: "INVALID_INPUT", field: "size" } }), NOW);
    expect(!r.ok && r.error.details.field).toBe("size");
    expect(interpret(spec, { status: 502, headers: {}, body: "<html>bad gateway</html>" }, NOW).ok).toBe(false);
  });
  test("malformed 200s", () => {
    const r = interpret(spec, { status: 200, headers: {}, body: "not json" }, NOW);
    expect(!r.ok && r.error.code).toBe("MALFORMED_RESPONSE");
    const s = interpret(spec, json(200, { credits: "lots" }), NOW);
    expect(!s.ok && s.error.code).toBe("MALFORMED_RESPONSE");
    expect(!s.ok && s.error.details.field).toBe("credits");
  });
});

describe("callMany", () => {
  test("retries transient failures together, honours the longest Retry-After, settles each call", () => {
    const tries = new Map<string, number>();
    const api = fakeApi((req, url) => {
      const n = (tries.get(url.pathname) ?? 0) + 1;
      tries.set(url.pathname, n);
      if (url.pathname.endsWith("AAAAAAAAAA") && n === 1) return json(429, {}, { "retry-after": "3" });
      if (url.pathname.endsWith("BBBBBBBBBB") && n < 3) return json(503, {});
      if (url.pathname.endsWith("CCCCCCCCCC")) return json(404, {});
      return json(200, { id: url.pathname.slice(-12) });
    }, NOW);
    const { ctx, spent } = testContext(api.now);
    const ids = ["DEAAAAAAAAAA", "DEBBBBBBBBBB", "DECCCCCCCCCC", "DEDDDDDDDDDD"];
    const results = runSync(
      callMany(
        ctx.client,
        ids.map((id) => ({ endpoint: "profile", path: { id } })),
      ),
      api.sync,
    );
    expect(results.map((r) => r.ok)).toEqual([true, true, false, true]);
    expect(results.map((r) => r.attempts)).toEqual([2, 3, 1, 1]);
    expect(api.sleeps[0]).toBe(3_000); // Retry-After beats a shorter backoff
    expect(api.batches).toEqual([4, 2, 1]);
    expect(spent.reduce((s, x) => s + x.credits, 0)).toBe(3);
  });
  test("gives up at the deadline and keeps the typed error", () => {
    const api = fakeApi(() => json(429, {}, { "retry-after": "60" }), NOW);
    const { ctx } = testContext(api.now, {}, { deadline: NOW + 10_000 });
    const [r] = take(runSync(callMany(ctx.client, [{ endpoint: "account" }]), api.sync), 1);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe("RATE_LIMITED");
    expect(!r.ok && r.error.details.retryAt).toBe(NOW + 60_000);
    expect(api.requests).toHaveLength(1);
    expect(api.sleeps).toEqual([]);
  });
  test("backoff with full jitter when there is no Retry-After; stops after maxAttempts", () => {
    const api = fakeApi(() => ({ status: 0, headers: {}, body: "", networkError: "connection" }), NOW);
    const { ctx } = testContext(api.now, {}, { random: () => 0.5 });
    const [r] = take(runSync(callMany(ctx.client, [{ endpoint: "account" }]), api.sync), 1);
    expect(!r.ok && r.error.code).toBe("NETWORK");
    expect(api.requests).toHaveLength(5);
    expect(api.sleeps).toEqual([125, 250, 500, 1000]);
  });
  test("a 429 that says when to come back is waited out without using up attempts, up to maxRateLimitWaits", () => {
    let calls = 0;
    const api = fakeApi(() => (++calls <= 8 ? json(429, {}, { "retry-after": "2" }) : json(200, { credits: 7 })), NOW);
    const { ctx } = testContext(api.now);
    const [r] = take(runSync(callMany(ctx.client, [{ endpoint: "account" }]), api.sync), 1);
    expect(r.ok).toBe(true); // 8 scheduled waits > maxAttempts (5), still answered
    expect(api.sleeps).toEqual(new Array(8).fill(2_000));
    const endless = fakeApi(() => json(429, {}, { "retry-after": "1" }), NOW);
    const [e] = take(
      runSync(callMany(testContext(endless.now).ctx.client, [{ endpoint: "account" }]), endless.sync),
      1,
    );
    expect(!e.ok && e.error.code).toBe("RATE_LIMITED");
    expect(endless.requests).toHaveLength(DEFAULT_RETRY.maxRateLimitWaits + 1);
  });
  test("non-transient errors are not retried", () => {
    const api = fakeApi(() => json(402, {}), NOW);
    const { ctx, spent } = testContext(api.now);
    const [r] = take(runSync(callMany(ctx.client, [{ endpoint: "search", body: { query: "x" } }]), api.sync), 1);
    expect(!r.ok && r.error.code).toBe("OUT_OF_CREDITS");
    expect(api.requests).toHaveLength(1);
    expect(spent).toEqual([]);
  });
  test("a spec that cannot be built settles as a typed error, nothing is sent", () => {
    const api = fakeApi(() => json(200, {}), NOW);
    const { ctx } = testContext(api.now);
    const [r] = take(runSync(callMany(ctx.client, [{ endpoint: "profile", path: {} }]), api.sync), 1);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toBeInstanceOf(CompanyDataError);
    expect(api.requests).toHaveLength(0);
  });
  test("call() throws the error", () => {
    const api = fakeApi(() => json(401, {}), NOW);
    const { ctx } = testContext(api.now);
    expect(() => runSync(call(ctx.client, { endpoint: "account" }), api.sync)).toThrow(/rejected/);
  });
});

describe("callMany pacing of rate-limited endpoints", () => {
  const ok = (_req: unknown, url: URL) => json(200, { id: url.pathname.split("/")[3] });
  const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `DE${String(from + i).padStart(10, "0")}`);
  const availability = (list: string[]) => list.map((id) => ({ endpoint: "availability" as const, path: { id } }));

  test("waves no larger than the burst, spaced by the refill; no sleep for the first wave", () => {
    const api = fakeApi(ok, NOW);
    const { ctx } = testContext(api.now);
    const results = runSync(callMany(ctx.client, availability(ids(50))), api.sync);
    expect(results.every((r) => r.ok && r.attempts === 1)).toBe(true);
    expect(api.batches).toEqual([20, 20, 10]);
    expect(api.sleeps).toEqual([4_000, 2_000]); // 20 tokens at 5/s, then 10
  });
  test("paid endpoints are not paced; a mix sends the paid ones at once", () => {
    const api = fakeApi(ok, NOW);
    const { ctx } = testContext(api.now);
    const paid = ids(60).map((id) => ({ endpoint: "profile" as const, path: { id } }));
    runSync(callMany(ctx.client, paid), api.sync);
    expect(api.batches).toEqual([60]);
    runSync(callMany(ctx.client, [...paid.slice(0, 5), ...availability(ids(25, 100))]), api.sync);
    expect(api.batches.slice(1)).toEqual([25, 5]);
  });
  test("consecutive calls with one pacer share the bucket model", () => {
    const api = fakeApi(ok, NOW);
    const { ctx } = testContext(api.now);
    runSync(callMany(ctx.client, availability(ids(20))), api.sync);
    runSync(callMany(ctx.client, availability(ids(20, 20))), api.sync);
    expect(api.batches).toEqual([20, 20]);
    expect(api.sleeps).toEqual([4_000]);
    // A context spread from it (as the operations make) still shares it.
    runSync(callMany({ ...ctx.client, onRequest: () => {} }, availability(ids(1, 40))), api.sync);
    expect(api.sleeps).toEqual([4_000, 200]);
  });
  test("two pacers never share buckets, even on one clock; without a pacer each call paces only itself", () => {
    const api = fakeApi(ok, NOW);
    const { ctx } = testContext(api.now);
    const other = { ...ctx.client, pacer: new Pacer() };
    runSync(callMany(ctx.client, availability(ids(20))), api.sync);
    // The other host's pacer has a full bucket: its 20 go at once, no sleep.
    runSync(callMany(other, availability(ids(20, 20))), api.sync);
    expect(api.batches).toEqual([20, 20]);
    expect(api.sleeps).toEqual([]);
    // The first pacer still remembers its empty bucket: one more call waits for a token.
    runSync(callMany(ctx.client, availability(ids(1, 40))), api.sync);
    expect(api.sleeps).toEqual([200]);
    // No pacer: each call starts from a full bucket of its own.
    const bare = { ...ctx.client, pacer: undefined };
    runSync(callMany(bare, availability(ids(20, 50))), api.sync);
    runSync(callMany(bare, availability(ids(20, 70))), api.sync);
    expect(api.batches.slice(3)).toEqual([20, 20]);
    expect(api.sleeps).toEqual([200]);
  });
  test("configurable per bucket; bad limits are INVALID_INPUT naming the field", () => {
    const api = fakeApi(ok, NOW);
    const { ctx } = testContext(api.now);
    runSync(
      callMany(ctx.client, availability(ids(9)), { rateLimits: { availability: { burst: 4, perSecond: 2 } } }),
      api.sync,
    );
    expect(api.batches).toEqual([4, 4, 1]);
    expect(api.sleeps).toEqual([2_000, 500]);
    const field = (limits: unknown) => {
      try {
        runSync(callMany(ctx.client, availability(ids(1)), { rateLimits: limits as never }), api.sync);
      } catch (e) {
        return (e as CompanyDataError).details.field;
      }
    };
    expect(field({ availability: { burst: 0, perSecond: 1 } })).toBe("rateLimits.availability.burst");
    expect(field({ resolve: { burst: 2, perSecond: -1 } })).toBe("rateLimits.resolve.perSecond");
    expect(field({ lookup: { burst: 2, perSecond: 1 } })).toBe("rateLimits.lookup");
  });
  test("a 429 empties the model and its Retry-After holds the whole bucket, then the call is retried", () => {
    let shut = true;
    const api = fakeApi((req, url) => {
      if (shut && url.pathname.includes("DE0000000003")) {
        shut = false;
        return json(429, {}, { "Retry-After": "2" });
      }
      return ok(req, url);
    }, NOW);
    const { ctx } = testContext(api.now);
    const results = runSync(callMany(ctx.client, availability(ids(10))), api.sync);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(nth(results, 3).attempts).toBe(2);
    expect(api.batches).toEqual([10, 1]);
    expect(api.sleeps).toEqual([2_000]);
  });
  test("what cannot go before the deadline settles RATE_LIMITED with the time it could go, unsent", () => {
    const api = fakeApi(ok, NOW);
    const { ctx } = testContext(api.now, {}, { deadline: NOW + 1_000 });
    const results = runSync(callMany(ctx.client, availability(ids(30))), api.sync);
    // 20 at once, 4 more refill within the second (at 200 ms each), the rest would go at 1 s or later.
    expect(results.filter((r) => r.ok)).toHaveLength(24);
    expect(api.requests).toHaveLength(24);
    const late = results.slice(24);
    expect(late.every((r) => !r.ok && r.error.code === "RATE_LIMITED" && r.attempts === 0)).toBe(true);
    expect(late.map((r) => !r.ok && r.error.details.retryAt! - NOW)).toEqual([
      1_000, 1_200, 1_400, 1_600, 1_800, 2_000,
    ]);
  });
});
