/**
 * Former names: some companies changed their name or their legal form, and a
 * register search still finds them by the old one (the register keeps the
 * earlier firm names of an entry). This is test data for matching, not a
 * claim about the real service's coverage of former names.
 *
 * - Reference companies: real, documented conversions only (SAP AG became
 *   SAP SE in 2014, Allianz AG Allianz SE in 2006, BASF AG BASF SE in 2008,
 *   Henkel KGaA Henkel AG & Co. KGaA in 2008).
 * - Synthetic companies: a share of them (FORMER_NAME_SHARE) had the usual
 *   changes of form (a UG grown into a GmbH, § 5a (5) GmbHG; a GmbH turned AG;
 *   an AG turned SE; a KG that took a GmbH as general partner; a merchant
 *   incorporated) or a change of name within the same form.
 *
 * Drawn from a random stream of its own (key "former:"), so the rest of a
 * seed's world is the same with or without this module.
 */
import { parseLegalForm } from "../../shared/operations/index.ts";
import { Rng } from "../rng.ts";
import { BRAND_HEADS, BRAND_TAILS } from "./names.ts";
import type { CompanyRec } from "./model.ts";

export interface FormerName {
  name: string;
  /** The last year the name was in use. */
  until: number;
}

/** Share of synthetic companies with a former name. */
export const FORMER_NAME_SHARE = 0.04;

const REFERENCE_FORMER: Record<string, FormerName[]> = {
  DEJK7QV0PK24: [{ name: "SAP AG", until: 2014 }],
  DEOF5V5SVY64: [{ name: "Allianz AG", until: 2006 }],
  DE4J7KGUR646: [{ name: "BASF AG", until: 2007 }],
  DEKQJ5DZDN52: [{ name: "Henkel KGaA", until: 2008 }],
};

/** The earlier suffix a company of this form typically had, when it changed its form. */
const EARLIER_FORM: Record<string, string> = {
  GMBH: "UG (haftungsbeschränkt)",
  AG: "GmbH",
  SE: "AG",
  GMBH_CO_KG: "KG",
};

/** The company's former names, newest first; empty for most. */
export function formerNamesOf(c: CompanyRec, seed: number, startYear: number, reference: boolean): FormerName[] {
  if (reference) return REFERENCE_FORMER[c.id] ?? [];
  const r = Rng.for(seed, "former:" + c.id);
  if (!r.chance(FORMER_NAME_SHARE)) return [];
  const founded = Number(c.foundingDate.slice(0, 4));
  // A change needs a year between founding and today.
  if (founded >= startYear - 1) return [];
  const until = r.int(founded, startYear - 1);
  const { rest } = parseLegalForm(c.name);
  const earlier = EARLIER_FORM[c.legalForm];
  if (earlier && rest && r.chance(0.6)) return [{ name: `${rest} ${earlier}`, until }];
  if (c.legalForm === "GMBH" && rest && r.chance(0.3)) return [{ name: `${rest} e.K.`, until }];
  // A change of name: another brand, the same form.
  const suffix = c.name.slice(rest.length).trim();
  return [{ name: `${r.pick(BRAND_HEADS)}${r.pick(BRAND_TAILS)}${suffix ? " " + suffix : ""}`, until }];
}
