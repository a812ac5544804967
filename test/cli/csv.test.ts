import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  CsvError,
  CsvParser,
  detectDelimiter,
  formatRow,
  MAX_FIELD_CHARS,
  MAX_ROW_CHARS,
  parseCsv,
} from "../../cli/csv.ts";
import { nth } from "../helpers/indexed.ts";

describe("csv", () => {
  it("reads quotes, doubled quotes, embedded delimiters and line breaks, CRLF and a BOM", () => {
    const text = '\ufeffFirma;Ort\r\n"Müller ""&"" Söhne; GmbH";"Köln\r\nPorz"\r\nSAP SE;Walldorf';
    expect(parseCsv(text)).toEqual([
      ["Firma", "Ort"],
      ['Müller "&" Söhne; GmbH', "Köln\r\nPorz"],
      ["SAP SE", "Walldorf"],
    ]);
  });
  it("detects ; , and tab from the header line", () => {
    expect(detectDelimiter("Firma;Ort;PLZ")).toBe(";");
    expect(detectDelimiter('"a;b",c,d')).toBe(",");
    expect(detectDelimiter("a\tb")).toBe("\t");
    expect(detectDelimiter("Firma")).toBe(",");
  });
  it("rejects an unclosed quote and text after a closing quote", () => {
    expect(() => parseCsv('a,b\n"x,y\n')).toThrow(/not closed/);
    expect(() => parseCsv('a,b\n"x"y,z\n')).toThrow(/after a closing quote/);
  });
  it("neutralises formula starts when writing", () => {
    expect(formatRow(["=1+1", "+49", "-", "@x", "ok", 5, -3, null, true], ",")).toBe(
      "'=1+1,'+49,'-,'@x,ok,5,-3,,TRUE\r\n",
    );
  });
  it("writes the user's own cells as they were and neutralises only the API's text after them", () => {
    expect(formatRow(["-5", "+/- Umsatz", "=SUMME(A1)", "a;b", "=1+1", "-", "ok"], ";", 4)).toBe(
      "-5;+/- Umsatz;=SUMME(A1);\"a;b\";'=1+1;'-;ok\r\n",
    );
  });
  it("round-trips any table through writer and parser, in any chunking", () => {
    const cell = fc
      .string({ unit: fc.constantFrom("a", "ä", " ", ",", ";", '"', "\n", "\r\n", "x", "'") })
      .filter((c) => !/^[\r\n]/.test(c));
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(",", ";"),
        fc.integer({ min: 1, max: 7 }),
        (rows, d, step) => {
          const width = nth(rows, 0).length;
          const table = rows.map((r) => [...r, ...Array(width).fill("")].slice(0, width));
          // Cells starting with = + - @ would be neutralised; the generator has none.
          const text = table.map((r) => formatRow(r, d)).join("");
          const p = new CsvParser(d);
          const out: string[][] = [];
          for (let i = 0; i < text.length; i += step) out.push(...p.push(text.slice(i, i + step)));
          out.push(...p.end());
          expect(out).toEqual(table);
        },
      ),
    );
  });
  it("keeps its limits and line numbers when it takes runs of plain text at once, in any chunking", () => {
    const parse = (text: string, step: number) => {
      const p = new CsvParser(",");
      const out: string[][] = [];
      for (let i = 0; i < text.length; i += step) out.push(...p.push(text.slice(i, i + step)));
      return [...out, ...p.end()];
    };
    const failure = (text: string, step: number) => {
      try {
        parse(text, step);
        return null;
      } catch (e) {
        return e instanceof CsvError ? `${e.line}: ${e.message}` : String(e);
      }
    };
    const full = "x".repeat(MAX_FIELD_CHARS);
    for (const step of [1 << 20, 7, 65_536]) {
      // A field of the largest length is read; one character more is refused on its line.
      expect(parse(`a,b\n${full},y\n`, step)).toEqual([
        ["a", "b"],
        [full, "y"],
      ]);
      expect(failure(`a,b\n${full}x,y\n`, step)).toMatch(/^2: a field is longer/);
      expect(failure(`a,b\n"${full}x"\n`, step)).toMatch(/^2: a field is longer/);
      // Line breaks inside quotes count: the text after a closing quote is named on its own line.
      expect(failure(`a,b\n"one\ntwo\nthree"x,y\n`, step)).toBe("4: text after a closing quote");
      const cell = "y".repeat(MAX_FIELD_CHARS - 1);
      const long = Array(Math.ceil(MAX_ROW_CHARS / MAX_FIELD_CHARS) + 1)
        .fill(cell)
        .join(",");
      expect(failure(`a\n"q"\n${long}\n`, step)).toMatch(/^3: a row is longer/);
    }
  });
});
