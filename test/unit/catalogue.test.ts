import { describe, expect, test } from "vitest";
import {
  ENDPOINTS,
  endpoint,
  profileCost,
  batchResolveCost,
  INCLUDE_COST,
  fillPath,
  type Endpoint,
  type Include,
} from "../../shared/api/endpoints.ts";

// Spec section 8.1, row by row: method, path, credits, billing.
const SPEC_8_1: [string, string, number | "ceil(n/10)", "credits" | "rate-limited"][] = [
  ["POST", "/v2/resolve", 0, "rate-limited"],
  ["GET", "/v2/suggest/{prefix}", 0, "rate-limited"],
  ["GET", "/v2/companies/{id}/availability", 0, "rate-limited"],
  ["GET", "/v2/account", 0, "rate-limited"],
  ["POST", "/v2/search", 1, "credits"],
  ["GET", "/v2/companies/{id}", 1, "credits"],
  ["GET", "/v2/companies/{id}/changes", 1, "credits"],
  ["GET", "/v2/companies/{id}/nearby", 1, "credits"],
  ["GET", "/v2/companies/{id}/people", 1, "credits"],
  ["GET", "/v2/companies/{id}/announcements", 1, "credits"],
  ["GET", "/v2/companies/{id}/peers", 2, "credits"],
  ["POST", "/v2/similar", 2, "credits"],
  ["GET", "/v2/people/{personId}/companies", 2, "credits"],
  ["GET", "/v2/companies/{id}/financials", 4, "credits"],
  ["POST", "/v2/companies/batch/resolve", "ceil(n/10)", "credits"],
];

// Spec section 4.2: every path of the older listing.
const SPEC_4_2: [string, string][] = [
  ["GET", "/companies/{id}/data"],
  ["POST", "/companies/data"],
  ["GET", "/companies/{id}/people"],
  ["POST", "/companies/people"],
  ["GET", "/companies/{id}/events"],
  ["POST", "/companies/events"],
  ["GET", "/companies/{id}/jobs"],
  ["POST", "/companies/jobs"],
  ["GET", "/companies/{id}/financials"],
  ["POST", "/companies/financials"],
  ["POST", "/lookup"],
  ["GET", "/companies/{id}/financials/exists"],
  ["POST", "/companies/financials/exists"],
  ["POST", "/search"],
  ["GET", "/suggest/{prefix}"],
  ["POST", "/recommend"],
];

const find = (method: string, path: string) =>
  (ENDPOINTS as readonly Endpoint[]).find((e) => e.method === method && e.path === path);

describe("catalogue against spec 8.1", () => {
  test.each(SPEC_8_1)("%s %s costs %s (%s)", (method, path, credits, billing) => {
    const e = find(method, path);
    expect(e, `${method} ${path} in the catalogue`).toBeDefined();
    expect(e!.version).toBe("v2");
    expect(e!.billing).toBe(billing);
    if (credits === "ceil(n/10)") {
      for (const [n, c] of [
        [0, 0],
        [1, 1],
        [9, 1],
        [10, 1],
        [11, 2],
        [20, 2],
        [95, 10],
        [100, 10],
        [101, 11],
      ])
        expect(e!.cost({ count: n })).toBe(c);
    } else {
      expect(e!.cost()).toBe(credits);
      expect(e!.cost({})).toBe(credits);
    }
    if (billing === "rate-limited") expect(e!.rateBucket).toBeDefined();
  });

  test("every v2 endpoint of 4.1 is in the table and there are exactly 15", () => {
    expect(ENDPOINTS.filter((e) => e.version === "v2")).toHaveLength(15);
    for (const e of ENDPOINTS.filter((x) => x.version === "v2"))
      expect(SPEC_8_1.some(([m, p]) => m === e.method && p === e.path)).toBe(true);
  });
});

describe("spec 8.2 rules", () => {
  const profile = endpoint("profile");
  test("rule 1: profile is 1 plus +1 people, +1 announcements, +4 financials", () => {
    const cases: [Include[], number][] = [
      [[], 1],
      [["people"], 2],
      [["announcements"], 2],
      [["financials"], 5],
      [["people", "announcements"], 3],
      [["people", "financials"], 6],
      [["announcements", "financials"], 6],
      [["people", "announcements", "financials"], 7],
    ];
    for (const [inc, c] of cases) {
      expect(profile.cost({ include: inc })).toBe(c);
      expect(profileCost(inc)).toBe(c);
    }
    expect(INCLUDE_COST).toEqual({ people: 1, announcements: 1, financials: 4 });
  });
  test("rule 1: a repeated include is charged once", () => {
    expect(profileCost(["people", "people"])).toBe(2);
  });
  test("rule 2: batch resolve, 10 companies cost 1, 100 cost 10, per started group of ten", () => {
    expect(batchResolveCost(10)).toBe(1);
    expect(batchResolveCost(100)).toBe(10);
    for (let n = 1; n <= 250; n++) expect(batchResolveCost(n)).toBe(Math.ceil(n / 10));
  });
  test("rule 3: zero-credit endpoints are rate-limited, all others credit-billed", () => {
    for (const e of ENDPOINTS) {
      const free = e.cost({ count: 10, include: ["people"] }) === 0;
      expect(e.billing === "rate-limited", e.id).toBe(free);
    }
  });
});

describe("older listing (4.2)", () => {
  test.each(SPEC_4_2)("%s %s is in the catalogue", (method, path) => {
    const e = find(method, path);
    expect(e).toBeDefined();
    expect(e!.version).toBe("v1");
  });
  test("exactly these paths", () => {
    expect(ENDPOINTS.filter((e) => e.version === "v1")).toHaveLength(SPEC_4_2.length);
  });
  test("many-company forms cost per company", () => {
    expect(endpoint("v1.financialsMany").cost({ count: 3 })).toBe(12);
    expect(endpoint("v1.dataMany").cost({ count: 0 })).toBe(0);
  });
});

describe("catalogue shape", () => {
  test("ids are unique, POSTs have request schemas, every entry has a response schema and bilingual summary", () => {
    expect(new Set(ENDPOINTS.map((e) => e.id)).size).toBe(ENDPOINTS.length);
    for (const e of ENDPOINTS) {
      if (e.method === "POST") expect("request" in e && e.request, e.id).toBeTruthy();
      expect(e.response, e.id).toBeTruthy();
      expect(e.summary.de.length).toBeGreaterThan(0);
      expect(e.summary.en.length).toBeGreaterThan(0);
      expect(e.priceText.length).toBeGreaterThan(0);
    }
  });
  test("endpoint(id) finds every entry", () => {
    for (const e of ENDPOINTS) expect(endpoint(e.id)).toBe(e);
  });
  test("fillPath encodes values and rejects missing ones", () => {
    expect(fillPath("/v2/suggest/{prefix}", { prefix: "Müller & Söhne/x" })).toBe(
      "/v2/suggest/M%C3%BCller%20%26%20S%C3%B6hne%2Fx",
    );
    expect(() => fillPath("/v2/companies/{id}", {})).toThrow();
  });
});
