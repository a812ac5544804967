/**
 * A scheduled job (the portfolio check, the scheduled refresh, …) as every
 * host's loop sees it, and the one tick all those loops run.
 *
 * A job is described by its key, the app method that tells its status (its
 * schedule, its last run, whether a run is paused), the app method that runs
 * one step of it (a summary whose status "paused" means: stopped at the
 * host's deadline, call again), and its host notes. The tick is sans IO: a
 * generator that yields the app calls it wants made and receives their
 * answers, so Apps Script drives it synchronously under its 6-minute limit,
 * and the Excel task pane asynchronously and without one.
 */
import type { Bilingual } from "../i18n/index.ts";
import { isDue, type Slot, type ZoneOffset } from "./slot.ts";

/** What a job's status tells its scheduler. */
export interface JobState {
  /** Its schedule; null while the job is off or cannot run. */
  slot: Slot | null;
  /** When its last run finished (ISO). */
  lastRun: string | null | undefined;
  /** A run stopped at a host's deadline: the next tick continues it, due or not. */
  paused: boolean;
  /**
   * Due at every look while it has a slot, whatever its last run: a job that
   * only reads what a run elsewhere did (the team server's runs, fetched into
   * the workbook) costs nothing and cannot know when that run ended.
   */
  everyLook?: boolean;
}

/** What a step answers: status "paused" = stopped at the deadline, call again. */
export interface StepSummary {
  status: string;
}

/** What a host can and cannot do on a schedule, per host kind; `test` for any other. */
export type HostNotes = Record<string, Bilingual> & { test: Bilingual };

/**
 * A scheduled job. `S` is its status view, `I` a step's input. The methods
 * are named as the app service names them (shared/app/protocol.ts).
 */
export interface ScheduledJob<S = never, I = unknown> {
  readonly key: string;
  readonly statusMethod: string;
  readonly stepMethod: string;
  /** Its schedule, last run and paused run, read from its status. */
  state(status: S): JobState;
  /** The input of a scheduled step (the schedule's own sheet and budget, …). */
  stepInput(status: S): I;
  /** Two steps with the same run key are the same run: one asked while the other runs joins it. */
  runKey(input: I): string;
  readonly hostNotes: HostNotes;
}

export const hostNote = (notes: HostNotes, host: string): Bilingual => notes[host] ?? notes.test;

/** A call the tick asks its host to make; a step on a host with a deadline carries the time it may take (ms). */
export interface JobCall {
  job: string;
  /** A status (read only), or a step of a run (a host may claim the document for it). */
  kind: "status" | "step";
  method: string;
  input: unknown;
  budgetMs?: number;
}

export interface JobOutcome {
  key: string;
  /** null when the job's status could not be read. */
  state: JobState | null;
  /** The last step's summary; null when nothing ran. */
  summary: StepSummary | null;
  /** Work left for the next tick: a paused run, or a due one this tick had no time for. */
  pending: boolean;
  /** What a call of this job threw (the other jobs still ran). */
  error?: unknown;
}

export interface TickOptions {
  now(): number;
  zone: ZoneOffset;
  /** The host's ticks fire at a random minute of their hour (see DueClock). */
  jittery?: boolean;
  /** Steps a due run may take in one tick: 1 where a tick has a deadline, more where it has none. */
  maxSteps: number;
  /** A tick with a deadline: from `startedAt` it may work `ms`; a step needs `leastStepMs` to start. */
  budget?: { startedAt: number; ms: number; leastStepMs: number };
  /** Jobs this tick leaves alone (Excel: one whose run the user started and that still runs). */
  skip?(key: string): boolean;
}

const statusCall = (job: ScheduledJob<never>): JobCall => ({
  job: job.key,
  kind: "status",
  method: job.statusMethod,
  input: {},
});

/** Each job's state, nothing run (a host sets its trigger or timer from them). */
export function* jobStates(jobs: readonly ScheduledJob<never>[]): Generator<JobCall, JobState[], unknown> {
  const states: JobState[] = [];
  for (const job of jobs) states.push(job.state((yield statusCall(job)) as never));
  return states;
}

/** One tick: each job's status, then its steps when it is due or paused; a job's failure never stops the next. */
export function* tickJobs(
  jobs: readonly ScheduledJob<never>[],
  opts: TickOptions,
): Generator<JobCall, JobOutcome[], unknown> {
  const outcomes: JobOutcome[] = [];
  // Jobs that read one status method (the check and the team server's sync) read it once a tick, again only
  // after a step of one of them may have changed it: a status in server mode is a request to the server.
  const statuses = new Map<string, unknown>();
  for (const job of jobs) outcomes.push(yield* tickJob(job, opts, statuses));
  return outcomes;
}

function* tickJob(
  job: ScheduledJob<never>,
  opts: TickOptions,
  statuses: Map<string, unknown>,
): Generator<JobCall, JobOutcome, unknown> {
  const out: JobOutcome = { key: job.key, state: null, summary: null, pending: false };
  if (opts.skip?.(job.key)) return out;
  try {
    // The host answers the method asked: the answer is this job's status view.
    if (!statuses.has(job.statusMethod)) statuses.set(job.statusMethod, yield statusCall(job));
    const status = statuses.get(job.statusMethod) as never;
    const state = (out.state = job.state(status));
    if (!state.slot) return out;
    const clock = { now: opts.now(), zone: opts.zone, jittery: opts.jittery === true };
    if (!state.paused && !state.everyLook && !isDue(state.slot, state.lastRun, clock)) return out;
    const input = job.stepInput(status);
    for (let step = 0; step < opts.maxSteps; step++) {
      const b = opts.budget;
      const left = b ? b.ms - (opts.now() - b.startedAt) : undefined;
      if (b && left !== undefined && left < b.leastStepMs) return { ...out, pending: true };
      const call: JobCall = {
        job: job.key,
        kind: "step",
        method: job.stepMethod,
        input,
        ...(left !== undefined ? { budgetMs: left } : {}),
      };
      statuses.delete(job.statusMethod);
      out.summary = (yield call) as StepSummary;
      if (out.summary.status !== "paused") break;
    }
    out.pending = out.summary?.status === "paused";
  } catch (e) {
    out.error = e;
  }
  return out;
}

/** A host's timer or trigger: when a job wants its next tick (none while it is off). */
export type TickWant = { frequency: "hourly" | "daily"; hour: number } | null;

/**
 * The tick a job wants next: none while it is off; hourly while it has work
 * left or runs hourly; else daily at its hour (a weekly job ticks daily, and
 * each tick decides whether its week is over).
 */
export function tickWant(state: JobState, pending: boolean): TickWant {
  if (!state.slot) return null;
  if (pending || state.slot.frequency === "hourly") return { frequency: "hourly", hour: state.slot.hour };
  return { frequency: "daily", hour: state.slot.hour };
}

type Answer = { ok: true; value: unknown } | { ok: false; error: unknown };
const settled = (f: () => unknown): Answer => {
  try {
    return { ok: true, value: f() };
  } catch (error) {
    return { ok: false, error };
  }
};
const resume = <T>(tick: Generator<JobCall, T, unknown>, a: Answer) =>
  a.ok ? tick.next(a.value) : tick.throw(a.error);

/** Drive a tick where calls answer at once (Apps Script); what a call throws goes back into the tick. */
export function runTickSync<T>(tick: Generator<JobCall, T, unknown>, call: (c: JobCall) => unknown): T {
  let r = tick.next();
  while (!r.done) {
    const c = r.value;
    r = resume(
      tick,
      settled(() => call(c)),
    );
  }
  return r.value;
}

/** Drive a tick where calls answer later (the Excel task pane). */
export async function runTickAsync<T>(
  tick: Generator<JobCall, T, unknown>,
  call: (c: JobCall) => Promise<unknown>,
): Promise<T> {
  let r = tick.next();
  while (!r.done) {
    const c = r.value;
    const answer = await Promise.resolve()
      .then(() => call(c))
      .then(
        (value): Answer => ({ ok: true, value }),
        (error: unknown): Answer => ({ ok: false, error }),
      );
    r = resume(tick, answer);
  }
  return r.value;
}

/**
 * A run taken to its end where there is no deadline (the CLI, the team
 * server): a step pauses there only when failed calls are all that is left,
 * so at most `again` more steps.
 */
export async function runToEnd<R extends StepSummary>(step: () => Promise<R>, again: number): Promise<R> {
  let summary = await step();
  for (let k = 0; summary.status === "paused" && k < again; k++) summary = await step();
  return summary;
}
