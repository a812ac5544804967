/**
 * Batch planning: validate and de-duplicate input rows, cut the distinct
 * queries into calls whose size is a multiple of ten (the last may be
 * partial), and map every answer back to its rows in input order.
 *
 * Why multiples of ten: batch resolve costs ceil(n/10) per call, so any call
 * of a size that is not a multiple of ten wastes part of a credit, and only
 * the last call may do so.
 */
import type { ResolveQuery } from "../api/index.ts";
import { CompanyDataError, invalid } from "../core/index.ts";
import { rule } from "../i18n/index.ts";
import { batchResolveCost } from "../api/index.ts";
import { validate as V } from "../api/index.ts";
import { normaliseKey } from "./normalise.ts";

export interface DistinctQuery {
  /** The normalised key (see normaliseKey). */
  key: string;
  /** The first row's query, trimmed: what is sent. */
  query: ResolveQuery;
  /** Input rows (indices) that share this key, ascending. */
  rows: number[];
}

export interface BatchPlan {
  /** Distinct valid queries in order of first appearance. */
  distinct: DistinctQuery[];
  /** Per input row: index into `distinct`, or -1 when the row is invalid. */
  rowToDistinct: number[];
  /** Rows rejected before sending, with the reason. */
  invalid: { row: number; error: CompanyDataError }[];
  /** Calls: each a list of indices into `distinct`. */
  chunks: number[][];
  /** Credits the chunks cost as batch resolve calls (spec 8.2 rule 2). */
  credits: number;
}

/**
 * Sizes of calls for n items: full calls of `maxBatch`, then the remainder.
 * maxBatch must be a multiple of ten, so every call but the last is one.
 */
export function chunkSizes(n: number, maxBatch: number): number[] {
  V.integer(n, "count", 0, Number.MAX_SAFE_INTEGER);
  V.maxBatch(maxBatch);
  const sizes: number[] = [];
  for (let left = n; left > 0; left -= maxBatch) sizes.push(Math.min(maxBatch, left));
  return sizes;
}

/** Cut a list into calls (see chunkSizes). */
export function chunk<T>(items: readonly T[], maxBatch: number): T[][] {
  const out: T[][] = [];
  let at = 0;
  for (const n of chunkSizes(items.length, maxBatch)) {
    out.push(items.slice(at, at + n));
    at += n;
  }
  return out;
}

/** Credits of resolving n distinct queries by batch resolve in calls of at most maxBatch. */
export function batchCredits(n: number, maxBatch: number): number {
  return chunkSizes(n, maxBatch).reduce((sum, size) => sum + batchResolveCost(size), 0);
}

/** De-duplicate valid rows by normalised key; invalid rows are recorded, never thrown. */
export function dedupe(rows: readonly unknown[]): Pick<BatchPlan, "distinct" | "rowToDistinct" | "invalid"> {
  if (!Array.isArray(rows)) throw invalid("rows", rule.type("array"));
  const distinct: DistinctQuery[] = [];
  const byKey = new Map<string, number>();
  const rowToDistinct: number[] = [];
  const bad: { row: number; error: CompanyDataError }[] = [];
  rows.forEach((raw, row) => {
    let q: ResolveQuery;
    try {
      q = V.resolveQuery(raw, `rows[${row}]`);
    } catch (e) {
      bad.push({
        row,
        error:
          e instanceof CompanyDataError
            ? e
            : invalid(`rows[${row}]`, { de: "unlesbare Anfrage", en: "unreadable query" }),
      });
      rowToDistinct.push(-1);
      return;
    }
    const key = normaliseKey(q);
    let d = byKey.get(key);
    let entry = d === undefined ? undefined : distinct[d];
    if (d === undefined || !entry) {
      d = distinct.length;
      byKey.set(key, d);
      distinct.push((entry = { key, query: q, rows: [] }));
    }
    entry.rows.push(row);
    rowToDistinct.push(d);
  });
  return { distinct, rowToDistinct, invalid: bad };
}

/** The whole plan for resolving `rows` by batch resolve in calls of at most `maxBatch`. */
export function planBatches(rows: readonly unknown[], maxBatch: number): BatchPlan {
  V.maxBatch(maxBatch);
  const d = dedupe(rows);
  const chunks = chunk(
    d.distinct.map((_, i) => i),
    maxBatch,
  );
  return { ...d, chunks, credits: chunks.reduce((s, c) => s + batchResolveCost(c.length), 0) };
}

/**
 * Map answers per distinct query back to one answer per input row, in input
 * order; invalid rows get `onInvalid(error)`.
 */
export function scatter<A>(
  plan: Pick<BatchPlan, "rowToDistinct" | "invalid">,
  answers: readonly A[],
  onInvalid: (e: CompanyDataError) => A,
): A[] {
  const invalidByRow = new Map(plan.invalid.map((x) => [x.row, x.error]));
  if (plan.rowToDistinct.some((d) => d >= answers.length))
    throw new Error(`scatter: ${answers.length} answers for a plan that needs more`);
  // Checked above: every index d is within `answers` (A itself may include undefined, so no `?? …`).
  return plan.rowToDistinct.map((d, row) => (d < 0 ? onInvalid(invalidByRow.get(row)!) : (answers[d] as A)));
}
