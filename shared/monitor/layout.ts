/**
 * The portfolio sheet's layout: which columns are input (ID, name, city, …,
 * detected from the header row in German or English) and where the result
 * columns are. Result columns found by their header (either language) are
 * reused; missing ones are added after the last column. The group column's
 * header carries the screening note, so the sheet says it once.
 */
import type { ResolveQuery } from "../api/index.ts";
import { COMPANY_ID_IN_TEXT, COMPANY_ID_PATTERN } from "../api/index.ts";
import { invalid } from "../core/index.ts";
import { detectColumns, normaliseHeader, type ColumnMapping } from "../enrich/index.ts";
import type { Language } from "../i18n/index.ts";
import type { Cell } from "../core/index.ts";
import { SCREENING_NOTE } from "./risk.ts";

export const OUTPUT_KEYS = ["group", "flag", "netIncome", "year", "lastChange", "newChanges", "checked"] as const;
export type OutputKey = (typeof OUTPUT_KEYS)[number];

export const OUTPUT_HEADERS: Record<Language, Record<OutputKey | "id", string>> = {
  de: {
    id: "ID",
    group: `Risiko (${SCREENING_NOTE.de})`,
    flag: "Hinweis",
    netIncome: "Jahresergebnis",
    year: "Jahr",
    lastChange: "Letzte Änderung",
    newChanges: "Neue Änderungen",
    // The time is written in UTC (the document has no time zone the core can read); the header says so.
    checked: "Geprüft (UTC)",
  },
  en: {
    id: "ID",
    group: `Risk (${SCREENING_NOTE.en})`,
    flag: "Flag",
    netIncome: "Net income",
    year: "Year",
    lastChange: "Last change",
    newChanges: "New changes",
    checked: "Checked (UTC)",
  },
};

/** Headers of sheets written before the time base was labelled; relabelled on the next run. */
const LEGACY_CHECKED: Record<Language, string> = { de: "Geprüft", en: "Checked" };

export interface Layout {
  /** 0-based input columns. */
  input: ColumnMapping;
  /** 0-based column of each result; `id` when the sheet had no ID column. */
  out: Record<OutputKey, number>;
  idCol: number;
  /** Header cells to write (0-based column → text) because they were missing. */
  newHeaders: Map<number, string>;
  width: number;
}

const matches = (h: Cell, key: OutputKey): boolean => {
  const n = normaliseHeader(h);
  if (!n) return false;
  return (["de", "en"] as const).some((lang) => {
    const want = normaliseHeader(OUTPUT_HEADERS[lang][key]);
    // The group header may be shortened by the user to "Risk"/"Risiko…".
    if (key === "group") return n === want || n === normaliseHeader(lang === "de" ? "Risiko" : "Risk");
    if (key === "checked") return n === want || n === normaliseHeader(LEGACY_CHECKED[lang]);
    return n === want;
  });
};

export function layoutOf(header: readonly Cell[], lang: Language): Layout {
  const found = new Map<OutputKey, number>();
  const taken = new Set<number>();
  for (const key of OUTPUT_KEYS) {
    const col = header.findIndex((h, i) => !taken.has(i) && matches(h, key));
    if (col >= 0) {
      found.set(key, col);
      taken.add(col);
    }
  }
  // Input detection must not mistake a result column ("Year", "Flag") for input.
  const inputHeader = header.map((h, i) => (taken.has(i) ? "" : h));
  const input = detectColumns(inputHeader).mapping;
  if (input.id === undefined && input.name === undefined)
    throw invalid("sheet", {
      de: "keine Spalte ID oder Firma/Name in der Kopfzeile",
      en: "no ID or Company/Name column in the header row",
    });
  let width = header.length;
  while (width > 0 && (header[width - 1] === "" || header[width - 1] === null)) width--;
  const newHeaders = new Map<number, string>();
  let idCol = input.id ?? -1;
  if (idCol < 0) {
    idCol = width++;
    newHeaders.set(idCol, OUTPUT_HEADERS[lang].id);
  }
  const out = {} as Record<OutputKey, number>;
  for (const key of OUTPUT_KEYS) {
    const col = found.get(key);
    if (col !== undefined) {
      out[key] = col;
      // An unlabelled "Checked" column keeps its place and language but learns its time base.
      const legacy =
        key === "checked"
          ? (["de", "en"] as const).find(
              (l) => normaliseHeader(header[col] ?? null) === normaliseHeader(LEGACY_CHECKED[l]),
            )
          : undefined;
      if (legacy) newHeaders.set(col, OUTPUT_HEADERS[legacy].checked);
    } else {
      out[key] = width++;
      newHeaders.set(out[key], OUTPUT_HEADERS[lang][key]);
    }
  }
  return { input, out, idCol, newHeaders, width };
}

/**
 * The id in an ID cell: a bare id, or one picked from a candidate dropdown
 * ("DE… – Name, City"; "Name, City (DE…)" in sheets of the earlier version),
 * or an id the user wrote into other text.
 */
export function idFromCell(v: Cell): { id: string; bare: boolean } | null {
  if (typeof v !== "string") return null;
  const t = v.trim().toUpperCase();
  if (COMPANY_ID_PATTERN.test(t)) return { id: t, bare: v.trim() === t };
  const m = COMPANY_ID_IN_TEXT.exec(v.trim());
  return m ? { id: m[0], bare: false } : null;
}

const text = (v: Cell | undefined) => (v === null || v === undefined ? "" : String(v).trim());

/** The resolve query of a row without an id: its name plus whatever hints the sheet has. */
export function queryOf(row: readonly Cell[], input: ColumnMapping): ResolveQuery | null {
  const name = input.name !== undefined ? text(row[input.name]) : "";
  if (!name) return null;
  const q: ResolveQuery = { name: name.slice(0, 500) };
  const city = input.city !== undefined ? text(row[input.city]) : "";
  const zip = input.zip !== undefined ? text(row[input.zip]) : "";
  const register = input.register !== undefined ? text(row[input.register]) : "";
  if (city) q.city = city.slice(0, 200);
  if (zip) q.zip = zip.slice(0, 10);
  if (register) q.register = register.slice(0, 200);
  return q;
}

/** Label of a candidate in the ID dropdown (the one label, enrich/candidate-label.ts); idFromCell reads the id back. */
export { candidateLabel } from "../enrich/index.ts";
