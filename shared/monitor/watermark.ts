/**
 * What the monitor remembers per company between checks, in the document's
 * store (`doc:` keys, scoped so two base URLs never share a watermark):
 * the watermark (changes after it are new), what the free availability check
 * said last time (so an unchanged answer means nothing can have changed), and
 * the last screening result (so a skipped company still shows its row).
 * One small JSON value per company: far below Apps Script's 9 KB per property.
 */
import { storeGet, storePut, type Operation } from "../core/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import { readSaved, savedBilingual, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import { RISK_FLAG_CODES } from "./risk.ts";
import type { OpContext } from "../operations/index.ts";
import type { KeyFigure, RiskFlagCode, RiskGroup } from "./risk.ts";

export interface StoredResult {
  group: RiskGroup;
  code: RiskFlagCode;
  text: Bilingual;
  keyFigure: KeyFigure | null;
}

export interface CompanyState {
  v: 1;
  /** Changes dated after this instant (ISO date-time, UTC, no millis) are new. */
  wm: string;
  /** availability.lastChangeDate at the last check. */
  lastChange: string | null;
  /** availability.financialYears at the last check, ascending. */
  finYears: number[];
  name: string | null;
  result: StoredResult;
  /** When the company was last checked (ISO date-time). */
  checkedAt: string;
  /** The run that last checked it: a resumed run skips companies it already did. */
  run: string;
  /** Change lines that check appended to the log. */
  newChanges: number;
  /**
   * Changes were logged (and the watermark moved) but the profile after them
   * failed: the next check fetches the profile even when availability shows
   * nothing newer, so a change is never left unscreened.
   */
  needProfile?: boolean;
  /**
   * The run whose profile (and financials) this state already holds while
   * its changes call failed: a continuation of that run pays only for the
   * changes, never for the profile twice.
   */
  profiledRun?: string;
}

/** Saved with `v: 1` from the start. */
export const COMPANY_STATE = savedKind<CompanyState>(
  1,
  z.object({
    v: z.literal(1),
    wm: z.string(),
    lastChange: z.nullable(z.string()),
    finYears: z.array(z.number()),
    name: z.nullable(z.string()),
    result: z.object({
      group: z.enum(["risk", "watch", "none"]),
      code: z.enum(RISK_FLAG_CODES),
      text: savedBilingual,
      keyFigure: z.nullable(
        z.object({ year: z.number(), netIncome: z.nullable(z.number()), revenue: z.nullable(z.number()) }),
      ),
    }),
    checkedAt: z.string(),
    run: z.string(),
    newChanges: z.number(),
    needProfile: z.optional(z.boolean()),
    profiledRun: z.optional(z.string()),
  }),
);

export const stateKey = (ctx: OpContext, id: string) => `doc:mon:${ctx.scope}:c:${id}`;

/** ISO date-time without milliseconds: the emulator and the API compare "since" as text. */
export const isoInstant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** A damaged entry is a company seen for the first time. */
const parse = (raw: string | null | undefined): CompanyState | null => readSaved(COMPANY_STATE, raw) ?? null;

export function* loadStates(ctx: OpContext, ids: readonly string[]): Operation<Map<string, CompanyState | null>> {
  const distinct = [...new Set(ids)];
  const raw = yield* storeGet(distinct.map((id) => stateKey(ctx, id)));
  return new Map(distinct.map((id, i) => [id, parse(raw[i])]));
}

export function* saveStates(ctx: OpContext, states: ReadonlyMap<string, CompanyState>): Operation<void> {
  const entries: Record<string, string> = {};
  for (const [id, s] of states) entries[stateKey(ctx, id)] = writeSaved(COMPANY_STATE, s);
  yield* storePut(entries);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Can anything have changed since the watermark, judged by the free
 * availability answer? The API dates the last change by day only, so the
 * change may lie anywhere in that day: only a watermark at or after the day's
 * last second (e.g. the `until` of a changes answer fetched late that day)
 * rules it out. Doubt costs a paid call, never a missed change.
 */
export function changedSince(lastChangeDate: string | null | undefined, wm: string): boolean {
  if (!lastChangeDate) return false;
  const last = Date.parse(DATE_ONLY.test(lastChangeDate) ? `${lastChangeDate}T23:59:59Z` : lastChangeDate);
  const mark = Date.parse(wm);
  return Number.isNaN(last) || Number.isNaN(mark) ? true : last > mark;
}

/** Did the set of published financial years change? */
export function financialsChanged(before: readonly number[], now: readonly number[] | null | undefined): boolean {
  const a = [...before].sort((x, y) => x - y);
  const b = [...(now ?? [])].sort((x, y) => x - y);
  return a.length !== b.length || a.some((y, i) => y !== b[i]);
}

/** The later of two instants (ISO text); unparseable values lose. */
export function laterOf(a: string, b: string | null | undefined): string {
  if (!b) return a;
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  if (Number.isNaN(tb)) return a;
  if (Number.isNaN(ta)) return isoInstant(tb);
  return tb > ta ? isoInstant(tb) : a;
}
