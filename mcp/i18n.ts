/** The MCP server's own texts, German and English; everything else comes from the core's taxonomy. */
import type { CompanyDataError, ErrorCode } from "../shared/core/errors.ts";
import type { Language } from "../shared/i18n/language.ts";
import { envKeyMessage } from "../shared/api/connection-env.ts";

const IN_ENV = { de: " in der Umgebung des MCP-Servers", en: " in the MCP server's environment" };

/** The server is configured by the environment and flags, not by a settings panel: errors that point there say so. */
const OWN: Partial<Record<ErrorCode, (e: CompanyDataError, lang: Language) => string>> = {
  MISSING_KEY: (e, lang) => envKeyMessage(e, lang, IN_ENV) ?? e.text(lang),
  INVALID_KEY: (e, lang) => envKeyMessage(e, lang, IN_ENV) ?? e.text(lang),
  BUDGET_EXCEEDED: (e, lang) => {
    const d = e.details.detail?.[lang];
    return lang === "de"
      ? `Abgelehnt: das Budget dieses MCP-Servers reicht nicht${d ? ": " + d : ""}. Anpassbar mit --budget oder COMPANY_DATA_BUDGET.`
      : `Refused: this MCP server's budget is not enough${d ? ": " + d : ""}. Change it with --budget or COMPANY_DATA_BUDGET.`;
  },
};

/** An error as the server says it. */
export const errorText = (e: CompanyDataError, lang: Language) => OWN[e.code]?.(e, lang) ?? e.text(lang);

export const spentText = (credits: number, lang: Language) =>
  lang === "de" ? `Verbraucht: ${credits} ${credits === 1 ? "Credit" : "Credits"}.` : `Spent: ${credits} ${credits === 1 ? "credit" : "credits"}.`;

export const budgetText = (b: { limit: number | null; spent: number; remaining: number | null }, lang: Language) =>
  b.limit === null
    ? (lang === "de" ? `Budget: unbegrenzt, ${b.spent} verbraucht.` : `Budget: unlimited, ${b.spent} spent.`)
    : (lang === "de" ? `Budget: ${b.spent} von ${b.limit} verbraucht, ${b.remaining} übrig.` : `Budget: ${b.spent} of ${b.limit} spent, ${b.remaining} left.`);

const BOUND: Record<"exact" | "atMost" | "atLeast", Record<Language, string>> = {
  exact: { de: "", en: "" },
  atMost: { de: "höchstens ", en: "at most " },
  atLeast: { de: "mindestens ", en: "at least " },
};

/** The refusal's detail: the price and where the budget stands. */
export const refusalDetail = (price: number, bound: keyof typeof BOUND, b: { limit: number | null; spent: number; remaining: number | null }) => ({
  de: `diese Abfrage kostet ${BOUND[bound].de}${price} Credits; verbraucht ${b.spent} von ${b.limit}, übrig ${b.remaining}`,
  en: `this call costs ${BOUND[bound].en}${price} credits; ${b.spent} of ${b.limit} spent, ${b.remaining} left`,
});
