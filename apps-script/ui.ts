/**
 * What the sidebars call on the server: the one generic `uiCall`, and
 * `getSettings` / `saveSettings`. Part of the app bundle (app-main.ts),
 * which Code.js loads only for these calls and the triggers, never for a
 * custom function.
 */
import { runSync } from "../shared/core/index.ts";
import { dispatch, dispatchFromWire, errorView, uiCall as appUiCall, withStartLanguage } from "../shared/app/index.ts";
import { mailApp } from "./mail.ts";
import type { AppDeps, SettingsView } from "../shared/app/index.ts";
import { toCompanyDataError } from "../shared/core/index.ts";
import { createDriver, type AppsScriptDriver } from "./driver.ts";
import { gas } from "./services.ts";
import { claimRun, claimRunWaiting, releaseRun, UNDO_WAIT_MS } from "./run-marker.ts";
import { StateSession } from "./state-session.ts";
import { Pacer } from "../shared/api/index.ts";
import { localeLanguage, savedLanguage } from "./menu.ts";
import { checkBaseUrl } from "../shared/api/index.ts";
import { checkTeamServerAllowed } from "./allowlist.ts";

/** Sidebar jobs stop themselves well before Apps Script's 6 minutes; the sidebar calls again to continue. */
export const SIDEBAR_BUDGET_MS = 280_000;

function deps(budgetMs: number): AppDeps {
  // One Apps Script execution: nothing survives it, so its pacer is new each time.
  return {
    host: "sheets",
    now: () => Date.now(),
    random: Math.random,
    deadline: Date.now() + budgetMs,
    documentId: "",
    mailer: mailApp(),
    pacer: new Pacer(),
    who: editor(),
  };
}

/**
 * Who the audit names for a sidebar's run: the editor's address where Google
 * gives it to the add-on ("" otherwise: without the userinfo.email scope, and
 * across domains, getActiveUser().getEmail() answers "",
 * https://developers.google.com/apps-script/reference/base/session#getActiveUser()).
 */
function editor(): string {
  try {
    return gas().Session?.getActiveUser().getEmail() ?? "";
  } catch {
    return "";
  }
}

/**
 * Methods that write to the sheet or a job's checkpoint run one at a time
 * per document: they claim the run marker (run-marker.ts), not the document
 * lock, which formulas need for their budget within seconds.
 */
const EXCLUSIVE =
  /^(enrichStart|enrichStep|enrichConfirm|applyCandidate|insertSearchResults|monitorRun|monitorSaveSchedule|refreshRun|refreshSaveSettings|undoRun)$/;

/**
 * The resumable job a call continues (enrichStep's jobId, and enrichConfirm's, which runs the first buying
 * step with it), so a step can take over the marker its killed predecessor left.
 */
function jobOf(method: string, inputJson: string): string | undefined {
  if (method !== "enrichStep" && method !== "enrichConfirm") return undefined;
  try {
    const id = (JSON.parse(inputJson) as { jobId?: unknown }).jobId;
    return typeof id === "string" && id ? `enrich:${id}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One execution's driver. An exclusive one claims the run marker in the
 * state sheet's session (state-session.ts) that the driver then reads and
 * writes, so the step reads the sheet once and writes it at its end together
 * with the marker's release.
 */
function withDriver<T>(exclusive: boolean, body: (d: AppsScriptDriver) => T, job?: string, waitMs = 0): T {
  const g = gas();
  const ss = exclusive ? g.SpreadsheetApp.getActive() : null;
  const lock = exclusive ? g.LockService.getDocumentLock() : null;
  const props = ss
    ? new StateSession(
        ss,
        () => lock,
        () => g.SpreadsheetApp.flush(),
      )
    : null;
  const clock = { now: () => Date.now(), sleep: (ms: number) => g.Utilities.sleep(ms) };
  const token = !props
    ? null
    : waitMs > 0
      ? claimRunWaiting(props, lock, clock, waitMs, job)
      : claimRun(props, lock, Date.now(), job);
  // No language saved: the user's Google account language (the sidebar, the sheets' status words and the API agree).
  const driver = withStartLanguage(
    createDriver(ss && props ? { spreadsheet: () => ss, state: props } : {}),
    localeLanguage,
  );
  try {
    return body(driver);
  } finally {
    try {
      driver.commit();
    } finally {
      if (props && token) releaseRun(props, lock, token);
    }
  }
}

/**
 * A team server typed in Settings (saved or tested) must be on this
 * deployment's allowlist (allowlist.ts): refused here, with the command
 * that deploys a copy listing it, instead of failing at every request.
 */
function checkServerAddress(input: unknown): void {
  let o: unknown = input;
  try {
    if (typeof input === "string") o = JSON.parse(input);
  } catch {
    return; // the method itself answers malformed input
  }
  if (!o || typeof o !== "object") return;
  const url = (o as { serverUrl?: unknown }).serverUrl;
  if (typeof url === "string" && url.trim()) checkTeamServerAllowed(checkBaseUrl(url, "serverUrl"));
}

/** The sidebars' one server call: an app-service method by name, JSON in, the result envelope as JSON out. */
export function uiCall(method: string, inputJson: string): string {
  try {
    const name = String(method);
    if (/^(saveSettings|testConnection|doctor)$/.test(name)) checkServerAddress(String(inputJson));
    return withDriver(
      EXCLUSIVE.test(name),
      (driver) => runSync(appUiCall(deps(SIDEBAR_BUDGET_MS), name, inputJson), driver),
      jobOf(name, String(inputJson)),
      // An undo racing a scheduled run of the same sheet waits for it (bounded), then runs (issue 40).
      name === "undoRun" ? UNDO_WAIT_MS : 0,
    );
  } catch (e) {
    return JSON.stringify({ ok: false, error: errorView(e) });
  }
}

function userFacing(e: unknown): Error {
  const err = toCompanyDataError(e);
  return new Error(err.text(savedLanguage()));
}

export function getSettings(): SettingsView {
  try {
    return withDriver(false, (driver) => runSync(dispatch(deps(30_000), "getSettings", {}), driver));
  } catch (e) {
    throw userFacing(e);
  }
}

/** Fields: connection ("direct" | "server"), apiKey / serverToken ("" or null removes it; absent keeps it), baseUrl, serverUrl, language, formulaDailyBudget, cacheHours, matchFloor. */
export function saveSettings(settings: unknown): SettingsView {
  try {
    const input: unknown = typeof settings === "string" ? JSON.parse(settings) : settings;
    checkServerAddress(input);
    return withDriver(false, (driver) => runSync(dispatchFromWire(deps(30_000), "saveSettings", input), driver));
  } catch (e) {
    throw userFacing(e);
  }
}
