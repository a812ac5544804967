/**
 * Scheduled portfolio checks in Excel. Excel has no server side: nothing runs
 * while the workbook is closed. What it can do, this does:
 *  - when the workbook opens (the shared runtime starts with the document
 *    once a schedule is on: Office.addin.setStartupBehavior), check if the
 *    last check is older than the schedule's slot, and run;
 *  - while it is open, look again every few minutes (a timer).
 * The check itself is the shared one (monitorRun through the app service).
 */
import type { AppInput } from "../shared/app/index.ts";
import type { RunSummary } from "../shared/monitor/index.ts";
import { HOUR_MS, isDueForSchedule, type ScheduleSettings } from "../shared/monitor/index.ts";
import { overrideCalls, type AppCall } from "../shared/ui/index.ts";

/** What the pane's scheduled tasks need of the host: the app service's typed call. */
export interface MonitorCaller {
  call: AppCall;
}

/** How often the open workbook looks whether a check is due. */
export const POLL_MS = 5 * 60_000;

/** Today's slot at the chosen hour, in the workbook user's local time. */
export function todaysSlot(now: number, hour: number): number {
  const d = new Date(now);
  d.setHours(hour, 0, 0, 0);
  return d.getTime();
}

export function isCheckDue(s: ScheduleSettings, lastFinished: string | null | undefined, now: number): boolean {
  if (!s.enabled) return false;
  return isDueForSchedule(s, lastFinished, now, s.frequency === "daily" ? todaysSlot(now, s.hour) : undefined);
}

/** Start with the document when a schedule is on, so "on open" happens without opening the pane. */
export function applyStartupBehavior(enabled: boolean): void {
  try {
    const office = (globalThis as { Office?: typeof Office }).Office;
    void office?.addin?.setStartupBehavior(enabled ? office.StartupBehavior.load : office.StartupBehavior.none);
  } catch {
    /* older Excel without SharedRuntime 1.1: the check then runs when the pane opens */
  }
}

/**
 * Start with the document while any schedule wants it (the portfolio check,
 * the scheduled refresh of ./refresh.ts): each says whether it does, and the
 * behaviour follows all of them, so one switched off never stops the other.
 */
const startupWanted = new Map<string, boolean>();
export function wantStartup(who: "monitor" | "refresh", on: boolean): void {
  startupWanted.set(who, on);
  applyStartupBehavior([...startupWanted.values()].some(Boolean));
}

/**
 * One portfolio check at a time per workbook. The timer and the task pane's
 * "Check now" share this caller (one shared runtime per workbook, so one
 * instance per page is one per workbook). A monitorRun asked for while one
 * is under way waits for it: with the same sheet and budget it gets that
 * run's answer (nothing is checked or paid twice), otherwise it runs after
 * it. Every other method passes straight through.
 */
export interface SerialisedChecks {
  /** Whether a check is running or waiting to run. */
  checking(): boolean;
}

const runKey = (i: AppInput<"monitorRun">) => {
  const sheet = typeof i.sheet === "string" && i.sheet.trim() ? i.sheet.trim() : null;
  return JSON.stringify([sheet, "budget" in i ? (i.budget ?? null) : "schedule"]);
};

export function serialiseChecks<H extends MonitorCaller>(host: H): H & SerialisedChecks {
  let current: { key: string; answer: Promise<RunSummary> } | undefined;
  let tail: Promise<unknown> = Promise.resolve();
  let queued = 0;
  const monitorRun = (input: AppInput<"monitorRun">): Promise<RunSummary> => {
    const key = runKey(input);
    if (current && current.key === key) return current.answer;
    queued++;
    const answer = tail.catch(() => undefined).then(() => host.call("monitorRun", input));
    const mine = { key, answer };
    current = mine;
    tail = answer;
    void answer
      .catch(() => undefined)
      .then(() => {
        queued--;
        if (current === mine) current = undefined;
      });
    return answer;
  };
  return { ...host, call: overrideCalls(host.call, { monitorRun }), checking: () => queued > 0 };
}

export interface MonitorLoop {
  /** The look made at start (on open). */
  first: Promise<RunSummary | null>;
  /** Look now; resolves with the run's summary when one ran. */
  tick(): Promise<RunSummary | null>;
  stop(): void;
}

/** The clock and timer a scheduled task in the pane uses (a test passes its own). */
export interface PaneTimers {
  setInterval: (f: () => void, ms: number) => unknown;
  clearInterval: (h: unknown) => void;
  now: () => number;
}
export const PANE_TIMERS: PaneTimers = {
  setInterval: (f, ms) => globalThis.setInterval(f, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
  now: () => Date.now(),
};

/**
 * Look whether a check is due now and every POLL_MS; run it (all of it: the
 * task pane has no time limit, "paused" only happens with a deadline) when due.
 */
export function startMonitor(
  host: MonitorCaller & Partial<SerialisedChecks>,
  timers: PaneTimers = PANE_TIMERS,
): MonitorLoop {
  let busy = false;
  const tick = async (): Promise<RunSummary | null> => {
    // A check already running (the user's "Check now") is this look's answer; the next tick sees its result.
    if (busy || host.checking?.()) return null;
    busy = true;
    try {
      const status = await host.call("monitorStatus", {});
      wantStartup("monitor", status.schedule.enabled);
      // With a team server the server runs the schedule; ./server-sync.ts writes its runs into the workbook.
      if (status.server) return null;
      if (!status.paused && !isCheckDue(status.schedule, status.last?.finishedAt, timers.now())) return null;
      // The schedule's sheet and budget spelled out, so a "Check now" of the same sheet joins this run.
      const input = { sheet: status.schedule.sheet, budget: status.schedule.budget };
      let summary: RunSummary;
      let steps = 0;
      do summary = await host.call("monitorRun", input);
      while (summary.status === "paused" && ++steps < 50);
      return summary;
    } catch {
      return null; // no key yet, offline, …: the pane shows errors when the user acts; the timer tries again
    } finally {
      busy = false;
    }
  };
  const first = tick();
  const handle = timers.setInterval(() => void tick(), Math.min(POLL_MS, HOUR_MS));
  return { first, tick, stop: () => timers.clearInterval(handle) };
}
