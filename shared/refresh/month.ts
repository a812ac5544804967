/**
 * What the scheduled refresh spent this calendar month (UTC), against its
 * monthly ceiling. One value per document and key scope:
 * `doc:refresh:<scope>:month` = {month: "2026-11", spent}. A new month starts
 * at zero.
 *
 * Never exceeded, even when a host dies mid-run: a run first reserves its
 * whole budget (spent += budget), and only when it ends is the reservation
 * replaced by what was actually charged. A run killed in between (the Apps
 * Script 6-minute limit, a closed workbook) leaves the reservation counted:
 * at worst the month under-spends, it never overspends.
 */
import * as z from "zod/mini";
import { storeGet, storePut, type Operation } from "../core/index.ts";
import { readSaved, savedKind, writeSaved } from "../core/index.ts";
import type { OpContext } from "../operations/index.ts";

export const monthKey = (ctx: OpContext) => `doc:refresh:${ctx.scope}:month`;
export const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);

export interface MonthSpend {
  /** yyyy-mm (UTC). */
  month: string;
  spent: number;
  ceiling: number;
  /** What may still be spent this month. */
  left: number;
}

const monthShape = z.object({ month: z.string(), spent: z.number() });
/**
 * Written without a version before v1: still read, or an update would forget
 * the month's reservations and let the refresh overspend its ceiling.
 */
export const MONTH_SPENT = savedKind(1, monthShape, monthShape);

function* spentThisMonth(ctx: OpContext): Operation<{ month: string; spent: number }> {
  const month = monthOf(ctx.client.now());
  const [raw] = yield* storeGet([monthKey(ctx)]);
  // Damaged or another month: the month starts at zero (the ledger still has the spend).
  const v = readSaved(MONTH_SPENT, raw);
  if (v && v.month === month && Number.isFinite(v.spent) && v.spent > 0) return { month, spent: v.spent };
  return { month, spent: 0 };
}

export function* monthSpend(ctx: OpContext, ceiling: number): Operation<MonthSpend> {
  const { month, spent } = yield* spentThisMonth(ctx);
  return { month, spent, ceiling, left: Math.max(0, ceiling - spent) };
}

/** Count `credits` as spent this month (a reservation, or a correction with a negative number). */
export function* addToMonth(ctx: OpContext, credits: number): Operation<void> {
  if (credits === 0) return;
  const { month, spent } = yield* spentThisMonth(ctx);
  yield* storePut({ [monthKey(ctx)]: writeSaved(MONTH_SPENT, { month, spent: Math.max(0, spent + credits) }) });
}
