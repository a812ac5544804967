/**
 * readSelection, detectColumns, enrichFields, enrichPreview, enrichStart,
 * enrichStep, applyCandidate: the UI's view of the enrichment job in
 * shared/enrich/ (the job does the work and keeps the checkpoint; this module
 * keeps only which block a UI job is about and what it spent so far).
 */
import { sheet, storeGet, storePut, type Operation } from "../core/index.ts";
import { CompanyDataError, ERROR_CODES, invalid } from "../core/index.ts";
import { readSaved, savedBilingual, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import { COMPANY_ID_PATTERN, companyIdsIn } from "../api/index.ts";
import type { Cell, SelectionInfo } from "../core/index.ts";
import { normaliseKey } from "../batch/index.ts";
import { detectColumns, type ColumnMapping, type InputRole } from "../enrich/index.ts";
import {
  DEFAULT_FIELDS,
  FIELD_GROUPS,
  FIELDS,
  GROUP_COST,
  GROUP_LABEL,
  companyCost,
  fieldNeeds,
  selectFields,
} from "../enrich/index.ts";
import { taskFromRow, isEmptyTask } from "../enrich/index.ts";
import { estimateTasks } from "../enrich/index.ts";
import { resolveMany, type ResolvedRow } from "../operations/index.ts";
import { doubtText } from "../operations/index.ts";
import type { ResolveQuery } from "../api/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import { companyRow } from "./rows.ts";
import {
  outputBlock,
  selectRows,
  taskWithPrevious,
  type EnrichOptions,
  type Rerun,
  type SheetJobSpec,
  type SheetRunResult,
} from "../enrich/index.ts";
import { findOutputBlock, isOutputHeader, readPrevious, reviewCandidates, type PreviousRow } from "../enrich/index.ts";
import { applyReviewPicks, enrichSheet } from "../enrich/index.ts";
import { errorView } from "./errors.ts";
import { notAnId } from "../i18n/index.ts";
import { MATCH_ROLES, NO_NAME_COLUMN } from "../enrich/index.ts";
import { loadSettings, contextFromSettings, scopeOf } from "./settings.ts";
import { withSession } from "./session.ts";
import { list, num, oneOf, record, text } from "./input.ts";
import type {
  AppDeps,
  ColumnRole,
  ColumnsView,
  CompanyRow,
  EnrichConfig,
  EnrichPreviewView,
  EnrichProgressView,
  FieldGroupView,
  RerunMode,
  ReviewRow,
  SelectionView,
} from "./protocol.ts";

const ROLES: readonly ColumnRole[] = ["name", "city", "zip", "register", "id", "website", "vatId", "lei"];
/** Rows per chunk: each chunk is written to the sheet before the next, so progress shows and a stop loses little. */
export const UI_CHUNK_SIZE = 20;

// ------------------------------------------------------------- selection

export function* readSelectionMethod(_deps: AppDeps, _input: unknown): Operation<SelectionView> {
  const sel = yield* sheet<SelectionInfo>({ op: "selection" });
  const values = sel.values ?? [];
  const ids = new Set<string>();
  for (const row of values)
    for (const v of row) for (const m of companyIdsIn(String(v ?? "").toUpperCase())) if (ids.size < 20) ids.add(m);
  // The add-on's own output of an earlier run is not input: the table is what stands left of it.
  const found = findOutputBlock(values[0] ?? []);
  const width = values.reduce((w, r) => Math.max(w, r.length), 0);
  const cols = found ? found.start : width;
  return {
    sheet: sel.sheet,
    row: sel.row,
    col: sel.col,
    rows: values.length,
    cols,
    headers: (values[0] ?? []).slice(0, cols).map((v) => String(v ?? "")),
    sample: values.slice(1, 6).map((r) => r.slice(0, cols)),
    ids: [...ids],
    output: found ? { col: sel.col + found.start, fields: found.fields } : null,
  };
}

export function* detectColumnsMethod(_deps: AppDeps, input: unknown): Operation<ColumnsView> {
  const o = record(input);
  const headers = list(
    o,
    "headers",
    (v, f) => {
      if (v !== null && typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean")
        throw invalid(f, { de: "erwartet einen Zellwert", en: "expected a cell value" });
      return v;
    },
    { max: 500 },
  );
  const d = detectColumns(headers);
  return { mapping: toView(d.mapping), headers: d.headers };
}

const toView = (m: ColumnMapping): Record<ColumnRole, number | null> =>
  Object.fromEntries(ROLES.map((r) => [r, m[r] ?? null])) as Record<ColumnRole, number | null>;

export function* enrichFieldsMethod(
  _deps: AppDeps,
  _input: unknown,
): Operation<{ groups: FieldGroupView[]; defaults: string[] }> {
  return { groups: fieldGroups(), defaults: [...DEFAULT_FIELDS] };
}

function fieldGroups(): FieldGroupView[] {
  return FIELD_GROUPS.map((g) => ({
    group: g,
    label: GROUP_LABEL[g],
    creditsPerCompany: GROUP_COST[g],
    fields: FIELDS.filter((f) => f.group === g).map((f) => ({ id: f.id, header: f.header })),
  }));
}

// ------------------------------------------------------------- config

function readConfig(input: unknown): EnrichConfig {
  const o = record(input);
  const sheetName = text(o, "sheet", { min: 1, max: 200 });
  const headerRow = num(o, "headerRow", 1, 1_000_000, { integer: true });
  const col = num(o, "col", 1, 18_278, { integer: true });
  // rows counts the data rows under the header: none is a selection problem, not a number the user typed.
  if (o.rows === 0)
    throw invalid("selection", {
      de: "sie enthält nur die Kopfzeile, keine Datenzeilen; bitte die Tabelle mit ihren Zeilen markieren",
      en: "it holds only the header row, no data rows; please select the table with its rows",
    });
  const rows = num(o, "rows", 1, 100_000, { integer: true });
  const cols = num(o, "cols", 1, 500, { integer: true });
  const m = record(o.mapping, "mapping");
  const mapping = {} as Record<ColumnRole, number | null>;
  for (const r of ROLES) {
    const v = m[r];
    mapping[r] = v === null || v === undefined ? null : num(m, r, 0, cols - 1, { integer: true });
  }
  const fields = list(
    o,
    "fields",
    (v, f) => {
      if (typeof v !== "string") throw invalid(f, { de: "erwartet einen Feldnamen", en: "expected a field name" });
      return v;
    },
    { max: FIELDS.length },
  );
  selectFields(fields); // unknown ids → INVALID_INPUT naming "fields"
  const mode = oneOf(o, "mode", ["batch", "free"] as const, "batch");
  const rr = record(o.rerun ?? { kind: "newOrFailed" }, "rerun");
  const kind = oneOf(rr, "kind", ["all", "newOrFailed", "olderThan"] as const);
  const rerun: RerunMode =
    kind === "olderThan" ? { kind, days: num(rr, "days", 0, 36_500, { integer: true }) } : { kind };
  return { sheet: sheetName, headerRow, col, rows, cols, mapping, fields, mode, rerun };
}

const toRerun = (r: RerunMode): Rerun =>
  r.kind === "all" ? "all" : r.kind === "newOrFailed" ? "new-or-failed" : { olderThanDays: r.days };

function toMapping(m: Record<ColumnRole, number | null>): ColumnMapping {
  const out: ColumnMapping = {};
  for (const r of ROLES) if (m[r] !== null) out[r] = m[r]!;
  return out;
}

function specOf(c: EnrichConfig): SheetJobSpec {
  return {
    sheet: c.sheet,
    row: c.headerRow,
    col: c.col,
    rows: c.rows + 1,
    cols: c.cols,
    mapping: toMapping(c.mapping),
    fields: c.fields,
    options: { mode: c.mode, rerun: toRerun(c.rerun), chunkSize: UI_CHUNK_SIZE },
  };
}

/** Input rows and what an earlier run left beside them, in one read. */
function* readBlock(spec: SheetJobSpec) {
  const fields = selectFields(spec.fields);
  const out = outputBlock(spec, fields.length);
  const all = yield* sheet<Cell[][]>({
    op: "read",
    sheet: spec.sheet,
    row: spec.row,
    col: spec.col,
    rows: spec.rows,
    cols: spec.cols + out.cols,
  });
  const input = all.map((r) => r.slice(0, spec.cols));
  const output = all.map((r) => r.slice(spec.cols));
  const hasOutput = isOutputHeader(output[0] ?? [], fields);
  const previous: (PreviousRow | null)[] = output
    .slice(1)
    .map((r) => (hasOutput ? readPrevious(r, fields.length) : null));
  return { fields, out, input, output, previous };
}

// ------------------------------------------------------------- preview

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

function* previewOf(
  deps: AppDeps,
  config: EnrichConfig,
): Operation<{ view: EnrichPreviewView; namesToMatch: number; profileCredits: number }> {
  const spec = specOf(config);
  const { fields, input: rows, previous } = yield* readBlock(spec);
  const mapping = toMapping(config.mapping);
  const tasks = rows.slice(1).map((r, i) => taskFromRow(i, r, mapping));
  const rerun = toRerun(config.rerun);
  const selected = selectRows(tasks, previous, rerun, deps.now());
  // The job's own estimator over the rows it will do, each with what an earlier run left beside it (a carried id is not resolved again).
  const chosenRows = new Set(selected);
  const todo = tasks.flatMap((t, i) => (chosenRows.has(i) ? [taskWithPrevious(t, previous[i] ?? null, rerun)] : []));
  const plan = { mapping, fields: fields.map((f) => f.id), chunkSize: UI_CHUNK_SIZE };
  const batch = estimateTasks(todo, { ...plan, mode: "batch" });
  const free = estimateTasks(todo, { ...plan, mode: "free" });
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

// ------------------------------------------------------------- the job

interface UiJob {
  spec: SheetJobSpec;
  credits: number;
  finished: boolean;
  /** Stopped for lack of credits: not finished, the next step (after a top-up) continues where it stopped. */
  stoppedForCredits?: boolean;
  lastError: ReturnType<typeof errorView> | null;
  /** A large list (CONFIRM_AFTER_MATCHING): matched first, then bought at the exact price once the user confirms it. */
  confirm?: ConfirmState;
}

interface ConfirmState {
  /** match: steps match names; waiting: matched, nothing bought until the user answers; buy: steps buy what the matching left. */
  phase: "match" | "waiting" | "buy";
  /** The first confirmation's figure for the profiles, shown beside the exact one. */
  ceiling: number;
  /** Rows the run works on. */
  rows: number;
  /** The exact price, set when the matching is complete: the buying phase's budget. */
  price?: { found: number; companies: number; credits: number };
  /** Spent since the user confirmed: the budget left is price.credits less this. */
  spentBuying: number;
  cancelled?: boolean;
  overBudget?: boolean;
}

/**
 * Written without a version before v1: still read (an unfinished run a new
 * build must continue). The spec is checked where the run needs it and kept
 * whole (`looseObject`), so a field added to it is never lost on the way.
 */
const uiJobShape = z.object({
  spec: z.looseObject({
    sheet: z.string(),
    row: z.number(),
    col: z.number(),
    rows: z.number(),
    cols: z.number(),
    fields: z.array(z.string()),
    mapping: z.optional(z.record(z.string(), z.number())),
    options: z.optional(
      z.looseObject({
        mode: z.optional(z.enum(["batch", "free"])),
        rerun: z.optional(z.union([z.enum(["all", "new-or-failed"]), z.object({ olderThanDays: z.number() })])),
        deadline: z.optional(z.number()),
        chunkSize: z.optional(z.number()),
      }),
    ),
  }),
  credits: z.number(),
  finished: z.boolean(),
  stoppedForCredits: z.optional(z.boolean()),
  lastError: z.nullable(
    z.object({
      code: z.enum(ERROR_CODES),
      message: savedBilingual,
      field: z.optional(z.string()),
      retryAt: z.optional(z.number()),
    }),
  ),
  confirm: z.optional(
    z.object({
      phase: z.enum(["match", "waiting", "buy"]),
      ceiling: z.number(),
      rows: z.number(),
      price: z.optional(z.object({ found: z.number(), companies: z.number(), credits: z.number() })),
      spentBuying: z.number(),
      cancelled: z.optional(z.boolean()),
      overBudget: z.optional(z.boolean()),
    }),
  ),
});
export const SAVED_JOB = savedKind<UiJob>(1, uiJobShape, uiJobShape);

const jobKey = (scope: string, id: string) => `doc:uijob:${scope}:${id}`;
/** The document's latest UI job: a sidebar opened later finds an unfinished run here (the store has no listing). */
const currentKey = (scope: string) => `doc:uijob:${scope}:current`;

function* jobScope(deps: AppDeps): Operation<string> {
  const settings = yield* loadSettings();
  return contextFromSettings(settings, deps).scope;
}

function* loadJob(deps: AppDeps, jobId: string): Operation<UiJob> {
  const [raw] = yield* storeGet([jobKey(yield* jobScope(deps), jobId)]);
  // A damaged or foreign value is no run either (it threw a SyntaxError out of the host before).
  const job = readSaved(SAVED_JOB, raw);
  if (!job)
    throw invalid("jobId", {
      de: "in diesem Dokument gibt es keinen solchen Anreicherungslauf",
      en: "there is no such enrichment run in this document",
    });
  return job;
}

function* saveJob(deps: AppDeps, jobId: string, job: UiJob): Operation<void> {
  yield* storePut({ [jobKey(yield* jobScope(deps), jobId)]: writeSaved(SAVED_JOB, job) });
}

function readJobId(input: unknown): string {
  const id = text(record(input), "jobId", { min: 1, max: 40 });
  if (!/^[a-z0-9]+$/.test(id))
    throw invalid("jobId", { de: "keine gültige Kennung eines Laufs", en: "not a valid run identifier" });
  return id;
}

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
  yield* saveJob(deps, jobId, job);
  yield* storePut({ [currentKey(yield* jobScope(deps))]: jobId });
  return yield* progressOf(deps, jobId, job, null);
}

/**
 * The unfinished run of this document, for a sidebar opened after the one
 * that started it was closed: its progress read from the sheet, or null when
 * there is none (never started, finished, or its table is gone).
 */
export function* enrichStatusMethod(deps: AppDeps, _input: unknown): Operation<EnrichProgressView | null> {
  const scope = yield* jobScope(deps);
  const [jobId] = yield* storeGet([currentKey(scope)]);
  if (!jobId) return null;
  const [raw] = yield* storeGet([jobKey(scope, jobId)]);
  const job = readSaved(SAVED_JOB, raw);
  if (!job || job.finished) return null;
  try {
    return yield* progressOf(deps, jobId, job, null);
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

function* runJob(deps: AppDeps, jobId: string, job: UiJob, what: "step" | "picks"): Operation<EnrichProgressView> {
  let result: SheetRunResult | null = null;
  const confirm = what === "step" ? job.confirm : undefined;
  // A large list's step: matching only, or buying only what the matching left, within the price confirmed.
  const phase: EnrichOptions = !confirm
    ? {}
    : confirm.phase === "buy"
      ? { phase: "buy", budget: Math.max(0, (confirm.price?.credits ?? 0) - confirm.spentBuying) }
      : { phase: "match" };
  try {
    result = yield* withSession(deps, "enrich", function* (s) {
      try {
        const spec: SheetJobSpec = { ...job.spec, options: { ...job.spec.options, ...phase, deadline: deps.deadline } };
        return what === "picks" ? yield* applyReviewPicks(s.ctx, spec) : yield* enrichSheet(s.ctx, spec);
      } finally {
        job.credits += s.spent.credits;
        if (confirm?.phase === "buy") confirm.spentBuying += s.spent.credits;
      }
    });
    job.lastError = null;
    if (what === "step") {
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
    if (result.stopped === "out_of_credits") job.lastError = errorView(new CompanyDataError("OUT_OF_CREDITS"));
  } catch (e) {
    const err = e instanceof CompanyDataError ? e : new CompanyDataError("INTERNAL");
    // A bad key or a broken range stops the job; a transient failure leaves it resumable.
    if (!err.transient) job.finished = true;
    job.lastError = errorView(err);
  }
  yield* saveJob(deps, jobId, job);
  return yield* progressOf(deps, jobId, job, result);
}

/** Progress from what the sheet holds now: the job writes every chunk before going on. */
function* progressOf(
  deps: AppDeps,
  jobId: string,
  job: UiJob,
  result: SheetRunResult | null,
): Operation<EnrichProgressView> {
  const { input, previous, fields } = yield* readBlock(job.spec);
  const mapping = job.spec.mapping ?? {};
  const tasks = input.slice(1).map((r, i) => taskFromRow(i, r, mapping));
  // Every row of the block counts: the job gives a row without name or id its "skipped: no name" status too.
  const total = tasks.length;
  const counts = { matched: 0, review: 0, notFound: 0, errors: 0, skipped: 0, outOfCredits: 0, unbought: 0 };
  const reviewRows: ReviewRow[] = [];
  previous.forEach((p, i) => {
    if (!p) return;
    if (p.outcome === "matched") counts.matched++;
    else if (p.outcome === "empty") counts.skipped++;
    else if (p.outcome === "not_found") counts.notFound++;
    else if (p.outcome === "error") counts.errors++;
    else if (p.outcome === "out_of_credits") counts.outOfCredits++;
    else if (p.outcome === "unbought") counts.unbought++;
    else if (p.outcome === "review") {
      counts.review++;
      if (reviewRows.length < 50)
        reviewRows.push({
          row: job.spec.row + 1 + i,
          input: inputText(input[i + 1], mapping),
          candidates: [],
          reason: SEVERAL_FIT,
        });
    }
  });
  // Candidates are in the review rows' status text ("prüfen: ID – Name, Ort | …").
  if (reviewRows.length) {
    const out = outputBlock(job.spec, fields.length);
    const status = yield* sheet<Cell[][]>({
      op: "read",
      sheet: job.spec.sheet,
      row: out.row + 1,
      col: out.col,
      rows: job.spec.rows - 1,
      cols: 1,
    });
    for (const r of reviewRows) {
      const cell = String(status[r.row - out.row - 1]?.[0] ?? "");
      r.candidates = parseCandidates(cell);
      const head = reviewReason(cell);
      if (head) r.reason = { de: head, en: head };
    }
    // Once the run stands still (finished, stopped for credits, or shown again): not on every step of a running job,
    // whose next step would ask again for rows the user cannot pick yet.
    if (job.finished || job.stoppedForCredits || result === null)
      yield* addReviewDetails(
        deps,
        reviewRows,
        reviewRows.map((r) => tasks[r.row - job.spec.row - 1]),
      );
  }
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
    ...counts,
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

function inputText(row: Cell[] | undefined, m: ColumnMapping): string {
  if (!row) return "";
  const part = (k: InputRole) => (m[k] !== undefined ? String(row[m[k]] ?? "").trim() : "");
  return [
    part("name") || part("id") || part("lei") || part("vatId") || part("website"),
    part("zip"),
    part("city"),
    part("register"),
  ]
    .filter(Boolean)
    .join(", ");
}

const SEVERAL_FIT: Bilingual = { de: "Mehrere Firmen passen zum Namen.", en: "Several companies fit the name." };

/** The reason a review status gives in its head, "prüfen (Ort weicht ab (Hamburg ≠ Hannover)): …", or "". */
export function reviewReason(status: string): string {
  const at = status.indexOf(":");
  const head = at < 0 ? status : status.slice(0, at);
  const open = head.indexOf("(");
  return open < 0 || !head.trimEnd().endsWith(")") ? "" : head.slice(open + 1, head.trimEnd().length - 1).trim();
}

/**
 * The status cell names a candidate by id, name and city only; two
 * "Terralogic GmbH, Duisburg" look the same there. What tells them apart
 * (street, postcode, register, industry, status) comes from the row's resolve
 * answer, asked the free way: the cached answer of the run's own resolve, or
 * else the rate-limited single resolve (0 credits). Never a paid call; when
 * the free answer is not to be had (no key, rate limit, deadline), the
 * candidates stay as the status cell names them.
 */
/** One row's task as the job builds it (named by what builds it, wherever the type lives). */
type RowTask = ReturnType<typeof taskFromRow>;

function* addReviewDetails(deps: AppDeps, rows: ReviewRow[], tasks: (RowTask | undefined)[]): Operation<void> {
  const asked = rows
    .map((r, i) => ({ r, q: tasks[i]?.query ?? null }))
    .filter((x): x is { r: ReviewRow; q: ResolveQuery } => x.q !== null);
  if (!asked.length) return;
  let answers: ResolvedRow[];
  try {
    answers = yield* withSession(deps, "review", (s) =>
      resolveMany(
        s.ctx,
        asked.map((x) => x.q),
        { mode: "free" },
      ),
    );
  } catch {
    return;
  }
  asked.forEach(({ r }, i) => {
    const a = answers[i];
    if (!a || a.status === "error") return;
    const known = new Map([...(a.match ? [a.match] : []), ...a.candidates].map((c) => [c.id, c]));
    r.candidates = r.candidates.map((c) => {
      const full = known.get(c.id);
      return full ? { ...companyRow(full), name: full.name || c.name, city: full.city || c.city } : c;
    });
    if (a.doubt) r.reason = { de: doubtText(a.doubt, "de"), en: doubtText(a.doubt, "en") };
  });
}

/** The candidates of a review status (rows.ts reviewCandidates) as rows for the review panel. */
export function parseCandidates(status: string): CompanyRow[] {
  return reviewCandidates(status).map(({ id, name, city }) => ({
    id,
    name,
    legalForm: "",
    street: "",
    zip: "",
    city,
    state: "",
    register: "",
    industry: "",
    size: "",
    status: "",
    statusCode: "",
    active: null,
    score: null,
    distanceKm: null,
  }));
}
