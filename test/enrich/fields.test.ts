import { describe, expect, it } from "vitest";
import {
  FIELDS,
  availableIncludes,
  companyCost,
  field,
  fieldNeeds,
  latestFinancials,
  parseFieldList,
  selectFields,
} from "../../shared/enrich/fields.ts";
import type { Company } from "../../shared/api/schemas.ts";
import { asText } from "../../shared/sheet/text.ts";

const company = {
  id: "DEJK7QV0PK24",
  name: "SAP SE",
  street: "Dietmar-Hopp-Allee 16",
  zip: "69190",
  city: "Walldorf",
  register: { court: "Amtsgericht Mannheim", type: "HRB", number: "719915" },
  legalForm: { code: "SE", name: "Europäische Gesellschaft" },
  capital: { amount: 1228504232, currency: "EUR" },
  people: [
    { personId: "P0000000001", name: "A", role: { code: "CEO", name: "Vorstand" } },
    { personId: "P0000000002", name: "B", until: "2020-01-01" },
  ],
  announcements: [
    { date: "2024-01-02", type: { code: "CHANGE", name: "Veränderung" }, text: "x" },
    { date: "2024-05-06", type: { code: "CAPITAL_CHANGE" }, text: "y" },
  ],
  financials: [
    { year: 2020, revenue: 1 },
    { year: 2021, revenue: 2, reportType: "concern" },
    { year: 2021, revenue: 3, reportType: "company", equityRatio: 0.33 },
  ],
} as unknown as Company;
const src = { summary: null, company, lang: "de" as const };

describe("field catalogue", () => {
  it("has unique ids and DE/EN headers for every field", () => {
    expect(new Set(FIELDS.map((f) => f.id)).size).toBe(FIELDS.length);
    for (const f of FIELDS) expect(f.header.de && f.header.en).toBeTruthy();
  });
  it("extracts values as cells", () => {
    expect(field("register")!.extract(src)).toBe("Amtsgericht Mannheim HRB 719915");
    expect(field("address")!.extract(src)).toBe("Dietmar-Hopp-Allee 16, 69190 Walldorf");
    expect(field("legalForm")!.extract(src)).toBe("Europäische Gesellschaft");
    expect(field("capital")!.extract(src)).toBe(1228504232);
    expect(field("management")!.extract(src)).toBe("A (Vorstand)");
    expect(field("peopleCount")!.extract(src)).toBe(1);
    expect(field("lastAnnouncementDate")!.extract(src)).toBe("2024-05-06");
    expect(field("lastAnnouncementType")!.extract(src)).toBe("CAPITAL_CHANGE");
    expect(field("phone")!.extract(src)).toBe("");
    expect(field("peopleCount")!.extract({ ...src, company: { ...company, people: null } })).toBe("");
  });
  it("takes the latest year, the company's own report over the group's", () => {
    expect(latestFinancials(company)).toMatchObject({ year: 2021, revenue: 3 });
    expect(field("revenue")!.extract(src)).toBe(3);
    expect(field("equityRatio")!.extract(src)).toBe(0.33);
  });
  it("reads summary fields from the match when no profile was fetched", () => {
    expect(
      field("city")!.extract({ summary: { id: "DEJK7QV0PK24", city: "Walldorf" }, company: null, lang: "en" }),
    ).toBe("Walldorf");
  });
  it("selects fields in catalogue order with the id first, and rejects unknown ones", () => {
    expect(selectFields(["revenue", "city"]).map((f) => f.id)).toEqual(["id", "city", "revenue"]);
    expect(() => selectFields(["nope"])).toThrow(/nope/);
    expect(parseFieldList("name, financials")).toContain("equityRatio");
    expect(parseFieldList("all").length).toBe(FIELDS.length);
  });
  it("knows what the fields need and what that costs", () => {
    const n = fieldNeeds(selectFields(["name", "revenue", "management"]));
    expect(n.resolved).toEqual({ profile: true, include: ["people", "financials"] });
    expect(companyCost(n.resolved)).toBe(6);
    const r = fieldNeeds(selectFields(["name", "city"]));
    expect(r.resolved.profile).toBe(false);
    expect(r.givenId.profile).toBe(true);
    expect(fieldNeeds(selectFields([])).givenId.profile).toBe(false);
    expect(availableIncludes(["people", "financials"], { financials: false })).toEqual(["people"]);
  });
});

describe("asText", () => {
  it("neutralises formula starts and keeps numbers", () => {
    for (const s of ["=1+1", "+49 30", "-x", "@SUM(A1)", "\tx", "\rx", "\nx"]) expect(asText(s)).toBe("'" + s);
    expect(asText("SAP SE")).toBe("SAP SE");
    expect(asText(-5)).toBe(-5);
    expect(asText(true)).toBe(true);
    expect(asText(null)).toBe(null);
  });
});
