import { describe, expect, test } from "vitest";
import * as V from "../../shared/api/validate.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { MAX_SIZE } from "../../shared/api/schemas.ts";

const field = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CompanyDataError);
    expect((e as CompanyDataError).code).toBe("INVALID_INPUT");
    return (e as CompanyDataError).details.field;
  }
  return "ok";
};

describe("validate", () => {
  test("company and person ids", () => {
    expect(V.companyId(" depiyx8y4m82 ")).toBe("DEPIYX8Y4M82");
    for (const bad of ["", "DE", "DEPIYX8Y4M8", "DEPIYX8Y4M823", "ATPIYX8Y4M82", "DE-IYX8Y4M82", null, 12, {}])
      expect(field(() => V.companyId(bad))).toBe("id");
    expect(field(() => V.companyId("x", "ids[3]"))).toBe("ids[3]");
    expect(V.personId("p0123456789")).toBe("P0123456789");
    expect(field(() => V.personId("DEPIYX8Y4M82"))).toBe("personId");
  });
  test("size 1..MAX_SIZE, radius, integer", () => {
    expect(V.size(undefined)).toBeUndefined();
    expect(V.size(MAX_SIZE)).toBe(MAX_SIZE);
    for (const bad of [0, -1, MAX_SIZE + 1, 1.5, NaN, Infinity, "5"]) expect(field(() => V.size(bad))).toBe("size");
    expect(V.radiusKm(0.5)).toBe(0.5);
    for (const bad of [0, -3, 501, "10"]) expect(field(() => V.radiusKm(bad))).toBe("radiusKm");
  });
  test("dates are calendar dates", () => {
    expect(V.isoDate("2024-02-29")).toBe("2024-02-29");
    expect(V.isoDate("2024-06-01T10:00:00Z")).toBe("2024-06-01T10:00:00Z");
    for (const bad of ["2023-02-29", "2024-13-01", "2024-1-1", "01.06.2024", "yesterday", "", 20240601, undefined])
      expect(field(() => V.isoDate(bad))).toBe("since");
  });
  test("names, batches, maxBatch, includes, queries", () => {
    expect(V.nonEmpty("  x ")).toBe("x");
    expect(field(() => V.nonEmpty("   "))).toBe("name");
    expect(field(() => V.batch([1, 2, 3], "ids", 2))).toBe("ids");
    expect(field(() => V.batch("x", "ids"))).toBe("ids");
    expect(V.maxBatch(30)).toBe(30);
    for (const bad of [0, 5, 25, 110, -10]) expect(field(() => V.maxBatch(bad))).toBe("maxBatch");
    expect(V.includes(["financials", "people", "people"])).toEqual(["people", "financials"]);
    expect(field(() => V.includes("people"))).toBe("include");
    expect(V.resolveQuery({ name: " A ", zip: 80333, city: " ", extra: 1 })).toEqual({ name: "A", zip: "80333" });
    expect(field(() => V.resolveQuery({ name: "A", zip: "12345678901" }))).toBe("zip");
    expect(field(() => V.resolveQuery({ name: "A" }, "rows[2]") && V.resolveQuery({}, "rows[2]"))).toBe("rows[2].name");
  });
});
