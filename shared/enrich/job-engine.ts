/**
 * The engine of the resumable enrichment job over a table held in memory
 * (the sheet job's pass): which rows of it are worked on (a selection, its
 * credit cap, the memo of the rows left alone), handed as a ChunkSource to
 * the one chunk loop (./job-loop.ts, which the streamed job drives too).
 * After each chunk its results are persisted (by the caller's `persist`: the
 * sheet job writes them into the sheet) and only then the checkpoint moves on. A run stopped anywhere (deadline, the Apps Script
 * 6-minute limit, a closed sidebar, OUT_OF_CREDITS, a budget) resumes where
 * it stopped: rows already persisted are never fetched again, ids already
 * resolved are never resolved again.
 */
import type { Operation } from "../core/index.ts";
import type { OpContext } from "../operations/index.ts";
import { fieldNeeds, type FieldDef } from "./fields.ts";
import { chunkEnd, type EnrichDeps } from "./chunk.ts";
import { RunMemo } from "./memo.ts";
import type { PreviousRow, RowResult } from "./rows.ts";
import type { RowTask } from "./task.ts";
import { decodeRanges, encodeRanges, loadCheckpoint, saveCheckpoint, type Checkpoint } from "./job-checkpoint.ts";
import { rowsWithin } from "./job-price.ts";
import { workChunks, type ChunkSource } from "./job-loop.ts";
import { inPhase, selectRows, taskWithPrevious } from "./job-select.ts";
import { CHUNK_GRACE_MS, type EngineOutcome, type EnrichOptions, type Rerun } from "./job-types.ts";

export interface EngineArgs {
  tasks: RowTask[];
  /** The rows' own tasks when `tasks` narrows what is worked on (review picks). */
  inputTasks?: RowTask[];
  previous: (PreviousRow | null)[];
  fields: FieldDef[];
  options: EnrichOptions;
  key: string;
  sig: string;
  /** What a row holds from before (this run before a resume, or an earlier run), values included. */
  done(i: number): RowResult | null;
  /** The rows to work on, chosen by the caller (the sheet form, from the table as it is now); else from the checkpoint or `selectRows`. */
  selection?: number[];
  /** Rows whose id is the user's pick from a review list. */
  picked?(i: number): boolean;
  /** Persist one chunk's results (store or sheet) before the checkpoint moves. */
  persist(indexes: number[], results: RowResult[], cp: Checkpoint): Operation<void>;
}

/** One run's selection, worked through chunk by chunk (./job-loop.ts). */
interface ChunkLoop {
  selection: number[];
  /** The task of the selection's j-th row (j < selection.length). */
  taskAt: (j: number) => RowTask;
  cp: Checkpoint;
  mode: "batch" | "free";
  chunkSize: number;
  results: Map<number, RowResult>;
}

export function* runEngine(deps: EnrichDeps, ctx0: OpContext, a: EngineArgs): Operation<EngineOutcome> {
  const spend = { credits: 0 };
  const ctx = chunkContext(ctx0, a.options, spend);
  const rerun = a.options.rerun ?? "new-or-failed";
  const mode = a.options.mode ?? "batch";
  const chunkSize = Math.max(1, Math.floor(a.options.chunkSize ?? 50));

  // Resume an unfinished run with the same signature; otherwise select afresh.
  const old = yield* loadCheckpoint(a.key);
  const start = startSelection(a, old, rerun, ctx.client.now());
  const parts = start.parts;
  let selection = start.selection;
  // The buying phase buys what the matching left unbought, nothing else (that is what its price covers).
  if (a.options.phase === "buy") selection = selection.filter((i) => inPhase("buy", a.previous[i]));

  const memo = memoOfOthers(a, selection);
  // j < selection.length, and the selection holds indexes of a.tasks (and a.previous).
  const taskAt = (j: number) => {
    const i = selection[j]!;
    return taskWithPrevious(a.tasks[i]!, a.previous[i] ?? null, rerun, a.picked?.(i) ?? false);
  };
  // A credit cap: the rows that fit (rows cut off stay pending above, so the memo never answers them with old values).
  let capped = 0;
  if (a.options.maxCredits !== undefined) {
    const fit = rowsWithin(selection.length, taskAt, Math.max(0, a.options.maxCredits), fieldNeeds(a.fields), mode);
    capped = selection.length - fit;
    selection = selection.slice(0, fit);
  }

  // The sheet form keeps no selection by position: rows move; it chooses again from the sheet at every step.
  const cp: Checkpoint = {
    v: 1,
    sig: a.sig,
    selection: a.selection ? "" : encodeRanges(selection),
    cursor: 0,
    state: "running",
    parts,
  };
  yield* saveCheckpoint(a.key, cp);

  const loop: ChunkLoop = { selection, taskAt, cp, mode, chunkSize, results: new Map() };
  const o = a.options;
  const end = yield* workChunks(
    deps,
    ctx,
    { fields: a.fields, mode, memo, deadline: o.deadline, budget: o.budget, matchOnly: o.phase === "match", spend },
    selectionSource(a, loop),
  );
  const results = loop.results;
  const credits = spend.credits;
  if (end.stopped) return { stopped: end.stopped, results, credits, pending: end.pending };
  if (cp.state !== "done") {
    cp.state = "done";
    yield* saveCheckpoint(a.key, cp);
  }
  return capped > 0 ? { stopped: "budget", results, credits, pending: capped } : { results, credits, pending: 0 };
}

/** The context the chunks run in: a chunk started before the deadline finishes (its paced and retried calls may use the grace); spends are counted. */
function chunkContext(ctx0: OpContext, options: EnrichOptions, spend: { credits: number }): OpContext {
  const outer = ctx0.client.onSpend;
  return {
    ...ctx0,
    client: {
      ...ctx0.client,
      deadline: options.deadline !== undefined ? options.deadline + CHUNK_GRACE_MS : ctx0.client.deadline,
      onSpend: (ep, c) => {
        spend.credits += c;
        outer?.(ep, c);
      },
    },
  };
}

/** The rows of this run: the caller's, the unfinished run's rest (and rows it left out of credits), or chosen afresh. */
function startSelection(
  a: EngineArgs,
  old: Checkpoint | null,
  rerun: Rerun,
  now: number,
): { selection: number[]; parts: number } {
  const sameRun = !!old && old.sig === a.sig;
  if (a.selection) return { selection: a.selection, parts: sameRun ? (old.parts ?? 0) : 0 };
  if (sameRun && old.state !== "done") {
    const sel = decodeRanges(old.selection);
    const again = sel.slice(0, old.cursor).filter((i) => a.previous[i]?.outcome === "out_of_credits");
    return { selection: [...again, ...sel.slice(old.cursor)], parts: old.parts ?? 0 };
  }
  return {
    selection: selectRows(a.tasks, a.previous, rerun, now, a.inputTasks),
    parts: sameRun ? (old.parts ?? 0) : 0,
  };
}

/** Rows not worked on now that hold a final answer: their resolves and profiles are not bought again. */
function memoOfOthers(a: EngineArgs, selection: readonly number[]): RunMemo {
  const memo = new RunMemo(fieldNeeds(a.fields));
  const pending = new Set(selection);
  a.tasks.forEach((_, i) => {
    if (pending.has(i)) return;
    const r = a.done(i);
    const t = a.inputTasks?.[i] ?? a.tasks[i];
    if (r && t) memo.rememberRow(t, r);
  });
  return memo;
}

/** The selection as the loop's table: chunks cut by chunkEnd, each persisted before the checkpoint moves. */
function selectionSource(a: EngineArgs, l: ChunkLoop): ChunkSource {
  const { selection, taskAt, cp, results } = l;
  let cursor = 0;
  /** The rows of the chunk handed out last. */
  let indexes: number[] = [];
  return {
    left: () => selection.length - cursor,
    *next(memo) {
      if (cursor >= selection.length) return null;
      const end = chunkEnd(selection.length, taskAt, cursor, l.chunkSize, l.mode, memo);
      const from = cursor;
      cursor = end;
      indexes = selection.slice(from, end);
      return indexes.map((_, k) => taskAt(from + k));
    },
    *keep(_tasks, chunkResults, outOfCredits) {
      indexes.forEach((i, k) => results.set(i, chunkResults[k]!)); // one result per task
      cp.cursor = cursor;
      cp.state = outOfCredits ? "out_of_credits" : cursor >= selection.length ? "done" : "running";
      yield* a.persist(indexes, [...chunkResults], cp);
      yield* saveCheckpoint(a.key, cp);
    },
  };
}
