/**
 * One step of a scheduled refresh: the enrichment job (shared/enrich/job.ts)
 * in its rerun mode "older than N days", with the change column and the
 * refresh log, under the monthly ceiling. Rows keep their identity by key
 * exactly as in any enrichment: a result lands only on the row that holds
 * its input, however the user sorts or edits meanwhile.
 *
 * Budget of a step = what the month leaves (ceiling − spent this month),
 * reserved before the step and settled to what was charged after it
 * (month.ts). Rows that do not fit wait, in table order; the step says how
 * many. A step stopped by the host's deadline ("paused") is continued by the
 * next call or tick.
 */
import { storeGet, storePut, type Operation } from "../core/index.ts";
import * as z from "zod/mini";
import { invalid } from "../core/index.ts";
import { readSaved, savedBilingual, savedKind, writeSaved } from "../core/index.ts";
import type { Bilingual, Language } from "../i18n/index.ts";
import type { OpContext } from "../operations/index.ts";
import { enrichSheet } from "../enrich/index.ts";
import type { SheetJobSpec, SheetRunResult } from "../enrich/index.ts";
import type { RowChanges } from "../enrich/index.ts";
import { addToMonth, monthSpend, type MonthSpend } from "./month.ts";
import { logRefreshChanges, openRefreshLog } from "./log.ts";
import { auditRun } from "../undo/index.ts";
import type { RefreshSettings, RefreshTable } from "./settings.ts";

export type RefreshStatus = "done" | "paused" | "ceiling" | "out_of_credits";

export interface RefreshSummary {
  startedAt: string;
  finishedAt: string;
  status: RefreshStatus;
  /** Rows this step worked on. */
  refreshed: number;
  /** Rows whose values changed, and the values (lines in the refresh log). */
  changedRows: number;
  changedValues: number;
  /** Credits this step was charged. */
  credits: number;
  /** Rows still due after it. */
  left: number;
  month: MonthSpend;
  /** Where the changes were logged (null: nothing changed). */
  log: string | null;
  message: Bilingual;
}

export const lastRefreshKey = (ctx: OpContext) => `doc:refresh:${ctx.scope}:last`;

const refreshSummary: z.ZodMiniType<RefreshSummary> = z.object({
  startedAt: z.string(),
  finishedAt: z.string(),
  status: z.enum(["done", "paused", "ceiling", "out_of_credits"]),
  refreshed: z.number(),
  changedRows: z.number(),
  changedValues: z.number(),
  credits: z.number(),
  left: z.number(),
  month: z.object({ month: z.string(), spent: z.number(), ceiling: z.number(), left: z.number() }),
  log: z.nullable(z.string()),
  message: savedBilingual,
});
/**
 * Written without a version before v1: still read, or an update would forget
 * when the last refresh ran (and run one before it is due) or that it paused.
 */
export const LAST_REFRESH = savedKind(1, refreshSummary, refreshSummary);

export function* lastRefresh(ctx: OpContext): Operation<RefreshSummary | null> {
  const [raw] = yield* storeGet([lastRefreshKey(ctx)]);
  return readSaved(LAST_REFRESH, raw) ?? null;
}

/** Rows per chunk: written (and logged) before the next, so a stop loses little. */
const CHUNK_SIZE = 20;

export function specOf(
  t: RefreshTable,
  olderThanDays: number,
  extra: Pick<SheetJobSpec, "changes" | "audit"> & { deadline?: number; maxCredits: number },
): SheetJobSpec {
  return {
    sheet: t.sheet,
    row: t.row,
    col: t.col,
    rows: t.rows,
    cols: t.cols,
    mapping: t.mapping,
    fields: t.fields,
    options: {
      mode: t.mode,
      rerun: { olderThanDays },
      chunkSize: CHUNK_SIZE,
      deadline: extra.deadline,
      maxCredits: extra.maxCredits,
    },
    changes: extra.changes,
    audit: extra.audit,
  };
}

/**
 * One step of the refresh of `s.table`, within the month's ceiling and the
 * host's deadline; every cell it changes is audited as one run (shared/undo/)
 * by `who`.
 */
export function* refreshStep(
  ctx0: OpContext,
  s: RefreshSettings,
  opts: { deadline?: number; who?: string } = {},
): Operation<RefreshSummary> {
  const table = s.table;
  if (!table)
    throw invalid("table", {
      de: "für die Aktualisierung ist keine Tabelle gewählt",
      en: "no table is chosen for the refresh",
    });
  const lang: Language = ctx0.client.language;
  const startedAt = new Date(ctx0.client.now()).toISOString();
  let charged = 0;
  const outer = ctx0.client.onSpend;
  const ctx: OpContext = {
    ...ctx0,
    client: {
      ...ctx0.client,
      onSpend: (ep, c) => {
        charged += c;
        outer?.(ep, c);
      },
    },
  };

  const before = yield* monthSpend(ctx, s.monthCeiling);
  let log: { name: string; keys: Set<string> } | null = null;
  let changedRows = 0;
  let changedValues = 0;
  const changes = {
    *log(rows: RowChanges[]): Operation<void> {
      log ??= yield* openRefreshLog(lang);
      changedRows += rows.length;
      changedValues += yield* logRefreshChanges(log, rows, lang);
    },
  };
  const audit = auditRun({
    kind: "refresh",
    who: opts.who ?? "",
    now: () => ctx.client.now(),
    table: {
      sheet: table.sheet,
      row: table.row,
      col: table.col,
      cols: table.cols,
      mapping: definedOnly(table.mapping),
    },
  });
  if (before.left > 0) yield* addToMonth(ctx, before.left);
  let result: SheetRunResult;
  try {
    result = yield* enrichSheet(
      ctx,
      specOf(table, s.olderThanDays, { changes, audit, deadline: opts.deadline, maxCredits: before.left }),
    );
  } finally {
    // The reservation becomes what was charged (also when the step failed half-way: spent is spent).
    if (before.left > 0 || charged > 0) yield* addToMonth(ctx, charged - before.left);
  }
  const month = yield* monthSpend(ctx, s.monthCeiling);
  const status = statusOf(result);
  const summary: RefreshSummary = {
    startedAt,
    finishedAt: new Date(ctx.client.now()).toISOString(),
    status,
    refreshed: result.stats.processed,
    changedRows,
    changedValues,
    credits: charged,
    left: result.stats.pending,
    month,
    log: log === null ? null : (log as { name: string }).name,
    message: { de: "", en: "" },
  };
  summary.message = messageOf(summary, s);
  // The audit's run is closed in the same store write as the summary (one write: in Sheets a block of calls).
  yield* storePut({ ...(yield* audit.finish(charged)), [lastRefreshKey(ctx)]: writeSaved(LAST_REFRESH, summary) });
  return summary;
}

function statusOf(result: SheetRunResult): RefreshStatus {
  if (result.stopped === "budget") return "ceiling";
  if (result.stopped === "out_of_credits") return "out_of_credits";
  return result.complete ? "done" : "paused";
}

/** A mapping without its absent roles (saved state holds numbers only). */
const definedOnly = (m: object): Record<string, number> =>
  Object.fromEntries(Object.entries(m).filter((e): e is [string, number] => typeof e[1] === "number"));

function messageOf(r: RefreshSummary, s: RefreshSettings): Bilingual {
  const de = (x: number) => x.toLocaleString("de-DE");
  const en = (x: number) => x.toLocaleString("en-GB");
  const base = {
    de:
      `${de(r.refreshed)} Zeilen aktualisiert (älter als ${s.olderThanDays} Tage), ${de(r.changedValues)} Werte in ${de(r.changedRows)} Zeilen geändert, ${de(r.credits)} Credits. ` +
      `Diesen Monat ${de(r.month.spent)} von ${de(r.month.ceiling)} Credits verbraucht.`,
    en:
      `${en(r.refreshed)} rows refreshed (older than ${s.olderThanDays} days), ${en(r.changedValues)} values changed in ${en(r.changedRows)} rows, ${en(r.credits)} credits. ` +
      `This month ${en(r.month.spent)} of ${en(r.month.ceiling)} credits spent.`,
  };
  switch (r.status) {
    case "ceiling":
      return {
        de: `${base.de} Monatsgrenze erreicht: ${de(r.left)} fällige Zeilen warten auf den nächsten Lauf mit Spielraum (spätestens im nächsten Monat).`,
        en: `${base.en} Monthly ceiling reached: ${en(r.left)} rows due wait for the next run with room (next month at the latest).`,
      };
    case "paused":
      return {
        de: `${base.de} Zeitlimit: ${de(r.left)} Zeilen folgen im nächsten Schritt.`,
        en: `${base.en} Time limit: ${en(r.left)} rows follow in the next step.`,
      };
    case "out_of_credits":
      return {
        // Neutral on purpose: through a team server the user cannot top up (the admin sets the budgets, issue 37).
        de: `${base.de} Keine Credits mehr (Guthaben des Kontos oder Budget des Teams); der Rest folgt, sobald wieder Credits verfügbar sind.`,
        en: `${base.en} Out of credits (the account's balance or the team's budget); the rest follows once credits are available again.`,
      };
    default:
      return base;
  }
}
