/**
 * A small usage ledger per document: credits and requests per UTC day and
 * operation, for the sidebar's "what did this sheet spend" view. One JSON
 * value under a `doc:` key, kept to the last LEDGER_DAYS days so it stays far
 * below Apps Script's 9 KB per property.
 */
import { storeGet, storePut, type Operation } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import { readSaved, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import { rule } from "../i18n/index.ts";
import type { OpContext } from "../operations/index.ts";
import { validate as V } from "../api/index.ts";
import { utcDay } from "./budget.ts";

export const LEDGER_DAYS = 31;
/** Leave headroom under the 9 KB property limit. */
const MAX_LEDGER_CHARS = 8000;

export interface LedgerEntry {
  day: string;
  operation: string;
  credits: number;
  requests: number;
  /** How many times the operation was recorded that day. */
  runs: number;
}

type Stored = Record<string, Record<string, [credits: number, requests: number, runs: number]>>;

export const ledgerKey = (ctx: OpContext) => `doc:ledger:${ctx.scope}`;
/**
 * Formulas keep their spend under a key of their own: a host may have to
 * keep what formulas write apart from what runs write (Google Sheets: a
 * custom function cannot write the sheet where the runs' state lives).
 * readLedger sums both; older ledgers with formula lines in the main key
 * still count once.
 */
export const FORMULA_LEDGER = "formulas";
const formulaLedgerKey = (ctx: OpContext) => `${ledgerKey(ctx)}:${FORMULA_LEDGER}`;

const DAYS: z.ZodMiniType<Stored> = z.record(
  z.string(),
  z.record(z.string(), z.tuple([z.number(), z.number(), z.number()])),
);
/** `{v: 1, days}`; before v1 the days alone, still read (a month of spend is not thrown away by an update). */
export const LEDGER = savedKind<{ days: Stored }>(
  1,
  z.object({ days: DAYS }),
  z.pipe(
    DAYS,
    z.transform((days) => ({ days })),
  ),
);

function parse(raw: string | null | undefined): Stored {
  // A damaged ledger starts again rather than blocking the operation.
  return readSaved(LEDGER, raw)?.days ?? {};
}

function prune(s: Stored, today: string): Stored {
  const cutoff = utcDay(Date.parse(today) - (LEDGER_DAYS - 1) * 86_400_000);
  let keep = Object.entries(s)
    .filter(([d]) => d >= cutoff)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  let out: Stored = Object.fromEntries(keep);
  while (keep.length > 1 && JSON.stringify(out).length > MAX_LEDGER_CHARS) {
    keep = keep.slice(1);
    out = Object.fromEntries(keep);
  }
  return out;
}

export function* recordSpend(
  ctx: OpContext,
  operation: string,
  credits: number,
  requests: number,
  part?: typeof FORMULA_LEDGER,
): Operation<void> {
  const op = V.nonEmpty(operation, "operation", 60);
  const c = V.integer(credits, "credits", 0, Number.MAX_SAFE_INTEGER);
  const r = V.integer(requests, "requests", 0, Number.MAX_SAFE_INTEGER);
  const day = utcDay(ctx.client.now());
  const key = part ? formulaLedgerKey(ctx) : ledgerKey(ctx);
  const [raw] = yield* storeGet([key]);
  const s = parse(raw);
  const row = (s[day] ??= {});
  const [c0, r0, n0] = row[op] ?? [0, 0, 0];
  row[op] = [c0 + c, r0 + r, n0 + 1];
  yield* storePut({ [key]: writeSaved(LEDGER, { days: prune(s, day) }) });
}

/** Entries per day and operation, newest day first, operations by name. */
export function* readLedger(ctx: OpContext): Operation<LedgerEntry[]> {
  if (!ctx || typeof ctx.scope !== "string") throw invalid("ctx", rule.required);
  const s: Stored = {};
  for (const raw of yield* storeGet([ledgerKey(ctx), formulaLedgerKey(ctx)]))
    for (const [day, ops] of Object.entries(parse(raw)))
      for (const [op, v] of Object.entries(ops)) {
        const row = (s[day] ??= {});
        const [c, r, n] = row[op] ?? [0, 0, 0];
        row[op] = [c + v[0], r + v[1], n + v[2]];
      }
  const out: LedgerEntry[] = [];
  for (const day of Object.keys(s).sort().reverse()) {
    const ops = s[day];
    if (!ops || typeof ops !== "object") continue;
    for (const operation of Object.keys(ops).sort()) {
      const v = ops[operation];
      if (!Array.isArray(v)) continue;
      out.push({ day, operation, credits: Number(v[0]) || 0, requests: Number(v[1]) || 0, runs: Number(v[2]) || 0 });
    }
  }
  return out;
}
