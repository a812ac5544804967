/**
 * Normal forms of company names and resolve queries, so that the same company
 * written differently is asked (and paid for) once: "Siemens AG" and
 * "SIEMENS  Aktiengesellschaft" have one key. The normal form is only a key;
 * what is sent to the API is the user's own spelling.
 */
import type { ResolveQuery } from "../api/index.ts";
import { invalid } from "../core/index.ts";
import { got, rule } from "../i18n/index.ts";
import { FIELD_LABELS, fieldLabel, foldGerman } from "../i18n/index.ts";

/** Lower case, German transliteration (ä=ae ö=oe ü=ue ß=ss), other accents dropped: the one folding. */
function fold(s: string): string {
  return foldGerman(s);
}

/**
 * Legal-form spellings → one short token. Applied to folded, punctuation-free
 * text padded with spaces, longest forms first so "kommanditgesellschaft auf
 * aktien" wins over "kommanditgesellschaft".
 */
const LEGAL_FORMS: [string, string][] = [
  [" gesellschaft mit beschraenkter haftung ", " gmbh "],
  [" gesellschaft mbh ", " gmbh "],
  [" mit beschraenkter haftung ", " mbh "],
  [" unternehmergesellschaft haftungsbeschraenkt ", " ug "],
  [" unternehmergesellschaft ", " ug "],
  [" ug haftungsbeschraenkt ", " ug "],
  [" ug hb ", " ug "],
  [" kommanditgesellschaft auf aktien ", " kgaa "],
  [" kommanditgesellschaft ", " kg "],
  [" kg aa ", " kgaa "],
  [" aktiengesellschaft ", " ag "],
  [" offene handelsgesellschaft ", " ohg "],
  [" societas europaea ", " se "],
  [" europaeische gesellschaft ", " se "],
  [" eingetragene genossenschaft ", " eg "],
  [" eingetragener kaufmann ", " ek "],
  [" eingetragene kauffrau ", " ek "],
  [" e kfm ", " ek "],
  [" ekfm ", " ek "],
  [" e kfr ", " ek "],
  [" gesellschaft buergerlichen rechts ", " gbr "],
  [" partnerschaftsgesellschaft ", " partg "],
  [" compagnie ", " co "],
  [" cie ", " co "],
  [" and ", " und "],
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

/**
 * Recent names and their normal forms. One enrichment asks for the same row's
 * key several times (plan, memo, checkpoint); the normal form is a pure
 * function of the text, so a bounded memo (cleared when full: memory stays
 * flat on a 100,000-row file) gives the same answers without the work.
 */
const NAME_MEMO_SIZE = 4096;
/** Longer texts (hostile input, 10,000 characters) are computed, not kept. */
const NAME_MEMO_MAX_LENGTH = 200;
const nameMemo = new Map<string, string>();

/** The normal form of a company name (a key, not a display text). */
export function normaliseName(s: string): string {
  if (typeof s !== "string") return "";
  if (s.length > NAME_MEMO_MAX_LENGTH) return computeName(s);
  let n = nameMemo.get(s);
  if (n === undefined) {
    if (nameMemo.size >= NAME_MEMO_SIZE) nameMemo.clear();
    nameMemo.set(s, (n = computeName(s)));
  }
  return n;
}

function computeName(s: string): string {
  let t = fold(s)
    .replace(/[&+]/g, " und ")
    // Any punctuation separates words; "G.m.b.H." becomes single letters joined below.
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  if (t === "") return "";
  t = " " + joinLetterRuns(t.split(/\s+/)).join(" ") + " ";
  // Forms may be adjacent ("gmbh und co kg"); two passes catch overlaps at shared spaces.
  // A pass that changed nothing would change nothing the second time either.
  for (let pass = 0; pass < 2; pass++) {
    const before = t;
    // split/join = replace every occurrence (replaceAll is newer than the bundles' es2019 target).
    for (const [from, to] of LEGAL_FORMS) if (t.includes(from)) t = t.split(from).join(to);
    if (t === before) break;
  }
  return t.replace(/\s+/g, " ").trim();
}

/** A city: folded, punctuation-free ("Frankfurt a.M." = "Frankfurt a M"). */
export function normaliseCity(s: string | undefined): string {
  if (!s) return "";
  return fold(s)
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
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
  throw invalid(`query.${field}`, got(rule.type("string"), v), {
    de: `${FIELD_LABELS.resolveQuery.de} › ${fieldLabel(field, "de")}`,
    en: `${FIELD_LABELS.resolveQuery.en} › ${fieldLabel(field, "en")}`,
  });
}

/**
 * The key under which a resolve query is de-duplicated and cached. Not a
 * query (null, a list, a text) or a hint that is not text is INVALID_INPUT.
 */
export function normaliseKey(q: ResolveQuery): string {
  if (typeof q !== "object" || q === null || Array.isArray(q))
    throw invalid("query", got(rule.type("object"), q), FIELD_LABELS.resolveQuery);
  const o = q as unknown as Record<string, unknown>;
  return [
    normaliseName(hint(o, "name") ?? ""),
    normaliseCity(hint(o, "city")),
    normaliseZip(hint(o, "zip")),
    normaliseRegister(hint(o, "register")),
  ].join("|");
}
