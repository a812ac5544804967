/**
 * The resumable enrichment job. Rows are worked through in chunks; after each
 * chunk its results are persisted (the pure form: in the store; the sheet
 * form: written into the sheet) and only then the checkpoint moves on. A run
 * stopped anywhere (deadline, the Apps Script 6-minute limit, a closed
 * sidebar, OUT_OF_CREDITS) resumes where it stopped: rows already persisted
 * are never fetched again, ids already resolved are never resolved again.
 *
 * Checkpoint (store key `doc:enrich:<scope>:<job>`), small on purpose (Apps
 * Script allows 9 KB a value): the run's signature, its selection of rows as
 * ranges, how far through the selection it got, and its state.
 */
import { storeGet, storePut, sheet, type Operation } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import { fnv1a32 } from "../core/index.ts";
import { readPart, readSaved, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import { savedRowResult } from "./row-result-schema.ts";
import type { Language } from "../i18n/index.ts";
import { NOT_A_TABLE } from "./estimate.ts";
import type { OpContext } from "../operations/index.ts";
import type { Cell } from "../core/index.ts";
import { companyCost, fieldNeeds, selectFields, type FieldDef } from "./fields.ts";
import { priceAfterMatching, type PriceAfterMatching } from "./after-matching.ts";
import { batchResolveCost } from "../api/index.ts";
import { detectColumns, validateMapping, type ColumnMapping } from "./columns.ts";
import { chunkEnd, enrichChunk, isEmptyTask, taskFromRow, type EnrichDeps } from "./chunk.ts";
import type { RowTask } from "./task.ts";
import { RunMemo } from "./memo.ts";
import { pairByKey } from "./row-key.ts";
import { CHANGED_TOKEN, RowLedger, token } from "./row-ledger.ts";
import { readTableNow, type TableNow } from "./table-now.ts";
import { reviewCandidates } from "./rows.ts";
import { changesText, companyName, ensureChangeColumn, valueChanges, type RowChanges } from "./value-changes.ts";
import {
  candidateLabel,
  isOutputHeader,
  isoDay,
  outputCells,
  outputHeader,
  readPrevious,
  readResult,
  type PreviousRow,
  type RowResult,
} from "./rows.ts";

/**
 * How long past the run's deadline a started chunk's calls may still go
 * (paced availability, retries), so that it does not settle them unsent and
 * buy includes blindly. The Sheets sidebar stops starting chunks at 280 s of
 * its 360 s: 60 s of grace stays inside.
 */
export const CHUNK_GRACE_MS = 60_000;

export type Rerun = "all" | "new-or-failed" | { olderThanDays: number };

export interface EnrichOptions {
  /** batch: paid batch resolve, fast; free: single resolves, rate-limited and slow. Default batch. */
  mode?: "batch" | "free";
  /** Which rows a run works on when earlier results exist. Default new-or-failed. */
  rerun?: Rerun;
  /** Epoch ms: no chunk starts after it (the run then stops cleanly, resumable). */
  deadline?: number;
  /** Rows per chunk (each chunk persisted before the next). Default 50. */
  chunkSize?: number;
  /**
   * A run that asks again before buying (a large list in the UI): "match"
   * resolves every selected row and buys nothing, leaving a row that needs a
   * profile "unbought" with its id (the price of the rest is then exact:
   * unboughtPrice); "buy" then works on those rows only. Default: both at once.
   */
  phase?: "match" | "buy";
  /**
   * Credits the run may spend at most (phase "buy": the exact price the user
   * confirmed). A chunk whose profiles could cost more than what is left is
   * not started: the run stops ("budget"), its rows stay "unbought".
   */
  budget?: number;
  /**
   * Credits this run may spend at most (a scheduled refresh's share of its
   * monthly ceiling). The rows that fit, each priced at the most it can cost
   * (rowCeiling), are worked on in table order; the rest wait, and the run
   * stops with "budget". Never more is spent: cache hits and missing data only
   * make a row cheaper.
   */
  maxCredits?: number;
}

export interface EnrichStats {
  rows: number;
  matched: number;
  review: number;
  notFound: number;
  error: number;
  outOfCredits: number;
  /** Rows without a name or id (status "skipped: no name"). */
  skipped: number;
  /** Rows matched whose profile is not bought yet (phase "match"). */
  unbought: number;
  /** Rows not processed yet (the run stopped at its deadline). */
  pending: number;
  /** Credits this run spent (cache hits are free). */
  credits: number;
  /** Rows this run worked on. */
  processed: number;
}

/** budget: the rest would cost more than the run may spend (options.budget after a confirmed price, options.maxCredits of a refresh). */
export type StopReason = "deadline" | "out_of_credits" | "budget";

export interface EnrichRunResult {
  header: string[];
  /** One output row per input row, in input order (rows not reached yet are blank). */
  rows: Cell[][];
  results: (RowResult | null)[];
  complete: boolean;
  stopped?: StopReason;
  stats: EnrichStats;
}

// ------------------------------------------------------------- selection

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

// ------------------------------------------------------------- checkpoint

interface Checkpoint {
  v: 1;
  sig: string;
  /** The run's rows, as ranges "0-99,120". */
  selection: string;
  /** Entries of the selection done. */
  cursor: number;
  state: "running" | "out_of_credits" | "done";
  /** Pure form: how many result parts are stored. */
  parts?: number;
}

/** Saved since before versions were checked, always with `v: 1`. */
export const CHECKPOINT = savedKind<Checkpoint>(
  1,
  z.object({
    v: z.literal(1),
    sig: z.string(),
    selection: z.string(),
    cursor: z.number(),
    state: z.enum(["running", "out_of_credits", "done"]),
    parts: z.optional(z.number()),
  }),
);

export function encodeRanges(xs: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < xs.length;) {
    let j = i;
    while (j + 1 < xs.length && xs[j + 1] === xs[j]! + 1) j++; // j < xs.length throughout
    parts.push(i === j ? String(xs[i]) : `${xs[i]}-${xs[j]}`);
    i = j + 1;
  }
  return parts.join(",");
}

export function decodeRanges(s: string): number[] {
  const out: number[] = [];
  for (const part of s.split(",")) {
    if (!part) continue;
    const [a = NaN, b = a] = part.split("-").map(Number);
    for (let x = a; x <= b; x++) out.push(x);
  }
  return out;
}

/** FNV-1a, for signatures: a changed input or field list starts a new run. */
export const hash = (s: string): string => fnv1a32(s).toString(36);

const checkpointKey = (ctx: OpContext, job: string) => `doc:enrich:${ctx.scope}:${job}`;

function* loadCheckpoint(key: string): Operation<Checkpoint | null> {
  const [raw] = yield* storeGet([key]);
  return readSaved(CHECKPOINT, raw) ?? null;
}

// ------------------------------------------------------------- engine

interface EngineArgs {
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

interface EngineOutcome {
  stopped?: StopReason;
  results: Map<number, RowResult>;
  credits: number;
  pending: number;
}

function* runEngine(deps: EnrichDeps, ctx0: OpContext, a: EngineArgs): Operation<EngineOutcome> {
  let credits = 0;
  const outer = ctx0.client.onSpend;
  const ctx: OpContext = {
    ...ctx0,
    client: {
      ...ctx0.client,
      // A chunk started before the deadline finishes: its paced and retried calls may use the grace.
      deadline: a.options.deadline !== undefined ? a.options.deadline + CHUNK_GRACE_MS : ctx0.client.deadline,
      onSpend: (ep, c) => {
        credits += c;
        outer?.(ep, c);
      },
    },
  };
  const rerun = a.options.rerun ?? "new-or-failed";
  const mode = a.options.mode ?? "batch";
  const chunkSize = Math.max(1, Math.floor(a.options.chunkSize ?? 50));
  const now = ctx.client.now();

  // Resume an unfinished run with the same signature; otherwise select afresh.
  const old = yield* loadCheckpoint(a.key);
  let selection: number[];
  let cursor: number;
  let parts = 0;
  if (a.selection) {
    selection = a.selection;
    parts = old && old.sig === a.sig ? (old.parts ?? 0) : 0;
  } else if (old && old.sig === a.sig && old.state !== "done") {
    const sel = decodeRanges(old.selection);
    const again = sel.slice(0, old.cursor).filter((i) => a.previous[i]?.outcome === "out_of_credits");
    selection = [...again, ...sel.slice(old.cursor)];
    parts = old.parts ?? 0;
  } else {
    selection = selectRows(a.tasks, a.previous, rerun, now, a.inputTasks);
    parts = old && old.sig === a.sig ? (old.parts ?? 0) : 0;
  }
  cursor = 0;
  // The buying phase buys what the matching left unbought, nothing else (that is what its price covers).
  if (a.options.phase === "buy") selection = selection.filter((i) => inPhase("buy", a.previous[i]));

  // Rows not worked on now that hold a final answer: their resolves and profiles are not bought again.
  const memo = new RunMemo(fieldNeeds(a.fields));
  const pending = new Set(selection);
  a.tasks.forEach((_, i) => {
    if (pending.has(i)) return;
    const r = a.done(i);
    const t = a.inputTasks?.[i] ?? a.tasks[i];
    if (r && t) memo.rememberRow(t, r);
  });
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
  yield* storePut({ [a.key]: writeSaved(CHECKPOINT, cp) });

  const results = new Map<number, RowResult>();
  while (cursor < selection.length) {
    if (a.options.deadline !== undefined && ctx.client.now() >= a.options.deadline) {
      return { stopped: "deadline", results, credits, pending: selection.length - cursor };
    }
    const end = chunkEnd(selection.length, taskAt, cursor, chunkSize, mode, memo);
    const indexes = selection.slice(cursor, end);
    const tasks = indexes.map((_, k) => taskAt(cursor + k));
    // Never past the confirmed price: a chunk that could cost more than is left is not sent.
    if (a.options.budget !== undefined && credits + chunkCeiling(tasks, memo) > a.options.budget) {
      return { stopped: "budget", results, credits, pending: selection.length - cursor };
    }
    const chunk = yield* enrichChunk(deps, ctx, tasks, a.fields, mode, memo, a.options.phase === "match");
    cursor += indexes.length;
    let persistIdx = indexes;
    let persistRes = chunk.results;
    if (chunk.outOfCredits) {
      // Stop cleanly: the rest is marked, keeping any id it already has so the resume does not resolve it again.
      const rest = selection.slice(cursor);
      const today = isoDay(ctx.client.now());
      persistIdx = [...indexes, ...rest];
      persistRes = [...chunk.results, ...rest.map((_, k) => outOfCreditsResult(memo, taskAt(cursor + k), today))];
    }
    persistIdx.forEach((i, k) => results.set(i, persistRes[k]!)); // one result per persisted index
    cp.cursor = cursor;
    cp.state = chunk.outOfCredits ? "out_of_credits" : cursor >= selection.length ? "done" : "running";
    yield* a.persist(persistIdx, persistRes, cp);
    yield* storePut({ [a.key]: writeSaved(CHECKPOINT, cp) });
    if (chunk.outOfCredits) return { stopped: "out_of_credits", results, credits, pending: 0 };
  }
  if (cp.state !== "done") {
    cp.state = "done";
    yield* storePut({ [a.key]: writeSaved(CHECKPOINT, cp) });
  }
  return capped > 0 ? { stopped: "budget", results, credits, pending: capped } : { results, credits, pending: 0 };
}

/**
 * The most one row can cost: its company's profile with the fields'
 * includes, plus a batch resolve of its own when it has no id yet (a batch of
 * n names costs at most n single-name batches). Free lookups and the free
 * availability check cost nothing.
 */
export function rowCeiling(t: RowTask, needs: ReturnType<typeof fieldNeeds>, mode: "batch" | "free"): number {
  if (isEmptyTask(t) || t.invalid) return 0;
  if (t.id) return companyCost(needs.givenId);
  return (t.query && mode === "batch" ? batchResolveCost(1) : 0) + companyCost(needs.resolved);
}

/** How many of the first `count` tasks fit into `credits`, each at its ceiling (table order, no skipping ahead). */
function rowsWithin(
  count: number,
  taskAt: (j: number) => RowTask,
  credits: number,
  needs: ReturnType<typeof fieldNeeds>,
  mode: "batch" | "free",
): number {
  let sum = 0;
  for (let j = 0; j < count; j++) {
    sum += rowCeiling(taskAt(j), needs, mode);
    if (sum > credits) return j;
  }
  return count;
}

/** Whether a row (as an earlier step left it) is work for this phase beyond what selectRows chose: "buy" takes only rows left unbought. */
function inPhase(phase: EnrichOptions["phase"], p: PreviousRow | null | undefined): boolean {
  return phase !== "buy" || (p?.outcome === "unbought" && !!p.id);
}

/**
 * The most a chunk of rows with known ids can cost: each company not bought
 * yet once, at its profile's price with the run's includes (the free
 * availability check can only lower it). A row that would still have to be
 * matched cannot be priced here: Infinity (a budgeted run buys, it does not match).
 */
export function chunkCeiling(tasks: readonly RowTask[], memo: RunMemo): number {
  const cost = new Map<string, number>();
  for (const t of tasks) {
    if (isEmptyTask(t) || (!t.id && t.invalid) || memo.answer(t, "")) continue;
    const matched = t.id ? null : memo.matchedId(t);
    const m = t.id
      ? { id: t.id, needs: memo.needs.givenId }
      : matched
        ? { id: matched.id, needs: memo.needs.resolved }
        : null;
    if (!m) return Infinity;
    if (m.needs.profile && !memo.companies.has(m.id))
      cost.set(m.id, Math.max(cost.get(m.id) ?? 0, companyCost(m.needs)));
  }
  let sum = 0;
  for (const c of cost.values()) sum += c;
  return sum;
}

/**
 * The exact price of the profiles a matching phase left unbought: each
 * company once, less those whose profile the table already holds (a matched
 * row the buying phase's memo takes them from, by the same rule as
 * RunMemo.rememberRow). `givenId`: the row's own input has an id.
 */
export function unboughtPrice(
  rows: readonly ({ outcome: RowResult["outcome"]; id: string | null; givenId: boolean } | null)[],
  fieldIds: readonly string[],
): PriceAfterMatching {
  const needs = fieldNeeds(selectFields([...fieldIds]));
  const ids: string[] = [];
  const bought = new Set<string>();
  for (const r of rows) {
    if (!r?.id) continue;
    if (r.outcome === "unbought") ids.push(r.id);
    else if (r.outcome === "matched" && needs.givenId.profile && (r.givenId || needs.resolved.profile))
      bought.add(r.id);
  }
  return priceAfterMatching(ids, fieldIds, (id) => bought.has(id));
}

/** A row the run cannot pay for: what the memo answers for free, otherwise marked with the id it has. */
export function outOfCreditsResult(memo: RunMemo, t: RowTask, today: string): RowResult {
  const known = memo.answer(t, today);
  if (known) return known;
  if (isEmptyTask(t)) return { outcome: "empty", id: null, confidence: null, asOf: null, values: [] };
  const m = memo.matchedId(t);
  return {
    outcome: "out_of_credits",
    id: m?.id ?? t.id,
    confidence: m?.confidence ?? t.confidence,
    asOf: null,
    values: [],
  };
}

function countStats(
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

function prepare(rows: readonly Cell[][], mapping: ColumnMapping, fieldIds: readonly string[]) {
  if (!Array.isArray(rows)) throw invalid("rows", NOT_A_TABLE);
  const width = rows.reduce<number>((w, r: readonly Cell[]) => Math.max(w, r.length), 0);
  validateMapping(mapping, rows.length > 0 ? width : Number.MAX_SAFE_INTEGER);
  const fields = selectFields(fieldIds);
  const tasks = rows.map((r: readonly Cell[], i) => taskFromRow(i, r, mapping));
  return { fields, tasks };
}

const signature = (parts: unknown[]) => hash(JSON.stringify(parts));

// ------------------------------------------------------------- pure form

export interface EnrichInput {
  /** Data rows, without the header row. */
  rows: Cell[][];
  mapping: ColumnMapping;
  fields: string[];
  options?: EnrichOptions;
}

/** Serialised row results of one chunk, in the store beside the checkpoint. */
interface StoredPart {
  i: number[];
  r: RowResult[];
}
/** A part of a checkpoint: versioned by it. */
export const CHECKPOINT_PART: z.ZodMiniType<StoredPart> = z.object({
  i: z.array(z.number()),
  r: z.array(savedRowResult),
});

/**
 * Enrich rows without a sheet (CLI, tests, the app service). `job` names the
 * checkpoint; calling again with the same job and input resumes, and after a
 * completed run returns the stored rows without sending anything (rerun
 * decides what is fetched again).
 */
export function* computeRows(
  deps: EnrichDeps,
  ctx: OpContext,
  job: string,
  input: EnrichInput,
): Operation<EnrichRunResult> {
  const { fields, tasks } = prepare(input.rows, input.mapping, input.fields);
  const options = input.options ?? {};
  const lang: Language = ctx.client.language;
  const key = checkpointKey(ctx, job);
  const sig = signature([
    fields.map((f) => f.id),
    input.mapping,
    options.mode ?? "batch",
    hash(JSON.stringify(input.rows)),
  ]);

  // What earlier runs of this job stored.
  const current: (RowResult | null)[] = tasks.map(() => null);
  const cp = yield* loadCheckpoint(key);
  if (cp && cp.sig === sig && cp.parts) {
    const raws = yield* storeGet(Array.from({ length: cp.parts }, (_, n) => `${key}:${n}`));
    for (const raw of raws) {
      const part = readPart(CHECKPOINT_PART, raw);
      if (!part) continue;
      part.i.forEach((i, k) => (current[i] = part.r[k] ?? null));
    }
  } else if (cp && cp.parts) {
    // A different input or field list: the old parts are of no use.
    const drop: Record<string, null> = {};
    for (let n = 0; n < cp.parts; n++) drop[`${key}:${n}`] = null;
    yield* storePut({ ...drop, [key]: null });
  }
  const previous = current.map((r) => (r ? previousOf(r) : null));

  const outcome = yield* runEngine(deps, ctx, {
    tasks,
    previous,
    fields,
    options,
    key,
    sig,
    done: (i) => current[i] ?? null,
    *persist(indexes, results, c) {
      const n = c.parts ?? 0;
      c.parts = n + 1;
      indexes.forEach((i, k) => (current[i] = results[k] ?? null));
      yield* storePut({ [`${key}:${n}`]: JSON.stringify({ i: indexes, r: results } satisfies StoredPart) });
    },
  });
  for (const [i, r] of outcome.results) current[i] = r;
  const width = fields.length;
  return {
    header: outputHeader(fields, lang),
    rows: current.map((r) => (r ? outputCells(r, width, lang) : new Array<Cell>(width + 3).fill(""))),
    results: current,
    complete: !outcome.stopped,
    stopped: outcome.stopped,
    stats: countStats(current, tasks, outcome),
  };
}

function previousOf(r: RowResult): PreviousRow {
  return { outcome: r.outcome, id: r.id, confidence: r.confidence, asOf: r.asOf };
}

// ------------------------------------------------------------- sheet form

export interface SheetBlock {
  sheet: string;
  /** 1-based; `row` is the header row. */
  row: number;
  col: number;
  /** Rows including the header row. */
  rows: number;
  cols: number;
}

export interface SheetJobSpec extends SheetBlock {
  /** Corrected mapping; detected from the header row when absent. */
  mapping?: ColumnMapping;
  fields: string[];
  options?: EnrichOptions;
  /**
   * A refresh: a matched row written again for the same company shows the
   * values that changed (old → new) in a change column after the output
   * block, and `log` gets them right before the rows are written.
   */
  changes?: { log(rows: RowChanges[]): Operation<void> };
}

export interface SheetRunResult {
  complete: boolean;
  stopped?: StopReason;
  stats: EnrichStats;
  mapping: ColumnMapping;
  /** Where the output block is (header row included). */
  output: SheetBlock;
  /** Phase "match", complete: the exact price of the profiles it left unbought, from the table as it is now. */
  afterMatching?: PriceAfterMatching;
}

const STATUS_COLOUR: Record<string, string> = {
  matched: "",
  empty: "",
  review: "#fff2cc",
  not_found: "#eeeeee",
  error: "#f4cccc",
  out_of_credits: "#fce5cd",
  unbought: "#d9ead3",
};

/** The output block: directly right of the input, status and confidence first, as-of last. */
export function outputBlock(spec: SheetBlock, fieldCount: number): SheetBlock {
  return { sheet: spec.sheet, row: spec.row, col: spec.col + spec.cols, rows: spec.rows, cols: fieldCount + 3 };
}

/**
 * Enrich a block in a sheet: read the input (header row first), read what an
 * earlier run left beside it, and write each chunk's rows as one block (with
 * candidate dropdowns in the id column for review rows) before going on.
 */
export function* enrichSheet(deps: EnrichDeps, ctx: OpContext, spec: SheetJobSpec): Operation<SheetRunResult> {
  return yield* sheetRun(deps, ctx, spec, false);
}

/**
 * Apply the user's picks: review rows whose id cell now holds a candidate
 * (or any company id) are enriched with it; nothing else is touched.
 */
export function* applyReviewPicks(deps: EnrichDeps, ctx: OpContext, spec: SheetJobSpec): Operation<SheetRunResult> {
  return yield* sheetRun(deps, ctx, spec, true);
}

/** How long answers may wait in memory before they are written (they are always written at the end of a step). */
export const WRITE_EVERY_MS = 20_000;

/** Passes over the table in one step: rows inserted or edited during a pass are new work for the next. */
const MAX_PASSES = 3;

/** The status of a row whose output was computed for other input: shown, and redone. */
const ROW_CHANGED = {
  de: "Zeile seit der Anreicherung geändert (sortiert oder bearbeitet); wird neu angereichert",
  en: "row changed since it was enriched (sorted or edited); will be enriched again",
};

/** Does this row's output belong to its input as it is now? */
/** A row's output read back; `changed`: it says the row changed since it was enriched (to be redone). */
type Previous = PreviousRow & { changed?: boolean };

function previousInCells(cells: readonly Cell[], width: number): Previous | null {
  const p = readPrevious(cells, width);
  if (p?.outcome !== "error") return p;
  const s = String(cells[0] ?? "");
  return s.includes(ROW_CHANGED.de) || s.includes(ROW_CHANGED.en) ? { ...p, changed: true } : p;
}

function belongs(ledger: RowLedger, key: string, p: Previous | null): boolean {
  if (!p) return true;
  // A row without input has no company: only "skipped" belongs to it.
  if (key === "") return p.outcome === "empty";
  // Output written before there was a ledger for this table cannot be checked.
  if (ledger.empty) return true;
  if (p.outcome === "matched")
    return ledger.has(key, token("matched", p.id)) || ledger.has(key, token("matched", p.id, true));
  if (p.outcome === "error") return ledger.has(key, p.changed ? CHANGED_TOKEN : token("error", null));
  // A review row's id cell is the user's to pick in.
  return ledger.has(key, token(p.outcome, p.outcome === "review" ? null : p.id));
}

/**
 * Rows are matched to results by key, never by position: before every write
 * the table is read again (a fresh read, right before the write) and each
 * result goes to the row that now holds the input it was computed for
 * (duplicates in order of occurrence); a deleted row's result is dropped,
 * an inserted or edited row is new work, an output that no longer belongs to
 * its row is marked "changed" and redone. Only the table's rows and its
 * output columns are written, as they are at that moment.
 *
 * Row-anchored developer metadata (Sheets: DeveloperMetadata on a row moves
 * with the row when a user sorts or inserts,
 * https://developers.google.com/sheets/api/guides/metadata; the
 * DeveloperMetadata resource says it stays with its row through moves and is
 * deleted with it,
 * https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets.developerMetadata)
 * is not used:
 * Excel and the playground have nothing like it, so it would be a second way
 * of finding rows in one host only; setting it costs a Spreadsheet call per
 * row (the job writes whole blocks); and it follows a row whose input the
 * user then edits, where the key sees the edit. The key finds moved rows in
 * every host by what they are.
 */
function* sheetRun(
  deps: EnrichDeps,
  ctx: OpContext,
  spec: SheetJobSpec,
  picksOnly: boolean,
): Operation<SheetRunResult> {
  if (!spec.sheet || !(spec.row >= 1) || !(spec.col >= 1) || !(spec.rows >= 2) || !(spec.cols >= 1)) {
    throw invalid("range", {
      de: "bitte eine Tabelle mit Kopfzeile und mindestens einer Datenzeile markieren",
      en: "please select a table with a header row and at least one data row",
    });
  }
  const lang: Language = ctx.client.language;
  const head = yield* sheet<Cell[][]>({
    op: "read",
    sheet: spec.sheet,
    row: spec.row,
    col: spec.col,
    rows: 1,
    cols: spec.cols,
  });
  const headerCells = head[0] ?? [];
  const mapping = spec.mapping ?? detectColumns(headerCells).mapping;
  validateMapping(mapping, spec.cols);
  const fields = selectFields(spec.fields);
  const width = fields.length;
  const out = outputBlock(spec, width);
  const [existingHeader = []] = yield* sheet<Cell[][]>({
    op: "read",
    sheet: out.sheet,
    row: out.row,
    col: out.col,
    rows: 1,
    cols: out.cols,
  });
  const headerEmpty = existingHeader.every((c) => c === "" || c == null);
  if (!headerEmpty && !isOutputHeader(existingHeader, fields)) {
    throw invalid("output", {
      de: "die Spalten rechts der Tabelle sind nicht leer; bitte die Tabelle verschieben oder die Spalten leeren",
      en: "the columns right of the table are not empty; please move the table or clear them",
    });
  }
  if (headerEmpty)
    yield* sheet({
      op: "write",
      sheet: out.sheet,
      row: out.row,
      col: out.col,
      values: [outputHeader(fields, lang, headerCells)],
    });
  // A refresh's change column sits right after the output block and moves with its row (it is written with it).
  const outCols = out.cols + (spec.changes ? 1 : 0);
  if (spec.changes) yield* ensureChangeColumn(out.sheet, out.row, out.col + out.cols, lang);

  const options: EnrichOptions = { ...(spec.options ?? {}) };
  if (picksOnly) options.rerun = "all";
  const rerun = options.rerun ?? "new-or-failed";
  const block = `${spec.sheet}!R${spec.row}C${spec.col}`;
  const key = checkpointKey(ctx, `${picksOnly ? "picks" : "sheet"}:${block}`);
  // A phase is a run of its own: matching and buying each start from the table as it is then.
  const sig = signature([
    fields.map((f) => f.id),
    mapping,
    options.mode ?? "batch",
    rerun,
    spec.rows,
    spec.cols,
    ...(options.phase ? [options.phase] : []),
  ]);
  const ledger = yield* RowLedger.load(`doc:rows:${ctx.scope}:${block}`);

  const old = yield* loadCheckpoint(key);
  if (!(old && old.sig === sig && old.state !== "done")) {
    // A new run: the block exactly as selected; the ledger keeps what still describes a row of it.
    const first = yield* readTableNow(spec, outCols, mapping, ledger, { selected: true });
    const keep: string[] = [];
    first.keys.forEach((k, i) => {
      const p = previousInCells(first.output[i] ?? [], width);
      if (p && belongs(ledger, k, p)) keep.push(RowLedger.entry(k, ledgerToken(ledger, k, p)));
    });
    yield* ledger.startRun(keep, first.keys, first.below, first.header);
    // Rows without input get their "skipped" status now: later reads cannot tell empty rows at the
    // table's end from empty rows below it, and these cost nothing.
    const skipped = new Map<number, RowResult>();
    first.keys.forEach((k, i) => {
      if (k === "" && readPrevious(first.output[i] ?? [], width)?.outcome !== "empty")
        skipped.set(i, { outcome: "empty", id: null, confidence: null, asOf: null, values: [] });
    });
    if (!picksOnly) yield* writeRows(first, skipped, []);
  }

  let outcome: EngineOutcome | null = null;
  let now = yield* readTableNow(spec, outCols, mapping, ledger);
  let passes = 0;
  let left = 0;
  for (;;) {
    const tasks = now.input.map((r, i) => taskFromRow(i, r, mapping));
    const prev = now.output.map((r) => previousInCells(r, width));
    const valid = now.keys.map((k, i) => belongs(ledger, k, prev[i] ?? null));
    const previous = prev.map((p, i) => (valid[i] ? p : null));
    const picked = (i: number) => {
      const p = previous[i];
      return !!p?.id && p.outcome === "matched" && ledger.has(now.keys[i] ?? "", token("matched", p.id, true));
    };
    // Review picks only: review rows with an id; as their own rerun so nothing else is selected.
    const engineTasks = picksOnly
      ? tasks.map((t, i) =>
          previous[i]?.outcome === "review" && previous[i]?.id
            ? t
            : { index: i, query: null, id: null, confidence: null },
        )
      : tasks;
    const selection = selectRows(engineTasks, previous, rerun, ctx.client.now(), tasks).filter((i) => {
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
    // Outputs that are no longer their row's are marked now, so no row shows another company's data while it waits.
    if (valid.some((v) => !v)) yield* guardedWrite(now.keys, new Map(), new Set());
    left = selection.length;
    if (left === 0 || passes >= MAX_PASSES || outcome?.stopped) break;
    if (options.deadline !== undefined && ctx.client.now() >= options.deadline) break;
    passes++;
    const passKeys = now.keys;
    // Results wait in memory for a while and are written together: each write costs a fresh read
    // first, and Apps Script counts every Spreadsheet call (issue 4: 1,000 rows in at most 20).
    // A crash loses at most WRITE_EVERY_MS of answers, which the cache gives back for free.
    const waiting = new Map<number, RowResult>();
    const picks = new Set<number>();
    let lastWrite = ctx.client.now();
    const writeWaiting = function* (): Operation<void> {
      if (waiting.size === 0) return;
      yield* guardedWrite(passKeys, new Map(waiting), new Set(picks));
      waiting.clear();
      picks.clear();
      lastWrite = ctx.client.now();
    };
    let pass: EngineOutcome;
    try {
      const passOptions =
        options.budget !== undefined
          ? { ...options, budget: Math.max(0, options.budget - (outcome?.credits ?? 0)) }
          : options;
      pass = yield* runEngine(deps, ctx, {
        tasks: engineTasks,
        inputTasks: tasks,
        previous,
        fields,
        key,
        sig,
        selection,
        picked,
        // A budget and a credit cap hold for the whole step: later passes get what earlier ones left.
        options:
          options.maxCredits === undefined
            ? passOptions
            : { ...passOptions, maxCredits: options.maxCredits - (outcome?.credits ?? 0) },
        done: (i) => (previous[i] ? readResult(now.output[i], width) : null),
        *persist(indexes, results) {
          indexes.forEach((i, k) => {
            waiting.set(i, results[k]!); // one result per index
            // A picked id written again is still the user's pick.
            if (picksOnly || (picked(i) && results[k]!.id === previous[i]?.id)) picks.add(i);
          });
          if (ctx.client.now() - lastWrite >= WRITE_EVERY_MS) yield* writeWaiting();
        },
      });
    } finally {
      yield* writeWaiting();
    }
    outcome = mergeOutcome(outcome, pass);
    // Not fresh: the last write's fresh read saw the user's changes of this pass; a host's snapshot holds them and our writes.
    now = yield* readTableNow(spec, outCols, mapping, ledger);
  }
  // Rows left after the passes without a deadline passing (the user keeps adding rows): not complete, no stop reason; the next step goes on.
  const stopped =
    outcome?.stopped ??
    (options.deadline !== undefined && left > 0 && ctx.client.now() >= options.deadline ? "deadline" : undefined);
  const complete = left === 0;
  // The engine may have closed its checkpoint; rows still to do keep the run open for the next step.
  yield* storePut({
    [key]: writeSaved(CHECKPOINT, {
      v: 1,
      sig,
      selection: "",
      cursor: 0,
      state: complete ? "done" : outcome?.stopped === "out_of_credits" ? "out_of_credits" : "running",
      parts: 0,
    }),
  });
  const final = now.output.map((r, i) => {
    const p = previousInCells(r, width);
    return belongs(ledger, now.keys[i] ?? "", p) ? p : null;
  });
  const engineOutcome: EngineOutcome = outcome ?? { results: new Map(), credits: 0, pending: 0 };
  const finalTasks = now.input.map((r, i) => taskFromRow(i, r, mapping));
  const stats = countStats(final, finalTasks, { ...engineOutcome, pending: complete ? 0 : left });
  const afterMatching =
    options.phase === "match" && complete
      ? unboughtPrice(
          final.map((p, i) => (p ? { ...p, givenId: !!finalTasks[i]?.id } : null)),
          spec.fields,
        )
      : undefined;
  return {
    complete,
    stopped,
    stats,
    mapping,
    output: { ...out, rows: 1 + now.input.length },
    ...(afterMatching ? { afterMatching } : {}),
  };

  /**
   * Write results (by the index of the pass that computed them, whose keys are `keysThen`)
   * into the rows that hold that input now, and mark rows whose output is not theirs.
   */
  function* guardedWrite(
    keysThen: readonly string[],
    results: Map<number, RowResult>,
    picks: ReadonlySet<number>,
  ): Operation<void> {
    const t = yield* readTableNow(spec, outCols, mapping, ledger, { fresh: true });
    const writes = new Map<number, RowResult>();
    const recorded: { key: string; tok: string }[] = [];
    pairByKey(keysThen, t.keys).forEach((i, j) => {
      const r = i === null ? undefined : results.get(i);
      if (!r) return;
      writes.set(j, r);
      recorded.push({ key: t.keys[j]!, tok: token(r.outcome, r.outcome === "review" ? null : r.id, picks.has(i!)) }); // j indexes t.keys
    });
    t.output.forEach((cells, j) => {
      if (writes.has(j)) return;
      const p = previousInCells(cells, width);
      const key = t.keys[j] ?? "";
      if (p && !belongs(ledger, key, p)) {
        writes.set(j, {
          outcome: "error",
          id: null,
          confidence: null,
          asOf: null,
          values: [],
          error: { code: "INVALID_INPUT", text: ROW_CHANGED },
        });
        recorded.push({ key, tok: CHANGED_TOKEN });
      }
    });
    yield* writeRows(t, writes, recorded);
  }

  /** Write these rows' results into the table `t` just read, as one block, and record them. */
  function* writeRows(
    t: TableNow,
    writes: Map<number, RowResult>,
    recorded: { key: string; tok: string }[],
  ): Operation<void> {
    if (writes.size === 0) return;
    const rows = [...writes.keys()];
    const lo = Math.min(...rows);
    const hi = Math.max(...rows);
    const span: Cell[][] = [];
    const dropdowns: string[][] = [];
    const colours: string[][] = [];
    const changed: RowChanges[] = [];
    for (let j = lo; j <= hi; j++) {
      const r = writes.get(j);
      // Every row between the first and last written one was read (lo..hi lie within t.output).
      let cells: Cell[] = r ? outputCells(r, width, lang) : (t.output[j] ?? []);
      if (r && spec.changes) {
        // Old → new against what this row shows right now (read just before this write), for the same company only.
        const before = readResult(t.output[j], width);
        const id = r.outcome === "matched" && before?.outcome === "matched" && before.id === r.id ? r.id : null;
        const diff = id ? valueChanges(fields, before?.values ?? [], r.values) : [];
        if (id && diff.length > 0)
          changed.push({
            id,
            name: companyName(fields, r.values, t.input[j] ?? [], mapping),
            asOf: r.asOf ?? isoDay(ctx.client.now()),
            changes: diff,
          });
        cells = [...cells, changesText(diff, lang)];
      }
      span.push(cells);
      dropdowns.push(
        r ? (r.outcome === "review" ? (r.candidates ?? []).map(candidateLabel) : []) : existingDropdown(cells, width),
      );
      colours.push([STATUS_COLOUR[r?.outcome ?? readPrevious(cells, width)?.outcome ?? "empty"] ?? ""]);
    }
    const firstRow = out.row + 1 + lo;
    // Logged first: a crash before the write repeats the same lines next time, and the log's keys drop them.
    if (spec.changes && changed.length > 0) yield* spec.changes.log(changed);
    // Written at once, right after the read that placed them: the window in which a user can move these rows is this call.
    yield* sheet({ op: "write", sheet: out.sheet, row: firstRow, col: out.col, values: span, now: true });
    yield* ledger.record(recorded);
    yield* sheet({ op: "dropdowns", sheet: out.sheet, row: firstRow, col: out.col + 2, options: dropdowns });
    yield* sheet({ op: "colour", sheet: out.sheet, row: firstRow, col: out.col, colours });
  }
}

/** The ledger token a row's output stands for (a matched row keeps its pick mark). */
function ledgerToken(ledger: RowLedger, key: string, p: Previous): string {
  if (p.outcome === "matched" && ledger.has(key, token("matched", p.id, true))) return token("matched", p.id, true);
  if (p.changed) return CHANGED_TOKEN;
  return token(p.outcome, p.outcome === "review" ? null : p.id);
}

function mergeOutcome(a: EngineOutcome | null, b: EngineOutcome): EngineOutcome {
  if (!a) return b;
  return {
    stopped: b.stopped,
    results: new Map([...a.results, ...b.results]),
    credits: a.credits + b.credits,
    pending: b.pending,
  };
}

/**
 * Rows between a chunk's rows keep their dropdown: a review row's candidates
 * are in its status text, which is where they are read back from.
 */
function existingDropdown(cells: readonly Cell[], width: number): string[] {
  const p = readPrevious(cells, width);
  if (p?.outcome !== "review") return [];
  return reviewCandidates(String(cells[0] ?? "")).map(candidateLabel);
}
