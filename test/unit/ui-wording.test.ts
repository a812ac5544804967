/** Counted nouns in the UI's strings, and the radius search's order (issue 19). */
import { describe, expect, test } from "vitest";
import { format, STRINGS } from "../../shared/ui/strings.ts";
import { byDistance } from "../../shared/app/company-methods.ts";
import { companyRow } from "../../shared/app/rows.ts";
import { fieldLabel } from "../../shared/i18n/fields.ts";

describe("counted nouns", () => {
  test("one reads singular, other counts plural, in both languages", () => {
    expect(format(STRINGS.selectionInfo.de, { sheet: "A", rows: 1, cols: 1 })).toBe("A: 1 Zeile, 1 Spalte");
    expect(format(STRINGS.selectionInfo.de, { sheet: "A", rows: 0, cols: 3 })).toBe("A: 0 Zeilen, 3 Spalten");
    expect(format(STRINGS.selectionInfo.en, { sheet: "A", rows: 1, cols: 2 })).toBe("A: 1 row, 2 columns");
    expect(format(STRINGS.resultsCaption.de, { n: 1 })).toBe("1 Firma");
    expect(format(STRINGS.reviewTitle.de, { n: 1 })).toBe("1 Zeile prüfen");
    expect(format(STRINGS.reviewTitle.en, { n: 2 })).toBe("Review 2 rows");
    expect(format(STRINGS.previewRows.de, { rows: 1, all: 1, distinct: 1 })).toBe(
      "1 von 1 Zeile wird bearbeitet (1 Firma).",
    );
    expect(format(STRINGS.previewRows.en, { rows: 3, all: 5, distinct: 2 })).toBe(
      "3 of 5 rows will be processed (2 distinct companies).",
    );
    // A plural slot whose count is not given stays visible rather than guessing.
    expect(format("{k|a|b}", { n: 1 })).toBe("{k|a|b}");
  });

  test("the monitor's hour is named by its label", () => {
    expect(fieldLabel("hour", "de")).toBe("Uhrzeit (Stunde)");
    expect(fieldLabel("hour", "en")).toBe("hour of day");
  });
});

describe("radius search order", () => {
  test("nearest first, ties in the service's order, no distance last", () => {
    const rows = [
      { id: "DEA000000001", distanceKm: 12 },
      { id: "DEA000000002" },
      { id: "DEA000000003", distanceKm: 3.5 },
      { id: "DEA000000004", distanceKm: 12 },
      { id: "DEA000000005", distanceKm: 0 },
    ].map(companyRow);
    expect(byDistance(rows).map((r) => r.id)).toEqual([
      "DEA000000005",
      "DEA000000003",
      "DEA000000001",
      "DEA000000004",
      "DEA000000002",
    ]);
  });
});
