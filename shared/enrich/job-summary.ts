/**
 * What a run reports: its stats, counted from the rows' outcomes, and the
 * outcome of several engine passes in one step taken together.
 */
import type { RowResult } from "./rows.ts";
import type { RowTask } from "./task.ts";
import type { EngineOutcome, EnrichStats } from "./job-types.ts";

/** The stats of a run: outcomes counted over the rows as they stand now, work and credits from the engine. */
export function countStats(
  results: readonly ({ outcome: RowResult["outcome"] } | null)[],
  tasks: readonly RowTask[],
  e: EngineOutcome,
): EnrichStats {
  const s: EnrichStats = {
    rows: tasks.length,
    matched: 0,
    review: 0,
    notFound: 0,
    error: 0,
    outOfCredits: 0,
    skipped: 0,
    unbought: 0,
    pending: e.pending,
    credits: e.credits,
    processed: e.results.size,
  };
  for (const r of results) {
    if (!r) continue;
    if (r.outcome === "matched") s.matched++;
    else if (r.outcome === "review") s.review++;
    else if (r.outcome === "not_found") s.notFound++;
    else if (r.outcome === "error") s.error++;
    else if (r.outcome === "out_of_credits") s.outOfCredits++;
    else if (r.outcome === "empty") s.skipped++;
    else if (r.outcome === "unbought") s.unbought++;
  }
  return s;
}

/** Two passes of the engine in one step, as one outcome (the later pass says why it stopped and what is left). */
export function mergeOutcome(a: EngineOutcome | null, b: EngineOutcome): EngineOutcome {
  if (!a) return b;
  return {
    stopped: b.stopped,
    results: new Map([...a.results, ...b.results]),
    credits: a.credits + b.credits,
    pending: b.pending,
  };
}
