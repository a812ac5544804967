/**
 * CSV and XLSX export of the playground's sheets. The CSV follows the UI's
 * language (`;` and decimal commas in German, `,` and points in English). Text that a spreadsheet
 * would read as a formula is neutralised in the CSV (OWASP CSV injection);
 * the XLSX writes every string as an inline string, which Excel never
 * evaluates. The XLSX writer is minimal on purpose: values only, one
 * worksheet per sheet, zipped with fflate.
 */
import { strToU8, zipSync } from "fflate";
import type { Cell } from "../shared/core/index.ts";
import { formatRow } from "../shared/sheet/index.ts";
import { toLanguage, type Language } from "../shared/i18n/index.ts";

/**
 * The CSV the spreadsheet of the user's language opens as columns: German
 * Excel splits on `;` and reads `0,3366` as a number, English Excel and
 * Sheets split on `,` and read `0.3366`. Numbers get no thousands separators
 * (either would be read as a decimal mark by the other convention).
 */
export const CSV_FORMAT: Readonly<Record<Language, { delimiter: string; decimal: string }>> = {
  de: { delimiter: ";", decimal: "," },
  en: { delimiter: ",", decimal: "." },
};

/** The UI's language as the page states it (shared/ui keeps `<html lang>` in step); German when unknown. */
export function pageLanguage(): Language {
  return typeof document !== "undefined" ? toLanguage(document.documentElement.lang, "de") : "de";
}

/** The grid as CSV in the page's language (the one CSV writer, shared/sheet/csv-write.ts), with a BOM so Excel reads UTF-8 (umlauts) correctly. */
export function toCsv(rows: Cell[][], lang: Language = pageLanguage()): string {
  const delimiter = CSV_FORMAT[lang].delimiter === ";" ? ";" : ",";
  return "\ufeff" + rows.map((r) => formatRow(r, delimiter)).join("");
}

const xml = (s: string) =>
  s
    .replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!)
    // Characters XML 1.0 does not allow.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "");

export function columnName(n: number): string {
  let s = "";
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

function sheetXml(rows: Cell[][]): string {
  const body = rows
    .map((row, i) => {
      const cells = row
        .map((v, j) => {
          const ref = `${columnName(j + 1)}${i + 1}`;
          if (v === null || v === undefined || v === "") return "";
          if (typeof v === "number" && Number.isFinite(v)) return `<c r="${ref}"><v>${v}</v></c>`;
          if (typeof v === "boolean") return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
          return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xml(String(v))}</t></is></c>`;
        })
        .join("");
      return `<row r="${i + 1}">${cells}</row>`;
    })
    .join("");
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
}

export function safeSheetName(name: string, used: Set<string>): string {
  const base =
    name
      .replace(/[[\]:*?/\\]/g, " ")
      .trim()
      .slice(0, 31) || "Sheet";
  let n = 2;
  let out = base;
  while (used.has(out.toLowerCase())) out = `${base.slice(0, 28)} ${n++}`;
  used.add(out.toLowerCase());
  return out;
}

export function toXlsx(sheets: { name: string; rows: Cell[][] }[]): Uint8Array {
  const used = new Set<string>();
  const names = sheets.map((s) => safeSheetName(s.name, used));
  const files: Record<string, Uint8Array> = {
    "[Content_Types].xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join("")}</Types>`,
    ),
    "_rels/.rels": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    "xl/workbook.xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${names.map((n, i) => `<sheet name="${xml(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("")}</sheets></workbook>`,
    ),
    "xl/_rels/workbook.xml.rels": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join("")}</Relationships>`,
    ),
  };
  sheets.forEach((s, i) => (files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(sheetXml(s.rows))));
  return zipSync(files, { level: 6 });
}
