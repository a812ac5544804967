/**
 * Which rows a run works on, and the task each selected row gets, from what
 * an earlier run left (its rows' previous outcomes) and the run's rerun rule
 * and phase.
 */
import { isEmptyTask } from "./chunk.ts";
import { isoDay, type PreviousRow } from "./rows.ts";
import type { RowTask } from "./task.ts";
import type { EnrichOptions, Rerun } from "./job-types.ts";

/**
 * Which rows a run works on, given what an earlier run left. A row with
 * neither name nor id is taken until it shows its "skipped" status (it costs
 * nothing). `own` are the rows' own tasks where `tasks` blanks out rows that
 * must not be touched (review picks); only rows empty in both are marked.
 */
export function selectRows(
  tasks: readonly RowTask[],
  previous: readonly (PreviousRow | null)[],
  rerun: Rerun,
  now: number,
  own?: readonly RowTask[],
): number[] {
  const cutoff = typeof rerun === "object" ? isoDay(now - Math.max(0, rerun.olderThanDays) * 86_400_000) : null;
  const out: number[] = [];
  tasks.forEach((t, i) => {
    if (isEmptyTask(t)) {
      if (isEmptyTask(own?.[i] ?? t) && previous[i]?.outcome !== "empty") out.push(i);
      return;
    }
    const p = previous[i];
    const failed =
      !p ||
      p.outcome === "error" ||
      p.outcome === "out_of_credits" ||
      p.outcome === "unbought" ||
      p.outcome === "empty";
    if (rerun === "all" || failed) out.push(i);
    else if (cutoff !== null && p.outcome === "matched" && (!p.asOf || p.asOf < cutoff)) out.push(i);
  });
  return out;
}

/**
 * The task for a selected row, using what an earlier run left: an id found
 * before credits ran out (or picked from a review dropdown) is not resolved
 * again. A rerun of everything resolves again on purpose.
 */
export function taskWithPrevious(base: RowTask, p: PreviousRow | null, rerun: Rerun, picked = false): RowTask {
  if (base.id || !p?.id) return base;
  // The user's pick from a review list stands until the row's input changes (then it is no longer this row's pick).
  if (picked && p.outcome === "matched") return { ...base, query: null, id: p.id, confidence: p.confidence };
  if (
    p.outcome === "out_of_credits" ||
    p.outcome === "unbought" ||
    p.outcome === "review" ||
    (rerun !== "all" && p.outcome === "matched")
  ) {
    return { ...base, query: null, id: p.id, confidence: p.outcome === "review" ? 1 : p.confidence };
  }
  return base;
}

/** Whether a row (as an earlier step left it) is work for this phase beyond what selectRows chose: "buy" takes only rows left unbought. */
export function inPhase(phase: EnrichOptions["phase"], p: PreviousRow | null | undefined): boolean {
  return phase !== "buy" || (p?.outcome === "unbought" && !!p.id);
}
