import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { estimate, sum, type PlannedOperation } from "../../shared/app/estimate.ts";
import { ENDPOINTS, type EndpointId, type Include } from "../../shared/api/endpoints.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { NOUNS, countText, groupDigits } from "../../shared/credits/wording.ts";
import { parseFieldList } from "../../shared/enrich/fields.ts";
import { nth, valueAt } from "../helpers/indexed.ts";

const code = (op: unknown) => {
  try {
    estimate(op as PlannedOperation);
  } catch (e) {
    return `${(e as CompanyDataError).code}:${(e as CompanyDataError).details.field}`;
  }
  return "ok";
};

describe("estimate", () => {
  test("search, suggest, availability", () => {
    expect(estimate({ kind: "search" })).toMatchObject({ credits: 1, requests: 1, paidRequests: 1, freeRequests: 0 });
    expect(estimate({ kind: "search", count: 3 }).credits).toBe(3);
    expect(estimate({ kind: "suggest", count: 4 })).toMatchObject({
      credits: 0,
      requests: 4,
      paidRequests: 0,
      freeRequests: 4,
    });
    expect(estimate({ kind: "availability", count: 10 })).toMatchObject({ credits: 0, freeRequests: 10 });
  });
  test("profiles with includes (spec 8.2 rule 1)", () => {
    expect(estimate({ kind: "profile", count: 1 }).credits).toBe(1);
    expect(estimate({ kind: "profile", count: 1, include: ["people"] }).credits).toBe(2);
    expect(estimate({ kind: "profile", count: 1, include: ["announcements"] }).credits).toBe(2);
    expect(estimate({ kind: "profile", count: 1, include: ["financials"] }).credits).toBe(5);
    expect(estimate({ kind: "profile", count: 1, include: ["people", "announcements", "financials"] }).credits).toBe(7);
    expect(estimate({ kind: "profile", count: 10, include: ["people", "financials"] })).toMatchObject({
      credits: 60,
      requests: 10,
    });
  });
  test("resolve: batch mode pays per started ten per call, free mode pays nothing", () => {
    expect(estimate({ kind: "resolve", rows: 235, mode: "batch", maxBatch: 100 })).toMatchObject({
      credits: 24,
      requests: 3,
      paidRequests: 3,
    });
    expect(estimate({ kind: "resolve", rows: 235, distinct: 120, mode: "batch", maxBatch: 50 })).toMatchObject({
      credits: 12,
      requests: 3,
    });
    expect(estimate({ kind: "resolve", rows: 235, distinct: 120, cached: 115, mode: "batch" })).toMatchObject({
      credits: 1,
      requests: 1,
    });
    expect(estimate({ kind: "resolve", rows: 5, distinct: 5, cached: 5, mode: "batch" })).toMatchObject({
      credits: 0,
      requests: 0,
      breakdown: [],
    });
    expect(estimate({ kind: "resolve", rows: 40, distinct: 30, mode: "free" })).toMatchObject({
      credits: 0,
      requests: 30,
      freeRequests: 30,
    });
  });
  test("any single catalogue call and a generic list", () => {
    for (const e of ENDPOINTS)
      expect(estimate({ kind: "call", endpoint: e.id, cost: { count: 20, include: ["financials"] } }).credits).toBe(
        e.cost({ count: 20, include: ["financials"] }),
      );
    const list = estimate({
      kind: "calls",
      calls: [
        { endpoint: "peers" },
        { endpoint: "financials" },
        { endpoint: "account" },
        { endpoint: "batchResolve", cost: { count: 11 } },
      ],
    });
    expect(list).toMatchObject({ credits: 8, requests: 4, paidRequests: 3, freeRequests: 1 });
    expect(list.breakdown).toHaveLength(4);
  });
  test("composite plans add up; breakdown lines sum to the total, in both languages", () => {
    const e = estimate({
      kind: "all",
      parts: [
        { kind: "resolve", rows: 25, mode: "batch" },
        { kind: "profile", count: 20, include: ["people"] },
        { kind: "availability", count: 20 },
      ],
    });
    expect(e).toMatchObject({ credits: 3 + 40, requests: 1 + 20 + 20, paidRequests: 21, freeRequests: 20 });
    expect(e.breakdown.reduce((s, l) => s + l.credits, 0)).toBe(e.credits);
    expect(e.breakdown.reduce((s, l) => s + l.requests, 0)).toBe(e.requests);
    for (const l of e.breakdown) {
      expect(l.label.de).toBeTruthy();
      expect(l.label.en).toBeTruthy();
    }
  });
  test("bad input is a typed error naming the problem", () => {
    expect(code({ kind: "profile", count: -1 })).toBe("INVALID_INPUT:count");
    expect(code({ kind: "profile", count: 1, include: ["salaries"] })).toBe("INVALID_INPUT:include");
    expect(code({ kind: "resolve", rows: 10, distinct: 11, mode: "batch" })).toBe("INVALID_INPUT:distinct");
    expect(code({ kind: "resolve", rows: 10, cached: 11, mode: "batch" })).toBe("INVALID_INPUT:cached");
    expect(code({ kind: "resolve", rows: 10, mode: "batch", maxBatch: 25 })).toBe("INVALID_INPUT:maxBatch");
    expect(code({ kind: "resolve", rows: 10, mode: "turbo" })).toBe("INVALID_INPUT:mode");
    expect(code({ kind: "call", endpoint: "nope" })).toBe("INVALID_INPUT:endpoint");
    expect(code({ kind: "teleport" })).toBe("INVALID_INPUT:operation");
    expect(code(null)).toBe("INVALID_INPUT:operation");
    expect(code({ kind: "search", count: 1.5 })).toBe("INVALID_INPUT:count");
  });
});

const includes = fc.subarray(["people", "announcements", "financials"] as Include[]);
const TABLE: Record<string, number> = {
  search: 1,
  profile: 1,
  changes: 1,
  nearby: 1,
  people: 1,
  announcements: 1,
  peers: 2,
  similar: 2,
  personCompanies: 2,
  financials: 4,
  resolve: 0,
  suggest: 0,
  availability: 0,
  account: 0,
};
const plan: fc.Arbitrary<PlannedOperation> = fc.oneof(
  fc.record({ kind: fc.constant("search" as const), count: fc.nat(50) }),
  fc.record({ kind: fc.constant("suggest" as const), count: fc.nat(50) }),
  fc.record({ kind: fc.constant("profile" as const), count: fc.nat(50), include: includes }),
  fc.nat(500).chain((rows) =>
    fc.record({
      kind: fc.constant("resolve" as const),
      rows: fc.constant(rows),
      distinct: fc.integer({ min: 0, max: rows }),
      mode: fc.constantFrom("batch" as const, "free" as const),
      maxBatch: fc.integer({ min: 1, max: 10 }).map((n) => n * 10),
    }),
  ),
  fc.record({
    kind: fc.constant("call" as const),
    endpoint: fc.constantFrom(...(Object.keys(TABLE) as EndpointId[])),
    count: fc.nat(20),
  }),
);

/** The spec's table applied by hand, independently of the catalogue code. */
function specCredits(op: PlannedOperation): number {
  switch (op.kind) {
    case "search":
      return op.count ?? 1;
    case "suggest":
      return 0;
    case "profile":
      return (
        op.count * (1 + (op.include ?? []).reduce((s, i) => s + { people: 1, announcements: 1, financials: 4 }[i], 0))
      );
    case "resolve": {
      if (op.mode === "free") return 0;
      let left = op.distinct ?? op.rows,
        c = 0;
      while (left > 0) {
        const n = Math.min(left, op.maxBatch ?? 100);
        c += Math.ceil(n / 10);
        left -= n;
      }
      return c;
    }
    case "call":
      return valueAt(TABLE, op.endpoint) * (op.count ?? 1);
    default:
      throw new Error("not generated");
  }
}

describe("estimator properties", () => {
  test("the cost of a plan equals the sum the spec's table gives", () => {
    fc.assert(
      fc.property(fc.array(plan, { maxLength: 8 }), (parts) => {
        const e = estimate({ kind: "all", parts });
        expect(e.credits).toBe(parts.reduce((s, p) => s + specCredits(p), 0));
        expect(e.paidRequests + e.freeRequests).toBe(e.requests);
        expect(e.breakdown.reduce((s, l) => s + l.credits, 0)).toBe(e.credits);
      }),
    );
  });
  test("estimates are additive", () => {
    fc.assert(
      fc.property(plan, plan, (a, b) => {
        const both = estimate({ kind: "all", parts: [a, b] });
        const s = sum([estimate(a), estimate(b)]);
        expect(both).toEqual(s);
      }),
    );
  });
  test("batch resolve is never dearer than ceil(distinct/10)", () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.integer({ min: 1, max: 10 }), (n, k) => {
        expect(estimate({ kind: "resolve", rows: n, mode: "batch", maxBatch: k * 10 }).credits).toBe(Math.ceil(n / 10));
      }),
    );
  });
});

describe("estimate wording: include names and singular/plural in both languages", () => {
  test("profile lines name the includes in the line's language", () => {
    const e = estimate({ kind: "profile", count: 7, include: ["people", "financials"] });
    expect(nth(e.breakdown, 0).label).toEqual({
      de: "7 Profile mit Personen, Finanzdaten",
      en: "7 profiles with people, financials",
    });
    const one = estimate({ kind: "profile", count: 1, include: ["announcements"] });
    expect(nth(one.breakdown, 0).label).toEqual({
      de: "1 Profil mit Bekanntmachungen",
      en: "1 profile with announcements",
    });
    expect(nth(estimate({ kind: "profile", count: 1 }).breakdown, 0).label).toEqual({
      de: "1 Profil",
      en: "1 profile",
    });
  });

  test("resolve lines count singular and plural, with digit grouping per language", () => {
    expect(nth(estimate({ kind: "resolve", rows: 1, mode: "batch" }).breakdown, 0).label).toEqual({
      de: "1 Firma in 1 Stapelabfrage",
      en: "1 company in 1 batch call",
    });
    expect(nth(estimate({ kind: "resolve", rows: 1200, mode: "batch" }).breakdown, 0).label).toEqual({
      de: "1.200 Firmen in 12 Stapelabfragen",
      en: "1,200 companies in 12 batch calls",
    });
    expect(nth(estimate({ kind: "resolve", rows: 1, mode: "free" }).breakdown, 0).label).toEqual({
      de: "1 Einzelabfrage (kostenlos)",
      en: "1 single resolve (free)",
    });
  });

  test("enrichment lines: German include names, singulars", () => {
    const e = estimate({
      kind: "enrich",
      rows: [["SAP SE"]],
      mapping: { name: 0 },
      fields: parseFieldList("name,financials,people"),
    });
    const labels = e.breakdown.map((b) => b.label);
    for (const l of labels) {
      expect(l.de).not.toMatch(/people|financials|announcements/);
      expect(l.de).not.toMatch(/(^|\D)1 (Profile|Verfügbarkeitsprüfungen)\b/);
      expect(l.en).not.toMatch(/(^|\D)1 (profiles|names|availability checks)\b/);
    }
    expect(labels.map((l) => l.de)).toContain("1 Profil mit Personen, Finanzdaten");
    expect(labels.map((l) => l.en)).toContain("1 profile with people, financials");
  });

  test("countText and groupDigits", () => {
    expect(countText(1, NOUNS.credit, "de")).toBe("1 Credit");
    expect(countText(0, NOUNS.credit, "en")).toBe("0 credits");
    expect(countText(1, NOUNS.request, "de")).toBe("1 Anfrage");
    expect(countText(2, NOUNS.request, "en")).toBe("2 requests");
    expect(groupDigits(999838, "de")).toBe("999.838");
    expect(groupDigits(999838, "en")).toBe("999,838");
    expect(groupDigits(-1234567, "de")).toBe("-1.234.567");
    expect(groupDigits(999, "en")).toBe("999");
  });
});
