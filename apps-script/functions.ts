/**
 * The custom functions' runtime in Sheets: settings from the store, one
 * context per call (25-second deadline: Sheets stops a custom function at
 * 30), the shared registry, and cells mapped to what Sheets shows: an error
 * is its message text in the cell.
 */
import { runSync } from "../shared/core/drivers.ts";
import { CompanyDataError } from "../shared/core/errors.ts";
import { errorCell, functionByName, isCellCard, isCellError, runFormula, type CellOut } from "../shared/functions/index.ts";
import type { Language } from "../shared/i18n/language.ts";
import { createDriver } from "./driver.ts";

export const CUSTOM_FUNCTION_BUDGET_MS = 25_000;

export type SheetsValue = string | number | boolean;

export function toSheets(c: CellOut): SheetsValue {
  if (isCellError(c)) return c.message;
  if (isCellCard(c)) return c.card.title;
  return c;
}

export function runCustomFunction(name: string, args: unknown[]): SheetsValue[][] {
  let lang: Language = "de";
  let driver: ReturnType<typeof createDriver> | undefined;
  try {
    const def = functionByName(String(name));
    if (!def || def.hosts?.includes("sheets") === false) throw new CompanyDataError("INTERNAL");
    const started = Date.now();
    driver = createDriver({ lockedKeys: /^doc:budget:/ });
    const cells = runSync(
      runFormula(def, args, {
        now: () => Date.now(),
        random: Math.random,
        deadline: started + CUSTOM_FUNCTION_BUDGET_MS,
        // Cache and document store are per document already.
        documentId: "",
        onLanguage: (l) => { lang = l; },
      }),
      driver,
    );
    return cells.map((row) => row.map(toSheets));
  } catch (e) {
    return [[errorCell(e, lang).message]];
  } finally {
    try {
      driver?.commit();
    } catch {
      /* nothing left to write that the answer depends on */
    }
  }
}
