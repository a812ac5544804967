import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS } from "../../emulator/ratelimit.ts";
import { caller, makeEmulator, SAP } from "./helpers.ts";

function setup(opts = {}) {
  let t = 1_000_000;
  const emu = makeEmulator({ companies: 500, now: () => t, ...opts });
  return { emu, call: caller(emu), tick: (ms: number) => (t += ms) };
}

describe("rate limits on zero-credit endpoints", () => {
  it("suggest allows a burst, then 429 with Retry-After; tokens come back with time", () => {
    const { call, tick } = setup();
    const cap = DEFAULT_RATE_LIMITS.suggest.capacity;
    for (let k = 0; k < cap; k++) expect(call("GET", "/v2/suggest/Sie").status).toBe(200);
    const r = call("GET", "/v2/suggest/Sie");
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe("RATE_LIMITED");
    expect(Number(r.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(r.json.error.retryAfterSeconds).toBe(Number(r.headers["retry-after"]));
    tick(Number(r.headers["retry-after"]) * 1000);
    expect(call("GET", "/v2/suggest/Sie").status).toBe(200);
  });

  it("resolve is steady: a small burst, then one call per refill interval", () => {
    const { call, tick } = setup();
    const { capacity, refillPerSecond } = DEFAULT_RATE_LIMITS.resolve;
    expect(capacity).toBeLessThan(DEFAULT_RATE_LIMITS.suggest.capacity);
    for (let k = 0; k < capacity; k++) expect(call("POST", "/v2/resolve", { name: "SAP SE" }).status).toBe(200);
    expect(call("POST", "/v2/resolve", { name: "SAP SE" }).status).toBe(429);
    tick(1000 / refillPerSecond);
    expect(call("POST", "/v2/resolve", { name: "SAP SE" }).status).toBe(200);
    expect(call("POST", "/v2/resolve", { name: "SAP SE" }).status).toBe(429);
  });

  it("buckets are per key and per endpoint group; paid endpoints are not rate-limited", () => {
    const { emu, call } = setup({ rateLimits: { account: { capacity: 2 } } });
    expect(call("GET", "/v2/account").status).toBe(200);
    expect(call("GET", "/v2/account").status).toBe(200);
    expect(call("GET", "/v2/account").status).toBe(429);
    expect(call("GET", `/v2/companies/${SAP}/availability`).status).toBe(200);
    expect(caller(emu, emu.createKey())("GET", "/v2/account").status).toBe(200);
    for (let k = 0; k < 50; k++) expect(call("GET", `/v2/companies/${SAP}`).status).toBe(200);
  });

  it("the limits are configurable and the buckets can be reset", () => {
    const { emu, call } = setup({ rateLimits: { suggest: { capacity: 1, refillPerSecond: 0.1 } } });
    expect(call("GET", "/v2/suggest/Sie").status).toBe(200);
    const r = call("GET", "/v2/suggest/Sie");
    expect(r.status).toBe(429);
    expect(r.headers["retry-after"]).toBe("10");
    expect(caller(emu, "")("POST", "/_emulator/ratelimits/reset", {}).status).toBe(200);
    expect(call("GET", "/v2/suggest/Sie").status).toBe(200);
  });

  it("a 429 charges nothing", () => {
    const { emu, call } = setup({ rateLimits: { resolve: { capacity: 1 } } });
    call("POST", "/v2/resolve", { name: "x" });
    const before = emu.ledger(emu.demoKey).requests.resolve;
    expect(call("POST", "/v2/resolve", { name: "x" }).status).toBe(429);
    expect(emu.ledger(emu.demoKey).requests.resolve).toBe(before);
  });
});
