/**
 * The custom functions' runtime in Sheets: settings from the store, one
 * context per call, the shared registry, and cells mapped to what Sheets
 * shows: an error is its message text in the cell.
 *
 * Time: Sheets stops a custom function after 30 seconds
 * (https://developers.google.com/apps-script/guides/sheets/functions, "A
 * custom function call must return within 30 seconds"), and UrlFetchApp
 * has no timeout of its own. So no request starts after LAST_REQUEST_MS and
 * no retry or paced call is planned past it; a request started before it
 * has the remaining 12 s. A service slower than that leaves Sheets' own
 * time-out error in the cell (README).
 *
 * Key: the document's formula key when an editor set one (formula-key.ts),
 * else the owner's (Google runs custom functions with the owner's store).
 */
import { runSync } from "../shared/core/index.ts";
import { CompanyDataError } from "../shared/core/index.ts";
import {
  errorCell,
  functionByName,
  isCellCard,
  isCellError,
  runFormula,
  type CellOut,
} from "../shared/functions/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { SETTINGS_KEYS } from "../shared/app/index.ts";
import { createDriver } from "./driver.ts";
import { documentFormulaKey, FORMULA_KEY_MISSING } from "./formula-key.ts";
import { gas } from "./services.ts";
import { isDate, isoDateOf } from "./dates.ts";
import { Pacer } from "../shared/api/index.ts";

const guard = <T>(f: () => T): T | null => {
  try {
    return f() ?? null;
  } catch {
    return null;
  }
};

/** No request starts later than this after the call began. */
export const LAST_REQUEST_MS = 18_000;

export type SheetsValue = string | number | boolean;

export function toSheets(c: CellOut, lang: Language = "de"): SheetsValue {
  if (isCellError(c)) return c.error === "MISSING_KEY" ? FORMULA_KEY_MISSING[lang] : c.message;
  if (isCellCard(c)) return c.card.title;
  return c;
}

/**
 * Date cells arrive as Dates at midnight in the spreadsheet's time zone; the
 * core reads dates with the script's (the manifest's) getters, a day off
 * where the zones differ. So they are handed over as YYYY-MM-DD of the
 * spreadsheet's zone (dates.ts); the zone is read only when a date is there.
 */
function datesAsText(args: unknown[]): unknown[] {
  let tz: string | null | undefined;
  const g = gas();
  const map = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(map);
    if (!isDate(v)) return v;
    if (tz === undefined) tz = guard(() => g.SpreadsheetApp.getActive().getSpreadsheetTimeZone());
    return tz ? isoDateOf(v, tz, g.Utilities) : v;
  };
  return args.map(map);
}

/**
 * The cells, or, for a call on single values whose answer is only an
 * error, that error thrown: Sheets then shows #ERROR! with the message as
 * its note, and IFERROR/ISERROR see it
 * (https://developers.google.com/apps-script/guides/sheets/functions, "if
 * a custom function throws an error, the cell shows it"). A range keeps its
 * per-cell messages: one thrown error would hide every other row's answer.
 */
export function runCustomFunction(name: string, args: unknown[]): SheetsValue[][] | { thrown: string } {
  const single = args.every((a) => !Array.isArray(a));
  const out = answerCells(name, args);
  const flat = out.cells.flat();
  // The generated stub throws it (stubs.ts: CELLS), so the error's source line is short.
  if (single && out.error !== null && flat.every((c) => c === "" || c === out.error)) return { thrown: out.error };
  return out.cells;
}

/** The call's cells and, when it has one, its first error's message. */
function answerCells(name: string, args: unknown[]): { cells: SheetsValue[][]; error: string | null } {
  let lang: Language = "de";
  let driver: ReturnType<typeof createDriver> | undefined;
  try {
    const def = functionByName(String(name));
    if (!def || def.hosts?.includes("sheets") === false) throw new CompanyDataError("INTERNAL");
    const started = Date.now();
    const g = gas();
    const formulaKey = documentFormulaKey(guard(() => g.PropertiesService.getDocumentProperties()));
    driver = createDriver({
      lockedKeys: /^doc:budget:/,
      formula: true,
      lastRequestStart: started + LAST_REQUEST_MS,
      storeOverrides: formulaKey ? { [SETTINGS_KEYS.apiKey]: formulaKey } : undefined,
    });
    const cells = runSync(
      runFormula(def, datesAsText(args), {
        now: () => Date.now(),
        random: Math.random,
        deadline: started + LAST_REQUEST_MS,
        // One execution per formula evaluation: nothing survives it, so its pacer is new each time.
        pacer: new Pacer(),
        // Cache and document store are per document already.
        documentId: "",
        onLanguage: (l) => {
          lang = l;
        },
      }),
      driver,
    );
    const firstError = cells.flat().find(isCellError);
    return {
      cells: cells.map((row) => row.map((c) => toSheets(c, lang))),
      error: firstError ? String(toSheets(firstError, lang)) : null,
    };
  } catch (e) {
    const message = String(toSheets(errorCell(e, lang), lang));
    return { cells: [[message]], error: message };
  } finally {
    try {
      driver?.commit();
    } catch {
      /* nothing left to write that the answer depends on */
    }
  }
}
