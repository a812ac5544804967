/**
 * The app's scheduled jobs: the portfolio check (shared/app/monitor.ts) and
 * the scheduled refresh of an enriched list (shared/app/refresh.ts), each
 * described once for every host's loop (shared/schedule/: when it is due, the
 * one tick). Apps Script's trigger, the Excel task pane's timer and the
 * status views' host notes all read this list; a third job is one more entry.
 */
import { CompanyDataError } from "../core/index.ts";
import { refreshSlot } from "../refresh/index.ts";
import type { JobCall, ScheduledJob } from "../schedule/index.ts";
import type { AppInput, AppMethodName, AppOutput } from "./protocol.ts";

/** A scheduled job of the app service, by the names of its methods. */
export interface AppJob<
  K extends string,
  St extends AppMethodName,
  Run extends AppMethodName,
  Save extends AppMethodName,
> extends ScheduledJob<AppOutput<St>, AppInput<Run>> {
  readonly key: K;
  readonly statusMethod: St;
  readonly stepMethod: Run;
  /** The method that saves its schedule, and the input that switches it off (a host rolls back with it). */
  readonly saveMethod: Save;
  readonly offInput: AppInput<Save>;
}

const TEST_NOTE = {
  de: "Testumgebung: nichts läuft nach Zeitplan.",
  en: "Test environment: nothing runs on a schedule.",
};

export const MONITOR_JOB: AppJob<"monitor", "monitorStatus", "monitorRun", "monitorSaveSchedule"> = {
  key: "monitor",
  statusMethod: "monitorStatus",
  stepMethod: "monitorRun",
  saveMethod: "monitorSaveSchedule",
  offInput: { schedule: { enabled: false } },
  state: (s) => ({
    // With a team server the server runs the check (SERVER_SYNC_JOB writes what it found); here it stands aside.
    slot: s.schedule.enabled && !s.server ? { frequency: s.schedule.frequency, hour: s.schedule.hour } : null,
    lastRun: s.last?.finishedAt,
    paused: s.paused,
  }),
  // The schedule's sheet and budget spelled out, so a "Check now" of the same sheet joins the scheduled run.
  stepInput: (s) => ({ sheet: s.schedule.sheet, budget: s.schedule.budget }),
  runKey: (i) => {
    const sheet = typeof i.sheet === "string" && i.sheet.trim() ? i.sheet.trim() : null;
    return JSON.stringify([sheet, "budget" in i ? (i.budget ?? null) : "schedule"]);
  },
  hostNotes: {
    sheets: {
      de: "Google Sheets prüft nach Zeitplan auch bei geschlossener Tabelle (installierbarer Zeit-Trigger, höchstens stündlich).",
      en: "Google Sheets checks on schedule even while the spreadsheet is closed (installable time-driven trigger, at most hourly).",
    },
    excel: {
      de: "Excel prüft nur, solange die Arbeitsmappe geöffnet ist: beim Öffnen, wenn die letzte Prüfung älter als das Intervall ist, und danach per Timer. Bei geschlossener Mappe wird nichts aktualisiert.",
      en: "Excel checks only while the workbook is open: on opening when the last check is older than the interval, then on a timer. Nothing is refreshed while the workbook is closed.",
    },
    // Decision: the playground does not run a timer. A real-time hourly or daily
    // timer would never fire in a demo session, and the emulator's clock (what
    // the playground's data follows) moves only when the user moves it.
    playground: {
      de: "Im Playground läuft nichts nach Zeitplan: Der Zeitplan wird nur gespeichert und seine Kosten geschätzt. Prüfen Sie mit „Jetzt prüfen“; neue Änderungen entstehen, wenn Sie die Uhr des Emulators vorstellen (POST /_emulator/clock).",
      en: 'Nothing runs on a schedule in the playground: the schedule is only stored and its cost estimated. Check with "Check now"; new changes appear when you move the emulator\'s clock (POST /_emulator/clock).',
    },
    test: TEST_NOTE,
  },
};

export const REFRESH_JOB: AppJob<"refresh", "refreshStatus", "refreshRun", "refreshSaveSettings"> = {
  key: "refresh",
  statusMethod: "refreshStatus",
  stepMethod: "refreshRun",
  saveMethod: "refreshSaveSettings",
  offInput: { refresh: { enabled: false } },
  state: (s) => ({ slot: refreshSlot(s.settings), lastRun: s.last?.finishedAt, paused: s.paused }),
  stepInput: () => ({}),
  // One refresh per document: any second one asked while it runs joins it.
  runKey: () => "refresh",
  hostNotes: {
    sheets: {
      de: "Google Sheets aktualisiert nach Zeitplan auch bei geschlossener Tabelle (derselbe Zeit-Trigger wie die Portfolio-Prüfung).",
      en: "Google Sheets refreshes on schedule even while the spreadsheet is closed (the same time-driven trigger as the portfolio check).",
    },
    excel: {
      de: "Excel aktualisiert nur, solange die Arbeitsmappe geöffnet ist: beim Öffnen, wenn ein Lauf fällig ist, und danach per Timer. Bei geschlossener Mappe wird nichts aktualisiert.",
      en: "Excel refreshes only while the workbook is open: on opening when a run is due, then on a timer. Nothing is refreshed while the workbook is closed.",
    },
    playground: {
      de: "Im Playground läuft nichts nach Zeitplan: Einstellungen und Schätzung werden gespeichert; „Jetzt aktualisieren“ führt einen Lauf aus. Stellen Sie die Uhr des Emulators vor, damit Zeilen fällig werden.",
      en: 'Nothing runs on a schedule in the playground: settings and estimate are stored; "Refresh now" runs one. Move the emulator\'s clock forward so that rows fall due.',
    },
    test: TEST_NOTE,
  },
};

/**
 * With a team server the portfolio schedule runs there, also while the
 * workbook is closed (shared/app/monitor-server.ts); the workbook's part is
 * to fetch what its runs found and write it into the portfolio sheet and the
 * change log: at every look (on open, on Excel's timer, on the Sheets
 * trigger) while the schedule is registered. A fetch with nothing new is one
 * free request to the server, and a look cannot know when the server's run
 * ended, so no slot is waited for.
 */
export const SERVER_SYNC_JOB: AppJob<"server-sync", "monitorStatus", "monitorSync", "monitorSaveSchedule"> = {
  key: "server-sync",
  statusMethod: "monitorStatus",
  stepMethod: "monitorSync",
  saveMethod: "monitorSaveSchedule",
  offInput: { schedule: { enabled: false } },
  state: (s) => ({
    slot: s.server?.registered ? { frequency: "hourly", hour: s.schedule.hour } : null,
    lastRun: s.server?.syncedAt ?? null,
    paused: false,
    everyLook: true,
  }),
  stepInput: () => ({}),
  // One sync per document: a second asked while one runs joins it (both would append to the change log).
  runKey: () => "server-sync",
  hostNotes: MONITOR_JOB.hostNotes,
};

/** Every scheduled job, in the order a tick runs them (the check first: it is what a schedule is mostly for). */
export const SCHEDULED_JOBS = [MONITOR_JOB, REFRESH_JOB, SERVER_SYNC_JOB] as const;
export type AnyAppJob = (typeof SCHEDULED_JOBS)[number];
export type JobMethod = AnyAppJob["statusMethod" | "stepMethod"];

/** The app call a tick asked for, as the app service types it (a method of no job is a bug: INTERNAL). */
export function appCallOf(call: JobCall): { method: JobMethod; input: AppInput<JobMethod> } {
  const job = SCHEDULED_JOBS.find((j) => j.statusMethod === call.method || j.stepMethod === call.method);
  if (!job) throw new CompanyDataError("INTERNAL");
  const method: JobMethod = call.method === job.statusMethod ? job.statusMethod : job.stepMethod;
  // The tick builds a status call's input ({}) and a step's from the job's own stepInput.
  return { method, input: call.input as AppInput<JobMethod> };
}

/** The job whose schedule a save method stores. */
export const jobSavedBy = (method: string): AnyAppJob | undefined =>
  SCHEDULED_JOBS.find((j) => j.saveMethod === method);

/** What one tick ran, by job: the last step's summary of each job that ran. */
export type JobsRan = { [J in AnyAppJob as J["key"]]?: AppOutput<J["stepMethod"]> };
