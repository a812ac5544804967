/**
 * The price of the profiles once the names are matched (batch resolve done):
 * no longer a ceiling that counts every name as a company of its own, but
 * the companies the matching actually found, each once, less those already
 * bought. The only thing that can still lower it is the free availability
 * check dropping an include a company does not have; nothing can raise it.
 * The CLI prints it before buying the profiles; a UI can ask again with it.
 */
import { companyCost, fieldNeeds, selectFields } from "./fields.ts";
import type { Bilingual } from "../i18n/index.ts";

export interface PriceAfterMatching {
  /** Distinct companies still to buy. */
  companies: number;
  /** Credits of one company's profile with the run's includes (0: no profile needed). */
  perCompany: number;
  /** companies × perCompany: the most the rest of the run costs. */
  credits: number;
  text: Bilingual;
}

/**
 * @param matched company ids the matching found (a row's given id counts too), duplicates allowed
 * @param fields the run's field ids (shared/enrich/fields.ts)
 * @param bought ids whose profile this run already holds (journal, cache, rows done): not paid again
 */
export function priceAfterMatching(
  matched: Iterable<string>,
  fields: readonly string[],
  bought: (id: string) => boolean = () => false,
): PriceAfterMatching {
  const needs = fieldNeeds(selectFields([...fields]));
  // A matched id is fetched as a given one would be: the larger of the two needs is the bound.
  const perCompany = Math.max(companyCost(needs.resolved), companyCost(needs.givenId));
  const todo = new Set<string>();
  for (const id of matched) if (!bought(id)) todo.add(id);
  const companies = perCompany > 0 ? todo.size : 0;
  const credits = companies * perCompany;
  const fmt = (n: number, lang: "de" | "en") => n.toLocaleString(lang === "de" ? "de-DE" : "en-GB");
  return {
    companies,
    perCompany,
    credits,
    text: {
      de: `Nach dem Abgleich: ${fmt(companies, "de")} ${companies === 1 ? "Firma" : "Firmen"} zu je höchstens ${fmt(perCompany, "de")} ${perCompany === 1 ? "Credit" : "Credits"}, zusammen höchstens ${fmt(credits, "de")} ${credits === 1 ? "Credit" : "Credits"}.`,
      en: `After matching: ${fmt(companies, "en")} ${companies === 1 ? "company" : "companies"} at most ${fmt(perCompany, "en")} ${perCompany === 1 ? "credit" : "credits"} each, at most ${fmt(credits, "en")} ${credits === 1 ? "credit" : "credits"} in all.`,
    },
  };
}
