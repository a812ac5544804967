/** The playground's CSV export: the delimiter and decimal mark of the UI's language, BOM and formula neutralisation kept. */
import { describe, expect, it } from "vitest";
import { CSV_FORMAT, toCsv } from "../../playground/export.ts";

const rows = [
  ["Firmen-ID", "Firma", "Eigenkapitalquote", "Notiz"],
  ["DEJK7QV0PK24", "SAP SE", 0.3366, "=1+1"],
  ["DE4J7KGUR646", "Müller; Söhne, KG", 392747000, null],
];

describe("playground CSV export per language", () => {
  it("German: ; and decimal commas, so German Excel splits the columns and reads numbers", () => {
    const csv = toCsv(rows, "de");
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.slice(1).split("\r\n");
    expect(lines[0]).toBe("Firmen-ID;Firma;Eigenkapitalquote;Notiz");
    expect(lines[1]).toBe("DEJK7QV0PK24;SAP SE;0,3366;'=1+1");
    expect(lines[2]).toBe('DE4J7KGUR646;"Müller; Söhne, KG";392747000;');
  });

  it("English: , and decimal points", () => {
    const lines = toCsv(rows, "en").slice(1).split("\r\n");
    expect(lines[0]).toBe("Firmen-ID,Firma,Eigenkapitalquote,Notiz");
    expect(lines[1]).toBe("DEJK7QV0PK24,SAP SE,0.3366,'=1+1");
    expect(lines[2]).toBe('DE4J7KGUR646,"Müller; Söhne, KG",392747000,');
  });

  it("without a page the language defaults to German", () => {
    expect(toCsv([[1.5, "a"]])).toBe("\ufeff1,5;a\r\n");
    expect(CSV_FORMAT).toEqual({ de: { delimiter: ";", decimal: "," }, en: { delimiter: ",", decimal: "." } });
  });
});
