/**
 * The registry against a scripted fake API: shapes, per-row alignment,
 * hostile inputs, cache reuse and the daily formula budget.
 */
import { describe, expect, it } from "vitest";
import { runSync } from "../../shared/core/drivers.ts";
import {
  FUNCTIONS,
  functionByName,
  functionsFor,
  hostName,
  invoke,
  isCellError,
  type CellOut,
  type FunctionContext,
} from "../../shared/functions/index.ts";
import { fakeApi, json, testContext } from "../helpers/fake-api.ts";
import type { HttpRequest } from "../../shared/core/http.ts";
import { buildRequest, type CallSpec } from "../../shared/api/client.ts";
import type { Include } from "../../shared/api/endpoints.ts";
import { cellAt, nth } from "../helpers/indexed.ts";

const SAP = "DEJK7QV0PK24";
const SIEMENS = "DEPIYX8Y4M82";
const company = (id: string, name: string, city: string) => ({
  id,
  name,
  city,
  zip: "69190",
  legalForm: { code: "SE", name: "SE" },
});

function setup(budget: number | null = null, handler?: Parameters<typeof fakeApi>[0]) {
  const api = fakeApi(
    handler ??
      ((req, url, body) => {
        const p = url.pathname;
        if (p === "/v2/resolve") {
          const b = body as { name: string };
          if (/sap/i.test(b.name))
            return json(200, {
              status: "matched",
              match: company(SAP, "SAP SE", "Walldorf"),
              confidence: 0.97,
              candidates: [],
            });
          if (/müller/i.test(b.name))
            return json(200, {
              status: "ambiguous",
              match: null,
              candidates: [
                company("DEAAAAAAAAA1", "Müller GmbH", "Köln"),
                company("DEAAAAAAAAA2", "Müller GmbH", "Bonn"),
              ],
            });
          return json(200, { status: "not_found", match: null, candidates: [] });
        }
        if (p === "/v2/companies/batch/resolve") {
          const b = body as { companies: { name: string; ref: string }[] };
          return json(200, {
            results: b.companies.map((c) => ({
              ref: c.ref,
              ...(/sap/i.test(c.name)
                ? { status: "matched", match: company(SAP, "SAP SE", "Walldorf"), confidence: 0.9 }
                : /siemens/i.test(c.name)
                  ? { status: "matched", match: company(SIEMENS, "Siemens AG", "München"), confidence: 0.9 }
                  : { status: "not_found" }),
              candidates: [],
            })),
          });
        }
        const m = /^\/v2\/companies\/(DE\w+)$/.exec(p);
        if (m) {
          if (m[1] === SAP)
            return json(200, { ...company(SAP, "SAP SE", "Walldorf"), financials: [{ year: 2020, revenue: 100 }] });
          if (m[1] === SIEMENS) return json(200, company(SIEMENS, "Siemens AG", "München"));
          return json(404, { error: { code: "NOT_FOUND" } });
        }
        if (/\/financials$/.test(p))
          return json(200, {
            years: [
              { year: 2019, revenue: 90, profit: 1 },
              { year: 2020, revenue: 100, profit: 2 },
            ],
          });
        if (/\/people$/.test(p))
          return json(200, {
            people: [{ personId: "P0000000001", name: "=cmd|' /C calc'!A0", role: { code: "CEO", name: "Vorstand" } }],
          });
        if (p === "/v2/search") return json(200, { total: 1, companies: [company(SAP, "SAP SE", "Walldorf")] });
        if (p === "/v2/account") return json(200, { credits: 99, usage: { today: 1, month: 1 } });
        if (/\/availability$/.test(p))
          return json(200, { profile: true, people: true, financials: false, financialYears: [2019, 2020] });
        return json(404, { error: { code: "NOT_FOUND" } });
      }),
  );
  const { ctx, spent } = testContext(api.now);
  const fctx: FunctionContext = { ctx, dailyBudget: budget };
  const run = (name: string, ...args: unknown[]): CellOut[][] =>
    runSync(invoke(functionByName(name)!, fctx, args), api.sync);
  const paths = () => api.requests.map((r: HttpRequest) => new URL(r.url).pathname);
  return { api, ctx, spent, fctx, run, paths };
}

const msg = (c: CellOut) => (isCellError(c) ? c.message : String(c));

describe("registry", () => {
  it("lists every function with bilingual help and host names", () => {
    const names = FUNCTIONS.map((f) => f.name);
    for (const n of [
      "SEARCH",
      "SUGGEST",
      "RESOLVE",
      "PROFILE",
      "PEOPLE",
      "ANNOUNCEMENTS",
      "FINANCIALS",
      "CHANGES",
      "NEARBY",
      "PEERS",
      "SIMILAR",
      "AVAILABILITY",
      "PERSON_COMPANIES",
      "CREDITS",
      "EVENTS",
      "JOBS",
      "CARD",
    ])
      expect(names).toContain(n);
    for (const f of FUNCTIONS) {
      expect(f.description.de && f.description.en).toBeTruthy();
      for (const p of f.params) expect(p.help.de && p.help.en && /^[a-z_]+$/.test(p.name)).toBeTruthy();
    }
    expect(functionsFor("sheets").map((f) => f.name)).not.toContain("CARD");
    expect(hostName(functionByName("SEARCH")!, "sheets")).toBe("COMPANY_SEARCH");
  });
});

/** The signatures as issue 4 writes them (Sheets), plus COMPANY_RISK(ids) from the monitoring README. */
const ISSUE_4_SIGNATURES = [
  "COMPANY_SEARCH(query, [size], [near], [radius_km], [filters])",
  "COMPANY_SUGGEST(prefix, [size])",
  "COMPANY_RESOLVE(name, [city], [zip_or_register])",
  "COMPANY_PROFILE(id, [fields], [include])",
  "COMPANY_PEOPLE(id)",
  "COMPANY_ANNOUNCEMENTS(id, [since])",
  "COMPANY_FINANCIALS(id, [metric], [year])",
  "COMPANY_CHANGES(id, [since])",
  "COMPANY_NEARBY(id, [radius_km], [size])",
  "COMPANY_PEERS(id, [size])",
  "COMPANY_SIMILAR(ids, [size])",
  "COMPANY_AVAILABILITY(id)",
  "PERSON_COMPANIES(person_id)",
  "COMPANY_CREDITS()",
  "COMPANY_EVENTS(id)",
  "COMPANY_JOBS(id)",
  "COMPANY_RISK(ids)",
];

describe("host names", () => {
  const signature = (name: string, def: (typeof FUNCTIONS)[number]) =>
    `${name}(${def.params.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(", ")})`;

  it("Sheets offers exactly the names and parameters issue 4 lists (PERSON_COMPANIES without the COMPANY_ prefix)", () => {
    expect(functionsFor("sheets").map((d) => signature(hostName(d, "sheets"), d))).toEqual(ISSUE_4_SIGNATURES);
  });

  it("Excel keeps every function in the COMPANY namespace: COMPANY.PERSON_COMPANIES, COMPANY.RISK(ids)", () => {
    const excel = functionsFor("excel").map((d) => signature(hostName(d, "excel"), d));
    expect(excel).toContain("PERSON_COMPANIES(person_id)");
    expect(excel).toContain("RISK(ids)");
    expect(excel).toContain("CARD(id)");
    for (const d of functionsFor("excel")) expect(hostName(d, "excel")).toBe(d.name);
  });

  it("RISK names its parameter ids in its error messages too", () => {
    const { run } = setup();
    expect(msg(cellAt(run("RISK", "nonsense"), 0, 0))).toMatch(/\(Firmen-IDs, Argument „ids“\)/);
  });
});

describe("per-row functions", () => {
  it("PROFILE over a column answers one row per input row, blanks stay blank, bad ids are cell errors", () => {
    const { run, paths } = setup();
    const out = run("PROFILE", [[SAP], [""], ["nonsense"], [SAP], ["DEZZZZZZZZZ9"]], "name, city");
    expect(out).toHaveLength(5);
    expect(out[0]).toEqual(["SAP SE", "Walldorf"]);
    expect(out[1]).toEqual(["", ""]);
    expect(msg(cellAt(out, 2, 0))).toMatch(/keine Firmen-ID/);
    expect(out[3]).toEqual(["SAP SE", "Walldorf"]);
    expect(msg(cellAt(out, 4, 0))).toMatch(/Nicht gefunden/);
    // SAP asked once although it appears twice.
    expect(paths().filter((p) => p.endsWith(SAP))).toHaveLength(1);
  });

  it("a recalculation costs nothing: the second call is answered from the cache", () => {
    const { run, api } = setup();
    run("PROFILE", SAP);
    const before = api.requests.length;
    expect(nth(run("PROFILE", SAP), 0)[0]).toBe("SAP SE");
    expect(api.requests.length).toBe(before);
  });

  it("RESOLVE: one name uses the free endpoint, a range batch resolve; ambiguous lists candidates", () => {
    const { run, paths, spent } = setup();
    expect(run("RESOLVE", "SAP")).toEqual([[SAP, "SAP SE", "Walldorf", 0.97]]);
    expect(paths()).toEqual(["/v2/resolve"]);
    const amb = run("RESOLVE", "Müller GmbH");
    expect(msg(cellAt(amb, 0, 0))).toMatch(/Mehrdeutig.*Köln.*Bonn/);
    const col = run("RESOLVE", [["SAP SE"], ["Siemens AG"], [""], ["Nix"]]);
    expect(col.map((r) => r[0])).toEqual([SAP, SIEMENS, "", expect.anything()]);
    expect(paths().filter((p) => p.includes("batch"))).toHaveLength(1);
    expect(spent.reduce((a, s) => a + s.credits, 0)).toBe(1);
  });

  it("FINANCIALS with a metric gives one value per id; without, a table of years", () => {
    const { run } = setup();
    expect(run("FINANCIALS", [[SAP], [SIEMENS]], "Umsatz")).toEqual([[100], [100]]);
    expect(run("FINANCIALS", SAP, "profit", 2019)).toEqual([[1]]);
    const table = run("FINANCIALS", SAP);
    expect(nth(table, 0)[0]).toBe("Jahr");
    expect(nth(table, 1)[0]).toBe(2020);
    expect(msg(cellAt(run("FINANCIALS", SAP, "revenue", 2001), 0, 0))).toMatch(/2001/);
  });
});

describe("list functions", () => {
  it("single input: header + rows; several inputs: stacked with the input in front", () => {
    const { run } = setup();
    const one = run("PEOPLE", SAP);
    expect(one[0]).toEqual(["Personen-ID", "Name", "Rolle", "Seit", "Bis", "Ort"]);
    expect(nth(one, 1)[0]).toBe("P0000000001");
    const many = run("PEOPLE", [[SAP], [SIEMENS], ["bad"]]);
    expect(nth(many, 0)[0]).toBe("Firmen-ID");
    expect(many.map((r) => r[0])).toEqual(["Firmen-ID", SAP, SIEMENS, "bad"]);
    expect(msg(cellAt(many, 3, 1))).toMatch(/keine Firmen-ID/);
    expect(new Set(many.map((r) => r.length)).size).toBe(1);
  });

  it("SEARCH and CREDITS", () => {
    const { run } = setup();
    expect(nth(run("SEARCH", "Software", 5), 1)[0]).toBe(SAP);
    expect(nth(run("CREDITS"), 1)[0]).toBe(99);
  });
});

describe("hostile inputs never throw", () => {
  const hostile: unknown[] = [
    "",
    "x".repeat(10_000),
    '=HYPERLINK("http://evil","x")',
    "#N/A",
    42,
    new Date(2024, 0, 1),
    "🚀🏭",
    true,
    null,
    undefined,
    [[]],
    [["#REF!"]],
    NaN,
  ];
  for (const f of FUNCTIONS) {
    it(`${f.name} answers hostile inputs with cells`, () => {
      const { run } = setup();
      for (const h of hostile) {
        const args = f.params.map((_, i) => (i === 0 ? h : undefined));
        const out = run(f.name, ...(args.length ? args : [h]));
        expect(Array.isArray(out) && out.length > 0 && Array.isArray(out[0])).toBe(true);
        for (const row of out)
          for (const c of row) {
            if (isCellError(c)) expect(c.message).not.toMatch(/at .*\.ts|Error:|undefined/);
          }
      }
    });
  }
  it("names the problem", () => {
    const { run } = setup();
    expect(msg(cellAt(run("PROFILE", "x".repeat(10_000)), 0, 0))).toMatch(/zu lang \(10000 Zeichen/);
    expect(msg(cellAt(run("RESOLVE", '=HYPERLINK("x")'), 0, 0))).toMatch(/Formel/);
    expect(msg(cellAt(run("PROFILE", "#N/A"), 0, 0))).toMatch(/Fehlerwert/);
    expect(msg(cellAt(run("RESOLVE", new Date()), 0, 0))).toMatch(/Datum/);
    expect(msg(cellAt(run("PROFILE", ""), 0, 0))).toMatch(/fehlt/);
  });
});

describe("errors and budget", () => {
  it("no key: one clear message", () => {
    const { run, ctx } = setup();
    ctx.client.apiKey = null;
    expect(msg(cellAt(run("PROFILE", SAP), 0, 0))).toMatch(/Kein API-Schlüssel/);
  });

  it("the daily budget stops paid requests before they are sent", () => {
    const { run, api } = setup(2);
    expect(nth(run("PROFILE", SAP), 0)[0]).toBe("SAP SE");
    expect(nth(run("PROFILE", SIEMENS), 0)[0]).toBe("Siemens AG");
    const before = api.requests.length;
    const out = run("FINANCIALS", "DEAAAAAAAAA3", "revenue");
    expect(msg(cellAt(out, 0, 0))).toMatch(/Tagesbudget/);
    expect(api.requests.length).toBe(before);
    // Cached answers and free functions still work.
    expect(nth(run("PROFILE", SAP), 0)[0]).toBe("SAP SE");
    expect(nth(run("AVAILABILITY", SAP), 0)[0]).toBe(true);
  });

  it("the requests the budget sees carry the catalogue's price", () => {
    const { ctx } = testContext(() => 0);
    const priced = (spec: CallSpec) => buildRequest(ctx.client, spec).price;
    const include: Include[] = ["people", "financials"];
    expect(
      priced({ endpoint: "profile", path: { id: SAP }, query: { include: include.join(",") }, cost: { include } }),
    ).toEqual({ endpoint: "profile", credits: 6 });
    const companies = new Array(25).fill({ name: "a" });
    expect(priced({ endpoint: "batchResolve", body: { companies }, cost: { count: companies.length } })?.credits).toBe(
      3,
    );
    expect(priced({ endpoint: "resolve", body: { name: "a" } })?.credits).toBe(0);
    expect(priced({ endpoint: "v1.financials", path: { id: SAP } })?.credits).toBe(4);
    expect(priced({ endpoint: "financials", path: { id: SAP } })?.credits).toBe(4);
  });

  it("a service failure in one row does not fail the others, and speaks English when asked", () => {
    const { run, ctx } = setup(null, (req, url) =>
      url.pathname.endsWith(SAP)
        ? json(200, company(SAP, "SAP SE", "Walldorf"))
        : json(402, { error: { code: "INSUFFICIENT_CREDITS" } }),
    );
    ctx.client.language = "en";
    const out = run("PROFILE", [[SAP], [SIEMENS]], "name");
    expect(out[0]).toEqual(["SAP SE"]);
    expect(msg(cellAt(out, 1, 0))).toMatch(/Not enough credits/);
  });
});
