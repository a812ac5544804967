/**
 * A match that contradicts what the user gave is not a match.
 *
 * The service may answer "matched" (confidence 0.7) for "Müller Bäckerei GmbH,
 * Hamburg" with a company of that name in Hannover: the name fits, the city the
 * user typed does not. A credit list that silently takes the Hannover company
 * lies; so every resolve answer is checked against the hints of its query
 * (city, postcode, register number), and a contradicted match becomes a review
 * with the reason, never a silent match. This is the one place that decides it,
 * for the enrichment, the portfolio check and COMPANY_RESOLVE alike.
 *
 * What counts as a contradiction (both sides must be present; an absent fact
 * never contradicts):
 * - city: neither normal form contains the other ("Frankfurt" fits "Frankfurt
 *   am Main"; "Hamburg" does not fit "Hannover");
 * - postcode: two full five-digit postcodes that differ;
 * - register: the register numbers differ (court and type may be written in
 *   many ways, the number is what identifies the entry), or the types (HRA /
 *   HRB / GnR / PR) both given and different.
 */
import type { CompanySummary, ResolveQuery } from "../api/schemas.ts";
import type { Bilingual } from "../i18n/language.ts";
import { normaliseCity, normaliseZip } from "../batch/normalise.ts";

export type DoubtField = "city" | "zip" | "register";

export interface Doubt {
  field: DoubtField;
  /** What the user gave. */
  given: string;
  /** What the candidate has. */
  found: string;
}

const FIELD_NAME: Record<DoubtField, Bilingual> = {
  city: { de: "Ort", en: "city" },
  zip: { de: "PLZ", en: "postcode" },
  register: { de: "Register", en: "register" },
};

/**
 * "Ort weicht ab (Hamburg ≠ Hannover)" / "city differs (Hamburg ≠ Hannover)".
 * No colon: a review status is "prüfen (…): candidates", read up to its first colon.
 */
export function doubtText(d: Doubt, lang: "de" | "en"): string {
  const f = FIELD_NAME[d.field][lang];
  const clean = (s: string) => s.replace(/[:|]/g, " ").replace(/\s+/g, " ").trim();
  return `${f} ${lang === "de" ? "weicht ab" : "differs"} (${clean(d.given)} ≠ ${clean(d.found)})`;
}

function registerParts(s: string): { type: string; number: string } {
  const t = s.toUpperCase();
  const type = /\b(HRA|HRB|GNR|PR|VR)\b/.exec(t.replace(/(HRA|HRB|GNR|PR|VR)(\d)/g, "$1 $2"))?.[1] ?? "";
  const number = /(\d+)/.exec(t)?.[1]?.replace(/^0+/, "") ?? "";
  return { type, number };
}

function registerText(m: CompanySummary): string {
  const r = m.register;
  if (!r) return "";
  return [r.type, r.number, r.court].filter(Boolean).join(" ");
}

/** The first hint of the query that the candidate contradicts, or null. */
export function contradiction(q: ResolveQuery, m: CompanySummary): Doubt | null {
  if (q.city && m.city) {
    const a = normaliseCity(q.city);
    const b = normaliseCity(m.city);
    if (a && b && !a.includes(b) && !b.includes(a)) return { field: "city", given: q.city.trim(), found: m.city };
  }
  if (q.zip && m.zip) {
    const a = normaliseZip(q.zip);
    const b = normaliseZip(m.zip);
    if (a.length === 5 && b.length === 5 && a !== b) return { field: "zip", given: q.zip.trim(), found: m.zip };
  }
  if (q.register && m.register?.number) {
    const given = registerParts(q.register);
    const found = registerParts(`${m.register.type ?? ""} ${m.register.number}`);
    const numberDiffers = given.number !== "" && found.number !== "" && given.number !== found.number;
    const typeDiffers = given.type !== "" && found.type !== "" && given.type !== found.type;
    if (numberDiffers || typeDiffers) return { field: "register", given: q.register.trim(), found: registerText(m) };
  }
  return null;
}
