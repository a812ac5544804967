/** The MCP server's own texts, German and English; everything else comes from the core's taxonomy. */
import type { CompanyDataError, ErrorCode } from "../shared/core/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { countText, NOUNS, type Noun } from "../shared/credits/index.ts";

/** Counted nouns of the server's answers, beside the core's (credit, company): "1 Treffer", "2 hits". */
export const MCP_NOUNS = {
  hit: { de: ["Treffer", "Treffer"], en: ["hit", "hits"] },
  similarCompany: { de: ["ähnliche Firma", "ähnliche Firmen"], en: ["similar company", "similar companies"] },
  change: { de: ["Änderung", "Änderungen"], en: ["change", "changes"] },
  announcement: { de: ["Bekanntmachung", "Bekanntmachungen"], en: ["announcement", "announcements"] },
  person: { de: ["Person", "Personen"], en: ["person", "people"] },
} as const satisfies Record<string, Noun>;

/** "Mehrdeutig: 1 Firma passt …" / "Ambiguous: 2 companies fit …": the verb agrees with the count. */
export function ambiguousText(n: number, name: string, list: string, lang: Language): string {
  const companies = countText(n, NOUNS.company, lang);
  return lang === "de"
    ? `Mehrdeutig: ${companies} ${n === 1 ? "passt" : "passen"} zu „${name}“; keine wurde gewählt. Bitte mit der id ${n === 1 ? "dieser Firma" : "einer dieser Firmen"} erneut fragen: ${list}`
    : `Ambiguous: ${companies} ${n === 1 ? "fits" : "fit"} "${name}"; none was chosen. Please ask again with the id of ${n === 1 ? "it" : "one of them"}: ${list}`;
}
import { envKeyMessage } from "../shared/api/index.ts";

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
  `${lang === "de" ? "Verbraucht" : "Spent"}: ${countText(credits, NOUNS.credit, lang)}.`;

const BOUND: Record<"exact" | "atMost" | "atLeast", Record<Language, string>> = {
  exact: { de: "", en: "" },
  atMost: { de: "höchstens ", en: "at most " },
  atLeast: { de: "mindestens ", en: "at least " },
};

/** The refusal's detail: the price and where the budget stands. */
export const refusalDetail = (
  price: number,
  bound: keyof typeof BOUND,
  b: { limit: number | null; spent: number; remaining: number | null },
) => ({
  de: `diese Abfrage kostet ${BOUND[bound].de}${countText(price, NOUNS.credit, "de")}; verbraucht ${b.spent} von ${b.limit}, übrig ${b.remaining}`,
  en: `this call costs ${BOUND[bound].en}${countText(price, NOUNS.credit, "en")}; ${b.spent} of ${b.limit} spent, ${b.remaining} left`,
});
