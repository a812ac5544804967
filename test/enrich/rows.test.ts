import { describe, expect, it } from "vitest";
import { selectFields } from "../../shared/enrich/fields.ts";
import { isOutputHeader, outputCells, outputHeader, readPrevious } from "../../shared/enrich/rows.ts";

describe("output rows", () => {
  const fields = selectFields(["id", "name", "city", "status"]);

  it("suffixes output headers that clash with an input header, in either language", () => {
    expect(outputHeader(fields, "de", ["Firma", "Ort"])).toEqual([
      "Status",
      "Trefferqualität",
      "Firmen-ID",
      "Firmenname (Treffer)",
      "Ort (Treffer)",
      "Firmenstatus",
      "Stand",
    ]);
    expect(outputHeader(fields, "en", ["Company", "city", "Status"])).toEqual([
      "Status (match)",
      "Match confidence",
      "Company ID",
      "Matched name",
      "City (match)",
      "Company status",
      "As of",
    ]);
    // The suffixed name taken too: a number after it.
    expect(outputHeader(fields, "de", ["Ort", "Ort (Treffer)"])[4]).toBe("Ort (Treffer) 2");
    expect(outputHeader(fields, "de")).toEqual(outputHeader(fields, "de", ["Firma"]));
  });

  it("every header cell is unique once suffixed, and reads back as our own header", () => {
    for (const lang of ["de", "en"] as const) {
      const input = ["Firma", "Ort", "City", "Status", "Stand", "As of"];
      const out = outputHeader(fields, lang, input);
      const all = [...input, ...out].map((h) => h.toLowerCase());
      expect(new Set(all).size).toBe(all.length);
      expect(isOutputHeader(out, fields)).toBe(true);
    }
    expect(
      isOutputHeader(["Status", "Trefferqualität", "Firmen-ID", "Firmenname", "Ort", "Firmenstatus", "Stand"], fields),
    ).toBe(false);
  });

  it("a row without a name gets a status that reads back as skipped", () => {
    const empty = { outcome: "empty" as const, id: null, confidence: null, asOf: null, values: [] };
    const de = outputCells(empty, fields.length, "de");
    expect(de[0]).toBe("übersprungen: kein Name");
    expect(de.length).toBe(fields.length + 3);
    expect(outputCells(empty, fields.length, "en")[0]).toBe("skipped: no name");
    expect(readPrevious(de, fields.length)?.outcome).toBe("empty");
  });
});
