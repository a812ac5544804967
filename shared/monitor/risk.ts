/**
 * The risk screening, as the provider's own portfolio screening groups it
 * (../shared/spec/known-service-facts.md, "Portfolio risk"):
 *   risk  — the company is not active, in liquidation, insolvent, being
 *           deleted, or a warning exists;
 *   watch — the latest net income is negative, or no financials exist;
 *   none  — no flags.
 * A pure function of register data. It is a screening, never a credit rating:
 * every surface that shows it says so (SCREENING_NOTE).
 */
import type { Company, FinancialYear } from "../api/index.ts";
import type { Bilingual, Language } from "../i18n/index.ts";

export type RiskGroup = "risk" | "watch" | "none";

/** Flag codes, most severe first: the first that applies is "the flag behind" the group. */
export const RISK_FLAG_CODES = [
  "INSOLVENT",
  "DELETED",
  "IN_LIQUIDATION",
  "NOT_ACTIVE",
  "WARNING",
  "NEGATIVE_NET_INCOME",
  "NO_FINANCIALS",
  "NO_FLAGS",
] as const;
export type RiskFlagCode = (typeof RISK_FLAG_CODES)[number];

export const GROUP_OF: Record<RiskFlagCode, RiskGroup> = {
  INSOLVENT: "risk",
  DELETED: "risk",
  IN_LIQUIDATION: "risk",
  NOT_ACTIVE: "risk",
  WARNING: "risk",
  NEGATIVE_NET_INCOME: "watch",
  NO_FINANCIALS: "watch",
  NO_FLAGS: "none",
};

export interface RiskFlag {
  code: RiskFlagCode;
  text: Bilingual;
}

/** The key figure shown beside the group: the latest year's net income (and revenue). */
export interface KeyFigure {
  year: number;
  netIncome: number | null;
  revenue: number | null;
}

export interface RiskResult {
  group: RiskGroup;
  /** The most severe flag: the reason for the group. */
  flag: RiskFlag;
  /** Every flag that applies, most severe first (NO_FLAGS alone when none). */
  flags: RiskFlag[];
  keyFigure: KeyFigure | null;
}

/** The profile fields the screening reads. */
export type RiskProfile = Pick<
  Company,
  "active" | "status" | "insolvencyDate" | "liquidationDate" | "deletionDate" | "warningExists"
>;

export const GROUP_LABEL: Record<RiskGroup, Bilingual> = {
  risk: { de: "Risiko", en: "Risk" },
  watch: { de: "Beobachten", en: "Watch" },
  none: { de: "Keine Auffälligkeiten", en: "No flags" },
};

/** Said once wherever the screening is shown. */
export const SCREENING_NOTE: Bilingual = {
  de: "Screening aus Registerdaten, keine Bonitätsbewertung",
  en: "Screening from register data, not a credit rating",
};

/** Background colours by group (light tints both hosts render the same). */
export const GROUP_COLOUR: Record<RiskGroup, string> = {
  risk: "#f4cccc",
  watch: "#fff2cc",
  none: "#d9ead3",
};

const since = (date: string | null | undefined, de: string, en: string): Bilingual =>
  date ? { de: `${de} (seit ${date.slice(0, 10)})`, en: `${en} (since ${date.slice(0, 10)})` } : { de, en };

function flagText(code: RiskFlagCode, p: RiskProfile, fig: KeyFigure | null, anyYears: boolean): Bilingual {
  switch (code) {
    case "INSOLVENT":
      return since(p.insolvencyDate, "Insolvenz", "Insolvent");
    case "DELETED":
      return since(p.deletionDate, "Löschung im Register", "Being deleted from the register");
    case "IN_LIQUIDATION":
      return since(p.liquidationDate, "In Liquidation", "In liquidation");
    case "NOT_ACTIVE":
      return { de: "Nicht aktiv", en: "Not active" };
    case "WARNING":
      return { de: "Warnhinweis in den Registerdaten", en: "Warning in the register data" };
    case "NEGATIVE_NET_INCOME":
      return { de: `Jahresfehlbetrag ${fig?.year ?? ""}`.trim(), en: `Negative net income ${fig?.year ?? ""}`.trim() };
    case "NO_FINANCIALS":
      return anyYears
        ? { de: "Kein Jahresergebnis veröffentlicht", en: "No net income published" }
        : { de: "Keine Finanzdaten vorhanden", en: "No financials available" };
    case "NO_FLAGS":
      return { de: "Keine Auffälligkeiten", en: "No flags" };
  }
}

/**
 * The latest year with a net income; among reports of one year the company's
 * own (not the group's) wins. Years without a net income do not count: a
 * short balance sheet without a result says nothing about losses.
 */
export function latestKeyFigure(financials: readonly FinancialYear[] | null | undefined): KeyFigure | null {
  let best: FinancialYear | null = null;
  for (const y of financials ?? []) {
    if (typeof y.profit !== "number") continue;
    if (
      !best ||
      y.year > best.year ||
      (y.year === best.year && best.reportType === "concern" && y.reportType !== "concern")
    )
      best = y;
  }
  if (!best) return null;
  return { year: best.year, netIncome: best.profit ?? null, revenue: best.revenue ?? null };
}

const statusCode = (p: RiskProfile) => (p.status?.code ?? "").toUpperCase();

/**
 * Screen one company. `financials` are the company's yearly figures as
 * fetched; an empty list (or null: the availability check said none exist)
 * is "no financials". Years that publish no net income (short balance
 * sheets) leave nothing to judge a loss by, so they count as "no financials"
 * too (decision: the conservative reading of the provider's rule).
 */
export function screen(profile: RiskProfile, financials: readonly FinancialYear[] | null | undefined): RiskResult {
  const status = statusCode(profile);
  const fig = latestKeyFigure(financials);
  const codes: RiskFlagCode[] = [];
  if (status === "INSOLVENT" || profile.insolvencyDate) codes.push("INSOLVENT");
  if (status === "DELETED" || profile.deletionDate) codes.push("DELETED");
  if (status === "IN_LIQUIDATION" || profile.liquidationDate) codes.push("IN_LIQUIDATION");
  // "Not active" on its own only when nothing more specific explains it.
  if ((status === "INACTIVE" || profile.active === false) && codes.length === 0) codes.push("NOT_ACTIVE");
  if (profile.warningExists === true) codes.push("WARNING");
  if (!fig) codes.push("NO_FINANCIALS");
  else if (fig.netIncome !== null && fig.netIncome < 0) codes.push("NEGATIVE_NET_INCOME");
  if (codes.length === 0) codes.push("NO_FLAGS");
  const flags = codes.map((code) => ({ code, text: flagText(code, profile, fig, (financials?.length ?? 0) > 0) }));
  // The most serious flag decides the group; there is always one (NO_FLAGS when nothing else).
  const flag = flags[0]!;
  return { group: GROUP_OF[flag.code], flag, flags, keyFigure: fig };
}

/** "Risk: Insolvent (since 2026-11-24)" in one language. */
export const describeRisk = (r: Pick<RiskResult, "group" | "flag">, lang: Language) =>
  `${GROUP_LABEL[r.group][lang]}: ${r.flag.text[lang]}`;
