/**
 * The passes of one sheet-job step: each pass reads the table as it is now,
 * chooses its rows (by key, against the row ledger), runs the engine over
 * them and writes their results where their input is then. Rows inserted or
 * edited during a pass are new work for the next, up to MAX_PASSES a step.
 */
import type { Operation } from "../core/index.ts";
import { taskFromRow, type EnrichDeps } from "./chunk.ts";
import { token } from "./row-ledger.ts";
import { readTableNow, type TableNow } from "./table-now.ts";
import { readResult, type PreviousRow, type RowResult } from "./rows.ts";
import type { RowTask } from "./task.ts";
import { runEngine } from "./job-engine.ts";
import { inPhase, selectRows } from "./job-select.ts";
import { mergeOutcome } from "./job-summary.ts";
import { belongs, guardedWrite, ledgerToken, previousInCells } from "./job-sheet-write.ts";
import type { EngineOutcome, EnrichOptions, SheetJob } from "./job-types.ts";

/** How long answers may wait in memory before they are written (they are always written at the end of a step). */
export const WRITE_EVERY_MS = 20_000;

/** Passes over the table in one step: rows inserted or edited during a pass are new work for the next. */
const MAX_PASSES = 3;

export interface Passes {
  /** The passes' outcome taken together; null when no pass ran. */
  outcome: EngineOutcome | null;
  /** The table as the last pass left it. */
  now: TableNow;
  /** Rows still to do after the last pass. */
  left: number;
}

/** What one pass works on, chosen from the table as it is now. */
interface PassPlan {
  /** The rows' own tasks. */
  tasks: RowTask[];
  /** What the engine works on (review picks only: every other row blanked out). */
  engineTasks: RowTask[];
  /** What each row shows from before, where it still belongs to the row. */
  previous: (PreviousRow | null)[];
  picked: (i: number) => boolean;
  selection: number[];
  /** Some rows show output that is no longer theirs. */
  stale: boolean;
}

export function* runPasses(deps: EnrichDeps, job: SheetJob): Operation<Passes> {
  const { ctx, options } = job;
  let outcome: EngineOutcome | null = null;
  let now = yield* readTableNow(job.spec, job.outCols, job.mapping, job.ledger);
  let passes = 0;
  let left = 0;
  for (;;) {
    const plan = passPlan(job, now);
    // Outputs that are no longer their row's are marked now, so no row shows another company's data while it waits.
    if (plan.stale) yield* guardedWrite(job, now.keys, new Map(), new Set());
    left = plan.selection.length;
    if (left === 0 || passes >= MAX_PASSES || outcome?.stopped) break;
    if (options.deadline !== undefined && ctx.client.now() >= options.deadline) break;
    passes++;
    const pass = yield* runPass(deps, job, now, plan, outcome?.credits ?? 0);
    outcome = mergeOutcome(outcome, pass);
    // Not fresh: the last write's fresh read saw the user's changes of this pass; a host's snapshot holds them and our writes.
    now = yield* readTableNow(job.spec, job.outCols, job.mapping, job.ledger);
  }
  return { outcome, now, left };
}

function passPlan(job: SheetJob, now: TableNow): PassPlan {
  const { ledger, options, width } = job;
  const tasks = now.input.map((r, i) => taskFromRow(i, r, job.mapping));
  const prev = now.output.map((r) => previousInCells(r, width));
  const valid = now.keys.map((k, i) => belongs(ledger, k, prev[i] ?? null));
  const previous = prev.map((p, i) => (valid[i] ? p : null));
  const picked = (i: number) => {
    const p = previous[i];
    return !!p?.id && p.outcome === "matched" && ledger.has(now.keys[i] ?? "", token("matched", p.id, true));
  };
  // Review picks only: review rows with an id; as their own rerun so nothing else is selected.
  const engineTasks = job.picksOnly
    ? tasks.map((t, i) =>
        previous[i]?.outcome === "review" && previous[i]?.id
          ? t
          : { index: i, query: null, id: null, confidence: null },
      )
    : tasks;
  const selection = selectRows(engineTasks, previous, job.rerun, job.ctx.client.now(), tasks).filter((i) => {
    // Not again what this run already wrote for this input (an error stays until the next run; out of credits is redone;
    // a row left unbought is bought by any run but the matching that left it).
    const p = previous[i];
    if (!inPhase(options.phase, p)) return false;
    const k = now.keys[i] ?? "";
    return (
      !p ||
      p.outcome === "out_of_credits" ||
      (p.outcome === "unbought" && options.phase !== "match") ||
      p.changed ||
      !ledger.doneThisRun(k, ledgerToken(ledger, k, p))
    );
  });
  return { tasks, engineTasks, previous, picked, selection, stale: valid.some((v) => !v) };
}

/**
 * One pass of the engine. Results wait in memory for a while and are written
 * together: each write costs a fresh read first, and Apps Script counts every
 * Spreadsheet call (issue 4: 1,000 rows in at most 20). A crash loses at most
 * WRITE_EVERY_MS of answers, which the cache gives back for free.
 */
function* runPass(
  deps: EnrichDeps,
  job: SheetJob,
  now: TableNow,
  plan: PassPlan,
  spentBefore: number,
): Operation<EngineOutcome> {
  const { ctx, picksOnly } = job;
  const waiting = new Map<number, RowResult>();
  const picks = new Set<number>();
  let lastWrite = ctx.client.now();
  const writeWaiting = function* (): Operation<void> {
    if (waiting.size === 0) return;
    yield* guardedWrite(job, now.keys, new Map(waiting), new Set(picks));
    waiting.clear();
    picks.clear();
    lastWrite = ctx.client.now();
  };
  try {
    return yield* runEngine(deps, ctx, {
      tasks: plan.engineTasks,
      inputTasks: plan.tasks,
      previous: plan.previous,
      fields: job.fields,
      key: job.key,
      sig: job.sig,
      selection: plan.selection,
      picked: plan.picked,
      options: passOptions(job.options, spentBefore),
      done: (i) => (plan.previous[i] ? readResult(now.output[i], job.width) : null),
      *persist(indexes, results) {
        indexes.forEach((i, k) => {
          waiting.set(i, results[k]!); // one result per index
          // A picked id written again is still the user's pick.
          if (picksOnly || (plan.picked(i) && results[k]!.id === plan.previous[i]?.id)) picks.add(i);
        });
        if (ctx.client.now() - lastWrite >= WRITE_EVERY_MS) yield* writeWaiting();
      },
    });
  } finally {
    yield* writeWaiting();
  }
}

/** A budget and a credit cap hold for the whole step: later passes get what earlier ones left. */
function passOptions(options: EnrichOptions, spentBefore: number): EnrichOptions {
  const budgeted =
    options.budget !== undefined ? { ...options, budget: Math.max(0, options.budget - spentBefore) } : options;
  return options.maxCredits === undefined ? budgeted : { ...budgeted, maxCredits: options.maxCredits - spentBefore };
}
