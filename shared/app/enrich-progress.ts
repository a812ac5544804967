/**
 * A run's progress as the Enrich panel shows it, read from what the sheet
 * holds now (the job writes every chunk before going on): rows done and
 * their outcomes, counted by the job's own counter, the review list, what a
 * pick costs, and where a large run stands in its second confirmation.
 */
import type { Operation } from "../core/index.ts";
import { companyCost, countStats, fieldNeeds, readBlockWithPrevious, selectFields } from "../enrich/index.ts";
import { taskFromRow, type SheetRunResult } from "../enrich/index.ts";
import { reviewRowsOf } from "./enrich-review.ts";
import type { ConfirmState, UiJob } from "./enrich-ui-job.ts";
import type { AppDeps, EnrichProgressView } from "./protocol.ts";

/** The progress of `job`; `result` is the step just run, null when the run is only shown (again). */
export function* progressOf(
  deps: AppDeps,
  jobId: string,
  job: UiJob,
  result: SheetRunResult | null,
): Operation<EnrichProgressView> {
  const fields = selectFields(job.spec.fields);
  const { rows, previous } = yield* readBlockWithPrevious(job.spec, fields);
  const mapping = job.spec.mapping ?? {};
  const tasks = rows.map((r, i) => taskFromRow(i, r, mapping));
  // Every row of the block counts: the job gives a row without name or id its "skipped: no name" status too.
  const total = tasks.length;
  const s = countStats(previous, tasks, { results: new Map(), credits: 0, pending: 0 });
  // Candidate details once the run stands still (finished, stopped for credits, or shown again): not on every
  // step of a running job, whose next step would ask again for rows the user cannot pick yet.
  const details = job.finished || !!job.stoppedForCredits || result === null;
  const reviewRows = yield* reviewRowsOf(deps, job.spec, { rows, previous, tasks, fieldCount: fields.length }, details);
  // A row marked "not enriched: out of credits" is still to do; so is a row left unbought, once the buying has begun.
  const buying = job.confirm?.phase === "buy";
  const done = previous.filter(
    (p) => p && p.outcome !== "out_of_credits" && !(buying && p.outcome === "unbought"),
  ).length;
  const processed =
    result && !job.stoppedForCredits ? Math.min(total, Math.max(done, total - result.stats.pending)) : done;
  return {
    jobId,
    total,
    processed: job.finished ? total : Math.min(processed, total),
    matched: s.matched,
    review: s.review,
    notFound: s.notFound,
    errors: s.error,
    skipped: s.skipped,
    outOfCredits: s.outOfCredits,
    unbought: s.unbought,
    creditsSpent: job.credits,
    finished: job.finished,
    stoppedForCredits: !job.finished && !!job.stoppedForCredits,
    reviewRows,
    // A pick is a company id the job then fetches like a given one: its profile with the run's includes, at most.
    pickCredits: companyCost(fieldNeeds(fields).givenId),
    lastError: job.lastError,
    ...confirmView(job.confirm),
  };
}

/** The second confirmation's figures while the run waits for the answer, and how it ended. */
function confirmView(
  c: ConfirmState | undefined,
): Pick<EnrichProgressView, "afterMatching" | "overBudget" | "cancelled"> {
  if (!c) return {};
  const p = c.phase === "waiting" && !c.cancelled ? c.price : undefined;
  return {
    afterMatching: p
      ? { rows: c.rows, found: p.found, companies: p.companies, credits: p.credits, ceiling: c.ceiling }
      : null,
    overBudget: !!c.overBudget,
    cancelled: !!c.cancelled,
  };
}
