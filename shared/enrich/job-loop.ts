/**
 * The one chunk loop of the enrichment job, whatever holds the table: the
 * sheet job (job-engine.ts: a selection of rows in a sheet, random access,
 * writes guarded by row key) and the streamed job (job-stream.ts: a file
 * read in order, its output appended) drive it with their own ChunkSource.
 * What is decided here, once: no chunk starts after the deadline, no chunk
 * is sent that could cost more than the confirmed price leaves, every chunk
 * is kept (written, durably) before the next starts, and after the credits
 * run out no row is sent again: each remaining row is answered from what the
 * run holds, or marked "out of credits" with the id it has (a resume after a
 * top-up then pays nothing twice).
 */
import type { Operation } from "../core/index.ts";
import type { OpContext } from "../operations/index.ts";
import type { EnrichDeps } from "./chunk.ts";
import { enrichChunk } from "./chunk-run.ts";
import type { FieldDef } from "./fields.ts";
import type { RunMemo } from "./memo.ts";
import { isoDay, type RowResult } from "./rows.ts";
import type { RowTask } from "./task.ts";
import { chunkCeiling, outOfCreditsResult } from "./job-price.ts";
import type { StopReason } from "./job-types.ts";

/** A table as the loop sees it: its rows to work on, chunk by chunk, and where each chunk's results are kept. */
export interface ChunkSource {
  /** Rows still to work on (what a stop leaves pending). */
  left(): number;
  /** The next chunk's tasks (a task's `index` is its row's), possibly none; null when the table is done. */
  next(memo: RunMemo): Operation<RowTask[] | null>;
  /**
   * Keep a chunk's results, one per task, before the next chunk starts (the
   * table's checkpoint moves once they are durably kept). `outOfCredits`: the
   * run's credits are out (this chunk's answers say so, or an earlier one's).
   */
  keep(tasks: readonly RowTask[], results: readonly RowResult[], outOfCredits: boolean): Operation<void>;
}

export interface LoopRun {
  fields: readonly FieldDef[];
  mode: "batch" | "free";
  memo: RunMemo;
  /** Epoch ms: no chunk starts after it. */
  deadline?: number;
  /** Credits the run may spend at most (a confirmed price). */
  budget?: number;
  /** Resolve, buy nothing (phase "match"). */
  matchOnly?: boolean;
  /** The credits were out before the loop started (a resume of a run that ran out). */
  outOfCredits?: boolean;
  /** Credits spent so far in this run (counted as answers arrive); needed with a budget. */
  spend?: { credits: number };
}

export interface LoopEnd {
  stopped?: StopReason;
  /** Rows not worked on (deadline, budget). */
  pending: number;
}

/** Chunk after chunk, each kept before the next; why the loop stopped early, if it did. */
export function* workChunks(deps: EnrichDeps, ctx: OpContext, run: LoopRun, source: ChunkSource): Operation<LoopEnd> {
  let out = run.outOfCredits ?? false;
  for (;;) {
    // Marking rows out of credits costs nothing and takes no time: it goes on past a deadline.
    if (!out && run.deadline !== undefined && ctx.client.now() >= run.deadline)
      return { stopped: "deadline", pending: source.left() };
    const pending = source.left();
    const tasks = yield* source.next(run.memo);
    if (!tasks) break;
    // Never past the confirmed price: a chunk that could cost more than is left is not sent.
    if (!out && run.budget !== undefined && (run.spend?.credits ?? 0) + chunkCeiling(tasks, run.memo) > run.budget)
      return { stopped: "budget", pending };
    let results: RowResult[];
    if (out) {
      const today = isoDay(ctx.client.now());
      results = tasks.map((t) => outOfCreditsResult(run.memo, t, today));
    } else {
      const chunk = yield* enrichChunk(deps, ctx, tasks, run.fields, run.mode, run.memo, run.matchOnly ?? false);
      results = chunk.results;
      out = chunk.outOfCredits;
    }
    yield* source.keep(tasks, results, out);
  }
  return out ? { stopped: "out_of_credits", pending: 0 } : { pending: 0 };
}
