/**
 * Scheduled portfolio checks in Google Sheets: an installable time-driven
 * trigger runs `monitorTick`, daily at the chosen hour or hourly, set and
 * removed from the Monitor sidebar (the schedule itself lives in the
 * document's store, shared/monitor/schedule.ts). A tick runs the check with
 * the sync driver under the 6-minute limit; a check that needs longer pauses
 * at a window boundary. Add-ons get one time-driven trigger per document, so
 * a daily schedule switches to hourly ticks until the paused run is finished,
 * then back to daily.
 */
import { runSync } from "../shared/core/drivers.ts";
import { dispatch } from "../shared/app/dispatch.ts";
import type { AppDeps } from "../shared/app/protocol.ts";
import type { MonitorStatusView } from "../shared/app/monitor.ts";
import type { RunSummary } from "../shared/monitor/check.ts";
import { intervalMs, isDue, type Frequency, type ScheduleSettings } from "../shared/monitor/schedule.ts";
import { errorView } from "../shared/app/dispatch.ts";
import { HostError } from "./quota.ts";
import { createDriver } from "./driver.ts";
import { gas } from "./services.ts";
import { uiCall } from "./ui.ts";
import { mailApp } from "./mail.ts";

export const TICK_HANDLER = "monitorTick";
/** A tick's working time: under the 6-minute limit, with room to write and save. */
export const TICK_BUDGET_MS = 270_000;
/**
 * The trigger this document installed, as {uid, label} ("hourly" | "daily@H"),
 * so a tick only touches triggers when that must change, and so the trigger
 * is found by its id even where getUserTriggers(spreadsheet) does not list
 * time-driven triggers.
 */
const TRIGGER_PROP = "companyData.monitorTrigger";

interface Installed { uid: string; label: string }

function deps(budgetMs: number): AppDeps {
  return { host: "sheets", now: () => Date.now(), random: Math.random, deadline: Date.now() + budgetMs, documentId: "", mailer: mailApp() };
}

function run<T>(method: string, input: unknown, budgetMs: number): T {
  const g = gas();
  const lock = g.LockService.getDocumentLock();
  if (!lock.tryLock(20_000)) throw new Error("busy");
  const driver = createDriver();
  try {
    return runSync(dispatch(deps(budgetMs), method, input), driver) as T;
  } finally {
    try {
      driver.commit();
    } finally {
      lock.releaseLock();
    }
  }
}

function installed(props: GoogleAppsScript.Properties.Properties): Installed | null {
  const raw = props.getProperty(TRIGGER_PROP);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<Installed>;
    if (typeof v.uid === "string" && typeof v.label === "string") return { uid: v.uid, label: v.label };
  } catch {
    /* written by an older version: a bare label */
  }
  return { uid: "", label: raw };
}

/**
 * This document's tick triggers: those getUserTriggers lists for the
 * spreadsheet, plus the one whose id was stored when it was created. Other
 * tick triggers of the project belong to the user's other documents and are
 * never touched.
 */
function ours(g: ReturnType<typeof gas>, uid: string): GoogleAppsScript.Script.Trigger[] {
  const found = new Map<string, GoogleAppsScript.Script.Trigger>();
  for (const t of g.ScriptApp.getUserTriggers(g.SpreadsheetApp.getActive()))
    if (t.getHandlerFunction() === TICK_HANDLER) found.set(t.getUniqueId(), t);
  if (uid) for (const t of g.ScriptApp.getProjectTriggers()) if (t.getUniqueId() === uid) found.set(uid, t);
  return [...found.values()];
}

/** Install exactly the wanted trigger (or none). */
function setTrigger(want: { frequency: Frequency; hour: number } | null): void {
  const g = gas();
  const props = g.PropertiesService.getDocumentProperties();
  const label = want ? (want.frequency === "hourly" ? "hourly" : `daily@${want.hour}`) : "";
  const before = installed(props);
  const mine = ours(g, before?.uid ?? "");
  if (want && mine.length === 1 && before?.label === label && mine[0].getUniqueId() === before.uid) return;
  if (!want && mine.length === 0) {
    if (before) props.deleteProperty(TRIGGER_PROP);
    return;
  }
  for (const t of mine) g.ScriptApp.deleteTrigger(t);
  if (!want) return void props.deleteProperty(TRIGGER_PROP);
  const b = g.ScriptApp.newTrigger(TICK_HANDLER).timeBased();
  const created = want.frequency === "hourly" ? b.everyHours(1).create() : b.atHour(want.hour).everyDays(1).create();
  props.setProperty(TRIGGER_PROP, JSON.stringify({ uid: created.getUniqueId(), label }));
}

/** Make the trigger match the saved schedule (after the sidebar saved it). */
export function syncMonitorTrigger(): void {
  const status = run<MonitorStatusView>("monitorStatus", {}, 30_000);
  const s: ScheduleSettings = status.schedule;
  setTrigger(!s.enabled ? null : status.paused ? { frequency: "hourly", hour: s.hour } : s);
}

/** The trigger's handler. */
export function monitorTick(): void {
  const status = run<MonitorStatusView>("monitorStatus", {}, 30_000);
  const s = status.schedule;
  if (!s.enabled) return setTrigger(null);
  // Add-on triggers fire at a random minute of their hour: half an interval guards against a double run.
  if (!status.paused && !isDue(status.last?.finishedAt ?? null, intervalMs(s) / 2, Date.now())) return;
  const summary = run<RunSummary>("monitorRun", {}, TICK_BUDGET_MS);
  setTrigger(summary.status === "paused" ? { frequency: "hourly", hour: s.hour } : s);
}

/** Why a schedule could not be switched on, as the sidebar shows it (never Apps Script's own text). */
const TRIGGER_FAILED = {
  limit: {
    de: "Der Zeitplan wurde nicht eingeschaltet: Google hat den Zeit-Trigger abgelehnt, weil Ihr Konto schon zu viele Trigger für dieses Add-on hat. Entfernen Sie nicht mehr benötigte Zeitpläne in anderen Tabellen und versuchen Sie es erneut.",
    en: "The schedule was not switched on: Google refused the time-driven trigger because your account already has too many triggers for this add-on. Remove schedules you no longer need in other spreadsheets and try again.",
  },
  other: {
    de: "Der Zeitplan wurde nicht eingeschaltet: Google hat den Zeit-Trigger nicht angelegt. Bitte später erneut versuchen.",
    en: "The schedule was not switched on: Google did not create the time-driven trigger. Please try again later.",
  },
  stillOn: {
    de: "Der Zeit-Trigger konnte nicht gesetzt werden, und der Zeitplan ließ sich nicht zurücksetzen. Bitte den Zeitplan aus- und wieder einschalten.",
    en: "The time-driven trigger could not be set, and the schedule could not be reset. Please switch the schedule off and on again.",
  },
} as const;

/**
 * After a failed trigger change the saved schedule must not say "on": switch
 * it off and remove whatever is left of this document's trigger. Answers
 * whether the store now says off.
 */
function rollBack(): boolean {
  try {
    const status = run<MonitorStatusView>("monitorStatus", {}, 30_000);
    if (status.schedule.enabled) run<MonitorStatusView>("monitorSaveSchedule", { schedule: { enabled: false } }, 30_000);
  } catch {
    return false;
  }
  try {
    setTrigger(null);
  } catch {
    /* a trigger left behind finds the schedule off at its next tick and removes itself */
  }
  return true;
}

/** uiCall, plus the trigger change after the sidebar saved a schedule. */
export function uiCallWithMonitor(method: string, inputJson: string): string {
  const out = uiCall(method, inputJson);
  if (String(method) === "monitorSaveSchedule" && out.startsWith('{"ok":true')) {
    try {
      syncMonitorTrigger();
    } catch (e) {
      // Apps Script's text is only classified, never shown: it is English whatever the user's language.
      const raw = e instanceof Error ? e.message : String(e);
      const err = !rollBack() ? new HostError(TRIGGER_FAILED.stillOn, "schedule") : new HostError(/too many/i.test(raw) ? TRIGGER_FAILED.limit : TRIGGER_FAILED.other, "schedule");
      return JSON.stringify({ ok: false, error: errorView(err) });
    }
  }
  return out;
}
