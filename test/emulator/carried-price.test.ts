/**
 * The price a request carries (set by the API client from the catalogue, read
 * by the formula budget, the credits in flight, the CLI's spend journal and
 * the MCP budget check) is what the service charges for it: every endpoint of
 * the catalogue, asked through the client, is charged by the emulator exactly
 * the credits its request carried. The operations' own requests (profiles with
 * includes, batch resolves of uneven sizes) are checked the same way, so a
 * call site that asks for more than it prices fails here.
 */
import { describe, expect, it } from "vitest";
import { buildRequest, type CallSpec } from "../../shared/api/client.ts";
import { ENDPOINTS, type EndpointId, type Include } from "../../shared/api/endpoints.ts";
import { runSync } from "../../shared/core/drivers.ts";
import type { HttpRequest, HttpResponse } from "../../shared/core/http.ts";
import { getProfiles, search } from "../../shared/operations/company.ts";
import { resolveMany } from "../../shared/operations/resolve.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";
import { testContext } from "../helpers/fake-api.ts";
import { makeEmulator, ROOMY_RATE_LIMITS, SAP, SIEMENS } from "./helpers.ts";

const emu = makeEmulator({ rateLimits: ROOMY_RATE_LIMITS });
const PERSON = emu.companies.sharedPersonId()!;
const IDS = emu.world.companies.slice(0, 30).map((c) => c.id);
const names = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Firma ${i}` }));
const profile = (include: Include[]): CallSpec => ({
  endpoint: "profile",
  path: { id: SAP },
  query: include.length ? { include: include.join(",") } : {},
  cost: { include },
});
const many = (endpoint: EndpointId, n: number): CallSpec => ({
  endpoint,
  body: { ids: IDS.slice(0, n) },
  cost: { count: n },
});

/** Calls of every endpoint, with the inputs its price depends on varied; a new endpoint without one does not compile. */
const SAMPLES: Record<EndpointId, CallSpec[]> = {
  search: [{ endpoint: "search", body: { query: "Bau", size: 5 } }],
  resolve: [{ endpoint: "resolve", body: { name: "SAP SE" } }],
  batchResolve: [1, 10, 11, 25, 100].map((n) => ({
    endpoint: "batchResolve",
    body: { companies: names(n) },
    cost: { count: n },
  })),
  suggest: [{ endpoint: "suggest", path: { prefix: "Sie" } }],
  profile: [
    profile([]),
    profile(["people"]),
    profile(["announcements"]),
    profile(["financials"]),
    profile(["people", "financials"]),
    profile(["people", "announcements", "financials"]),
  ],
  availability: [{ endpoint: "availability", path: { id: SAP } }],
  changes: [{ endpoint: "changes", path: { id: SAP }, query: { size: 100 } }],
  nearby: [{ endpoint: "nearby", path: { id: SAP } }],
  people: [{ endpoint: "people", path: { id: SAP } }],
  announcements: [{ endpoint: "announcements", path: { id: SAP } }],
  financials: [{ endpoint: "financials", path: { id: SAP } }],
  peers: [{ endpoint: "peers", path: { id: SAP } }],
  similar: [{ endpoint: "similar", body: { ids: [SAP, SIEMENS] } }],
  personCompanies: [{ endpoint: "personCompanies", path: { personId: PERSON } }],
  account: [{ endpoint: "account" }],
  "v1.data": [{ endpoint: "v1.data", path: { id: SAP } }],
  "v1.dataMany": [many("v1.dataMany", 1), many("v1.dataMany", 7)],
  "v1.people": [{ endpoint: "v1.people", path: { id: SAP } }],
  "v1.peopleMany": [many("v1.peopleMany", 3)],
  "v1.events": [{ endpoint: "v1.events", path: { id: SAP } }],
  "v1.eventsMany": [many("v1.eventsMany", 4)],
  "v1.jobs": [{ endpoint: "v1.jobs", path: { id: SAP } }],
  "v1.jobsMany": [many("v1.jobsMany", 2)],
  "v1.financials": [{ endpoint: "v1.financials", path: { id: SAP } }],
  "v1.financialsMany": [many("v1.financialsMany", 1), many("v1.financialsMany", 30)],
  "v1.lookup": [{ endpoint: "v1.lookup", body: { name: "SAP SE" } }],
  "v1.financialsExists": [{ endpoint: "v1.financialsExists", path: { id: SAP } }],
  "v1.financialsExistsMany": [many("v1.financialsExistsMany", 5)],
  "v1.search": [{ endpoint: "v1.search", body: { query: "Bau" } }],
  "v1.suggest": [{ endpoint: "v1.suggest", path: { prefix: "Sie" } }],
  "v1.recommend": [{ endpoint: "v1.recommend", body: { baseCompanies: [SAP] } }],
};

/** Send one request to the emulator with its own fresh key: what was it charged, on the header and the balance? */
function charged(req: HttpRequest): { res: HttpResponse; header: number; balance: number; endpoint: string[] } {
  const key = emu.createKey(1000);
  const {
    delayMs: _d,
    drop: _x,
    ...res
  } = emu.handle({
    ...req,
    headers: { ...req.headers, Authorization: `Bearer ${key}` },
  });
  return {
    res,
    header: Number(res.headers["x-credits-charged"]),
    balance: 1000 - emu.balance(key),
    endpoint: Object.keys(emu.ledger(key).requests),
  };
}

describe("the price a request carries is what the service charges", () => {
  const cfg = testContext(() => Date.now(), {}, { apiKey: emu.demoKey, baseUrl: "http://emulator.test" }).ctx.client;

  it("for every endpoint of the catalogue, as the client builds its request", () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(ENDPOINTS.map((e) => e.id).sort());
    for (const [id, specs] of Object.entries(SAMPLES)) {
      for (const spec of specs) {
        const req = buildRequest(cfg, spec);
        const got = charged(req);
        const what = `${id} ${JSON.stringify(spec.cost ?? {})}`;
        expect(got.res.status, `${what}: ${got.res.body}`).toBe(200);
        expect(req.price?.endpoint, what).toBe(id);
        expect(got.endpoint, what).toEqual([id]);
        expect(req.price?.credits, what).toBe(got.header);
        expect(req.price?.credits, what).toBe(got.balance);
      }
    }
  });

  it("for the requests the operations send (profiles with includes, uneven batch resolves, a search)", () => {
    const { ctx } = testContext(() => Date.now(), { cacheTtlSeconds: 0 }, { apiKey: emu.demoKey, baseUrl: "http://x" });
    const d = emulatorDrivers(emu);
    const seen: { req: HttpRequest; res: HttpResponse }[] = [];
    const http = d.sync.http;
    d.sync.http = (reqs) => {
      const out = http(reqs);
      reqs.forEach((req, i) => seen.push({ req, res: out[i]! }));
      return out;
    };
    runSync(getProfiles(ctx, IDS.slice(0, 3), ["people", "financials"]), d.sync);
    runSync(getProfiles(ctx, IDS.slice(3, 5), ["announcements"]), d.sync);
    runSync(getProfiles(ctx, IDS.slice(5, 6)), d.sync);
    runSync(resolveMany({ ...ctx, maxBatch: 10 }, names(23)), d.sync);
    runSync(search(ctx, { query: "Bau", size: 3 }), d.sync);
    const endpoints = new Set(seen.map((s) => s.req.price?.endpoint));
    expect([...endpoints].sort()).toEqual(["batchResolve", "profile", "search"]);
    for (const { req, res } of seen) {
      expect(res.status, `${req.url}: ${res.body}`).toBe(200);
      expect(String(req.price?.credits), req.url).toBe(res.headers["x-credits-charged"]);
    }
    // Paid: 3 × 6 + 2 × 2 + 1 + ⌈10/10⌉ + ⌈10/10⌉ + ⌈3/10⌉ + 1 credits.
    expect(seen.reduce((sum, s) => sum + (s.req.price?.credits ?? 0), 0)).toBe(18 + 4 + 1 + 3 + 1);
  });
});
