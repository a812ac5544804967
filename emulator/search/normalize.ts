/**
 * Name and text normalisation shared by the index, resolve and suggest:
 * case, white space, umlauts (ä = ae), ß = ss, accents, punctuation, and the
 * many spellings of German legal forms ("Gesellschaft mit beschränkter
 * Haftung" = "GmbH", "e. K." = "eK").
 */

import { foldGerman } from "../../shared/i18n/index.ts";

/** The one German folding (shared/i18n/fold.ts), then every run of punctuation and space as one space. */
export function fold(text: string): string {
  return foldGerman(text)
    .replace(/&/g, " ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

// Ordered: longer phrases first so "gmbh co kg" parts are not eaten by shorter rules.
const LEGAL_PHRASES: [RegExp, string][] = [
  [/\bgesellschaft mit beschraenkter haftung\b/g, "gmbh"],
  [/\bunternehmergesellschaft haftungsbeschraenkt\b/g, "ug"],
  [/\bunternehmergesellschaft\b/g, "ug"],
  [/\bug haftungsbeschraenkt\b/g, "ug"],
  [/\bkommanditgesellschaft auf aktien\b/g, "kgaa"],
  [/\bkommanditgesellschaft\b/g, "kg"],
  [/\baktiengesellschaft\b/g, "ag"],
  [/\boffene handelsgesellschaft\b/g, "ohg"],
  [/\beingetragene genossenschaft\b/g, "eg"],
  [/\beingetragene[rn]? kauf(?:mann|frau)\b/g, "ek"],
  [/\be kfm\b/g, "ek"],
  [/\be kfr\b/g, "ek"],
  [/\be k\b/g, "ek"],
  [/\be g\b/g, "eg"],
  [/\bpartnerschaftsgesellschaft(?: mbb)?\b/g, "partg"],
  [/\bpartg mbb\b/g, "partg"],
  [/\bsocietas europaea\b/g, "se"],
  [/\beuropaeische gesellschaft\b/g, "se"],
  [/\bgesellschaft mbh\b/g, "gmbh"],
  [/\bges m b h\b/g, "gmbh"],
  [/\bg m b h\b/g, "gmbh"],
  [/\bmbh\b/g, "gmbh"],
  [/\bcompany\b/g, "co"],
  [/\bcie\b/g, "co"],
];

/** Tokens that only state the legal form; they weigh little in matching. */
export const LEGAL_TOKENS = new Set(["gmbh", "ag", "se", "ug", "kg", "kgaa", "ohg", "ek", "eg", "partg", "co", "und"]);

/** Normalised name: folded, legal forms canonical. */
export function normName(name: string): string {
  let s = " " + fold(name) + " ";
  for (const [re, rep] of LEGAL_PHRASES) s = s.replace(re, rep);
  return s.replace(/\s+/g, " ").trim();
}

export function tokens(text: string): string[] {
  const f = fold(text);
  return f ? f.split(" ") : [];
}

export function nameTokens(name: string): string[] {
  const n = normName(name);
  return n ? n.split(" ") : [];
}

/** The name without its legal form: "siemens ag" -> "siemens". */
export function coreName(name: string): string {
  return nameTokens(name)
    .filter((t) => !LEGAL_TOKENS.has(t))
    .join(" ");
}

/**
 * Parse a register number as users type it: "HRB 6684 München",
 * "München HRB 6684", "Amtsgericht München, HRB 6684 B".
 */
export function parseRegister(text: string): { type: string; number: string; court?: string } | null {
  // Linear: one run of blanks, then at most one separator and blanks. The earlier `\s*[-:.]?\s*` could split
  // a run of blanks between its two `\s*` in every way (quadratic: "HRB" + 60,000 blanks took 6 s).
  const m = /\b(HRA|HRB|GNR|GnR|PR|VR)\s*(?:[-:.]\s*)?(\d{1,7})(?:\s*([A-Z]{1,2})\b)?/i.exec(text);
  if (!m) return null;
  const [whole, kind = "", digits = ""] = m; // groups 1 and 2 are not optional: the defaults never apply
  const type = kind.toUpperCase() === "GNR" ? "GnR" : kind.toUpperCase();
  const rest = (text.slice(0, m.index) + " " + text.slice(m.index + whole.length)).replace(
    /amtsgericht|registergericht|ag\b/gi,
    " ",
  );
  const court = fold(rest);
  return { type, number: digits, court: court || undefined };
}
