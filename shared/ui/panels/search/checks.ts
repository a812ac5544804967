/**
 * What the search form's values mean before anything is sent: the number
 * rules (shared with Find similar, in the same words) and the criteria a
 * search and a saved search are made of.
 */
import type { SearchFilterInput, SearchInput } from "../../../app/index.ts";
import type { Bilingual } from "../../../i18n/index.ts";
import type { SearchState } from "./state.ts";

/** Size 1–100 (whole), radius above 0 and at most 500 km; empty means the default. Null when both are fine. */
export function checkNumbers(size: string | undefined, radius: string | undefined): Bilingual | null {
  const sz = (size ?? "").trim();
  if (sz && !(/^\d+$/.test(sz) && Number(sz) >= 1 && Number(sz) <= 100)) {
    return {
      de: "Anzahl Treffer: bitte eine ganze Zahl von 1 bis 100 eingeben.",
      en: "Number of results: please enter a whole number from 1 to 100.",
    };
  }
  const rd = (radius ?? "").trim().replace(",", ".");
  if (rd && !(Number.isFinite(Number(rd)) && Number(rd) > 0 && Number(rd) <= 500)) {
    return {
      de: "Umkreis: bitte eine Zahl größer als 0 und höchstens 500 (km) eingeben.",
      en: "Radius: please enter a number above 0 and at most 500 (km).",
    };
  }
  return null;
}

/** The filters the user filled in, or undefined when none is. */
export function filtersGiven(f: SearchFilterInput | undefined): SearchFilterInput | undefined {
  if (!f) return undefined;
  const out: SearchFilterInput = {};
  for (const k of ["industry", "state", "sizeClass", "legalForm", "foundedAfter", "foundedBefore"] as const) {
    const v = f[k]?.trim();
    if (v) out[k] = v;
  }
  if (f.activeOnly) out.activeOnly = true;
  return Object.keys(out).length ? out : undefined;
}

/** The form as search criteria (without the page size): what a search runs with and a saved search keeps. */
export function criteriaOf(s: SearchState): SearchInput {
  const place = (s.place ?? "").trim();
  const filters = filtersGiven(s.filters);
  return {
    query: (s.query ?? "").trim(),
    place: place || undefined,
    radiusKm: place && s.radiusKm?.trim() ? Number(s.radiusKm) : undefined,
    ...(filters ? { filters } : {}),
  };
}
