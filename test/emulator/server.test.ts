import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { parseArgs, banner } from "../../emulator/cli.ts";
import { makeEmulator, SAP } from "./helpers.ts";

const emu = makeEmulator({ companies: 500 });
let server: RunningServer;
beforeAll(async () => {
  server = await startServer(emu, { port: 0 });
});
afterAll(() => server.close());
const auth = () => ({ Authorization: `Bearer ${emu.demoKey}` });

describe("network server", () => {
  it("listens on 127.0.0.1 and serves the API", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await fetch(`${server.url}/v2/companies/${SAP}`, { headers: auth() });
    expect(r.status).toBe(200);
    expect((await r.json()).id).toBe(SAP);
    expect(r.headers.get("x-credits-charged")).toBe("1");
  });

  it("answers CORS preflights for the Excel task pane and local origins, not for others", async () => {
    for (const origin of ["https://localhost:3000", "http://localhost:5173", "http://127.0.0.1:8080"]) {
      const r = await fetch(`${server.url}/v2/search`, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "authorization,content-type,accept-language",
        },
      });
      expect(r.status).toBe(204);
      expect(r.headers.get("access-control-allow-origin")).toBe(origin);
      expect(r.headers.get("access-control-allow-headers")!.toLowerCase()).toContain("authorization");
      expect(r.headers.get("access-control-allow-headers")!.toLowerCase()).toContain("accept-language");
      expect(r.headers.get("access-control-allow-methods")).toContain("POST");
    }
    const evil = await fetch(`${server.url}/v2/search`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("exposes Retry-After to browsers on 429", async () => {
    emu.faults.set({ rateLimitBurst: 1, burstRetryAfterSeconds: 3 });
    const r = await fetch(`${server.url}/v2/account`, { headers: { ...auth(), Origin: "https://localhost:3000" } });
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBe("3");
    expect(r.headers.get("access-control-expose-headers")).toContain("Retry-After");
    emu.faults.reset();
  });

  it("applies latency and drops connections", async () => {
    emu.faults.set({ latencyMs: 150 });
    const t = performance.now();
    expect((await fetch(`${server.url}/v2/account`, { headers: auth() })).status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(140);
    emu.faults.set({ latencyMs: 0, dropRate: 1 });
    await expect(fetch(`${server.url}/v2/account`, { headers: auth() })).rejects.toThrow();
    emu.faults.reset();
    expect((await fetch(`${server.url}/v2/account`, { headers: auth() })).status).toBe(200);
  });

  it("serves the docs page and the OpenAPI document without a key", async () => {
    const doc = await fetch(`${server.url}/v2/openapi.json`);
    expect(doc.status).toBe(200);
    expect((await doc.json()).openapi).toMatch(/^3\./);
    const page = await fetch(`${server.url}/v2/docs`, { headers: { "Accept-Language": "EN" } });
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain("/v2/companies/{id}/financials");
  });
});

describe("command line", () => {
  it("parses the documented flags", () => {
    const o = parseArgs(
      [
        "--port",
        "9000",
        "--companies",
        "500000",
        "--seed",
        "3",
        "--latency",
        "50",
        "--jitter=20",
        "--demo-key",
        "k",
        "--date",
        "2026-01-02",
        "--fail-rate",
        "0.1",
        "--drop-rate",
        "0.05",
        "--resolve-rate",
        "1",
        "--suggest-burst",
        "50",
      ],
      {},
    );
    expect(o).toEqual({
      port: 9000,
      host: "127.0.0.1",
      emulator: {
        companies: 500000,
        seed: 3,
        demoKey: "k",
        startDate: "2026-01-02",
        faults: { latencyMs: 50, jitterMs: 20, failRate: 0.1, dropRate: 0.05 },
        rateLimits: { resolve: { refillPerSecond: 1 }, suggest: { capacity: 50 } },
      },
    });
    expect(parseArgs([], { PORT: "1234" })).toMatchObject({ port: 1234 });
    expect(() => parseArgs(["--bogus"], {})).toThrow(/unknown flag/);
    expect(() => parseArgs(["--port", "x"], {})).toThrow();
  });
  it("tells a newcomer the key and how to point the add-ons at it", () => {
    const b = banner("http://127.0.0.1:8787", "demo_x", 20029, "2026-06-01");
    expect(b).toContain("COMPANY_DATA_BASE_URL=http://127.0.0.1:8787 COMPANY_DATA_API_KEY=demo_x");
  });
});
