/**
 * The app service: one record of JSON-in/JSON-out methods, each an
 * Operation, so the Sheets server (runSync), the Excel task pane and the
 * playground (runAsync) run the same code. Hosts call `dispatch` (a method of
 * AppApi, typed), `settle` (the same, its errors as data: the AppResult
 * envelope the UI reads) or `uiCall` (JSON text in and out, for
 * google.script.run: the one entry where a name and input arrive untyped,
 * checked here before anything runs).
 */
import type { Operation } from "../core/index.ts";
import { CompanyDataError, invalid } from "../core/index.ts";
import { errorView } from "./errors.ts";
import { got } from "../i18n/index.ts";
import type { AppDeps, AppInput, AppMethod, AppMethodName, AppOutput, AppResult } from "./protocol.ts";
import { getSettingsMethod, saveSettingsMethod, testConnectionMethod } from "./settings-methods.ts";
import { monitorEstimateMethod, monitorPreviewMethod, monitorRunMethod } from "./monitor.ts";
import {
  monitorSaveAlertsServerAware,
  monitorSaveScheduleServerAware,
  monitorShareMethod,
  monitorStatusServerAware,
  monitorSyncMethod,
} from "./monitor-server.ts";
import { monitorStartupMethod, withStartup } from "./monitor-startup.ts";
import { refreshEstimateMethod, refreshRunMethod, refreshSaveSettingsMethod, refreshStatusMethod } from "./refresh.ts";
import { doctorMethod } from "./doctor.ts";
import { auditRunsMethod, undoRunMethod } from "./runs.ts";
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
import { detectColumnsMethod, enrichFieldsMethod, readSelectionMethod } from "./enrich-selection.ts";
import { enrichPreviewMethod } from "./enrich-preview.ts";
import {
  applyCandidateMethod,
  enrichConfirmMethod,
  enrichStartMethod,
  enrichStatusMethod,
  enrichStepMethod,
} from "./enrich-run.ts";

/** Every method of AppApi, each answering the output AppApi names for it (the compiler checks both ways). */
export const APP_METHODS: { readonly [M in AppMethodName]: AppMethod<AppOutput<M>> } = {
  getSettings: getSettingsMethod,
  saveSettings: saveSettingsMethod,
  testConnection: testConnectionMethod,
  doctor: doctorMethod,
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
  // With a team server the schedule lives there (monitor-server.ts); in direct mode these are monitor.ts's.
  // Excel's answers also say whether the workbook starts the add-in when it opens (monitor-startup.ts).
  monitorStatus: withStartup(monitorStatusServerAware),
  monitorPreview: monitorPreviewMethod,
  monitorRun: monitorRunMethod,
  monitorEstimate: monitorEstimateMethod,
  monitorSaveSchedule: withStartup(monitorSaveScheduleServerAware),
  monitorSaveAlerts: withStartup(monitorSaveAlertsServerAware),
  monitorStartup: monitorStartupMethod,
  monitorSync: monitorSyncMethod,
  monitorShare: withStartup(monitorShareMethod),
  refreshStatus: refreshStatusMethod,
  refreshEstimate: refreshEstimateMethod,
  refreshSaveSettings: refreshSaveSettingsMethod,
  refreshRun: refreshRunMethod,
  auditRuns: auditRunsMethod,
  undoRun: undoRunMethod,
};

export function isAppMethod(name: unknown): name is AppMethodName {
  return typeof name === "string" && Object.prototype.hasOwnProperty.call(APP_METHODS, name);
}

/** Run one method. Throws CompanyDataError (INVALID_INPUT for bad input). */
export function dispatch<M extends AppMethodName>(
  deps: AppDeps,
  method: M,
  input: AppInput<M>,
): Operation<AppOutput<M>> {
  return runMethod(deps, method, input);
}

const unknownMethod = (name: unknown): CompanyDataError =>
  invalid("method", got({ de: "unbekannte Methode", en: "unknown method" }, String(name)));

/**
 * A method whose input came over a wire as JSON (an Apps Script server
 * function a script calls with an object): the name is typed, the input is
 * checked by the method itself, as every method checks its input.
 */
export function dispatchFromWire<M extends AppMethodName>(
  deps: AppDeps,
  method: M,
  input: unknown,
): Operation<AppOutput<M>> {
  return runMethod(deps, method, input);
}

/** A method by a name from outside (checked) with its input as it came (each method validates its own). */
function* runMethod<M extends AppMethodName>(deps: AppDeps, method: M, input: unknown): Operation<AppOutput<M>> {
  if (!isAppMethod(method)) throw unknownMethod(method);
  const run: AppMethod<AppOutput<M>> = APP_METHODS[method];
  return yield* run(deps, input);
}

export { errorView };

/** Run a method and settle it into an envelope: errors become data, never a stack. */
export function settle<M extends AppMethodName>(
  deps: AppDeps,
  method: M,
  input: AppInput<M>,
): Operation<AppResult<AppOutput<M>>> {
  return settleUnchecked(deps, method, input);
}

function* settleUnchecked<M extends AppMethodName>(
  deps: AppDeps,
  method: M,
  input: unknown,
): Operation<AppResult<AppOutput<M>>> {
  try {
    return { ok: true, value: yield* runMethod(deps, method, input) };
  } catch (e) {
    return { ok: false, error: errorView(e) };
  }
}

/**
 * JSON text in, JSON text out: what the Sheets server function
 * `uiCall(method, inputJson)` runs with runSync. An unknown method or
 * unparseable input is an INVALID_INPUT envelope, not an exception.
 */
export function* uiCall(deps: AppDeps, method: string, inputJson: string): Operation<string> {
  const refused = (e: CompanyDataError): string =>
    JSON.stringify({ ok: false, error: errorView(e) } satisfies AppResult);
  if (!isAppMethod(method)) return refused(unknownMethod(method));
  let input: unknown;
  try {
    input = inputJson === undefined || inputJson === "" ? {} : JSON.parse(String(inputJson));
  } catch {
    return refused(invalid("input", { de: "kein gültiges JSON", en: "not valid JSON" }));
  }
  return JSON.stringify(yield* settleUnchecked(deps, method, input));
}

export { CompanyDataError };
