import { describe, expect, it } from "vitest";
import { namesAgree, pairByKey, rowKey } from "../../shared/enrich/row-key.ts";

describe("rowKey", () => {
  const m = { name: 0, city: 1, zip: 2 };
  it("is the same for the same company written differently", () => {
    expect(rowKey(["Siemens AG", "München", 80333], m)).toBe(
      rowKey(["SIEMENS Aktiengesellschaft", "muenchen", "80333"], m),
    );
    expect(rowKey(["A GmbH", "Dresden", 1067], m)).toBe(rowKey(["A GmbH", "Dresden", "01067"], m));
  });
  it("changes when an input cell changes", () => {
    expect(rowKey(["Siemens AG", "München", ""], m)).not.toBe(rowKey(["Siemens AG", "Berlin", ""], m));
  });
  it("does not depend on column order", () => {
    expect(rowKey(["Siemens AG", "München"], { name: 0, city: 1 })).toBe(
      rowKey(["München", "Siemens AG"], { name: 1, city: 0 }),
    );
  });
  it("is empty for a row without input", () => {
    expect(rowKey(["", null, undefined as never], m)).toBe("");
  });
  it("keeps text whose normal form is empty: such a row is input, not an empty row", () => {
    expect(rowKey(["🏢🚀", "", ""], m)).not.toBe("");
    expect(rowKey(["🏢🚀", "", ""], m)).not.toBe(rowKey(["!!!", "", ""], m));
  });
});

describe("pairByKey", () => {
  it("finds moved rows, pairs duplicates in order, leaves new rows unpaired", () => {
    expect(pairByKey(["a", "b", "a", "c"], ["c", "a", "x", "a", "a", "b", ""])).toEqual([3, 0, null, 2, null, 1, null]);
  });
});

describe("namesAgree", () => {
  it("accepts the same company written differently or shorter, refuses another company", () => {
    expect(namesAgree("Siemens AG", "SIEMENS Aktiengesellschaft")).toBe(true);
    expect(namesAgree("Siemens", "Siemens Aktiengesellschaft")).toBe(true);
    expect(namesAgree("Firma 1 GmbH", "Firma 2 GmbH")).toBe(false);
    expect(namesAgree("BASF SE", "Bayer AG")).toBe(false);
  });
});
