/**
 * Matching features (Reconciliation Service API 0.2, "Reconciliation Query
 * Responses": a candidate's optional `features`, each `{id, value}` with a
 * number or a boolean, "which describe how the candidate was matched"; the
 * manifest's `feature_view` is "a view template for matching features").
 * They say what our matching knew: the service's own rating of the
 * candidate, which given detail contradicts it (why a likely match was not
 * taken, shared/operations/contradiction.ts), and a match under a former
 * name. `/feature?id=…` explains each in the service's language.
 */
import type { Bilingual, Language } from "../shared/i18n/index.ts";
import type { Doubt, MatchNote } from "../shared/operations/index.ts";
import { escapeHtml } from "./preview.ts";

export interface Feature {
  id: string;
  value: number | boolean;
}

/** Every feature a candidate may carry, with what it means. */
export const FEATURES: Readonly<Record<string, Bilingual>> = {
  confidence: {
    de: "Wie sicher der Datendienst diesen Kandidaten für den gesuchten Namen hält, 0 bis 1 (score ist derselbe Wert mal 100). Ein Treffer braucht mindestens COMPANY_DATA_MIN_CONFIDENCE (Standard 0,8).",
    en: "How sure the data service is that this candidate is the name asked for, 0 to 1 (score is the same times 100). A match needs at least COMPANY_DATA_MIN_CONFIDENCE (default 0.8).",
  },
  below_floor: {
    de: "Der Datendienst hat diese Firma gefunden, aber unter der Mindestsicherheit: ein Kandidat zur Prüfung, kein Treffer.",
    en: "The data service found this company, but below the confidence floor: a candidate to review, not a match.",
  },
  contradicts_city: {
    de: "Der angegebene Ort widerspricht dem Sitz der Firma: ein Kandidat zur Prüfung, kein Treffer.",
    en: "The city given contradicts the company's seat: a candidate to review, not a match.",
  },
  contradicts_zip: {
    de: "Die angegebene PLZ widerspricht der der Firma: ein Kandidat zur Prüfung, kein Treffer.",
    en: "The postcode given contradicts the company's: a candidate to review, not a match.",
  },
  contradicts_register: {
    de: "Die angegebene Registernummer widerspricht der der Firma: ein Kandidat zur Prüfung, kein Treffer.",
    en: "The register number given contradicts the company's: a candidate to review, not a match.",
  },
  contradicts_legalForm: {
    de: "Die angegebene Rechtsform widerspricht der der Firma: ein Kandidat zur Prüfung, kein Treffer.",
    en: "The legal form given contradicts the company's: a candidate to review, not a match.",
  },
  former_name: {
    de: "Der gesuchte Name ist ein früherer Name der Firma.",
    en: "The name asked for is a former name of the company.",
  },
};

/** A candidate's features: its rating (0..1) where known, and what tells it apart (a doubt, a former name). */
export function featuresOf(rating: number | null | undefined, doubt?: Doubt, note?: MatchNote): Feature[] {
  const out: Feature[] = [];
  if (rating != null && Number.isFinite(rating))
    out.push({ id: "confidence", value: Math.max(0, Math.min(1, rating)) });
  if (doubt) out.push({ id: doubt.field === "confidence" ? "below_floor" : `contradicts_${doubt.field}`, value: true });
  if (note?.kind === "formerName") out.push({ id: "former_name", value: true });
  return out;
}

/** The page of one feature (null for an id no candidate carries). */
export function featureHtml(id: string, lang: Language): string | null {
  const about = Object.hasOwn(FEATURES, id) ? FEATURES[id] : undefined;
  if (!about) return null;
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(id)}</title></head><body><h1>${escapeHtml(id)}</h1><p>${escapeHtml(about[lang])}</p></body></html>`;
}
