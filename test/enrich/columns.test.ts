import { describe, expect, it } from "vitest";
import { detectColumns, normaliseHeader, validateMapping } from "../../shared/enrich/columns.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";

describe("detectColumns", () => {
  it("reads German headers", () => {
    expect(detectColumns(["Firma", "Straße", "PLZ", "Ort", "Handelsregister"]).mapping).toEqual({
      name: 0,
      zip: 2,
      city: 3,
      register: 4,
    });
  });
  it("reads English headers with odd case, spaces and punctuation", () => {
    expect(detectColumns([" company name ", "TOWN", "Post-code", "Register number", "Company ID"]).mapping).toEqual({
      name: 0,
      city: 1,
      zip: 2,
      register: 3,
      id: 4,
    });
  });
  it("recognises the German id header and umlaut-free spellings", () => {
    const m = detectColumns(["Firmen-ID", "Unternehmen", "Postleitzahl", "Stadt", "HRB"]).mapping;
    expect(m).toEqual({ id: 0, name: 1, zip: 2, city: 3, register: 4 });
  });
  it("prefers an exact header over one that merely contains a word, and uses a column once", () => {
    const m = detectColumns(["Ansprechpartner Firma", "Name", "City"]).mapping;
    expect(m.name).toBe(1);
    expect(m.city).toBe(2);
  });
  it("falls back to headers that contain a known word", () => {
    expect(detectColumns(["Kunde Firmenname (offiziell)", "Stadt (Sitz)"]).mapping).toEqual({ name: 0, city: 1 });
  });
  it("leaves roles out that have no column", () => {
    expect(detectColumns(["Umsatz", "Notiz"]).mapping).toEqual({});
  });
  it("normalises headers", () => {
    expect(normaliseHeader("  Größe / Straße ")).toBe("groessestrasse");
    expect(normaliseHeader(null)).toBe("");
  });
  it("rejects a mapping without name and id, out-of-range and doubly used columns", () => {
    expect(() => validateMapping({ city: 0 }, 2)).toThrow(CompanyDataError);
    expect(() => validateMapping({ name: 5 }, 2)).toThrow(/columns › company name/);
    expect(() => validateMapping({ name: 5 }, 2)).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ field: "columns.name" }) }),
    );
    expect(() => validateMapping({ name: 0, city: 0 }, 2)).toThrow(/already used/);
    expect(validateMapping({ name: 0, city: 1 }, 2)).toEqual({ name: 0, city: 1 });
  });
});
