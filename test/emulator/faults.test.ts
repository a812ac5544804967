import { describe, expect, it } from "vitest";
import { caller, makeEmulator, SAP } from "./helpers.ts";
import { nth } from "../helpers/indexed.ts";

describe("fault injection", () => {
  it("is off by default", () => {
    const emu = makeEmulator({ companies: 200 });
    expect(emu.faults.get()).toMatchObject({
      latencyMs: 0,
      failRate: 0,
      dropRate: 0,
      rateLimitBurst: 0,
      creditsRunOutAfter: null,
    });
    const r = caller(emu)("GET", `/v2/companies/${SAP}`);
    expect(r.delayMs).toBeUndefined();
  });

  it("adds fixed and random latency", () => {
    const emu = makeEmulator({ companies: 200, faults: { latencyMs: 100, jitterMs: 50 } });
    const d = Array.from({ length: 20 }, () => caller(emu)("GET", `/v2/companies/${SAP}`).delayMs!);
    for (const x of d) {
      expect(x).toBeGreaterThanOrEqual(100);
      expect(x).toBeLessThanOrEqual(150);
    }
    expect(new Set(d).size).toBeGreaterThan(1);
  });

  it("answers a share of 500/503 without charging", () => {
    const emu = makeEmulator({ companies: 200 });
    caller(emu, "")("POST", "/_emulator/faults", { failRate: 1 });
    const before = emu.balance(emu.demoKey);
    const statuses = new Set(Array.from({ length: 30 }, () => caller(emu)("GET", `/v2/companies/${SAP}`).status));
    expect(statuses).toEqual(new Set([500, 503]));
    expect(emu.balance(emu.demoKey)).toBe(before);
    caller(emu, "")("POST", "/_emulator/faults", { failRate: 0.3 });
    const n = Array.from({ length: 400 }, () => caller(emu)("GET", `/v2/companies/${SAP}/availability`).status).filter(
      (s) => s >= 500,
    ).length;
    expect(n).toBeGreaterThan(70);
    expect(n).toBeLessThan(170);
    caller(emu, "")("POST", "/_emulator/faults/reset");
    expect(caller(emu)("GET", `/v2/companies/${SAP}`).status).toBe(200);
  });

  it("sends bursts of 429 with Retry-After", () => {
    const emu = makeEmulator({ companies: 200 });
    emu.faults.set({ rateLimitBurst: 3, burstRetryAfterSeconds: 2 });
    const r = [1, 2, 3, 4].map(() => caller(emu)("POST", "/v2/search", { query: "Bau" }));
    expect(r.map((x) => x.status)).toEqual([429, 429, 429, 200]);
    expect(nth(r, 0).headers["retry-after"]).toBe("2");
  });

  it("drops connections", () => {
    const emu = makeEmulator({ companies: 200, faults: { dropRate: 1 } });
    const r = emu.handle({ method: "GET", url: "/v2/account", headers: { Authorization: `Bearer ${emu.demoKey}` } });
    expect(r.drop).toBe(true);
    expect(r.status).toBe(0);
    expect(r.networkError).toBe("connection");
  });

  it("runs the balance out at a given point", () => {
    const emu = makeEmulator({ companies: 200 });
    emu.faults.set({ creditsRunOutAfter: 5 });
    const call = caller(emu);
    expect(call("GET", `/v2/companies/${SAP}?include=financials`).status).toBe(200);
    expect(call("GET", "/v2/account").json.credits).toBe(0);
    const r = call("GET", `/v2/companies/${SAP}`);
    expect(r.status).toBe(402);
    expect(call("POST", "/v2/resolve", { name: "SAP SE" }).status).toBe(200);
    emu.faults.reset();
    expect(call("GET", `/v2/companies/${SAP}`).status).toBe(200);
  });

  it("never applies faults to the control endpoints", () => {
    const emu = makeEmulator({ companies: 200, faults: { failRate: 1 } });
    expect(caller(emu, "")("GET", "/_emulator/faults").status).toBe(200);
  });
});
