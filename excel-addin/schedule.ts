/**
 * Scheduled jobs in Excel (the portfolio check, the scheduled refresh of an
 * enriched list: shared/app/scheduled-jobs.ts). Excel has no server side:
 * nothing runs while the workbook is closed. What it can do, this does:
 *  - when the workbook opens (the shared runtime starts with the document
 *    once a schedule is on: Office.addin.setStartupBehavior), look which jobs
 *    are due (their slot has passed since their last run) and run them;
 *  - while it is open, look again every few minutes (a timer).
 * The look is the one tick of shared/schedule/; each run is the app
 * service's own step (monitorRun, refreshRun), run to its end: the task pane
 * has no time limit, "paused" only happens with a deadline.
 */
import type { AnyAppJob, AppInput, AppMethodName, AppOutput, JobsRan } from "../shared/app/index.ts";
import { appCallOf, SCHEDULED_JOBS } from "../shared/app/index.ts";
import { HOUR_MS, runTickAsync, tickJobs, type ZoneOffset } from "../shared/schedule/index.ts";
import { overrideCalls, type AppCall, type CallOverrides } from "../shared/ui/index.ts";

/** What the pane's scheduled jobs need of the host: the app service's typed call. */
export interface AppCaller {
  call: AppCall;
}

/** How often the open workbook looks whether a job is due. */
export const POLL_MS = 5 * 60_000;
/** Steps a run may take in one look (a run pauses only when failed calls are all that is left). */
const MAX_STEPS = 50;

/** The workbook user's time zone: the pane's own clock (daylight saving counts). */
export const LOCAL_ZONE: ZoneOffset = (at) => -new Date(at).getTimezoneOffset() * 60_000;

/** Start with the document when a schedule is on, so "on open" happens without opening the pane. */
export function applyStartupBehavior(enabled: boolean): void {
  try {
    const office = (globalThis as { Office?: typeof Office }).Office;
    void office?.addin?.setStartupBehavior(enabled ? office.StartupBehavior.load : office.StartupBehavior.none);
  } catch {
    /* older Excel without SharedRuntime 1.1: the jobs then run when the pane opens */
  }
}

/**
 * Start with the document while any job's schedule wants it: each says
 * whether it does, and the behaviour follows all of them, so one switched
 * off never stops another.
 */
const startupWanted = new Map<string, boolean>();
export function wantStartup(job: string, on: boolean): void {
  startupWanted.set(job, on);
  applyStartup();
}

/**
 * And only while the workbook allows it (shared/app/monitor-startup.ts: the
 * workbook's choice, kept in the file, since colleagues without the add-in
 * get "ADD-IN ERROR" from a workbook that starts it, OfficeDev/office-js#3558).
 * Microsoft: a `load` asked in Office.onReady turns it on again after a
 * `none` ("Run code in your Office Add-in when the document opens"), so
 * nothing here asks for `load` before the workbook's choice is known, nor
 * against it. Unknown (an answer without `startup`, another host) = allowed.
 */
let startupAllowed = true;
function applyStartup(): void {
  applyStartupBehavior(startupAllowed && [...startupWanted.values()].some(Boolean));
}
export function allowStartup(on: boolean): void {
  startupAllowed = on;
  applyStartup();
}

/** The host whose Monitor answers tell the startup behaviour the workbook's choice (and the switch applies at once). */
export function withStartupChoice<H extends AppCaller>(host: H): H {
  const noted =
    <M extends "monitorStatus" | "monitorSaveSchedule" | "monitorSaveAlerts" | "monitorStartup" | "monitorShare">(
      method: M,
    ) =>
    async (input: AppInput<M>): Promise<AppOutput<M>> => {
      const view = await host.call(method, input);
      // A schedule switched on or off in the panel counts now, not at the timer's next look.
      startupWanted.set("monitor-panel", view.schedule.enabled);
      if (view.startup) allowStartup(view.startup.on);
      else applyStartup();
      return view;
    };
  return {
    ...host,
    call: overrideCalls(host.call, {
      monitorStatus: noted("monitorStatus"),
      monitorSaveSchedule: noted("monitorSaveSchedule"),
      monitorSaveAlerts: noted("monitorSaveAlerts"),
      monitorStartup: noted("monitorStartup"),
      monitorShare: noted("monitorShare"),
    }),
  };
}

/**
 * One run of a job at a time per workbook. The timer and the task pane's
 * buttons ("Check now", "Refresh now") share this caller (one shared runtime
 * per workbook, so one instance per page is one per workbook). A step asked
 * for while one of the same job is under way waits for it: with the same run
 * key (the same sheet and budget) it gets that run's answer (nothing is
 * checked or paid twice), otherwise it runs after it. Every other method
 * passes straight through.
 */
export interface SerialisedJobs {
  /** Whether a run of the job (its key) is running or waiting to run. */
  running(job: string): boolean;
}

function oneAtATime<M extends AppMethodName>(
  call: AppCall,
  method: M,
  runKey: (input: AppInput<M>) => string,
  count: (d: 1 | -1) => void,
): (input: AppInput<M>) => Promise<AppOutput<M>> {
  let current: { key: string; answer: Promise<AppOutput<M>> } | undefined;
  let tail: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  return (input) => {
    const key = runKey(input);
    if (current && current.key === key) return current.answer;
    count(1);
    // With none under way it starts at once; else after the last one asked for.
    const answer = waiting === 0 ? call(method, input) : tail.catch(() => undefined).then(() => call(method, input));
    waiting++;
    const mine = { key, answer };
    current = mine;
    tail = answer;
    void answer
      .catch(() => undefined)
      .then(() => {
        waiting--;
        count(-1);
        if (current === mine) current = undefined;
      });
    return answer;
  };
}

/** A job's step method, one run at a time. */
function serialiseStep<Run extends AppMethodName>(
  call: AppCall,
  job: { stepMethod: Run; runKey(input: AppInput<Run>): string },
  count: (d: 1 | -1) => void,
): CallOverrides {
  // oneAtATime types the handler for `Run`, the method it is filed under.
  return { [job.stepMethod]: oneAtATime(call, job.stepMethod, (i) => job.runKey(i), count) };
}

export function serialiseJobs<H extends AppCaller>(
  host: H,
  jobs: readonly AnyAppJob[] = SCHEDULED_JOBS,
): H & SerialisedJobs {
  const queued = new Map<string, number>();
  const overrides: CallOverrides = {};
  for (const job of jobs) {
    const count = (d: 1 | -1) => queued.set(job.key, (queued.get(job.key) ?? 0) + d);
    Object.assign(overrides, serialiseStep(host.call, job, count));
  }
  return {
    ...host,
    call: overrideCalls(host.call, overrides),
    running: (key) => (queued.get(key) ?? 0) > 0,
  };
}

export interface JobsLoop {
  /** The look made at start (on open). */
  first: Promise<JobsRan | null>;
  /** Look now; resolves with what ran (null: nothing). */
  tick(): Promise<JobsRan | null>;
  stop(): void;
}

/** The clock and timer the pane's scheduled jobs use (a test passes its own). */
export interface PaneTimers {
  setInterval: (f: () => void, ms: number) => unknown;
  clearInterval: (h: unknown) => void;
  now: () => number;
  zone?: ZoneOffset;
}
export const PANE_TIMERS: PaneTimers = {
  setInterval: (f, ms) => globalThis.setInterval(f, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
  now: () => Date.now(),
};

/** Look whether a job is due now and every POLL_MS; run each due one to its end. */
export function startScheduledJobs(
  host: AppCaller & Partial<SerialisedJobs>,
  timers: PaneTimers = PANE_TIMERS,
  jobs: readonly AnyAppJob[] = SCHEDULED_JOBS,
): JobsLoop {
  let busy = false;
  const tick = async (): Promise<JobsRan | null> => {
    if (busy) return null;
    busy = true;
    try {
      const outcomes = await runTickAsync(
        tickJobs(jobs, {
          now: timers.now,
          zone: timers.zone ?? LOCAL_ZONE,
          maxSteps: MAX_STEPS,
          // A run already going (the user's button) is this look's answer; the next look sees its result.
          skip: (key) => host.running?.(key) === true,
        }),
        (c) => {
          const { method, input } = appCallOf(c);
          return host.call(method, input);
        },
      );
      const ran: Record<string, unknown> = {};
      for (const o of outcomes) {
        if (o.state) wantStartup(o.key, o.state.slot !== null);
        // No key yet, offline, …: the pane shows errors when the user acts; the timer tries again.
        if (o.summary && !o.error) ran[o.key] = o.summary;
      }
      return Object.keys(ran).length ? ran : null;
    } finally {
      busy = false;
    }
  };
  const first = tick();
  const handle = timers.setInterval(() => void tick(), Math.min(POLL_MS, HOUR_MS));
  return { first, tick, stop: () => timers.clearInterval(handle) };
}
