/**
 * The change log sheet ("Änderungen" for German users, "Changes" for English): one line per register change, appended only once.
 * Every line carries a stable key (company id + change date + kind + a hash
 * of the text) in its last column. The sheet itself is the record of what
 * was logged: a rerun, a resumed run or a run after a crash between "append"
 * and "remember the watermark" reads the keys back and skips what is there.
 * (Keeping the keys in the document store instead would outgrow Apps Script's
 * 500 KB property store; the sheet has room.)
 */
import type { Change } from "../api/index.ts";
import { sheet, type Operation } from "../core/index.ts";
import type { Language } from "../i18n/index.ts";
import type { Cell } from "../core/index.ts";
import { fnv1a32 } from "../core/index.ts";

/** The log's name per language. A log found under either name is used as it is (see openLog). */
export const CHANGES_SHEETS: Readonly<Record<Language, string>> = { de: "Änderungen", en: "Changes" };
/** The English name (the sheet an English check writes to when no log exists yet). */
export const CHANGES_SHEET = CHANGES_SHEETS.en;

export const CHANGES_HEADERS: Record<Language, string[]> = {
  de: ["Datum", "Firmen-ID", "Firma", "Art", "Text", "Quelle", "Schlüssel"],
  en: ["Date", "Company ID", "Company", "Kind", "Text", "Source", "Key"],
};
const KEY_COLUMN = 6;

/** FNV-1a as 8 hex digits. */
const fnv1a = (text: string) => fnv1a32(text).toString(16).padStart(8, "0");

const kindCode = (c: Change) => c.kind?.code ?? c.field ?? "CHANGE";

/** What a change says, in words: its text, or field old → new. */
export function changeText(c: Change): string {
  if (c.text) return c.text;
  const what = c.field ?? c.kind?.name ?? c.kind?.code ?? "";
  if (c.oldValue != null || c.newValue != null) return `${what}: ${c.oldValue ?? "–"} → ${c.newValue ?? "–"}`.trim();
  return what;
}

/**
 * The line key: language-independent (codes and values, not the localised
 * text), so switching the language between runs never logs a change twice.
 * The text counts only when a change carries nothing else.
 */
export function lineKey(companyId: string, c: Change): string {
  const values = [c.field ?? "", c.oldValue ?? "", c.newValue ?? ""];
  const basis = values.some((v) => v !== "") ? values.join("\u0001") : changeText(c);
  return `${companyId}|${c.date}|${kindCode(c)}|${fnv1a(basis)}`;
}

export interface LogLine {
  key: string;
  date: string;
  row: Cell[];
}

/** "2026-11-24T10:15:00Z" → "2026-11-24 10:15" (UTC, as the register dates it). */
const shortDate = (iso: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso;

export function logLine(companyId: string, companyName: string | null, c: Change): LogLine {
  const key = lineKey(companyId, c);
  return {
    key,
    date: c.date,
    row: [
      shortDate(c.date),
      companyId,
      companyName ?? "",
      c.kind?.name ?? kindCode(c),
      changeText(c),
      c.source ?? "",
      key,
    ],
  };
}

/** The keys in a log sheet's rows (after its header). */
function keysOf(rows: Cell[][]): Set<string> {
  const keys = new Set<string>();
  for (const row of rows.slice(1)) {
    const k = row[KEY_COLUMN];
    if (typeof k === "string" && k) keys.add(k);
  }
  return keys;
}

/**
 * The log to write to and the keys already in it. A sheet named by the
 * caller is used (created when missing). Otherwise the log is looked up under
 * the user's language's name first, then the other language's: a user who
 * switches language keeps one log (with its header as it was), and since line
 * keys do not depend on the language no change is logged twice. Only when
 * neither exists is a log created, named and headed in the user's language.
 */
export function* openLog(lang: Language, name?: string): Operation<{ name: string; keys: Set<string> }> {
  if (name) return { name, keys: yield* readLoggedKeys(lang, name) };
  const other: Language = lang === "de" ? "en" : "de";
  for (const candidate of [CHANGES_SHEETS[lang], CHANGES_SHEETS[other]]) {
    const rows = yield* sheet<Cell[][] | null>({ op: "readAll", sheet: candidate });
    if (rows) return { name: candidate, keys: keysOf(rows) };
  }
  return { name: CHANGES_SHEETS[lang], keys: yield* readLoggedKeys(lang, CHANGES_SHEETS[lang]) };
}

/** Make sure the log sheet exists; answer the keys already in it. */
export function* readLoggedKeys(lang: Language, name = CHANGES_SHEETS[lang]): Operation<Set<string>> {
  yield* sheet({ op: "ensureSheet", sheet: name, headers: CHANGES_HEADERS[lang] });
  const rows = (yield* sheet<Cell[][] | null>({ op: "readAll", sheet: name })) ?? [];
  return keysOf(rows);
}

/**
 * Append the lines whose key is not logged yet (oldest first) and add their
 * keys to `logged`. Answers how many lines were appended per company id.
 */
export function* appendNew(logged: Set<string>, lines: LogLine[], name: string): Operation<Map<string, number>> {
  const fresh: LogLine[] = [];
  const seen = new Set<string>();
  for (const l of lines) {
    if (logged.has(l.key) || seen.has(l.key)) continue;
    seen.add(l.key);
    fresh.push(l);
  }
  fresh.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const perCompany = new Map<string, number>();
  if (fresh.length === 0) return perCompany;
  yield* sheet({ op: "append", sheet: name, rows: fresh.map((l) => l.row) });
  for (const l of fresh) {
    logged.add(l.key);
    const id = String(l.row[1]);
    perCompany.set(id, (perCompany.get(id) ?? 0) + 1);
  }
  return perCompany;
}
