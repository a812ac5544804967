/**
 * The add-on's own daily budget for credits spent by formulas, so a sheet
 * that recalculates in a loop cannot drain the account. Counted per document
 * and per UTC day in the document store (`doc:` keys).
 *
 * Read-modify-write without a lock: two formulas racing may both pass the
 * last few credits. Hosts that have a lock (Apps Script LockService) may
 * wrap the call; the overshoot is bounded by one formula's cost per racer.
 */
import { storeGet, storePut, type Operation } from "../core/index.ts";
import { CompanyDataError } from "../core/index.ts";
import { readSaved, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import type { OpContext } from "../operations/index.ts";
import { validate as V } from "../api/index.ts";

export interface BudgetStatus {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  spent: number;
  /** null = no limit. */
  limit: number | null;
  remaining: number | null;
}

export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** One key holding {day, spent}: a new day starts at zero, and no per-day keys pile up in the store. */
export const budgetKey = (ctx: OpContext) => `doc:budget:${ctx.scope}`;
/** Written without a version before v1: still read, or a new build would forget today's spend. */
export const SPENT_TODAY = savedKind(
  1,
  z.object({ day: z.string(), spent: z.number() }),
  z.object({ day: z.string(), spent: z.number() }),
);

/** A limit: a whole number ≥ 0, or null/undefined/Infinity for none. */
function limitOf(limit: unknown): number | null {
  if (limit === null || limit === undefined || limit === Infinity) return null;
  return V.integer(limit, "limit", 0, Number.MAX_SAFE_INTEGER);
}

function* spentToday(ctx: OpContext): Operation<{ day: string; spent: number }> {
  const day = utcDay(ctx.client.now());
  const [raw] = yield* storeGet([budgetKey(ctx)]);
  let spent = 0;
  // Damaged or foreign: start the day at zero.
  const v = readSaved(SPENT_TODAY, raw);
  if (v && v.day === day && Number.isFinite(v.spent) && v.spent > 0) spent = v.spent;
  return { day, spent };
}

export function* budgetStatus(ctx: OpContext, limit: number | null | undefined): Operation<BudgetStatus> {
  const l = limitOf(limit);
  const { day, spent } = yield* spentToday(ctx);
  return { day, spent, limit: l, remaining: l === null ? null : Math.max(0, l - spent) };
}

/**
 * Reserve `credits` of today's budget before spending them; throws
 * BUDGET_EXCEEDED (nothing reserved) when they do not fit.
 */
export function* reserveBudget(ctx: OpContext, credits: number, limit: number | null | undefined): Operation<void> {
  const c = V.integer(credits, "credits", 0, Number.MAX_SAFE_INTEGER);
  const l = limitOf(limit);
  if (c === 0) return;
  const { day, spent } = yield* spentToday(ctx);
  if (l !== null && spent + c > l)
    throw new CompanyDataError("BUDGET_EXCEEDED", {
      detail: {
        de: `heute ${spent} verbraucht, diese Abfrage ${c}, Budget ${l} Credits`,
        en: `${spent} spent today, this request ${c}, budget ${l} credits`,
      },
    });
  yield* storePut({ [budgetKey(ctx)]: writeSaved(SPENT_TODAY, { day, spent: spent + c }) });
}

/** Give back what a reservation did not spend (cache hits, failed calls). */
export function* releaseBudget(ctx: OpContext, credits: number): Operation<void> {
  const c = V.integer(credits, "credits", 0, Number.MAX_SAFE_INTEGER);
  if (c === 0) return;
  const { day, spent } = yield* spentToday(ctx);
  yield* storePut({ [budgetKey(ctx)]: writeSaved(SPENT_TODAY, { day, spent: Math.max(0, spent - c) }) });
}
