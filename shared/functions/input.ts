/**
 * Reading custom-function arguments. Hosts pass what the spreadsheet holds:
 * a scalar (string, number, boolean, Date), a 2-D array for a range, "" or
 * undefined for an empty or omitted argument. Anything a user can type
 * (10,000 characters, "=HYPERLINK(...)", "#N/A", emoji, dates where text
 * belongs) becomes a clear INVALID_INPUT naming the parameter, never an
 * exception from deeper down.
 */
import { CompanyDataError } from "../core/index.ts";
import { COMPANY_ID_PATTERN, PERSON_ID_PATTERN } from "../api/index.ts";
import type { Bilingual, Language } from "../i18n/index.ts";
import { fieldLabel } from "../i18n/index.ts";

/** The values of an argument, row by row; `range` tells a range from a single value. */
export function cellsOf(arg: unknown): { values: unknown[]; range: boolean } {
  if (Array.isArray(arg)) {
    const values: unknown[] = [];
    for (const row of arg) {
      if (Array.isArray(row)) for (const v of row) values.push(v);
      else values.push(row);
    }
    return { values, range: true };
  }
  return { values: [arg], range: false };
}

export function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === "string" && v.trim() === "");
}

/** A single value of an argument that may not be a range. */
export function single(arg: unknown): unknown {
  if (!Array.isArray(arg)) return arg;
  const { values } = cellsOf(arg);
  const filled = values.filter((v) => !isBlank(v));
  return filled.length === 0 ? "" : filled.length === 1 ? filled[0] : arg;
}

const SPREADSHEET_ERROR =
  /^#(N\/A|REF!|VALUE!|NAME\?|DIV\/0!|NUM!|NULL!|ERROR!|SPILL!|CALC!|BUSY!|GETTING_DATA|FIELD!|BLOCKED!|CONNECT!|UNKNOWN!)$/i;

const isDate = (v: unknown): v is Date => Object.prototype.toString.call(v) === "[object Date]";

/** A short, safe echo of the user's input for a message. */
function echo(v: string): string {
  const s = v.replace(/[\r\n\t]+/g, " ");
  return s.length > 30 ? `${s.slice(0, 30)}…` : s;
}

const T = {
  required: { de: "fehlt", en: "is required" },
  date: { de: "ein Datum ist hier nicht erlaubt", en: "a date is not allowed here" },
  bool: { de: "WAHR/FALSCH ist hier nicht erlaubt", en: "TRUE/FALSE is not allowed here" },
  errorValue: { de: "die Zelle enthält einen Fehlerwert", en: "the cell holds an error value" },
  formula: { de: "sieht aus wie eine Formel", en: "looks like a formula" },
  tooLong: (n: number, max: number) => ({
    de: `zu lang (${n} Zeichen, höchstens ${max})`,
    en: `too long (${n} characters, at most ${max})`,
  }),
  notText: { de: "kein Text", en: "not text" },
  range: { de: "hier ist nur ein einzelner Wert erlaubt, kein Bereich", en: "takes a single value here, not a range" },
  id: (v: string) => ({
    de: `„${v}“ ist keine Firmen-ID (DE + 10 Buchstaben oder Ziffern)`,
    en: `"${v}" is not a company id (DE + 10 letters or digits)`,
  }),
  personId: (v: string) => ({
    de: `„${v}“ ist keine Personen-ID (P + 10 Buchstaben oder Ziffern)`,
    en: `"${v}" is not a person id (P + 10 letters or digits)`,
  }),
  integer: (min: number, max: number) => ({
    de: `eine ganze Zahl von ${min} bis ${max} erwartet`,
    en: `expected a whole number from ${min} to ${max}`,
  }),
  number: (min: number, max: number) => ({
    de: `eine Zahl über ${min} bis ${max} erwartet`,
    en: `expected a number above ${min} up to ${max}`,
  }),
  dateExpected: {
    de: "ein Datum erwartet (Datumszelle, JJJJ-MM-TT oder TT.MM.JJJJ)",
    en: "expected a date (a date cell, YYYY-MM-DD or DD.MM.YYYY)",
  },
  choice: (v: string, options: string[]) => ({
    de: `„${v}“ ist nicht bekannt; erlaubt: ${options.join(", ")}`,
    en: `"${v}" is unknown; allowed: ${options.join(", ")}`,
  }),
};

const PARAM_NAME = /^[a-z][a-z_]*$/;

/**
 * A parameter as the user meets it: what it means in their language, and the
 * name the formula's signature shows (COMPANY_RISK(ids)), so they find it.
 */
export function argumentLabel(param: string): Bilingual {
  return {
    de: `${fieldLabel(param, "de")}, Argument „${param}“`,
    en: `${fieldLabel(param, "en")}, argument "${param}"`,
  };
}

/** INVALID_INPUT naming the argument (its label, when it is a parameter of a formula's signature). */
function fail(field: string, msg: Bilingual): CompanyDataError {
  return new CompanyDataError(
    "INVALID_INPUT",
    PARAM_NAME.test(field) ? { field, detail: msg, label: argumentLabel(field) } : { field, detail: msg },
  );
}

/** Text a user typed: trimmed, at most `max` characters; numbers become their digits. */
function text(v: unknown, field: string, max = 500): string {
  if (Array.isArray(v)) throw fail(field, T.range);
  if (isBlank(v)) throw fail(field, T.required);
  if (isDate(v)) throw fail(field, T.date);
  if (typeof v === "boolean") throw fail(field, T.bool);
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw fail(field, T.notText);
    return Number.isInteger(v) ? v.toFixed(0) : String(v);
  }
  if (typeof v !== "string") throw fail(field, T.notText);
  const s = v.trim();
  if (SPREADSHEET_ERROR.test(s)) throw fail(field, T.errorValue);
  if (s.startsWith("=")) throw fail(field, T.formula);
  if (s.length > max) throw fail(field, T.tooLong(s.length, max));
  return s;
}

function optText(v: unknown, field: string, max = 500): string | undefined {
  return isBlank(v) ? undefined : text(v, field, max);
}

function id(v: unknown, field: string): string {
  const s = text(v, field, 100).replace(/\s+/g, "").toUpperCase();
  if (!COMPANY_ID_PATTERN.test(s)) throw fail(field, T.id(echo(s)));
  return s;
}

function personId(v: unknown, field: string): string {
  const s = text(v, field, 100).replace(/\s+/g, "").toUpperCase();
  if (!PERSON_ID_PATTERN.test(s)) throw fail(field, T.personId(echo(s)));
  return s;
}

function integer(v: unknown, field: string, min: number, max: number, fallback: number): number {
  if (isBlank(v)) return fallback;
  if (Array.isArray(v) || isDate(v) || typeof v === "boolean") throw fail(field, T.integer(min, max));
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw fail(field, T.integer(min, max));
  return n;
}

/** A positive number up to `max`; decimal commas are accepted ("2,5"). */
function positive(v: unknown, field: string, max: number): number | undefined {
  if (isBlank(v)) return undefined;
  if (Array.isArray(v) || isDate(v) || typeof v === "boolean") throw fail(field, T.number(0, max));
  const n =
    typeof v === "number"
      ? v
      : typeof v === "string" && /^\s*\d+([.,]\d+)?\s*$/.test(v)
        ? Number(v.trim().replace(",", "."))
        : NaN;
  if (!Number.isFinite(n) || n <= 0 || n > max) throw fail(field, T.number(0, max));
  return n;
}

/** A calendar date as YYYY-MM-DD: a date cell, a serial number, ISO or German text. */
function date(v: unknown, field: string): string | undefined {
  if (isBlank(v)) return undefined;
  if (isDate(v)) {
    if (Number.isNaN(v.getTime())) throw fail(field, T.dateExpected);
    // Local getters: Apps Script hands date cells over as midnight in the script's time zone.
    return ymd(v.getFullYear(), v.getMonth() + 1, v.getDate());
  }
  if (typeof v === "number") {
    // Spreadsheet serial days since 1899-12-30 (both Sheets and Excel from 1900-03-01 on).
    if (!Number.isInteger(v) || v < 1 || v > 2958465) throw fail(field, T.dateExpected);
    const d = new Date(Date.UTC(1899, 11, 30) + v * 86_400_000);
    return ymd(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
  }
  if (typeof v !== "string") throw fail(field, T.dateExpected);
  const s = v.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(T[\d:.]+Z?)?$/.exec(s);
  // Every group of these two patterns takes part in a match.
  if (m) return calendarDate(+m[1]!, +m[2]!, +m[3]!, field);
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(s);
  if (m) return calendarDate(+m[3]!, +m[2]!, +m[1]!, field);
  throw fail(field, T.dateExpected);
}

/** A date that exists (no 31 February), as YYYY-MM-DD. */
function calendarDate(y: number, mo: number, d: number, field: string): string {
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) throw fail(field, T.dateExpected);
  return ymd(y, mo, d);
}

/** A list of words: a range of cells or one cell with commas or semicolons. */
function list(v: unknown, field: string): string[] {
  if (isBlank(v)) return [];
  const raw = Array.isArray(v) ? cellsOf(v).values.filter((x) => !isBlank(x)) : [v];
  const out: string[] = [];
  for (const x of raw) for (const part of text(x, field, 2000).split(/[,;]/)) if (part.trim()) out.push(part.trim());
  return out;
}

/** One of the allowed words (case-insensitive; `aliases` maps more spellings). */
function choice<K extends string>(v: string, field: string, options: readonly K[], aliases: Record<string, K> = {}): K {
  const k = v
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  const hit = options.find((o) => o.toLowerCase() === k) ?? aliases[k];
  if (!hit) throw fail(field, T.choice(echo(v), [...options]));
  return hit;
}

/**
 * Argument readers that phrase their complaints in the user's language (both
 * languages travel in each error's detail; the caller picks one when it is shown).
 */
export function reader(_lang: Language) {
  return { text, optText, id, personId, integer, positive, date, list, choice, fail };
}

export type Reader = ReturnType<typeof reader>;

function ymd(y: number, m: number, d: number): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${p(y, 4)}-${p(m)}-${p(d)}`;
}

/** A postcode typed as a number lost its leading zero (1067 → 01067). */
export function zipOrRegister(v: unknown): unknown {
  if (typeof v === "number" && Number.isInteger(v) && v > 0 && v < 100000) return String(v).padStart(5, "0");
  return v;
}
