/**
 * What to do for one row: the unit the chunk engine (./chunk.ts), the run memo
 * (./memo.ts) and the estimator read. Its own module so the memo can name it
 * without importing the engine that imports the memo.
 */
import type { ResolveQuery } from "../api/index.ts";
import type { CompanyDataError } from "../core/index.ts";
import type { IdentifierQuery } from "../operations/index.ts";

/** What to do for one row. */
export interface RowTask {
  index: number;
  /** Resolve this (rows without an id). */
  query: ResolveQuery | null;
  /** A known id: from the input's id column, a review pick, or an earlier resolve. */
  id: string | null;
  /** Confidence carried over for ids that came from an earlier resolve or a pick. */
  confidence: number | null;
  /** Look this up for free by identifier (rows without an id whose website, VAT id or LEI, or register number alone, says who they are). */
  lookup?: IdentifierQuery | null;
  /** The row's identifier is malformed: its answer is this error, nothing is sent. */
  invalid?: CompanyDataError;
}
