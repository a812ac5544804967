/**
 * What the scheduled refresh will cost, shown before it can be switched on:
 * the next run (the rows due now, each at the most it can cost) and the next
 * 30 days (every row each time it falls due: its as-of date plus N days,
 * then again every N days, rounded up to the schedule's runs), both capped
 * by what the monthly ceiling leaves. Free and without a request: it reads
 * the table and prices with the job's own rule (rowCeiling), so the figure
 * is an upper bound of what the job spends.
 */
import type { Operation } from "../core/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import type { Cell } from "../core/index.ts";
import { isEmptyTask, taskFromRow } from "../enrich/index.ts";
import { companyCost, fieldNeeds, selectFields } from "../enrich/index.ts";
import { rowCeiling, selectRows, taskWithPrevious, type Rerun } from "../enrich/index.ts";
import { readBlockWithPrevious, type PreviousRow } from "../enrich/index.ts";
import { DAY_MS } from "../schedule/index.ts";
import { refreshIntervalDays, type RefreshSettings, type RefreshTable } from "./settings.ts";
import type { MonthSpend } from "./month.ts";

export const ESTIMATE_DAYS = 30;

export interface RefreshEstimate {
  /** Data rows in the table. */
  rows: number;
  /** Rows due now. */
  dueNow: number;
  /** Credits of the next run at most, within what the month leaves. */
  nextRun: number;
  /** Row refreshes in the next 30 days. */
  dueIn30Days: number;
  /** Credits in the next 30 days at most, before the ceiling. */
  next30Days: number;
  /** …and what the ceiling lets through (the most a month can cost). */
  perMonth: number;
  month: MonthSpend;
  text: Bilingual;
}

/** The table's rows and what the last enrichment left beside them, in one read (the enrichment's own block read). */
export function* readTable(t: RefreshTable): Operation<{ input: Cell[][]; previous: (PreviousRow | null)[] }> {
  const { rows, previous } = yield* readBlockWithPrevious(t, selectFields(t.fields));
  return { input: rows, previous };
}

/** How many times a row falls due in [now, now + days): first at `firstDue`, then every `period` ms. */
export function timesDue(firstDue: number, now: number, period: number, days = ESTIMATE_DAYS): number {
  const end = now + days * DAY_MS;
  const first = Math.max(firstDue, now);
  return first >= end ? 0 : 1 + Math.floor((end - 1 - first) / period);
}

export function estimateRefresh(
  input: readonly Cell[][],
  previous: readonly (PreviousRow | null)[],
  s: RefreshSettings & { table: RefreshTable },
  month: MonthSpend,
  now: number,
): RefreshEstimate {
  const fields = selectFields(s.table.fields);
  const needs = fieldNeeds(fields);
  const rerun: Rerun = { olderThanDays: s.olderThanDays };
  const tasks = input.map((r, i) => taskFromRow(i, r, s.table.mapping));
  const due = new Set(selectRows(tasks, previous, rerun, now));
  const interval = refreshIntervalDays(s);
  // A row refreshed on day d is due again once its as-of is older than N days (day d + N + 1), at the next run after that.
  const period = Math.ceil((s.olderThanDays + 1) / interval) * interval * DAY_MS;
  let nextRun = 0;
  let dueIn30Days = 0;
  let next30Days = 0;
  tasks.forEach((t0, i) => {
    if (isEmptyTask(t0)) return;
    const p = previous[i] ?? null;
    const price = rowCeiling(taskWithPrevious(t0, p, rerun), needs, s.table.mode);
    // Once refreshed, a row is priced as a matched row (its id known).
    const later = p?.id ? price : companyCost(needs.givenId);
    if (due.has(i)) {
      nextRun += price;
      const times = timesDue(now + period, now, period);
      dueIn30Days += 1 + times;
      next30Days += price + times * later;
    } else if (p?.asOf) {
      const times = timesDue(Date.parse(`${p.asOf}T00:00:00Z`) + (s.olderThanDays + 1) * DAY_MS, now, period);
      dueIn30Days += times;
      next30Days += times * later;
    }
  });
  const cappedNext = Math.min(nextRun, month.left);
  const perMonth = Math.min(next30Days, s.monthCeiling);
  const fmt = (x: number, lang: "de" | "en") => x.toLocaleString(lang === "de" ? "de-DE" : "en-GB");
  const capNote = (lang: "de" | "en") =>
    cappedNext < nextRun
      ? lang === "de"
        ? ` (von ${fmt(nextRun, "de")}: die Monatsgrenze lässt nicht mehr zu; der Rest wartet)`
        : ` (of ${fmt(nextRun, "en")}: the monthly ceiling allows no more; the rest waits)`
      : "";
  return {
    rows: tasks.filter((t) => !isEmptyTask(t)).length,
    dueNow: due.size,
    nextRun: cappedNext,
    dueIn30Days,
    next30Days,
    perMonth,
    month,
    text: {
      de:
        `Nächster Lauf: höchstens ${fmt(cappedNext, "de")} Credits für ${fmt(due.size, "de")} fällige Zeilen${capNote("de")}. ` +
        `In den nächsten 30 Tagen höchstens ${fmt(next30Days, "de")} Credits (${fmt(dueIn30Days, "de")} Aktualisierungen von Zeilen), ` +
        `je Monat aber nie mehr als die Grenze von ${fmt(s.monthCeiling, "de")} Credits (in diesem Monat verbraucht: ${fmt(month.spent, "de")}). ` +
        `Treffer aus dem Zwischenspeicher und fehlende Daten kosten nichts.`,
      en:
        `Next run: at most ${fmt(cappedNext, "en")} credits for ${fmt(due.size, "en")} rows due${capNote("en")}. ` +
        `In the next 30 days at most ${fmt(next30Days, "en")} credits (${fmt(dueIn30Days, "en")} row refreshes), ` +
        `but never more than the ceiling of ${fmt(s.monthCeiling, "en")} credits a month (spent this month: ${fmt(month.spent, "en")}). ` +
        `Cache hits and missing data cost nothing.`,
    },
  };
}
