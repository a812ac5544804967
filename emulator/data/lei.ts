/**
 * Legal Entity Identifiers (ISO 17442) of the synthetic companies, derived
 * from (seed, company id) like the contact data, so nothing is stored per
 * company. Who has one: an LEI is needed to trade securities or report
 * derivatives (EMIR, MiFID II), so stock corporations nearly always have one,
 * cooperatives (the cooperative banks) often, large companies mostly and
 * small ones rarely; about 7 % of the companies overall, the order of
 * GLEIF's German LEIs against the register's 2.3 million companies. The LEIs
 * are synthetic for the 29 reference companies too (their real ones are not
 * in the copied data); they have the real structure and valid check digits.
 */
import { leiCheckDigits } from "../../shared/api/index.ts";
import type { CompanyRec, SizeCode } from "./model.ts";
import { Rng } from "../rng.ts";

/** Prefixes of LOUs that issue LEIs to German companies (5299: Bundesanzeiger Verlag, 3912: WM Datenservice), weighted. */
const LOU_PREFIXES = ["5299", "3912"] as const;
const LOU_WEIGHTS = [3, 1];
const ENTITY_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

const BY_SIZE: Record<SizeCode, number> = { MICRO: 0.01, SMALL: 0.05, MEDIUM: 0.2, LARGE: 0.6 };
const BY_FORM: Record<string, number> = { AG: 0.85, SE: 0.85, KGAA: 0.85, EG: 0.4 };

/** The share of companies of this legal form and size class that have an LEI. */
export function leiShare(legalForm: string, size: SizeCode): number {
  return Math.max(BY_FORM[legalForm] ?? 0, BY_SIZE[size]);
}

/** The company's LEI, or null when it has none; the same for the same (seed, company). */
export function leiOf(c: CompanyRec, seed: number): string | null {
  const r = Rng.for(seed, "lei:" + c.id);
  if (!r.chance(leiShare(c.legalForm, c.size))) return null;
  let base = r.weighted(LOU_PREFIXES, LOU_WEIGHTS) + "00";
  for (let i = 0; i < 12; i++) base += ENTITY_CHARS[Math.floor(r.next() * ENTITY_CHARS.length)];
  return base + leiCheckDigits(base);
}

const indexes = new WeakMap<readonly CompanyRec[], Map<string, number>>();

/**
 * The company index of an LEI (normal form), or undefined. The LEI → company
 * map is built on the first lookup by LEI (about 60 ms for 20,000 companies)
 * and kept for that company table; an LEI is unique, so one entry each.
 */
export function companyByLei(companies: readonly CompanyRec[], seed: number, lei: string): number | undefined {
  let index = indexes.get(companies);
  if (!index) {
    index = new Map();
    for (const c of companies) {
      const l = leiOf(c, seed);
      if (l) index.set(l, c.idx);
    }
    indexes.set(companies, index);
  }
  return index.get(lei);
}
