/**
 * One formula call as both spreadsheet hosts run it: settings read fresh (a
 * key saved a moment ago counts at once), the registry function under the
 * document's daily formula budget, and what it spent recorded in the spend
 * log as `formula:NAME`, the same line in Sheets and Excel.
 */
import type { Operation } from "../core/index.ts";
import type { Language } from "../i18n/index.ts";
import { loadSettings, type ContextInputs } from "../app/index.ts";
import { spendingContext } from "../app/index.ts";
import { FORMULA_LEDGER, recordSpend } from "../credits/index.ts";
import { invoke } from "./registry.ts";
import type { CellOut, FunctionDef } from "./types.ts";

export interface FormulaInputs extends ContextInputs {
  /** Told the user's language as soon as the settings are read (for messages of a failure after that). */
  onLanguage?: (language: Language) => void;
}

export function* runFormula(def: FunctionDef, args: unknown[], inputs: FormulaInputs): Operation<CellOut[][]> {
  const settings = yield* loadSettings();
  inputs.onLanguage?.(settings.language);
  const { ctx, spent } = spendingContext(settings, inputs);
  const cells = yield* invoke(def, { ctx, dailyBudget: settings.formulaDailyBudget }, args);
  if (spent.credits > 0) {
    try {
      yield* recordSpend(ctx, `formula:${def.name}`, spent.credits, spent.requests, FORMULA_LEDGER);
    } catch {
      /* the ledger is a record, not a condition of the answer */
    }
  }
  return cells;
}
