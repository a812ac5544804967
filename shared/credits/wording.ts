/**
 * Counted nouns and include names for estimate texts, in German and English.
 * Kept apart from estimate.ts so the enrichment estimator (which estimate.ts
 * imports) can use them without an import cycle.
 */
import type { Include } from "../api/index.ts";
import type { Bilingual, Language } from "../i18n/index.ts";

/** Singular and plural of a noun, per language. */
export interface Noun {
  de: readonly [string, string];
  en: readonly [string, string];
}

export const NOUNS = {
  credit: { de: ["Credit", "Credits"], en: ["credit", "credits"] },
  request: { de: ["Anfrage", "Anfragen"], en: ["request", "requests"] },
  profile: { de: ["Profil", "Profile"], en: ["profile", "profiles"] },
  company: { de: ["Firma", "Firmen"], en: ["company", "companies"] },
  // German texts use it in the accusative ("1 Namen abgleichen"), where both forms read "Namen".
  name: { de: ["Namen", "Namen"], en: ["name", "names"] },
  availability: {
    de: ["Verfügbarkeitsprüfung", "Verfügbarkeitsprüfungen"],
    en: ["availability check", "availability checks"],
  },
  singleResolve: { de: ["Einzelabfrage", "Einzelabfragen"], en: ["single resolve", "single resolves"] },
  // Accusative as with names: "3 Kennungen nachschlagen".
  lookup: { de: ["Kennung", "Kennungen"], en: ["identifier lookup", "identifier lookups"] },
  batchCall: { de: ["Stapelabfrage", "Stapelabfragen"], en: ["batch call", "batch calls"] },
  row: { de: ["Zeile", "Zeilen"], en: ["row", "rows"] },
} as const satisfies Record<string, Noun>;

/** 999838 → "999.838" (de) / "999,838" (en); negative numbers and decimals are left to the caller. */
export function groupDigits(n: number, lang: Language): string {
  if (!Number.isFinite(n)) return String(n);
  const sign = n < 0 ? "-" : "";
  const digits = String(Math.trunc(Math.abs(n)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, lang === "de" ? "." : ",");
}

/** "1 credit", "2 credits", "1.000 Credits": number with digit grouping and the right form of the noun. */
export function countText(n: number, noun: Noun, lang: Language): string {
  return `${groupDigits(n, lang)} ${noun[lang][n === 1 ? 0 : 1]}`;
}

/** The same count in both languages. */
export function counted(n: number, noun: Noun): Bilingual {
  return { de: countText(n, noun, "de"), en: countText(n, noun, "en") };
}

export const INCLUDE_LABELS: Readonly<Record<Include, Bilingual>> = {
  people: { de: "Personen", en: "people" },
  announcements: { de: "Bekanntmachungen", en: "announcements" },
  financials: { de: "Finanzdaten", en: "financials" },
};

/** ["people", "financials"] → { de: "Personen, Finanzdaten", en: "people, financials" }. */
export function includeList(include: readonly Include[]): Bilingual {
  return {
    de: include.map((i) => INCLUDE_LABELS[i].de).join(", "),
    en: include.map((i) => INCLUDE_LABELS[i].en).join(", "),
  };
}
