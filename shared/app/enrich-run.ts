/**
 * enrichStart, enrichStep, enrichConfirm, applyCandidate, enrichStatus: the
 * UI's view of the enrichment job in shared/enrich/ (the job does the work
 * and keeps the checkpoint; the UI job, enrich-ui-job.ts, keeps only which
 * block a run is about and what it spent so far). Each step runs the one
 * job for a while and answers the progress read back from the sheet.
 */
import { sheet, storePut, CompanyDataError, invalid, type Cell, type Operation } from "../core/index.ts";
import { auditRun, type AuditTable } from "../undo/index.ts";
import { COMPANY_ID_PATTERN, noticingRefusals, type SeenRefusal } from "../api/index.ts";
import { notAnId } from "../i18n/index.ts";
import { MATCH_ROLES, NO_NAME_COLUMN, applyReviewPicks, enrichSheet, outputBlock } from "../enrich/index.ts";
import { selectFields, type EnrichOptions, type SheetJobSpec, type SheetRunResult } from "../enrich/index.ts";
import { errorView } from "./errors.ts";
import { scopeOf } from "./settings.ts";
import { withSession } from "./session.ts";
import { num, record, text } from "./input.ts";
import { readConfig, specOf } from "./enrich-config.ts";
import { CONFIRM_AFTER_MATCHING, previewOf } from "./enrich-preview.ts";
import { progressOf } from "./enrich-progress.ts";
import { parseCandidates } from "./enrich-review.ts";
import { currentJob, loadJob, readJobId, saveCurrentJob, saveJob, type UiJob } from "./enrich-ui-job.ts";
import type { AppDeps, EnrichProgressView } from "./protocol.ts";

export function* enrichStartMethod(deps: AppDeps, input: unknown): Operation<EnrichProgressView> {
  const config = readConfig(input);
  const spec = specOf(config);
  if (MATCH_ROLES.every((r) => config.mapping[r] == null)) throw invalid("columns", NO_NAME_COLUMN);
  const jobId = scopeOf(JSON.stringify(spec));
  const job: UiJob = { spec, credits: 0, finished: false, lastError: null };
  const { view, namesToMatch, profileCredits } = yield* previewOf(deps, config);
  const large =
    view.rowsToProcess >= CONFIRM_AFTER_MATCHING.rows || view.estimate.credits >= CONFIRM_AFTER_MATCHING.credits;
  if (large && namesToMatch > 0 && profileCredits > 0)
    job.confirm = { phase: "match", ceiling: profileCredits, rows: view.rowsToProcess, spentBuying: 0 };
  yield* saveCurrentJob(deps, jobId, job);
  // The sidebar asks for the first step with the start (firstStep): one execution, one server round trip and
  // one pass over the state sheet fewer (issue 42, item 5). The price was on screen before (enrichPreview).
  if (firstStepOf(input)) return yield* runJob(deps, jobId, job, "step");
  return yield* progressOf(deps, jobId, job, null);
}

/** `firstStep: true`: run the job's first step in the same call (enrichStart, enrichConfirm's proceed). */
function firstStepOf(input: unknown): boolean {
  const o = record(input);
  if (o.firstStep !== undefined && typeof o.firstStep !== "boolean")
    throw invalid("firstStep", { de: "erwartet ja oder nein (true/false)", en: "expected yes or no (true/false)" });
  return o.firstStep === true;
}

/**
 * The unfinished run of this document, for a sidebar opened after the one
 * that started it was closed: its progress read from the sheet, or null when
 * there is none (never started, finished, or its table is gone).
 */
export function* enrichStatusMethod(deps: AppDeps, _input: unknown): Operation<EnrichProgressView | null> {
  const current = yield* currentJob(deps);
  if (!current) return null;
  try {
    return yield* progressOf(deps, current.jobId, current.job, null);
  } catch {
    return null; // the sheet was renamed or deleted: nothing left to continue
  }
}

export function* enrichStepMethod(deps: AppDeps, input: unknown): Operation<EnrichProgressView> {
  const jobId = readJobId(input);
  const job = yield* loadJob(deps, jobId);
  // Matched and waiting for the user's answer: a step buys nothing.
  if (job.finished || job.confirm?.phase === "waiting") return yield* progressOf(deps, jobId, job, null);
  return yield* runJob(deps, jobId, job, "step");
}

/**
 * The answer to the second confirmation: proceed buys the profiles the
 * matching left, at most at the price shown (the buying phase's budget);
 * otherwise the run ends there, the matched ids stay written (the matching
 * was paid) and nothing more is bought. Answering twice changes nothing.
 */
export function* enrichConfirmMethod(deps: AppDeps, input: unknown): Operation<EnrichProgressView> {
  const o = record(input);
  const jobId = readJobId(o);
  if (typeof o.proceed !== "boolean")
    throw invalid("proceed", { de: "erwartet ja oder nein (true/false)", en: "expected yes or no (true/false)" });
  const job = yield* loadJob(deps, jobId);
  if (job.confirm?.phase === "waiting" && !job.finished) {
    if (o.proceed) job.confirm.phase = "buy";
    else {
      job.confirm.cancelled = true;
      job.finished = true;
    }
    yield* saveJob(deps, jobId, job);
    // Proceeding, the sidebar asks for the first buying step in the same call (firstStep, as enrichStart).
    if (o.proceed && firstStepOf(o)) return yield* runJob(deps, jobId, job, "step");
  } else if (!job.confirm) {
    throw invalid("jobId", {
      de: "dieser Lauf wartet auf keine Bestätigung",
      en: "this run is not waiting for a confirmation",
    });
  }
  return yield* progressOf(deps, jobId, job, null);
}

export function* applyCandidateMethod(deps: AppDeps, input: unknown): Operation<EnrichProgressView> {
  const o = record(input);
  const jobId = readJobId(o);
  const row = num(o, "row", 1, 1_100_000, { integer: true });
  const candidateId = text(o, "candidateId", { min: 1, max: 20 }).toUpperCase();
  if (!COMPANY_ID_PATTERN.test(candidateId)) throw invalid("candidateId", notAnId("company", candidateId));
  const job = yield* loadJob(deps, jobId);
  const spec = job.spec;
  if (row <= spec.row || row >= spec.row + spec.rows)
    throw invalid("row", { de: "liegt außerhalb der angereicherten Tabelle", en: "is outside the enriched table" });
  const out = outputBlock(spec, selectFields(spec.fields).length);
  // The row is named by number, and the user may have sorted since the review list was shown: the pick
  // is written only where the row's review status (read fresh, right before the write) still offers
  // this candidate; otherwise nothing is written and the list must be shown again (row identity, issue 11).
  const [[status] = []] = yield* sheet<Cell[][]>({
    op: "read",
    sheet: spec.sheet,
    row,
    col: out.col,
    rows: 1,
    cols: 1,
    fresh: true,
  });
  if (!parseCandidates(String(status ?? "")).some((c) => c.id === candidateId))
    throw invalid("row", {
      de: "die Zeile hat sich seit der Prüfliste geändert (sortiert oder bearbeitet); bitte die Liste neu laden",
      en: "the row changed since the review list was shown (sorted or edited); please reload the list",
    });
  // The pick goes where the user would put it by hand: the id column of the output, which the job reads back.
  yield* sheet({ op: "write", sheet: spec.sheet, row, col: out.col + 2, values: [[candidateId]], now: true });
  return yield* runJob(deps, jobId, job, "picks");
}

/** One step of the job (or the picks applied), what it spent added up, the UI job saved, the progress read back. */
function* runJob(deps: AppDeps, jobId: string, job: UiJob, what: "step" | "picks"): Operation<EnrichProgressView> {
  let result: SheetRunResult | null = null;
  const confirm = what === "step" ? job.confirm : undefined;
  // A large list's step: matching only, or buying only what the matching left, within the price confirmed.
  const phase: EnrichOptions = !confirm
    ? {}
    : confirm.phase === "buy"
      ? { phase: "buy", budget: Math.max(0, (confirm.price?.credits ?? 0) - confirm.spentBuying) }
      : { phase: "match" };
  // The refusal that stopped it, as the service said it (a team server names the budget and what is left).
  const seen: SeenRefusal = {};
  // Every step of one job is one run in the audit (shared/undo/): its id is the job's.
  const audit = auditRun({
    id: `e-${jobId}`,
    kind: "enrich",
    who: deps.who ?? "",
    now: deps.now,
    table: tableOf(job.spec),
  });
  const spentBefore = job.credits;
  try {
    result = yield* withSession(deps, "enrich", function* (s) {
      try {
        const spec: SheetJobSpec = {
          ...job.spec,
          options: { ...job.spec.options, ...phase, deadline: deps.deadline },
          audit,
        };
        const op = what === "picks" ? applyReviewPicks(s.ctx, spec) : enrichSheet(s.ctx, spec);
        return yield* noticingRefusals(s.ctx.client, op, seen);
      } finally {
        job.credits += s.spent.credits;
        if (confirm?.phase === "buy") confirm.spentBuying += s.spent.credits;
      }
    });
    job.lastError = null;
    if (what === "step") afterStep(job, result);
    if (result.stopped === "out_of_credits")
      job.lastError = errorView(seen.error ?? new CompanyDataError("OUT_OF_CREDITS"));
  } catch (e) {
    const err = e instanceof CompanyDataError ? e : new CompanyDataError("INTERNAL");
    // A bad key or a broken range stops the job; a transient failure leaves it resumable.
    if (!err.transient) job.finished = true;
    job.lastError = errorView(err);
  }
  yield* saveJob(deps, jobId, job);
  yield* storePut(yield* audit.finish(job.credits - spentBefore, job.finished));
  return yield* progressOf(deps, jobId, job, result);
}

/** Where a job's rows are, for the audit (a mapping's absent roles left out). */
function tableOf(spec: SheetJobSpec): AuditTable {
  const mapping = Object.fromEntries(
    Object.entries(spec.mapping ?? {}).filter((e): e is [string, number] => typeof e[1] === "number"),
  );
  return { sheet: spec.sheet, row: spec.row, col: spec.col, cols: spec.cols, mapping };
}

/** Where a step leaves the UI job: finished, stopped for credits, or a large run's matching done and its price asked. */
function afterStep(job: UiJob, result: SheetRunResult): void {
  const confirm = job.confirm;
  job.finished = result.complete;
  job.stoppedForCredits = result.stopped === "out_of_credits";
  if (confirm?.phase === "match" && result.complete) {
    // Every name is matched: the rest waits for the user's answer to its exact price.
    const p = result.afterMatching;
    confirm.price = { found: result.stats.unbought, companies: p?.companies ?? 0, credits: p?.credits ?? 0 };
    // Nothing left to pay for (no name found, or every company already in the table): no question to ask.
    confirm.phase = confirm.price.credits > 0 ? "waiting" : "buy";
    job.finished = false;
  }
  if (result.stopped === "budget" && confirm) {
    // What is left would cost more than the user confirmed: nothing more is bought; a new start prices it again.
    confirm.overBudget = true;
    job.finished = true;
  }
}
