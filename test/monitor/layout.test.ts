import { describe, expect, it } from "vitest";
import { layoutOf, OUTPUT_HEADERS } from "../../shared/monitor/layout.ts";

describe("the Checked column states its time base", () => {
  it("a new column is headed with UTC in the user's language", () => {
    for (const lang of ["de", "en"] as const) {
      const l = layoutOf(["Firma"], lang);
      const header = l.newHeaders.get(l.out.checked);
      expect(header).toBe(lang === "de" ? "Geprüft (UTC)" : "Checked (UTC)");
      expect(header).toBe(OUTPUT_HEADERS[lang].checked);
    }
  });
  it("an unlabelled column of an earlier run keeps its place and language and is relabelled", () => {
    const l = layoutOf(["Company", "ID", "Checked"], "de");
    expect(l.out.checked).toBe(2);
    expect(l.newHeaders.get(2)).toBe("Checked (UTC)");
    const g = layoutOf(["Firma", "ID", "Geprüft"], "en");
    expect(g.newHeaders.get(2)).toBe("Geprüft (UTC)");
  });
  it("a labelled column is found again and left alone", () => {
    const l = layoutOf(["Firma", "ID", "Geprüft (UTC)"], "de");
    expect(l.out.checked).toBe(2);
    expect(l.newHeaders.has(2)).toBe(false);
  });
});
