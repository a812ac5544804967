/**
 * The enrichment job's shapes (what callers and the job's modules share):
 * options, stats, why a run stopped, the sheet block and its result, and the
 * engine's outcome. A leaf: it imports no part of the job, so the job's
 * modules never import each other in a circle.
 */
import type { Cell, Operation } from "../core/index.ts";
import type { Language } from "../i18n/index.ts";
import type { OpContext } from "../operations/index.ts";
import type { ColumnMapping } from "./columns.ts";
import type { FieldDef } from "./fields.ts";
import type { PriceAfterMatching } from "./after-matching.ts";
import type { RowLedger } from "./row-ledger.ts";
import type { RowResult } from "./rows.ts";
import type { RowChanges } from "./value-changes.ts";

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

/** Rows by outcome; `other`: rows without a status (a bug if ever above 0, counted so that a summary never hides it). */
export interface OutcomeCounts {
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
  other: number;
}

export interface EnrichStats extends Omit<OutcomeCounts, "other"> {
  /** Rows not processed yet (the run stopped at its deadline). */
  pending: number;
  /** Credits this run spent (cache hits are free). */
  credits: number;
  /** Rows this run worked on. */
  processed: number;
}

/** budget: the rest would cost more than the run may spend (options.budget after a confirmed price, options.maxCredits of a refresh). */
export type StopReason = "deadline" | "out_of_credits" | "budget";

/** What the engine (./job-engine.ts) did in one run over a selection. */
export interface EngineOutcome {
  stopped?: StopReason;
  /** The results it persisted, by row index. */
  results: Map<number, RowResult>;
  credits: number;
  pending: number;
}

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
  /**
   * The audit of this run's writes (shared/undo/): per written row, its key
   * and the cells the write changes (old as read right before the write, new),
   * given just before the write.
   */
  audit?: WriteAudit;
}

/**
 * A row a write changed: its key (row-key.ts) and its changed cells as
 * [sheet column (1-based), old, new], with the old and the new value's
 * formula where the host gave one (the audit adds them: shared/undo/).
 * `row`: the sheet row (1-based) it is written into, where the writer knows
 * it (the audit looks up the old formulas there; it is not stored).
 */
export interface WrittenRow {
  key: string;
  cells: [col: number, old: Cell, next: Cell, oldFormula?: string, nextFormula?: string][];
  row?: number;
}

/** Where a run's writes are recorded; `record` runs right before the block is written. */
export interface WriteAudit {
  record(sheet: string, rows: WrittenRow[]): Operation<void>;
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

/** One step of a sheet job, opened (./job.ts): what its passes and writes share. */
export interface SheetJob {
  spec: SheetJobSpec;
  ctx: OpContext;
  lang: Language;
  mapping: ColumnMapping;
  fields: FieldDef[];
  /** Output fields (the block has three more columns: status, confidence, as-of). */
  width: number;
  out: SheetBlock;
  /** Output columns including a refresh's change column. */
  outCols: number;
  options: EnrichOptions;
  rerun: Rerun;
  /** Apply review picks only (nothing else is selected). */
  picksOnly: boolean;
  /** The checkpoint's store key and the run's signature. */
  key: string;
  sig: string;
  ledger: RowLedger;
}
