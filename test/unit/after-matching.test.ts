import { describe, expect, it } from "vitest";
import { priceAfterMatching } from "../../shared/enrich/after-matching.ts";
import { DEFAULT_FIELDS, FIELDS } from "../../shared/enrich/fields.ts";
import { profileCost } from "../../shared/api/endpoints.ts";

describe("priceAfterMatching", () => {
  const A = "DEJK7QV0PK24";
  const B = "DE0000000001";
  const C = "DE0000000002";

  it("counts each matched company once, at its profile's price with the run's includes", () => {
    const p = priceAfterMatching([A, B, A, C, B], DEFAULT_FIELDS);
    expect(p.companies).toBe(3);
    expect(p.perCompany).toBe(profileCost([]));
    expect(p.credits).toBe(3 * profileCost([]));
    expect(p.text.en).toBe(`After matching: 3 companies at most 1 credit each, at most 3 credits in all.`);
    expect(p.text.de).toBe(`Nach dem Abgleich: 3 Firmen zu je höchstens 1 Credit, zusammen höchstens 3 Credits.`);
  });

  it("leaves out what the run already holds, and prices includes", () => {
    const fin = FIELDS.filter((f) => f.group === "financials").map((f) => f.id);
    const p = priceAfterMatching([A, B, C], [...DEFAULT_FIELDS, ...fin], (id) => id === B);
    expect(p.companies).toBe(2);
    expect(p.perCompany).toBe(profileCost(["financials"]));
    expect(p.credits).toBe(2 * profileCost(["financials"]));
  });

  it("costs nothing when only the id is asked for", () => {
    const p = priceAfterMatching([A, B], ["id"]);
    expect(p).toMatchObject({ companies: 0, perCompany: 0, credits: 0 });
  });

  it("refuses an unknown field", () => {
    expect(() => priceAfterMatching([A], ["nonsense"])).toThrow();
  });
});
