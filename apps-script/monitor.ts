/**
 * Scheduled jobs in Google Sheets (the portfolio check and the scheduled
 * refresh: shared/app/scheduled-jobs.ts): an installable time-driven trigger
 * runs `monitorTick`, daily at the chosen hour or hourly, set and removed
 * when the sidebar saves a schedule (the schedules themselves live in the
 * document's store). A tick is the one tick of shared/schedule/, driven with
 * the sync driver under the 6-minute limit: each due job runs one step in
 * what the tick has left; a run that needs longer pauses at a window
 * boundary. Add-ons get one time-driven trigger per document, so a daily
 * schedule switches to hourly ticks until the paused run is finished, then
 * back to daily.
 *
 * A time-driven trigger of an editor add-on does not run inside the
 * spreadsheet (https://developers.google.com/workspace/add-ons/concepts/editor-triggers,
 * "Time-driven" row; https://developers.google.com/apps-script/reference/lock/lock-service#getDocumentLock()):
 * getActive(), the document lock and the document's properties can be null
 * there. So the spreadsheet id is stored with the trigger (in the user's
 * store, keyed by the trigger's id, which the event object carries as
 * `triggerUid`: https://developers.google.com/apps-script/guides/triggers/events#time-driven-events),
 * the tick opens it by id, every null is guarded, and a tick that cannot
 * work records why where the Monitor sidebar shows it.
 *
 * The tick is one function per step (find the document, check the daily
 * runtime, run the check, set the trigger, record the outcome) so a later
 * step (an e-mail digest) is one more call.
 */
import * as z from "zod/mini";
import { runSync } from "../shared/core/index.ts";
import { readSaved, savedKind, writeSaved } from "../shared/core/index.ts";
import { dispatch } from "../shared/app/index.ts";
import type { AppDeps, AppInput, AppMethodName, AppOutput } from "../shared/app/index.ts";
import type { MonitorStatusView } from "../shared/app/index.ts";
import { appCallOf, jobSavedBy, SCHEDULED_JOBS } from "../shared/app/index.ts";
import { HOUR_MS, jobStates, runTickSync, tickJobs, tickWant, UTC } from "../shared/schedule/index.ts";
import type { JobCall, JobOutcome, TickWant, ZoneOffset } from "../shared/schedule/index.ts";
import { errorView } from "../shared/app/index.ts";
import { toCompanyDataError } from "../shared/core/index.ts";
import type { Bilingual } from "../shared/i18n/index.ts";
import { HostError } from "./quota.ts";
import { createDriver, NO_DOCUMENT_STORE } from "./driver.ts";
import { claimRun, releaseRun } from "./run-marker.ts";
import { gas, type Services } from "./services.ts";
import { SheetStore, type KeyValues } from "./doc-state.ts";
import { StateSession } from "./state-session.ts";
import { uiCall } from "./ui.ts";
import { mailApp } from "./mail.ts";
import { Pacer } from "../shared/api/index.ts";

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Props = GoogleAppsScript.Properties.Properties;

export const TICK_HANDLER = "monitorTick";
/** A tick's working time: under the 6-minute limit, with room to write and save. */
export const TICK_BUDGET_MS = 270_000;
/**
 * The trigger this document installed, as {uid, label} ("hourly" | "daily@H@tz"),
 * so a tick only touches triggers when that must change, and so the trigger
 * is found by its id even where getUserTriggers(spreadsheet) does not list
 * time-driven triggers.
 */
const TRIGGER_PROP = "companyData.monitorTrigger";
/** User store: which spreadsheet a trigger (by unique id) belongs to. */
const TRIGGER_DOC_PREFIX = "companyData.triggerDoc:";
/** Why the last scheduled check of a document failed: in the document's store, or the user's (keyed by spreadsheet id) when that is unavailable. */
const FAILURE_PROP = "companyData.tickFailure";
/** User store: this user's tick runtime today, {day, ms}. */
const RUNTIME_PROP = "companyData.tickRuntime";
/**
 * Triggers' total runtime is limited per user and day: 90 minutes for
 * consumer accounts, 6 hours for Workspace
 * (https://developers.google.com/apps-script/guides/services/quotas, "Triggers total runtime").
 * The add-on stops its ticks for the day at 60 minutes, leaving the rest to
 * the user's other scripts, so catch-up ticks of a long paused check never
 * use up the quota (the trigger would fail for everything else).
 */
export const DAILY_TICK_RUNTIME_MS = 60 * 60_000;
/** Google's limit on triggers per user and script (https://developers.google.com/apps-script/guides/services/quotas, "Triggers"). */
export const MAX_TRIGGERS_PER_USER = 20;

interface Installed {
  uid: string;
  label: string;
}

const installedShape: z.ZodMiniType<Installed> = z.object({ uid: z.string(), label: z.string() });
/**
 * Written without a version before v1 (and, before that, as the bare label):
 * both still read, or an update would install a second trigger beside the first.
 */
export const INSTALLED_TRIGGER = savedKind(1, installedShape, installedShape);

/** Where a call runs: the spreadsheet, its state (doc-state.ts: reachable by id) and the document lock (may be null outside a document). */
export interface DocumentContext {
  spreadsheet: Spreadsheet;
  id: string;
  store: KeyValues;
  lock: GoogleAppsScript.Lock.Lock | null;
}

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
    // The audit names a run of the time-driven trigger by what started it.
    who: "schedule",
  };
}

const guard = <T>(f: () => T): T | null => {
  try {
    return f() ?? null;
  } catch {
    return null;
  }
};

/** The document of a call made from inside it (sidebar, menu). */
function activeDocument(g: Services): DocumentContext | null {
  const spreadsheet = guard(() => g.SpreadsheetApp.getActive());
  if (!spreadsheet) return null;
  return documentContext(g, spreadsheet, spreadsheet.getId());
}

function documentContext(g: Services, spreadsheet: Spreadsheet, id: string): DocumentContext {
  return { spreadsheet, id, store: new SheetStore(spreadsheet), lock: guard(() => g.LockService.getDocumentLock()) };
}

/**
 * Run an app method on a document; `exclusive` claims the run marker for it
 * (never the lock for the whole step) in the state sheet's session the
 * driver then uses, so the run reads the sheet once and its last write
 * carries the marker's release (state-session.ts).
 */
function run<M extends AppMethodName>(
  doc: DocumentContext,
  method: M,
  input: AppInput<M>,
  budgetMs: number,
  exclusive = false,
): AppOutput<M> {
  const state = exclusive
    ? new StateSession(
        doc.spreadsheet,
        () => doc.lock,
        () => gas().SpreadsheetApp.flush(),
      )
    : null;
  const token = state ? claimRun(state, doc.lock, Date.now()) : null;
  const driver = createDriver({ spreadsheet: () => doc.spreadsheet, ...(state ? { state } : {}) });
  try {
    return runSync(dispatch(deps(budgetMs), method, input), driver);
  } finally {
    try {
      driver.commit();
    } finally {
      if (state && token) releaseRun(state, doc.lock, token);
    }
  }
}

function installed(store: KeyValues): Installed | null {
  const [raw] = store.read([TRIGGER_PROP]);
  if (!raw) return null;
  // Anything else was written by an older version: a bare label.
  return readSaved(INSTALLED_TRIGGER, raw) ?? { uid: "", label: raw };
}

/**
 * This document's tick triggers: those getUserTriggers lists for the
 * spreadsheet, plus the one whose id was stored when it was created. Other
 * tick triggers of the project belong to the user's other documents and are
 * never touched.
 */
function ours(g: Services, doc: DocumentContext, uid: string): GoogleAppsScript.Script.Trigger[] {
  const found = new Map<string, GoogleAppsScript.Script.Trigger>();
  for (const t of g.ScriptApp.getUserTriggers(doc.spreadsheet))
    if (t.getHandlerFunction() === TICK_HANDLER) found.set(t.getUniqueId(), t);
  if (uid) for (const t of g.ScriptApp.getProjectTriggers()) if (t.getUniqueId() === uid) found.set(uid, t);
  return [...found.values()];
}

/** The trigger could not be created because the user has as many as Google allows (counted before trying: Apps Script's texts are localised). */
class TriggerLimit extends Error {}

/** Install exactly the wanted trigger (or none). Daily hours are the spreadsheet's time zone's. */
function setTrigger(doc: DocumentContext, want: TickWant): void {
  const g = gas();
  const store = doc.store;
  const tz = guard(() => doc.spreadsheet.getSpreadsheetTimeZone()) ?? "";
  const label = want ? (want.frequency === "hourly" ? "hourly" : `daily@${want.hour}@${tz}`) : "";
  const before = installed(store);
  const mine = ours(g, doc, before?.uid ?? "");
  if (want && mine.length === 1 && before?.label === label && mine[0]?.getUniqueId() === before.uid) return;
  if (!want && mine.length === 0) {
    if (before) store.write({ [TRIGGER_PROP]: null });
    return;
  }
  const user = g.PropertiesService.getUserProperties();
  for (const t of mine) {
    g.ScriptApp.deleteTrigger(t);
    user.deleteProperty(TRIGGER_DOC_PREFIX + t.getUniqueId());
  }
  if (!want) return void store.write({ [TRIGGER_PROP]: null });
  if (g.ScriptApp.getProjectTriggers().length >= MAX_TRIGGERS_PER_USER) {
    store.write({ [TRIGGER_PROP]: null });
    throw new TriggerLimit();
  }
  const b = g.ScriptApp.newTrigger(TICK_HANDLER).timeBased();
  const created =
    want.frequency === "hourly"
      ? b.everyHours(1).create()
      : (tz ? b.atHour(want.hour).everyDays(1).inTimezone(tz) : b.atHour(want.hour).everyDays(1)).create();
  user.setProperty(TRIGGER_DOC_PREFIX + created.getUniqueId(), doc.id);
  store.write({ [TRIGGER_PROP]: writeSaved(INSTALLED_TRIGGER, { uid: created.getUniqueId(), label }) });
}

/**
 * One trigger for what this document schedules: its scheduled jobs (the
 * portfolio check, the scheduled refresh of an enriched list) share it, because
 * an add-on gets one time-driven trigger per document
 * (https://developers.google.com/workspace/add-ons/concepts/editor-triggers,
 * "Each add-on can only have one trigger of each type, per user, per
 * document"). Both daily at the same hour: daily; otherwise hourly, and each
 * tick decides what is due (by its own slot).
 */
export function wantedTrigger(wants: readonly TickWant[]): TickWant {
  const on = wants.filter((w): w is NonNullable<TickWant> => w !== null);
  const first = on[0];
  if (!first) return null;
  if (on.every((w) => w.frequency === "daily" && w.hour === first.hour)) return first;
  return { frequency: "hourly", hour: first.hour };
}

/** Make the trigger match the saved schedules (after the sidebar saved one). */
export function syncMonitorTrigger(doc: DocumentContext): void {
  const states = runTickSync(jobStates(SCHEDULED_JOBS), (c) => callJob(doc, c, 30_000));
  setTrigger(doc, wantedTrigger(states.map((st) => tickWant(st, st.paused))));
}

/** A call a tick asked for, made on the document; a step claims the run marker for itself. */
function callJob(doc: DocumentContext, c: JobCall, budgetMs: number): unknown {
  const { method, input } = appCallOf(c);
  return run(doc, method, input, c.budgetMs ?? budgetMs, c.kind === "step");
}

/**
 * The spreadsheet's time zone: its offset at an instant from
 * Utilities.formatDate(…, "Z"), so daylight saving counts. UTC where the
 * zone cannot be read.
 */
function zoneOf(doc: DocumentContext): ZoneOffset {
  const tz = guard(() => doc.spreadsheet.getSpreadsheetTimeZone());
  if (!tz) return UTC;
  return (at) => {
    const z = guard(() => gas().Utilities.formatDate(new Date(at), tz, "Z"));
    const m = z ? /^([+-])(\d{2}):?(\d{2})$/.exec(z) : null;
    return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * HOUR_MS + Number(m[3]) * 60_000) : 0;
  };
}

const TICK_FAILED = {
  unopened: {
    de: "Die geplante Prüfung konnte die Tabelle nicht öffnen (gelöscht, oder kein Zugriff mehr); ihr Zeit-Trigger wurde entfernt. Bitte den Zeitplan neu einschalten.",
    en: "The scheduled check could not open the spreadsheet (deleted, or no access any more); its time-driven trigger was removed. Please switch the schedule on again.",
  },
  runtime: {
    de: "Die geplanten Prüfungen haben heute ihr Zeitbudget verbraucht (Google erlaubt Triggern 90 Minuten am Tag); die Prüfung geht morgen weiter. Sofort: „Jetzt prüfen“.",
    en: 'The scheduled checks used up today\'s time budget (Google allows triggers 90 minutes a day); the check continues tomorrow. Right now: "Check now".',
  },
  lastFailed: { de: "Letzte geplante Prüfung fehlgeschlagen", en: "Last scheduled check failed" },
} as const;

interface TickFailure {
  at: number;
  de: string;
  en: string;
}

const tickFailureShape: z.ZodMiniType<TickFailure> = z.object({ at: z.number(), de: z.string(), en: z.string() });
/** Written without a version before v1: still read, or an update would hide the last failure from the sidebar. */
export const TICK_FAILURE = savedKind(1, tickFailureShape, tickFailureShape);

/** Step: which spreadsheet this trigger belongs to, opened by id; null (after recording why) when it cannot be. */
function openScheduledDocument(g: Services, e: { triggerUid?: unknown } | undefined): DocumentContext | null {
  const active = activeDocument(g);
  if (active) return active;
  const uid = e && typeof e.triggerUid === "string" ? e.triggerUid : "";
  const user = g.PropertiesService.getUserProperties();
  const id = uid ? user.getProperty(TRIGGER_DOC_PREFIX + uid) : null;
  if (!id) return null; // a trigger this version did not create: nothing to open, nothing to record against
  const spreadsheet = guard(() => g.SpreadsheetApp.openById(id));
  if (!spreadsheet) {
    // Gone or unshared: a trigger that can never work again only spends the user's trigger quota.
    for (const t of g.ScriptApp.getProjectTriggers()) if (t.getUniqueId() === uid) g.ScriptApp.deleteTrigger(t);
    user.deleteProperty(TRIGGER_DOC_PREFIX + uid);
    recordTickFailure(g, { id, store: null }, TICK_FAILED.unopened);
    return null;
  }
  return documentContext(g, spreadsheet, id);
}

const today = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** This user's tick runtime so far today (UTC day, as Google's quotas reset). */
const runtimeShape = z.object({ day: z.string(), ms: z.number() });
/** Written without a version before v1: still read, or an update would let the day's ticks run past their share again. */
export const TICK_RUNTIME = savedKind(1, runtimeShape, runtimeShape);

function runtimeToday(user: Props, now: number): number {
  const v = readSaved(
    TICK_RUNTIME,
    guard(() => user.getProperty(RUNTIME_PROP)),
  );
  return v && v.day === today(now) ? v.ms : 0;
}

/** Step: may this tick run the check without taking the day's trigger runtime past the add-on's share? */
function withinDailyRuntime(g: Services, now: number): boolean {
  return runtimeToday(g.PropertiesService.getUserProperties(), now) + TICK_BUDGET_MS <= DAILY_TICK_RUNTIME_MS;
}

function addRuntime(g: Services, startedAt: number, now: number): void {
  const user = g.PropertiesService.getUserProperties();
  user.setProperty(
    RUNTIME_PROP,
    writeSaved(TICK_RUNTIME, { day: today(now), ms: runtimeToday(user, now) + Math.max(0, now - startedAt) }),
  );
}

/** The least time a step gets in a tick after another job's; with less it waits for the next tick. */
export const MIN_STEP_MS = 60_000;

/**
 * Step: the jobs due (or paused), one step each, in what the tick has left.
 * Add-on triggers fire at a random minute of their hour, so the due rule
 * counts a run closer than half an interval as this slot's (`jittery`).
 */
function runScheduledJobs(doc: DocumentContext, startedAt: number): JobOutcome[] {
  const tick = tickJobs(SCHEDULED_JOBS, {
    now: () => Date.now(),
    zone: zoneOf(doc),
    jittery: true,
    maxSteps: 1,
    budget: { startedAt, ms: TICK_BUDGET_MS, leastStepMs: MIN_STEP_MS },
  });
  return runTickSync(tick, (c) => callJob(doc, c, 30_000));
}

/** Step: remember why a tick failed, where the sidebar of that document will find it. */
function recordTickFailure(g: Services, doc: { id: string; store: KeyValues | null }, why: Bilingual): void {
  const value = writeSaved(TICK_FAILURE, { at: Date.now(), de: why.de, en: why.en });
  if (doc.store && guard(() => (doc.store!.write({ [FAILURE_PROP]: value }), true))) return;
  guard(() => g.PropertiesService.getUserProperties().setProperty(`${FAILURE_PROP}:${doc.id}`, value));
}

/** Step: a tick that worked clears the failure shown. */
function clearTickFailure(g: Services, doc: DocumentContext): void {
  if (lastTickFailure(g, doc)) guard(() => doc.store.write({ [FAILURE_PROP]: null }));
  guard(() => g.PropertiesService.getUserProperties().deleteProperty(`${FAILURE_PROP}:${doc.id}`));
}

/** The last failed tick of this document (its store, else this user's record of it). */
function lastTickFailure(g: Services, doc: DocumentContext): TickFailure | null {
  const raw =
    guard(() => doc.store.read([FAILURE_PROP])[0]) ??
    guard(() => g.PropertiesService.getUserProperties().getProperty(`${FAILURE_PROP}:${doc.id}`));
  return readSaved(TICK_FAILURE, raw) ?? null;
}

/** The trigger's handler. */
export function monitorTick(e?: { triggerUid?: unknown }): void {
  const g = gas();
  const startedAt = Date.now();
  const doc = openScheduledDocument(g, e);
  if (!doc) return;
  if (!withinDailyRuntime(g, startedAt)) return recordTickFailure(g, doc, TICK_FAILED.runtime);
  try {
    const outcomes = runScheduledJobs(doc, startedAt);
    const failed = outcomes.find((o) => o.error !== undefined);
    // A failed job leaves the trigger as it is (its paused run keeps its hourly ticks); the others still ran.
    if (failed) throw failed.error;
    // The trigger for what comes next: off, hourly while a run has work left, else the schedules.
    setTrigger(doc, wantedTrigger(outcomes.map((o) => (o.state ? tickWant(o.state, o.pending) : null))));
    clearTickFailure(g, doc);
  } catch (err) {
    // Recorded, not thrown: the sidebar shows it in the user's language (a thrown error would only reach Google's failure e-mail).
    const e2 = toCompanyDataError(err);
    recordTickFailure(g, doc, { de: e2.text("de"), en: e2.text("en") });
  } finally {
    addRuntime(g, startedAt, Date.now());
  }
}

/**
 * A trigger installed by an earlier version has no spreadsheet id stored
 * with it, and its tick could not find the spreadsheet without a document
 * context: when its owner opens the Monitor sidebar, the id is stored.
 */
function rememberTrigger(g: Services, doc: DocumentContext): void {
  const uid = installed(doc.store)?.uid;
  if (!uid) return;
  const user = g.PropertiesService.getUserProperties();
  if (user.getProperty(TRIGGER_DOC_PREFIX + uid)) return;
  if (g.ScriptApp.getProjectTriggers().some((t) => t.getUniqueId() === uid))
    user.setProperty(TRIGGER_DOC_PREFIX + uid, doc.id);
}

/** The Monitor sidebar's status, with the last failed tick in front of the host note. */
function withTickFailure(out: string, doc: DocumentContext | null): string {
  if (!doc || !out.startsWith('{"ok":true')) return out;
  const failure = lastTickFailure(gas(), doc);
  if (!failure) return out;
  const env = JSON.parse(out) as { ok: true; value: MonitorStatusView };
  const at = new Date(failure.at).toISOString().slice(0, 16).replace("T", " ");
  env.value.hostNote = {
    de: `${TICK_FAILED.lastFailed.de} (${at} UTC): ${failure.de} ${env.value.hostNote.de}`,
    en: `${TICK_FAILED.lastFailed.en} (${at} UTC): ${failure.en} ${env.value.hostNote.en}`,
  };
  return JSON.stringify(env);
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
function rollBack(doc: DocumentContext, saved: string): boolean {
  try {
    const job = jobSavedBy(saved);
    if (!job) return false;
    const [state] = runTickSync(jobStates([job]), (c) => callJob(doc, c, 30_000));
    if (state?.slot) run(doc, job.saveMethod, job.offInput, 30_000);
  } catch {
    return false;
  }
  try {
    setTrigger(doc, null);
  } catch {
    /* a trigger left behind finds the schedule off at its next tick and removes itself */
  }
  return true;
}

/** uiCall, plus the trigger change after the sidebar saved a schedule, and the last failed tick in the status. */
export function uiCallWithMonitor(method: string, inputJson: string): string {
  const out = uiCall(method, inputJson);
  const name = String(method);
  const saves = jobSavedBy(name) !== undefined;
  if (!saves && !SCHEDULED_JOBS.some((j) => j.statusMethod === name)) return out;
  const doc = activeDocument(gas());
  if (saves && out.startsWith('{"ok":true')) {
    try {
      if (!doc) throw new HostError(NO_DOCUMENT_STORE, "document");
      syncMonitorTrigger(doc);
    } catch (e) {
      // Apps Script's own text is never shown nor read (it is localised): the count was checked before creating.
      const err =
        !doc || !rollBack(doc, name)
          ? new HostError(TRIGGER_FAILED.stillOn, "schedule")
          : new HostError(e instanceof TriggerLimit ? TRIGGER_FAILED.limit : TRIGGER_FAILED.other, "schedule");
      return JSON.stringify({ ok: false, error: errorView(err) });
    }
  }
  if (doc && name === "monitorStatus") guard(() => rememberTrigger(gas(), doc));
  return withTickFailure(out, doc);
}
