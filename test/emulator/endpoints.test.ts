import { beforeAll, describe, expect, it } from "vitest";
import * as S from "../../shared/api/schemas.ts";
import { ENDPOINTS, endpoint } from "../../shared/api/endpoints.ts";
import type { Emulator } from "../../emulator/index.ts";
import { caller, makeEmulator, SAP, SIEMENS, type Call } from "./helpers.ts";
import { nth } from "../helpers/indexed.ts";

let emu: Emulator;
let call: ReturnType<typeof caller>;
beforeAll(() => {
  emu = makeEmulator();
  call = caller(emu);
});

function ok(r: Call) {
  expect(r.status, r.raw).toBe(200);
  return r.json;
}

describe("every v2 endpoint answers with the shared schema", () => {
  it("POST /v2/search ranks name matches first and respects size", () => {
    const body = ok(call("POST", "/v2/search", { query: "Siemens", size: 5 }));
    expect(nth(S.SearchResponse.parse(body).companies, 0).id).toBe(SIEMENS);
    expect(body.companies.length).toBeLessThanOrEqual(5);
    expect(body.total).toBeGreaterThanOrEqual(1);
    for (const c of body.companies) expect(c.score).toBeGreaterThan(0);
  });

  it("POST /v2/resolve matches a known company", () => {
    const body = ok(call("POST", "/v2/resolve", { name: "SAP SE", city: "Walldorf" }));
    const r = S.ResolveResult.parse(body);
    expect(r.status).toBe("matched");
    expect(r.match?.id).toBe(SAP);
    expect(r.confidence).toBeGreaterThan(0.9);
  });

  it("POST /v2/companies/batch/resolve answers in request order with index and ref", () => {
    const body = ok(
      call("POST", "/v2/companies/batch/resolve", {
        companies: [
          { name: "Siemens AG", ref: "a" },
          { name: "Zzzqqq Nonexistent GmbH", ref: "b" },
          { name: "SAP SE" },
        ],
      }),
    );
    const r = S.BatchResolveResponse.parse(body);
    expect(r.results.map((x) => x.index)).toEqual([0, 1, 2]);
    expect(r.results.map((x) => x.ref)).toEqual(["a", "b", undefined]);
    expect(nth(r.results, 0).match?.id).toBe(SIEMENS);
    expect(nth(r.results, 1).status).toBe("not_found");
    expect(nth(r.results, 2).match?.id).toBe(SAP);
  });

  it("GET /v2/suggest/{prefix} completes prefixes", () => {
    const body = ok(call("GET", "/v2/suggest/Sie?size=5"));
    const r = S.SuggestResponse.parse(body);
    expect(r.prefix).toBe("Sie");
    expect(r.suggestions.some((s) => s.id === SIEMENS)).toBe(true);
    for (const s of r.suggestions) expect(s.name!.toLowerCase().startsWith("sie")).toBe(true);
  });

  it("GET /v2/companies/{id} is the profile, includes add sections", () => {
    const base = ok(call("GET", `/v2/companies/${SAP}`));
    expect(S.Company.parse(base).name).toBe("SAP SE");
    expect(base.people).toBeUndefined();
    expect(base.foundingDate).toBe("1972-04-01");
    const full = S.Company.parse(ok(call("GET", `/v2/companies/${SAP}?include=people,announcements,financials`)));
    expect(full.people!.length).toBeGreaterThan(0);
    expect(full.announcements!.length).toBeGreaterThan(0);
    // The reference key figures survive unchanged.
    expect(full.financials!.find((f) => f.year === 2020)?.revenue).toBe(14669000000);
  });

  it("GET availability says which data exists, consistent with the data endpoints", () => {
    const av = S.AvailabilityResponse.parse(ok(call("GET", `/v2/companies/${SAP}/availability`)));
    const fin = S.FinancialsResponse.parse(ok(call("GET", `/v2/companies/${SAP}/financials`)));
    expect(av.financials).toBe(true);
    expect(av.financialYears).toEqual(fin.years.map((y) => y.year));
    // A company without published accounts says so, and its financials are empty.
    const none = emu.companies.ids().find((id) =>
      emu
        .handle({
          method: "GET",
          url: `/v2/companies/${id}/availability`,
          headers: { Authorization: `Bearer ${emu.demoKey}` },
        })
        .body.includes('"financials":false'),
    )!;
    expect(none).toBeDefined();
    expect(ok(call("GET", `/v2/companies/${none}/financials`)).years).toEqual([]);
  });

  it("GET changes, people, announcements, financials", () => {
    expect(
      S.ChangesResponse.parse(ok(call("GET", `/v2/companies/${SAP}/changes?since=1900-01-01`))).changes.length,
    ).toBeGreaterThan(0);
    const people = S.PeopleResponse.parse(ok(call("GET", `/v2/companies/${SAP}/people`)));
    expect(nth(people.people, 0).personId).toMatch(S.PERSON_ID_PATTERN);
    expect(
      nth(S.AnnouncementsResponse.parse(ok(call("GET", `/v2/companies/${SAP}/announcements`))).announcements, 0).type
        ?.code,
    ).toBeTruthy();
    expect(
      S.FinancialsResponse.parse(ok(call("GET", `/v2/companies/${SIEMENS}/financials`))).years.length,
    ).toBeGreaterThan(0);
  });

  it("GET nearby orders by real distance within the radius", () => {
    const body = S.CompanyListResponse.parse(ok(call("GET", `/v2/companies/${SIEMENS}/nearby?radiusKm=5&size=20`)));
    expect(body.companies.length).toBeGreaterThan(0);
    const d = body.companies.map((c) => c.distanceKm!);
    expect([...d].sort((a, b) => a - b)).toEqual(d);
    expect(Math.max(...d)).toBeLessThanOrEqual(5);
    expect(body.companies.some((c) => c.id === SIEMENS)).toBe(false);
  });

  it("GET peers and POST similar rank comparable companies", () => {
    const peers = S.CompanyListResponse.parse(ok(call("GET", `/v2/companies/${SAP}/peers?size=5`)));
    expect(peers.companies.length).toBe(5);
    expect(nth(peers.companies, 0).industry?.code?.slice(0, 3)).toBe("J62");
    const scores = peers.companies.map((c) => c.score!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const sim = S.CompanyListResponse.parse(ok(call("POST", "/v2/similar", { ids: [SAP, SIEMENS], size: 4 })));
    expect(sim.companies.length).toBe(4);
    expect(sim.companies.some((c) => c.id === SAP || c.id === SIEMENS)).toBe(false);
  });

  it("GET /v2/people/{personId}/companies lists a shared person's companies", () => {
    const pid = emu.companies.sharedPersonId()!;
    const body = S.PersonCompaniesResponse.parse(ok(call("GET", `/v2/people/${pid}/companies`)));
    expect(body.companies.length).toBeGreaterThan(1);
    for (const c of body.companies) {
      const people = ok(call("GET", `/v2/companies/${c.id}/people`)).people as { personId: string }[];
      expect(people.some((p) => p.personId === pid)).toBe(true);
    }
  });

  it("GET /v2/account answers the balance as a top-level number", () => {
    const acc = S.AccountResponse.parse(ok(call("GET", "/v2/account")));
    expect(typeof acc.credits).toBe("number");
    expect(acc.credits).toBe(emu.balance(emu.demoKey));
  });
});

describe("every path of the older listing answers", () => {
  const ids = { ids: [SAP, SIEMENS] };
  const cases: [string, "GET" | "POST", string, unknown, (b: any) => void][] = [
    ["v1.data", "GET", `/companies/${SAP}/data`, undefined, (b) => expect(b.externalIds.hr.type).toBe("HRB")],
    [
      "v1.dataMany",
      "POST",
      "/companies/data",
      ids,
      (b) => expect(b.companies.map((c: any) => c.id)).toEqual([SAP, SIEMENS]),
    ],
    ["v1.people", "GET", `/companies/${SAP}/people`, undefined, (b) => expect(b.people.length).toBeGreaterThan(0)],
    ["v1.peopleMany", "POST", "/companies/people", ids, (b) => expect(b.companies[1].people.length).toBeGreaterThan(0)],
    [
      "v1.events",
      "GET",
      `/companies/${SAP}/events?size=2`,
      undefined,
      (b) => expect(b.events.length).toBeLessThanOrEqual(2),
    ],
    ["v1.eventsMany", "POST", "/companies/events", ids, (b) => expect(b.companies.length).toBe(2)],
    ["v1.jobs", "GET", `/companies/${SAP}/jobs`, undefined, (b) => expect(b.jobs.length).toBeGreaterThan(0)],
    ["v1.jobsMany", "POST", "/companies/jobs", ids, (b) => expect(Array.isArray(b.companies[0].jobs)).toBe(true)],
    [
      "v1.financials",
      "GET",
      `/companies/${SAP}/financials`,
      undefined,
      (b) => expect(b.financials.revenue.at(-1)).toEqual({ year: 2020, value: 14669000000 }),
    ],
    [
      "v1.financialsMany",
      "POST",
      "/companies/financials",
      ids,
      (b) => expect(b.companies[0].financials.netIncome.length).toBeGreaterThan(0),
    ],
    ["v1.lookup", "POST", "/lookup", { name: "Siemens AG" }, (b) => expect(b.companies[0].id).toBe(SIEMENS)],
    [
      "v1.financialsExists",
      "GET",
      `/companies/${SAP}/financials/exists`,
      undefined,
      (b) => expect(b.years.revenue).toContain(2020),
    ],
    [
      "v1.financialsExistsMany",
      "POST",
      "/companies/financials/exists",
      ids,
      (b) => expect(b.results.map((r: any) => r.id)).toEqual([SAP, SIEMENS]),
    ],
    ["v1.search", "POST", "/search", { query: "Siemens", size: 3 }, (b) => expect(b.companies[0].id).toBe(SIEMENS)],
    ["v1.suggest", "GET", "/suggest/SAP", undefined, (b) => expect(b.suggestions[0].id).toBe(SAP)],
    [
      "v1.recommend",
      "POST",
      "/recommend?size=3&explain=true",
      { baseCompanies: [SAP], locationsFilter: [{ type: "state", code: "de-bw" }] },
      (b) => {
        expect(b.companies.length).toBe(3);
        for (const c of b.companies) expect(c.explanation.length).toBeGreaterThan(0);
      },
    ],
  ];
  it("covers the whole older listing of the catalogue", () => {
    expect(new Set(cases.map((c) => c[0]))).toEqual(
      new Set(ENDPOINTS.filter((e) => e.version === "v1").map((e) => e.id)),
    );
  });
  for (const [id, method, url, body, check] of cases) {
    it(`${method} ${url}`, () => {
      const r = ok(call(method, url, body));
      expect(() => (endpoint(id as any).response as any).parse(r)).not.toThrow();
      check(r);
    });
  }
});
