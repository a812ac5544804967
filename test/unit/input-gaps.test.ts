import { describe, expect, test } from "vitest";
import {
  batchResolveCost,
  endpoint,
  ENDPOINTS,
  profileCost,
  type EndpointId,
  type Include,
} from "../../shared/api/endpoints.ts";
import { normaliseKey } from "../../shared/batch/normalise.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { SEARCH_DEFAULTS as API_DEFAULTS } from "../../shared/api/defaults.ts";
import { SEARCH_DEFAULTS } from "../../shared/app/protocol.ts";
import { SEARCH } from "../../shared/functions/lookup.ts";

const fieldOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CompanyDataError);
    expect((e as CompanyDataError).code).toBe("INVALID_INPUT");
    return (e as CompanyDataError).details.field;
  }
  return "no error";
};

describe("core functions reject bad input with a typed error naming the field", () => {
  test("profileCost: an unknown include is INVALID_INPUT, never NaN", () => {
    expect(fieldOf(() => profileCost(["bogus" as Include]))).toBe("include");
    expect(fieldOf(() => profileCost("people" as never))).toBe("include");
    expect(profileCost(["people", "financials", "people"])).toBe(6);
    expect(fieldOf(() => endpoint("profile").cost({ include: ["x" as Include] }))).toBe("include");
  });
  test("counts are whole numbers: a NaN count is INVALID_INPUT, not a NaN price", () => {
    expect(fieldOf(() => batchResolveCost(NaN))).toBe("count");
    expect(fieldOf(() => endpoint("v1.financialsMany").cost({ count: 1.5 }))).toBe("count");
    expect(batchResolveCost(21)).toBe(3);
    expect(endpoint("v1.financialsMany").cost({ count: 3 })).toBe(12);
  });
  test("normaliseKey: null, a list, a text or a non-text hint is INVALID_INPUT", () => {
    for (const bad of [null, undefined, [], "Siemens AG"])
      expect(fieldOf(() => normaliseKey(bad as never))).toBe("query");
    expect(fieldOf(() => normaliseKey({ name: "A", city: {} } as never))).toBe("query.city");
    expect(normaliseKey({ name: "Siemens AG", zip: 80333 as never })).toBe(
      normaliseKey({ name: "SIEMENS Aktiengesellschaft", zip: "80333" }),
    );
  });
  test("endpoint: an id not in the catalogue is INVALID_INPUT naming endpoint, never undefined", () => {
    for (const bad of ["x", "", null, 5, "toString", "__proto__"])
      expect(fieldOf(() => endpoint(bad as EndpointId))).toBe("endpoint");
    for (const e of ENDPOINTS) expect(endpoint(e.id).id).toBe(e.id);
  });
});

describe("one set of search defaults", () => {
  test("the app re-exports the API's constant, and SEARCH's help states the same numbers", () => {
    expect(SEARCH_DEFAULTS).toBe(API_DEFAULTS);
    const help = (name: string) => SEARCH.params.find((p) => p.name === name)!.help;
    expect(help("size").en).toContain(`default ${API_DEFAULTS.size}`);
    expect(help("radius_km").de).toContain(`Standard ${API_DEFAULTS.radiusKm}`);
  });
});
