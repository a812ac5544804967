/**
 * What a run reports: its stats, counted from the rows' outcomes, and the
 * outcome of several engine passes in one step taken together.
 */
import type { RowResult } from "./rows.ts";
import type { RowTask } from "./task.ts";
import type { EngineOutcome, EnrichStats, OutcomeCounts } from "./job-types.ts";

export const noOutcomes = (): OutcomeCounts => ({
  rows: 0,
  matched: 0,
  review: 0,
  notFound: 0,
  error: 0,
  outOfCredits: 0,
  skipped: 0,
  unbought: 0,
  other: 0,
});

/** Count one row by its outcome (undefined: it has none). */
export function tally(c: OutcomeCounts, outcome: RowResult["outcome"] | undefined): void {
  c.rows++;
  if (outcome === "matched") c.matched++;
  else if (outcome === "review") c.review++;
  else if (outcome === "not_found") c.notFound++;
  else if (outcome === "error") c.error++;
  else if (outcome === "out_of_credits") c.outOfCredits++;
  else if (outcome === "empty") c.skipped++;
  else if (outcome === "unbought") c.unbought++;
  else c.other++;
}

/** The stats of a run: outcomes counted over the rows as they stand now, work and credits from the engine. */
export function countStats(
  results: readonly ({ outcome: RowResult["outcome"] } | null)[],
  tasks: readonly RowTask[],
  e: EngineOutcome,
): EnrichStats {
  const c = noOutcomes();
  for (const r of results) if (r) tally(c, r.outcome);
  const { matched, review, notFound, error, outOfCredits, skipped, unbought } = c;
  return {
    rows: tasks.length,
    ...{ matched, review, notFound, error, outOfCredits, skipped, unbought },
    pending: e.pending,
    credits: e.credits,
    processed: e.results.size,
  };
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
