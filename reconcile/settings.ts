/**
 * The data extension property setting (Reconciliation Service API 0.2, "Data
 * Extension Metadata" → property_settings; a data extension query sends the
 * chosen value in each property's `settings`): which financial year the
 * financial properties (financial year, revenue, net income, equity, equity
 * ratio, balance sheet total) answer. By default the latest reported, as the
 * enrichment's columns; a chosen year answers that year's figures, or
 * nothing when the company reported none for it. The price is the same
 * either way: the profile's financials include holds every reported year.
 */
import type { Company } from "../shared/api/index.ts";
import { invalid } from "../shared/core/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { got } from "../shared/i18n/index.ts";

/** The setting's name in the manifest and in a query's `settings`. */
export const YEAR_SETTING = "year";
/** The default: the latest year the company reported. */
export const LATEST = "latest";
/** Years offered in the choice, the last before the current one first (reports follow their year). */
export const YEARS_OFFERED = 10;

/** The manifest's property setting: a select of "the latest" and the last YEARS_OFFERED years before `year`. */
export function financialYearSetting(lang: Language, year: number) {
  const years = Array.from({ length: YEARS_OFFERED }, (_, i) => String(year - 1 - i));
  return {
    name: YEAR_SETTING,
    label: lang === "de" ? "Geschäftsjahr" : "Financial year",
    type: "select" as const,
    default: LATEST,
    help_text:
      lang === "de"
        ? "Nur für Finanzdaten (Geschäftsjahr, Umsatz, Jahresergebnis, Eigenkapital, Eigenkapitalquote, Bilanzsumme): das gewählte Jahr statt des letzten berichteten; leer, wenn die Firma dafür nichts berichtet hat. Gleicher Preis."
        : "Financial properties only (financial year, revenue, net income, equity, equity ratio, balance sheet total): the chosen year instead of the latest reported; empty where the company reported nothing for it. Same price.",
    choices: [
      { value: LATEST, name: lang === "de" ? "das letzte berichtete" : "the latest reported" },
      ...years.map((y) => ({ value: y, name: y })),
    ],
  };
}

/**
 * The year one property's settings ask for: null for the latest (no
 * settings, no year, "latest" or empty), else a year; INVALID_INPUT naming
 * the property for anything else. OpenRefine sends setting values as text.
 */
export function yearOf(settings: unknown, at: string): number | null {
  if (settings === undefined || settings === null) return null;
  if (typeof settings !== "object" || Array.isArray(settings))
    throw invalid(`${at}.settings`, { de: "erwartet ein Objekt", en: "expected an object" });
  const v: unknown = (settings as Record<string, unknown>)[YEAR_SETTING];
  if (v === undefined || v === null || v === "" || v === LATEST) return null;
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d{4}\s*$/.test(v) ? Number(v) : NaN;
  if (Number.isInteger(n) && n >= 1900 && n <= 2100) return n;
  throw invalid(
    `${at}.settings.${YEAR_SETTING}`,
    got({ de: `„${LATEST}“ oder ein Jahr (z. B. 2023)`, en: `"${LATEST}" or a year (e.g. 2023)` }, v),
  );
}

/** The company as if it had reported only `year`: the catalogue's extractors then read that year's figures. */
export function onlyYear(c: Company, year: number): Company {
  return { ...c, financials: (c.financials ?? []).filter((y) => y.year === year) };
}
