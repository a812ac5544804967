/**
 * The refresh log sheet: one line per value a refresh changed —
 * "Aktualisierungen" (Datum, Firmen-ID, Firma, Feld, Alt, Neu, Schlüssel) for
 * German users, "Refresh log" (Date, Company ID, Company, Field, Old, New,
 * Key) for English ones. A log found under either name is used as it is.
 * Each line's key (company, as-of day, field, hash of old and new) is read
 * back before appending, so a step repeated after a crash between "log" and
 * "write the rows" never logs a line twice (the portfolio's change log works
 * the same way and shares `appendNew`).
 */
import { sheet, type Operation } from "../core/index.ts";
import { fnv1a32 } from "../core/index.ts";
import type { Language } from "../i18n/index.ts";
import type { Cell } from "../core/index.ts";
import { asText } from "../sheet/index.ts";
import { appendNew, type LogLine } from "../monitor/index.ts";
import type { RowChanges } from "../enrich/index.ts";

export const REFRESH_LOGS: Readonly<Record<Language, string>> = { de: "Aktualisierungen", en: "Refresh log" };
export const REFRESH_LOG_HEADERS: Record<Language, string[]> = {
  de: ["Datum", "Firmen-ID", "Firma", "Feld", "Alt", "Neu", "Schlüssel"],
  en: ["Date", "Company ID", "Company", "Field", "Old", "New", "Key"],
};
const KEY_COLUMN = 6;

export function refreshLines(rows: readonly RowChanges[], lang: Language): LogLine[] {
  const out: LogLine[] = [];
  for (const r of rows) {
    for (const c of r.changes) {
      const key = `${r.id}|${r.asOf}|${c.field}|${fnv1a32(`${c.old}\u0001${c.new}`).toString(16).padStart(8, "0")}`;
      // Values are data, never formulas (API text could start with "=").
      out.push({
        key,
        date: r.asOf,
        row: [r.asOf, r.id, asText(r.name), c.header[lang], asText(c.old), asText(c.new), key],
      });
    }
  }
  return out;
}

/** The log to write to (the user's language's name first, then the other's; created in the user's language) and the keys in it. */
export function* openRefreshLog(lang: Language): Operation<{ name: string; keys: Set<string> }> {
  const other: Language = lang === "de" ? "en" : "de";
  for (const name of [REFRESH_LOGS[lang], REFRESH_LOGS[other]]) {
    const rows = yield* sheet<Cell[][] | null>({ op: "readAll", sheet: name });
    if (rows) return { name, keys: keysOf(rows) };
  }
  const name = REFRESH_LOGS[lang];
  yield* sheet({ op: "ensureSheet", sheet: name, headers: REFRESH_LOG_HEADERS[lang] });
  return { name, keys: new Set() };
}

function keysOf(rows: readonly Cell[][]): Set<string> {
  const keys = new Set<string>();
  for (let i = 1; i < rows.length; i++) {
    const k = rows[i]?.[KEY_COLUMN];
    if (typeof k === "string" && k) keys.add(k);
  }
  return keys;
}

/** Append the lines not logged yet; answers how many were appended. */
export function* logRefreshChanges(
  log: { name: string; keys: Set<string> },
  rows: readonly RowChanges[],
  lang: Language,
): Operation<number> {
  const perCompany = yield* appendNew(log.keys, refreshLines(rows, lang), log.name);
  let n = 0;
  for (const c of perCompany.values()) n += c;
  return n;
}
