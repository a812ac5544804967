/**
 * A match that contradicts what the user gave is not a match.
 *
 * The service may answer "matched" (confidence 0.7) for "Müller Bäckerei GmbH,
 * Hamburg" with a company of that name in Hannover: the name fits, the city the
 * user typed does not. A credit list that silently takes the Hannover company
 * lies; so every resolve answer is checked against the hints of its query
 * (city, postcode, register number), and a contradicted match becomes a review
 * with the reason, never a silent match. This is the one place that decides it,
 * for the enrichment, the portfolio check, COMPANY_RESOLVE, the MCP server and
 * the CLI alike; hosts only show its verdict.
 *
 * What counts as a contradiction (both sides must be present; an absent fact
 * never contradicts):
 * - city: neither normal form contains the other ("Frankfurt" fits "Frankfurt
 *   am Main"; "Hamburg" does not fit "Hannover");
 * - postcode: two full five-digit postcodes that differ;
 * - register: the register numbers differ (court and type may be written in
 *   many ways, the number is what identifies the entry), or the types (HRA /
 *   HRB / GnR / PR) both given and different;
 * - legal form: the name given ends with a form (operations/legal-form.ts) and
 *   the candidate's is another one ("Rossi Partners GmbH" is not "Rossi
 *   Partners GmbH & Co. KG": two legal persons, two register entries; a UG is
 *   not a GmbH), unless the given name is one of the candidate's former names
 *   ("SAP AG" is SAP SE since 2014): then it is a match with the note
 *   "former name";
 * - confidence: the service rates the match below the floor (a setting,
 *   default 0.8): a weak match is a question to the user, not an answer.
 *
 * Why 0.8: the real service's scale is not published (known-service-facts:
 * only `meta.confidence`, e.g. "low", for fuzzy matches); the report
 * saw "Lufthansa" taken at 0.671. In the emulator's model (emulator/README.md)
 * a name as registered scores 1, a former name 0.93, the name without its
 * form 0.92, the same words in another order up to 0.9, while a name missing
 * words ("Lufthansa", 0.61–0.67) or with a typo ("Siemns AG" 0.75, "Robert
 * Bosh GmbH" 0.675) scores below 0.8. Such matches are often right, but not
 * often enough to spend credits and write figures unasked: below the floor
 * they are offered for review instead. A setting, because a list of clean
 * register names can afford a lower one.
 */
import type { CompanySummary, ResolveQuery } from "../api/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import { invalid } from "../core/index.ts";
import { normaliseCity, normaliseName, normaliseZip } from "../batch/index.ts";
import { legalFormByCode, legalFormOf, parseLegalForm, sameLegalForm, type LegalForm } from "./legal-form.ts";

export const DOUBT_FIELDS = ["city", "zip", "register", "legalForm", "confidence"] as const;
export type DoubtField = (typeof DOUBT_FIELDS)[number];

/** Matches the service rates below this are reviews (a setting: OpContext.matchFloor). */
export const DEFAULT_MATCH_FLOOR = 0.8;
export const MATCH_FLOOR_LIMITS = { min: 0, max: 1 } as const;

/**
 * The floor as a user types it ("0.8", "0,8"; absent or blank: the default).
 * Anything else is INVALID_INPUT naming `field` (a flag, a variable).
 */
export function parseMatchFloor(text: string | undefined, field: string): number {
  const t = text?.trim() ?? "";
  if (t === "") return DEFAULT_MATCH_FLOOR;
  const n = Number(t.replace(",", "."));
  if (!/^\d*[.,]?\d+$/.test(t) || !(n >= MATCH_FLOOR_LIMITS.min && n <= MATCH_FLOOR_LIMITS.max)) {
    throw invalid(field, {
      de: `eine Zahl von 0 bis 1 (z. B. 0,8), nicht „${t}“`,
      en: `a number from 0 to 1 (e.g. 0.8), not "${t}"`,
    });
  }
  return n;
}

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
  legalForm: { de: "Rechtsform", en: "legal form" },
  confidence: { de: "Trefferqualität", en: "confidence" },
};

const clean = (s: string) => s.replace(/[:|]/g, " ").replace(/\s+/g, " ").trim();
/** 0.671 as the language writes it (0,671 in German). */
const decimal = (s: string, lang: "de" | "en") => (lang === "de" ? s.replace(".", ",") : s);

/**
 * "Ort weicht ab (Hamburg ≠ Hannover)" / "city differs (Hamburg ≠ Hannover)",
 * "Rechtsform weicht ab (GmbH ≠ GmbH & Co. KG)", "Trefferqualität 0,671 unter 0,8".
 * No colon: a review status is "prüfen (…): candidates", read up to its first colon.
 */
export function doubtText(d: Doubt, lang: "de" | "en"): string {
  const f = FIELD_NAME[d.field][lang];
  if (d.field === "confidence")
    return `${f} ${decimal(clean(d.found), lang)} ${lang === "de" ? "unter" : "below"} ${decimal(clean(d.given), lang)}`;
  return `${f} ${lang === "de" ? "weicht ab" : "differs"} (${clean(d.given)} ≠ ${clean(d.found)})`;
}

/** What is worth saying about a match that stands: it was found under a former name. */
export interface MatchNote {
  kind: "formerName";
  /** The former name the given one fits. */
  name: string;
}

/** "früherer Name SAP AG" / "former name SAP AG" (no colon, as doubtText). */
export function noteText(n: MatchNote, lang: "de" | "en"): string {
  return `${lang === "de" ? "früherer Name" : "former name"} ${clean(n.name)}`;
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

/** A candidate as judged: its summary, with its former names where the answer carries them. */
export type Judged = CompanySummary & { historicalNames?: readonly string[] | null };

/** The candidate's former name that the given name is (in normal form), or null. */
export function formerNameOf(q: ResolveQuery, m: Judged): string | null {
  const given = normaliseName(q.name);
  if (!given || given === normaliseName(m.name ?? "")) return null;
  return m.historicalNames?.find((h) => normaliseName(h) === given) ?? null;
}

/** The candidate's legal form, and whether it is known only by the API's (coarser) code. */
function candidateForm(m: CompanySummary): { form: LegalForm; coarse: boolean } | null {
  // The register name carries the form (§ 4 GmbHG, § 19 HGB): the most precise source.
  const byName = m.name ? parseLegalForm(m.name).form : null;
  if (byName) return { form: byName, coarse: false };
  const byCode = legalFormByCode(m.legalForm?.code) ?? (m.legalForm?.name ? legalFormOf(m.legalForm.name) : null);
  return byCode ? { form: byCode, coarse: true } : null;
}

/** The legal form the given name ends with, when the candidate has another one; null otherwise. */
export function legalFormDoubt(q: ResolveQuery, m: CompanySummary): Doubt | null {
  const given = parseLegalForm(q.name).form;
  if (!given) return null;
  const found = candidateForm(m);
  if (!found || sameLegalForm(given, found.form, found.coarse)) return null;
  return { field: "legalForm", given: given.short, found: found.form.short };
}

/** A confidence below the floor, as a doubt that shows both. */
export function confidenceDoubt(
  confidence: number | null | undefined,
  floor: number = DEFAULT_MATCH_FLOOR,
): Doubt | null {
  if (confidence === null || confidence === undefined || !(confidence < floor)) return null;
  return { field: "confidence", given: String(floor), found: String(Math.round(confidence * 1000) / 1000) };
}

export interface Verdict {
  /** Why the match is not taken; null when it stands. */
  doubt: Doubt | null;
  /** What to say about a match that stands. */
  note: MatchNote | null;
}

/**
 * The one verdict on a match: the first contradiction of the query's hints
 * or its legal form, else a confidence below the floor; a legal form that
 * differs is no contradiction when the given name is a former name of the
 * candidate, which the note then says.
 */
export function judgeMatch(
  q: ResolveQuery,
  m: Judged,
  confidence: number | null | undefined,
  floor: number = DEFAULT_MATCH_FLOOR,
): Verdict {
  const former = formerNameOf(q, m);
  const note: MatchNote | null = former ? { kind: "formerName", name: former } : null;
  const doubt = hintDoubt(q, m) ?? (former ? null : legalFormDoubt(q, m)) ?? confidenceDoubt(confidence, floor);
  return { doubt, note: doubt ? null : note };
}

/** The first fact the candidate contradicts (hints, then legal form), or null; former names are not considered. */
export function contradiction(q: ResolveQuery, m: CompanySummary): Doubt | null {
  return hintDoubt(q, m) ?? legalFormDoubt(q, m);
}

/** The first hint of the query (city, postcode, register) that the candidate contradicts, or null. */
function hintDoubt(q: ResolveQuery, m: CompanySummary): Doubt | null {
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
