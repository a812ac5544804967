/**
 * The app service: one record of JSON-in/JSON-out methods, each an
 * Operation, so the Sheets server (runSync), the Excel task pane and the
 * playground (runAsync) run the same code. Hosts call `uiCall` (JSON text in
 * and out, for google.script.run) or `dispatch` (objects) and wrap the result
 * with `settle` into an AppResult envelope the UI reads.
 */
import type { Operation } from "../core/index.ts";
import { CompanyDataError, invalid } from "../core/index.ts";
import { errorView } from "./errors.ts";
import { got } from "../i18n/index.ts";
import type { AppDeps, AppInput, AppMethod, AppMethodName, AppOutput, AppResult } from "./protocol.ts";
import { getSettingsMethod, saveSettingsMethod, testConnectionMethod } from "./settings-methods.ts";
import { MONITOR_METHODS } from "./monitor.ts";
import { REFRESH_METHODS } from "./refresh.ts";
import { DOCTOR_METHODS } from "./doctor.ts";
import { insertAllSearchResultsMethod, searchAllPriceMethod } from "./search-methods.ts";
import {
  deleteSavedSearchMethod,
  listSavedSearchesMethod,
  runSavedSearchMethod,
  saveSearchMethod,
} from "./saved-searches.ts";
import {
  accountMethod,
  estimateMethod,
  insertSearchResultsMethod,
  searchMethod,
  similarMethod,
} from "./company-methods.ts";
import {
  applyCandidateMethod,
  detectColumnsMethod,
  enrichConfirmMethod,
  enrichStatusMethod,
  enrichFieldsMethod,
  enrichPreviewMethod,
  enrichStartMethod,
  enrichStepMethod,
  readSelectionMethod,
} from "./enrich-methods.ts";

const CORE_METHODS: { [M in AppMethodName]: AppMethod<AppOutput<M>> } = {
  getSettings: getSettingsMethod,
  saveSettings: saveSettingsMethod,
  testConnection: testConnectionMethod,
  account: accountMethod,
  estimate: estimateMethod,
  search: searchMethod,
  insertSearchResults: insertSearchResultsMethod,
  readSelection: readSelectionMethod,
  detectColumns: detectColumnsMethod,
  enrichFields: enrichFieldsMethod,
  enrichPreview: enrichPreviewMethod,
  enrichStart: enrichStartMethod,
  enrichStep: enrichStepMethod,
  applyCandidate: applyCandidateMethod,
  enrichConfirm: enrichConfirmMethod,
  enrichStatus: enrichStatusMethod,
  similar: similarMethod,
  searchAllPrice: searchAllPriceMethod,
  insertAllSearchResults: insertAllSearchResultsMethod,
  listSavedSearches: listSavedSearchesMethod,
  saveSearch: saveSearchMethod,
  deleteSavedSearch: deleteSavedSearchMethod,
  runSavedSearch: runSavedSearchMethod,
};

export const APP_METHODS: Readonly<Record<string, AppMethod>> = {
  ...(CORE_METHODS as Record<string, AppMethod>),
  ...MONITOR_METHODS,
  ...REFRESH_METHODS,
  ...DOCTOR_METHODS,
};

export function isAppMethod(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(APP_METHODS, name);
}

/** Run one method. Throws CompanyDataError (INVALID_INPUT for an unknown method or bad input). */
export function dispatch<M extends AppMethodName>(
  deps: AppDeps,
  method: M,
  input: AppInput<M>,
): Operation<AppOutput<M>>;
export function dispatch(deps: AppDeps, method: string, input: unknown): Operation<unknown>;
export function* dispatch(deps: AppDeps, method: string, input: unknown): Operation<unknown> {
  const run = typeof method === "string" && isAppMethod(method) ? APP_METHODS[method] : undefined;
  if (!run) throw invalid("method", got({ de: "unbekannte Methode", en: "unknown method" }, String(method)));
  return yield* run(deps, input);
}

export { errorView };

/** Run a method and settle it into an envelope: errors become data, never a stack. */
export function* settle(deps: AppDeps, method: string, input: unknown): Operation<AppResult> {
  try {
    return { ok: true, value: yield* dispatch(deps, method, input) };
  } catch (e) {
    return { ok: false, error: errorView(e) };
  }
}

/**
 * JSON text in, JSON text out: what the Sheets server function
 * `uiCall(method, inputJson)` runs with runSync. Unparseable input is an
 * INVALID_INPUT envelope, not an exception.
 */
export function* uiCall(deps: AppDeps, method: string, inputJson: string): Operation<string> {
  let input: unknown;
  try {
    input = inputJson === undefined || inputJson === "" ? {} : JSON.parse(String(inputJson));
  } catch {
    return JSON.stringify({
      ok: false,
      error: errorView(invalid("input", { de: "kein gültiges JSON", en: "not valid JSON" })),
    } satisfies AppResult);
  }
  return JSON.stringify(yield* settle(deps, method, input));
}

export { CompanyDataError };
