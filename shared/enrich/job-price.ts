/**
 * What rows cost, for the job's budgets: the most one row or one chunk can
 * cost, the exact price of what a matching phase left unbought, and the
 * answer of a row the run cannot pay for.
 */
import { batchResolveCost } from "../api/index.ts";
import { companyCost, fieldNeeds, selectFields } from "./fields.ts";
import { priceAfterMatching, type PriceAfterMatching } from "./after-matching.ts";
import { isEmptyTask } from "./chunk.ts";
import type { RunMemo } from "./memo.ts";
import type { RowResult } from "./rows.ts";
import type { RowTask } from "./task.ts";

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
export function rowsWithin(
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
