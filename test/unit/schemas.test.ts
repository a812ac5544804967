import { describe, expect, test } from "vitest";
import * as S from "../../shared/api/schemas.ts";

describe("responses parse leniently", () => {
  test("unknown fields are ignored", () => {
    const r = S.Company.safeParse({
      id: "DEPIYX8Y4M82",
      name: "Siemens AG",
      brandNew: { x: 1 },
      legalForm: { code: "AG", name: "AG", extra: true },
    });
    expect(r.success).toBe(true);
    expect(r.data).not.toHaveProperty("brandNew");
    expect(r.data!.legalForm).toEqual({ code: "AG", name: "AG" });
  });
  test("missing optional fields never throw", () => {
    const r = S.Company.safeParse({ id: "DEPIYX8Y4M82" });
    expect(r.success).toBe(true);
    expect(r.data!.name ?? null).toBeNull();
  });
  test("a mistyped optional field becomes null instead of failing the record", () => {
    const r = S.Company.safeParse({ id: "DEPIYX8Y4M82", name: 42, geo: "north", employees: { count: "many" } });
    expect(r.success).toBe(true);
    expect(r.data!.name).toBeNull();
    expect(r.data!.geo).toBeNull();
    expect(r.data!.employees).toBeNull();
  });
  test("a broken or missing list becomes empty", () => {
    expect(S.SearchResponse.parse({ companies: "none" }).companies).toEqual([]);
    expect(S.SearchResponse.parse({}).companies).toEqual([]);
    expect(S.PeopleResponse.parse({ people: null }).people).toEqual([]);
  });
  test("the id is required: a record without one is rejected", () => {
    expect(S.Company.safeParse({ name: "x" }).success).toBe(false);
  });
  test("resolve results: unknown status becomes not_found", () => {
    const r = S.ResolveResult.parse({ status: "maybe", confidence: "high" });
    expect(r.status).toBe("not_found");
    expect(r.confidence).toBeNull();
    expect(r.candidates).toEqual([]);
  });
  test("account: credits is required and numeric", () => {
    expect(S.AccountResponse.safeParse({ credits: 5, usage: "x" }).success).toBe(true);
    expect(S.AccountResponse.safeParse({}).success).toBe(false);
  });
});

describe("requests are strict", () => {
  test("unknown body fields and bad sizes are rejected", () => {
    expect(S.SearchRequest.safeParse({ query: "x", foo: 1 }).success).toBe(false);
    expect(S.SearchRequest.safeParse({ query: "x", size: 0 }).success).toBe(false);
    expect(S.SearchRequest.safeParse({ query: "x", size: S.MAX_SIZE + 1 }).success).toBe(false);
    expect(S.SearchRequest.safeParse({ query: "x", size: 10 }).success).toBe(true);
  });
  test("batch resolve: 1..MAX_BATCH companies, each with a name", () => {
    const c = (n: number) => ({ companies: Array.from({ length: n }, (_, i) => ({ name: `F${i}` })) });
    expect(S.BatchResolveRequest.safeParse(c(0)).success).toBe(false);
    expect(S.BatchResolveRequest.safeParse(c(S.MAX_BATCH)).success).toBe(true);
    expect(S.BatchResolveRequest.safeParse(c(S.MAX_BATCH + 1)).success).toBe(false);
    expect(S.BatchResolveRequest.safeParse({ companies: [{ name: "" }] }).success).toBe(false);
  });
  test("id patterns", () => {
    expect(S.COMPANY_ID_PATTERN.test("DEPIYX8Y4M82")).toBe(true);
    expect(S.COMPANY_ID_PATTERN.test("DEPIYX8Y4M8")).toBe(false);
    expect(S.COMPANY_ID_PATTERN.test("ATPIYX8Y4M82")).toBe(false);
    expect(S.PERSON_ID_PATTERN.test("P0123456789")).toBe(true);
  });
});
