/**
 * enrichPreview: the price before a run, by the job's own estimator over
 * the rows the run will do (each with what an earlier run left beside it),
 * in both modes; and the rule that decides when a large run asks again once
 * its names are matched (CONFIRM_AFTER_MATCHING).
 */
import type { Operation } from "../core/index.ts";
import { normaliseKey } from "../batch/index.ts";
import { estimateTasks, isEmptyTask, readBlockWithPrevious, selectFields, selectRows } from "../enrich/index.ts";
import { taskFromRow, taskWithPrevious, teamEstimate, teamPriceOf, type RowTask } from "../enrich/index.ts";
import type { TeamEstimateAnswer } from "../enrich/index.ts";
import { activeConnection, contextFromSettings, loadSettings } from "./settings.ts";
import { UI_CHUNK_SIZE, readConfig, specOf, toMapping, toRerun } from "./enrich-config.ts";
import { fieldGroups } from "./enrich-selection.ts";
import type { AppDeps, EnrichConfig, EnrichPreviewView } from "./protocol.ts";

export function* enrichPreviewMethod(deps: AppDeps, input: unknown): Operation<EnrichPreviewView> {
  return (yield* previewOf(deps, readConfig(input))).view;
}

/**
 * When a run asks again once its names are matched: 200 rows or more to
 * work on, or a first price of 500 credits or more. Below that the matching
 * is one or two steps and the gap between the two prices (names not found,
 * two names for one company) a few credits, not worth a second click; above
 * it the gap is typically ten percent and more of the price, and a list of
 * unfamiliar names can be mostly unmatched. Only runs that match names and
 * buy profiles ask: otherwise the first price is already exact.
 */
export const CONFIRM_AFTER_MATCHING = { rows: 200, credits: 500 };

/**
 * The team server's prices of these rows (both modes) when the connection is
 * one; null otherwise, or when it does not answer (the job's own estimate,
 * a bound at list prices, stands).
 */
function* teamPrices(
  deps: AppDeps,
  todo: readonly RowTask[],
  plan: { fields: string[]; chunkSize: number },
): Operation<TeamEstimateAnswer | null> {
  const settings = yield* loadSettings();
  const connection = activeConnection(settings);
  if (connection.mode !== "server" || !connection.secret) return null;
  const ctx = contextFromSettings(settings, deps);
  return yield* teamEstimate(ctx.client, todo, { ...plan, maxBatch: ctx.maxBatch });
}

/** The preview, with what enrichStart decides a second confirmation from. */
export function* previewOf(
  deps: AppDeps,
  config: EnrichConfig,
): Operation<{ view: EnrichPreviewView; namesToMatch: number; profileCredits: number }> {
  const spec = specOf(config);
  const fields = selectFields(spec.fields);
  const { rows, previous } = yield* readBlockWithPrevious(spec, fields);
  const mapping = toMapping(config.mapping);
  const tasks = rows.map((r, i) => taskFromRow(i, r, mapping));
  const rerun = toRerun(config.rerun);
  const selected = selectRows(tasks, previous, rerun, deps.now());
  // The job's own estimator over the rows it will do, each with what an earlier run left beside it (a carried id is not resolved again).
  const chosenRows = new Set(selected);
  const todo = tasks.flatMap((t, i) => (chosenRows.has(i) ? [taskWithPrevious(t, previous[i] ?? null, rerun)] : []));
  const plan = { mapping, fields: fields.map((f) => f.id), chunkSize: UI_CHUNK_SIZE };
  // Through a team server: its price of the same rows, what the team holds at 0 (shared/enrich/team-estimate.ts).
  const team = yield* teamPrices(deps, todo, plan);
  const batch = team ? teamPriceOf(team, "batch") : estimateTasks(todo, { ...plan, mode: "batch" });
  const free = team ? teamPriceOf(team, "free") : estimateTasks(todo, { ...plan, mode: "free" });
  // Upper bound: every distinct name matches one company of its own.
  const distinct = new Set(
    todo.map((t) => (t.id ? "i:" + t.id : t.query ? "k:" + normaliseKey(t.query) : null)).filter((k) => k !== null),
  ).size;
  const chosen = config.mode === "free" ? free : batch;
  const view: EnrichPreviewView = {
    rows: tasks.filter((x) => !isEmptyTask(x)).length,
    rowsToProcess: selected.length,
    distinct,
    batch: { credits: batch.credits, seconds: batch.seconds },
    free: { credits: free.credits, seconds: free.seconds },
    estimate: {
      credits: chosen.credits,
      requests: chosen.requests,
      paidRequests: chosen.paidRequests,
      freeRequests: chosen.freeRequests,
      breakdown: chosen.breakdown,
    },
    fields: fieldGroups(),
  };
  // Names the run must match (a second confirmation has something to tighten), and the profiles' share of
  // the first price: the free mode's credits (its matching costs nothing, the rest is the same bound).
  const namesToMatch = todo.filter((t) => !t.id && !!t.query).length;
  return { view, namesToMatch, profileCredits: free.credits };
}
