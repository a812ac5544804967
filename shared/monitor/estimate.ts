/**
 * What portfolio monitoring costs. A run's price is known exactly before any
 * credit is spent: the free availability check decides, per company, which
 * paid calls it needs (see check.ts), and `portfolioParts` prices that plan
 * with the one catalogue. A schedule's price is bounded, not known: it
 * depends on how many companies change, so it is shown as the exact next run
 * plus a ceiling per run (every company changed), per day and per month,
 * capped by the per-run budget.
 *
 * Builds on the estimator's leaf types (shared/credits/estimate-types.ts) only:
 * shared/credits/estimate.ts's `estimate()` calls `portfolioParts` for kind
 * "portfolio", so importing it back would be a cycle.
 */
import { endpoint, profileCost, INCLUDE_COST } from "../api/index.ts";
import type { AllOf, CallOperation } from "../credits/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import { fillPrices } from "../credits/index.ts";
import { runsPerDay } from "../schedule/index.ts";
import type { ScheduleSettings } from "./schedule.ts";

/** The portfolio check's plan, as counts of calls (PlannedOperation kind "portfolio"). */
export interface PortfolioPlanned {
  kind: "portfolio";
  /** Free availability calls. */
  availability: number;
  /** Profiles without financials (1 credit each). */
  profiles: number;
  /** Profiles with include=financials (1 + 4 credits each). */
  profilesWithFinancials: number;
  /**
   * Changes since the watermark: one page (1 credit) per changed company.
   * A company with n new changes takes changesPages(n) pages (operations/company.ts);
   * n is only known once fetched, so pages beyond the first are counted by the run
   * (RunSummary.extraChangePages), not here.
   */
  changes: number;
}

/** The plan in the core estimator's composite form. */
export function portfolioParts(op: PortfolioPlanned): AllOf<CallOperation> {
  return {
    kind: "all",
    label: { de: "Portfolio-Prüfung", en: "Portfolio check" },
    parts: [
      { kind: "availability", count: op.availability },
      { kind: "profile", count: op.profiles },
      { kind: "profile", count: op.profilesWithFinancials, include: ["financials"] },
      { kind: "call", endpoint: "changes", count: op.changes },
    ],
  };
}

/**
 * The most one entry of a check can cost: a profile with financials and a
 * page of changes. What the free availability check could not price (rate
 * limited, a name not resolved yet) is counted at this, so the price shown
 * before a check is a bound, never an undercount.
 */
export const MAX_ENTRY_CREDITS = profileCost(["financials"]) + endpoint("changes").cost();

/** Credits of a plan, straight from the catalogue. */
export function planCredits(op: Omit<PortfolioPlanned, "kind">): number {
  return (
    op.profiles * profileCost([]) +
    op.profilesWithFinancials * profileCost(["financials"]) +
    op.changes * endpoint("changes").cost()
  );
}

export interface ScheduleEstimate {
  /** The next run, exact as of now (from the free availability check). */
  nextRun: number;
  /**
   * Ceiling of any later run: every company changed (profile + one page of
   * changes), every one with financials publishing a new year. Not counted:
   * a further page (1 credit) per 100 changes of a company beyond its first
   * 100 since the last check (getChanges pages); the text says so and the
   * run reports them (RunSummary.extraChangePages).
   */
  perRun: number;
  perDay: number;
  perMonth: number;
  runsPerDay: number;
  /** The per-run budget when it is what bounds the figures. */
  cappedByBudget: boolean;
  text: Bilingual;
}

/** Days in the "per month" figure. */
export const MONTH_DAYS = 30;

export function scheduleEstimate(
  input: { companies: number; withFinancials: number; nextRun: number },
  s: Pick<ScheduleSettings, "frequency" | "budget">,
): ScheduleEstimate {
  const ceiling =
    input.companies * (profileCost([]) + endpoint("changes").cost()) + input.withFinancials * INCLUDE_COST.financials;
  const cappedByBudget = s.budget !== null && s.budget < ceiling;
  const perRun = cappedByBudget ? s.budget! : ceiling;
  const runs = runsPerDay(s);
  const perDay = perRun * runs;
  const perMonth = perDay * MONTH_DAYS;
  const nextRun = s.budget !== null ? Math.min(s.budget, input.nextRun) : input.nextRun;
  const fmt = (n: number, lang: "de" | "en") => n.toLocaleString(lang === "de" ? "de-DE" : "en-GB");
  const cap = (lang: "de" | "en") =>
    cappedByBudget ? (lang === "de" ? ` (begrenzt durch das Budget je Lauf)` : ` (capped by the per-run budget)`) : "";
  return {
    nextRun,
    perRun,
    perDay,
    perMonth,
    runsPerDay: runs,
    cappedByBudget,
    text: {
      de:
        `Nächster Lauf: ${fmt(nextRun, "de")} Credits. Jeder weitere Lauf höchstens ${fmt(perRun, "de")}${cap("de")}, ` +
        `je Tag höchstens ${fmt(perDay, "de")}, je Monat höchstens ${fmt(perMonth, "de")}. ` +
        `Firmen ohne Änderung kosten nichts (kostenlose Verfügbarkeitsprüfung). ` +
        `Angenommen ist höchstens eine Seite Änderungen je Firma: hat eine Firma seit der letzten Prüfung mehr als 100 neue Änderungen, ` +
        `kommt je weitere 100 Änderungen ${fillPrices("{credits:changes}", "de")} hinzu (das Ergebnis der Prüfung nennt sie).`,
      en:
        `Next run: ${fmt(nextRun, "en")} credits. Each later run at most ${fmt(perRun, "en")}${cap("en")}, ` +
        `per day at most ${fmt(perDay, "en")}, per month at most ${fmt(perMonth, "en")}. ` +
        `Companies without changes cost nothing (free availability check). ` +
        `This assumes at most one page of changes per company: plus ${fillPrices("{credits:changes}", "en")} per further 100 changes of a company ` +
        `since the last check (the check's result lists them).`,
    },
  };
}
