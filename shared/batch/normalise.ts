/**
 * Normal forms of company names and resolve queries, so that the same company
 * written differently is asked (and paid for) once: "Siemens AG" and
 * "SIEMENS  Aktiengesellschaft" have one key. The normal form is only a key;
 * what is sent to the API is the user's own spelling.
 */
import type { ResolveQuery } from "../api/schemas.ts";
import { invalid } from "../core/errors.ts";
import { got, rule } from "../i18n/rules.ts";
import { FIELD_LABELS, fieldLabel } from "../i18n/fields.ts";

/** Lower case, German transliteration (ä=ae ö=oe ü=ue ß=ss), other accents dropped. */
function fold(s: string): string {
  return s
    .normalize("NFC")
    .toLowerCase()
    .replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue").replace(/ß/g, "ss")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
}

/**
 * Legal-form spellings → one short token. Applied to folded, punctuation-free
 * text padded with spaces, longest forms first so "kommanditgesellschaft auf
 * aktien" wins over "kommanditgesellschaft".
 */
const LEGAL_FORMS: [RegExp, string][] = [
  [/ gesellschaft mit beschraenkter haftung /g, " gmbh "],
  [/ gesellschaft mbh /g, " gmbh "],
  [/ mit beschraenkter haftung /g, " mbh "],
  [/ unternehmergesellschaft haftungsbeschraenkt /g, " ug "],
  [/ unternehmergesellschaft /g, " ug "],
  [/ ug haftungsbeschraenkt /g, " ug "],
  [/ ug hb /g, " ug "],
  [/ kommanditgesellschaft auf aktien /g, " kgaa "],
  [/ kommanditgesellschaft /g, " kg "],
  [/ kg aa /g, " kgaa "],
  [/ aktiengesellschaft /g, " ag "],
  [/ offene handelsgesellschaft /g, " ohg "],
  [/ societas europaea /g, " se "],
  [/ europaeische gesellschaft /g, " se "],
  [/ eingetragene genossenschaft /g, " eg "],
  [/ eingetragener kaufmann /g, " ek "],
  [/ eingetragene kauffrau /g, " ek "],
  [/ e kfm /g, " ek "],
  [/ ekfm /g, " ek "],
  [/ e kfr /g, " ek "],
  [/ gesellschaft buergerlichen rechts /g, " gbr "],
  [/ partnerschaftsgesellschaft /g, " partg "],
  [/ compagnie /g, " co "],
  [/ cie /g, " co "],
  [/ and /g, " und "],
];

/** "g m b h" (from "G.m.b.H.") → "gmbh": runs of two or more single letters are one token. */
function joinLetterRuns(tokens: string[]): string[] {
  const out: string[] = [];
  let run = "";
  const flush = () => {
    if (run !== "") out.push(run);
    run = "";
  };
  for (const t of tokens) {
    if (t.length === 1 && /[a-z]/.test(t)) run += t;
    else {
      flush();
      out.push(t);
    }
  }
  flush();
  return out;
}

/** The normal form of a company name (a key, not a display text). */
export function normaliseName(s: string): string {
  if (typeof s !== "string") return "";
  let t = fold(s)
    .replace(/[&+]/g, " und ")
    // Any punctuation separates words; "G.m.b.H." becomes single letters joined below.
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  if (t === "") return "";
  t = " " + joinLetterRuns(t.split(/\s+/)).join(" ") + " ";
  // Forms may be adjacent ("gmbh und co kg"); two passes catch overlaps at shared spaces.
  for (let pass = 0; pass < 2; pass++) for (const [re, to] of LEGAL_FORMS) t = t.replace(re, to);
  return t.replace(/\s+/g, " ").trim();
}

/** A city: folded, punctuation-free ("Frankfurt a.M." = "Frankfurt a M"). */
export function normaliseCity(s: string | undefined): string {
  if (!s) return "";
  return fold(s).replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** A postcode: digits only. */
export function normaliseZip(s: string | undefined): string {
  if (s === undefined || s === null) return "";
  return String(s).replace(/\D+/g, "");
}

/**
 * A register reference in any order: "HRB 6684 München" = "München HRB6684".
 * Letters and digits are split, tokens sorted; "Amtsgericht" is dropped.
 */
export function normaliseRegister(s: string | undefined): string {
  if (!s) return "";
  const tokens = fold(s)
    .replace(/([a-z])(\d)/g, "$1 $2")
    .replace(/(\d)([a-z])/g, "$1 $2")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(" ")
    .filter((t) => t !== "" && t !== "amtsgericht" && t !== "ag");
  return tokens.sort().join(" ");
}

/** A hint as text: a number typed into a cell (a postcode) counts; anything else but text is bad input. */
function hint(q: Record<string, unknown>, field: "name" | "city" | "zip" | "register"): string | undefined {
  const v = q[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  throw invalid(`query.${field}`, got(rule.type("string"), v), { de: `${FIELD_LABELS.resolveQuery.de} › ${fieldLabel(field, "de")}`, en: `${FIELD_LABELS.resolveQuery.en} › ${fieldLabel(field, "en")}` });
}

/**
 * The key under which a resolve query is de-duplicated and cached. Not a
 * query (null, a list, a text) or a hint that is not text is INVALID_INPUT.
 */
export function normaliseKey(q: ResolveQuery): string {
  if (typeof q !== "object" || q === null || Array.isArray(q)) throw invalid("query", got(rule.type("object"), q), FIELD_LABELS.resolveQuery);
  const o = q as unknown as Record<string, unknown>;
  return [normaliseName(hint(o, "name") ?? ""), normaliseCity(hint(o, "city")), normaliseZip(hint(o, "zip")), normaliseRegister(hint(o, "register"))].join("|");
}
