/**
 * Search filters as users give them, in one place for the formula's filter
 * text, the Search panel and the CLI flags: WZ 2008 codes or prefixes, federal
 * states, size classes, legal forms, founded before/after, active only. Each
 * value is checked here and turned into the API's `filters` object
 * (shared/api/schemas.ts SearchFilters); a wrong value throws INVALID_INPUT
 * naming the filter, in German and English, before anything is sent.
 *
 * Over 400 lines: one small parser per filter, side by side, so the three
 * ways in (formula, panel, CLI) can only read a filter one way.
 */
import { SIZE_CLASSES, type SearchRequest } from "../api/index.ts";
import { invalid } from "../core/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import { got, rule } from "../i18n/index.ts";
import { LEGAL_FORMS, legalFormOf } from "./legal-form.ts";

export type SearchFilters = NonNullable<SearchRequest["filters"]>;

/** Filters as text, the way a user types them (every field optional). */
export interface FilterInput {
  /** WZ 2008 codes or prefixes, comma separated: "J62", "62.01", "C28, C29". */
  industry?: string;
  /** Federal states: "DE-BY", "BY", "Bayern", "Bavaria", comma separated. */
  state?: string;
  /** Size classes: MICRO SMALL MEDIUM LARGE (or kleinst klein mittel groß), comma separated. */
  sizeClass?: string;
  /** Legal forms: "GmbH, AG". */
  legalForm?: string;
  /** A year (2015) or a date (2015-06-30). */
  foundedAfter?: string;
  foundedBefore?: string;
  activeOnly?: boolean;
}

/**
 * The sixteen federal states (ISO 3166-2:DE) with their German and English
 * names and the other spellings people type ("NRW"). Umlauts may be written
 * as such, as ae/oe/ue or left out ("Thüringen", "Thueringen", "Thuringen").
 */
export const FEDERAL_STATES: readonly { code: string; de: string; en: string; aliases?: readonly string[] }[] = [
  { code: "DE-BW", de: "Baden-Württemberg", en: "Baden-Württemberg" },
  { code: "DE-BY", de: "Bayern", en: "Bavaria" },
  { code: "DE-BE", de: "Berlin", en: "Berlin" },
  { code: "DE-BB", de: "Brandenburg", en: "Brandenburg" },
  { code: "DE-HB", de: "Bremen", en: "Bremen" },
  { code: "DE-HH", de: "Hamburg", en: "Hamburg" },
  { code: "DE-HE", de: "Hessen", en: "Hesse" },
  {
    code: "DE-MV",
    de: "Mecklenburg-Vorpommern",
    en: "Mecklenburg-Western Pomerania",
    aliases: ["Mecklenburg-West Pomerania"],
  },
  { code: "DE-NI", de: "Niedersachsen", en: "Lower Saxony" },
  { code: "DE-NW", de: "Nordrhein-Westfalen", en: "North Rhine-Westphalia", aliases: ["NRW"] },
  { code: "DE-RP", de: "Rheinland-Pfalz", en: "Rhineland-Palatinate" },
  { code: "DE-SL", de: "Saarland", en: "Saarland" },
  { code: "DE-SN", de: "Sachsen", en: "Saxony" },
  { code: "DE-ST", de: "Sachsen-Anhalt", en: "Saxony-Anhalt" },
  { code: "DE-SH", de: "Schleswig-Holstein", en: "Schleswig-Holstein" },
  { code: "DE-TH", de: "Thüringen", en: "Thuringia" },
];

/** Size classes with the words German users use for them. */
export const SIZE_CLASS_LABELS: Record<(typeof SIZE_CLASSES)[number], Bilingual> = {
  MICRO: { de: "Kleinst", en: "Micro" },
  SMALL: { de: "Klein", en: "Small" },
  MEDIUM: { de: "Mittel", en: "Medium" },
  LARGE: { de: "Groß", en: "Large" },
};

/**
 * WZ 2008 sections by division (the two digits after the letter), so "62.01"
 * can be typed without its section letter: the classification fixes it.
 */
const SECTIONS: [number, number, string][] = [
  [1, 3, "A"],
  [5, 9, "B"],
  [10, 33, "C"],
  [35, 35, "D"],
  [36, 39, "E"],
  [41, 43, "F"],
  [45, 47, "G"],
  [49, 53, "H"],
  [55, 56, "I"],
  [58, 63, "J"],
  [64, 66, "K"],
  [68, 68, "L"],
  [69, 75, "M"],
  [77, 82, "N"],
  [84, 84, "O"],
  [85, 85, "P"],
  [86, 88, "Q"],
  [90, 93, "R"],
  [94, 96, "S"],
  [97, 98, "T"],
  [99, 99, "U"],
];
const sectionOf = (division: number) => SECTIONS.find(([lo, hi]) => division >= lo && division <= hi)?.[2];

const split = (s: string) =>
  s
    .split(/[,;|]/)
    .map((x) => x.trim())
    .filter(Boolean);
/** Case, accents, ß, spaces and punctuation ignored; `umlautE` writes ä ö ü as ae oe ue (the ASCII spelling). */
const fold = (s: string, umlautE = false) => {
  const t = s.toLowerCase();
  const e = umlautE ? t.replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue") : t;
  return e
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ß/g, "ss")
    .replace(/[^a-z]/g, "");
};
/** Do two names match, whichever way the umlauts were written ("Thüringen" = "Thueringen" = "Thuringen")? */
const sameName = (a: string, b: string) => fold(a) === fold(b) || fold(a, true) === fold(b, true);

/** One WZ code or prefix in the API's form ("J62.01", "J62", "C"), or null when it is none. */
export function wzCode(s: string): string | null {
  // A picked entry reads "J62.01 Programmierungstätigkeiten": the code is its first word.
  const t = s.trim().toUpperCase().split(/\s+/)[0] ?? "";
  const m = /^([A-U])?(?:(\d{2})(?:\.(\d{1,2}))?)?$/.exec(t);
  if (!m || (!m[1] && !m[2])) return null;
  if (!m[2]) return m[1] ?? null;
  const section = sectionOf(Number(m[2]));
  if (!section || (m[1] && m[1] !== section)) return null;
  return `${section}${m[2]}${m[3] ? `.${m[3]}` : ""}`;
}

/** A federal state's ISO code ("DE-BY") for its code, short code or German, English or other name; null when none. */
export function stateCode(s: string): string | null {
  const t = s.trim().toUpperCase();
  const code = /^(DE-)?([A-Z]{2})$/.exec(t) ? `DE-${t.slice(-2)}` : null;
  return (
    FEDERAL_STATES.find((x) => x.code === code || [x.de, x.en, ...(x.aliases ?? [])].some((n) => sameName(n, s)))
      ?.code ?? null
  );
}

/** A size class for its code or its German or English word; null when none. */
export function sizeClass(s: string): (typeof SIZE_CLASSES)[number] | null {
  const t = s.trim().toUpperCase();
  if ((SIZE_CLASSES as readonly string[]).includes(t)) return t as (typeof SIZE_CLASSES)[number];
  const hit = Object.entries(SIZE_CLASS_LABELS).find(([, l]) => sameName(l.de, s) || sameName(l.en, s));
  return hit ? (hit[0] as (typeof SIZE_CLASSES)[number]) : null;
}

/** A year or an ISO date as the UTC time of its first day; null when it is neither. */
function dateOf(s: string): number | null {
  const t = s.trim();
  const m = /^(\d{4})(?:-(\d{2})-(\d{2}))?$/.exec(t);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), m[2] ? Number(m[2]) - 1 : 0, m[3] ? Number(m[3]) : 1);
  const d = new Date(ms);
  if (m[2] && (d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3]))) return null;
  return Number(m[1]) >= 1800 ? ms : null;
}

const YEAR_MS = 365.2425 * 24 * 3600 * 1000;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Legal forms the service's filter knows (foundations and associations are in no register it covers). */
const SEARCHABLE_FORMS = LEGAL_FORMS.filter((f) => f.filter !== null);

/** The API's legalForm filter value for a form as a user names it ("GmbH", "Aktiengesellschaft", "gmbh & co kg"); null when none. */
export function legalFormFilter(s: string): string | null {
  return legalFormOf(s)?.filter ?? null;
}

/**
 * What each list filter accepts, in words: the text of every refusal and of
 * the MCP tools' descriptions, generated from the tables above so that the
 * two cannot disagree with the parser.
 */
export const ACCEPTED: Readonly<Record<"industry" | "state" | "size" | "legalForm", Bilingual>> = {
  industry: (() => {
    const divisions = SECTIONS.map(
      ([lo, hi, s]) => `${s} ${String(lo).padStart(2, "0")}${hi > lo ? `–${String(hi).padStart(2, "0")}` : ""}`,
    ).join(", ");
    return {
      de: `WZ-2008-Codes oder -Präfixe: ein Abschnitt A–U, eine Abteilung (zwei Ziffern: ${divisions}), eine Gruppe oder Klasse (62.0, 62.01), mit oder ohne Abschnittsbuchstaben (J62.01)`,
      en: `WZ 2008 codes or prefixes: a section A–U, a division (two digits: ${divisions}), a group or class (62.0, 62.01), with or without the section letter (J62.01)`,
    };
  })(),
  state: {
    de: `Bundesländer als ISO-Code (DE-BY oder BY) oder Name: ${FEDERAL_STATES.map((x) => `${x.code} ${x.de}`).join(", ")}`,
    en: `federal states as ISO code (DE-BY or BY) or name: ${FEDERAL_STATES.map((x) => `${x.code} ${x.en}${x.en !== x.de ? `/${x.de}` : ""}`).join(", ")}`,
  },
  size: {
    de: `Größenklassen: ${SIZE_CLASSES.map((c) => `${c} (${SIZE_CLASS_LABELS[c].de})`).join(", ")}`,
    en: `size classes: ${SIZE_CLASSES.join(", ")}`,
  },
  legalForm: {
    de: `Rechtsformen als Kürzel, Name oder Code: ${SEARCHABLE_FORMS.map((f) => f.short).join(", ")}`,
    en: `legal forms as abbreviation, name or code: ${SEARCHABLE_FORMS.map((f) => f.short).join(", ")}`,
  },
};

const NOT_A: Readonly<Record<keyof typeof ACCEPTED, Bilingual>> = {
  industry: { de: "kein WZ-2008-Code", en: "not a WZ 2008 code" },
  state: { de: "kein Bundesland", en: "not a federal state" },
  size: { de: "keine Größenklasse", en: "not a size class" },
  legalForm: { de: "keine Rechtsform, nach der der Dienst filtert", en: "not a legal form the service filters by" },
};

const PARSERS: { readonly [K in keyof typeof ACCEPTED]: (s: string) => string | null } = {
  industry: wzCode,
  state: stateCode,
  size: sizeClass,
  legalForm: legalFormFilter,
};

/**
 * Every value of one list filter in the API's form, in order, without
 * repeats. Text is split at commas; a list's items are taken as they are.
 * The first value that is none throws INVALID_INPUT naming `field`, the
 * value and every value the filter accepts.
 */
export function filterValues<K extends keyof typeof ACCEPTED>(
  kind: K,
  value: string | readonly string[],
  field: string = kind,
): string[] {
  const out: string[] = [];
  for (const part of typeof value === "string" ? split(value) : value.map((v) => v.trim())) {
    const v = PARSERS[kind](part);
    if (v === null) {
      const q = part.length > 60 ? `${part.slice(0, 60)}…` : part;
      throw invalid(field, {
        de: `„${q}“: ${NOT_A[kind].de}; erlaubt: ${ACCEPTED[kind].de}`,
        en: `"${q}": ${NOT_A[kind].en}; allowed: ${ACCEPTED[kind].en}`,
      });
    }
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

/**
 * The API's filters for what the user gave, or undefined when nothing is
 * filtered. "Founded after/before" become the service's company age bounds
 * (min/maxAgeYears, known-service-facts: "minimum/maximum company age"),
 * measured from `now`: exact to the day the request is sent.
 */
export function buildFilters(input: FilterInput, now: number): SearchFilters | undefined {
  const f: SearchFilters = {};
  if (input.industry?.trim()) f.industry = filterValues("industry", input.industry);
  if (input.state?.trim()) f.state = filterValues("state", input.state);
  if (input.sizeClass?.trim()) f.size = filterValues("size", input.sizeClass, "sizeClass") as SearchFilters["size"];
  if (input.legalForm?.trim()) f.legalForm = filterValues("legalForm", input.legalForm);
  const after = input.foundedAfter?.trim() ? dateOrThrow(input.foundedAfter, "foundedAfter") : undefined;
  const before = input.foundedBefore?.trim() ? dateOrThrow(input.foundedBefore, "foundedBefore") : undefined;
  if (after !== undefined && before !== undefined && after >= before) {
    throw invalid("foundedBefore", {
      de: "muss nach „gegründet nach“ liegen",
      en: 'must be later than "founded after"',
    });
  }
  // Founded after a date = younger than its age; founded before = older.
  if (after !== undefined) f.maxAgeYears = Math.max(0, round2((now - after) / YEAR_MS));
  if (before !== undefined) f.minAgeYears = Math.max(0, round2((now - before) / YEAR_MS));
  if (input.activeOnly) f.active = true;
  return Object.keys(f).length ? f : undefined;
}

/** Filters as a program gives them (the MCP tools): lists of values as users write them, plus the API's own fields. */
export interface FilterLists {
  industry?: readonly string[];
  state?: readonly string[];
  size?: readonly string[];
  legalForm?: readonly string[];
  city?: string;
  active?: boolean;
  minAgeYears?: number;
  maxAgeYears?: number;
}

/** Largest company age a filter may name (the oldest registered companies are a few centuries old). */
export const MAX_AGE_YEARS = 1000;

/**
 * The API's filters for lists of values, each checked by the same parsers as
 * the filter text and the CLI flags (so "Bayern", "Bavaria", "BY" and "DE-BY"
 * all become DE-BY); errors name `${field}.<filter>`. An empty list filters
 * nothing. Undefined when nothing is filtered.
 */
export function filtersOfLists(input: FilterLists, field = "filters"): SearchFilters | undefined {
  const f: SearchFilters = {};
  for (const kind of ["industry", "state", "size", "legalForm"] as const) {
    const list = input[kind];
    if (list?.length) f[kind] = filterValues(kind, list, `${field}.${kind}`) as never;
  }
  const city = input.city?.trim();
  if (city) {
    if (city.length > 200) throw invalid(`${field}.city`, rule.atMost(200, "string"));
    f.city = city;
  }
  if (input.active !== undefined) f.active = input.active;
  for (const k of ["minAgeYears", "maxAgeYears"] as const) {
    const v = input[k];
    if (v === undefined) continue;
    if (!Number.isFinite(v) || v < 0 || v > MAX_AGE_YEARS)
      throw invalid(
        `${field}.${k}`,
        got(rule.number({ value: 0, inclusive: true }, { value: MAX_AGE_YEARS, inclusive: true }, false), v),
      );
    f[k] = v;
  }
  if (f.minAgeYears !== undefined && f.maxAgeYears !== undefined && f.minAgeYears > f.maxAgeYears)
    throw invalid(`${field}.maxAgeYears`, {
      de: "darf nicht kleiner als minAgeYears sein",
      en: "must not be less than minAgeYears",
    });
  return Object.keys(f).length ? f : undefined;
}

function dateOrThrow(s: string, field: string): number {
  const d = dateOf(s);
  if (d === null)
    throw invalid(field, {
      de: `kein Jahr oder Datum (z. B. 2015 oder 2015-06-30): „${s.trim()}“`,
      en: `not a year or date (e.g. 2015 or 2015-06-30): "${s.trim()}"`,
    });
  return d;
}

/**
 * The proximity filter from what a user types: "52.52, 13.40" is a point,
 * anything else a place (city or postcode) the service geocodes. The radius
 * defaults to `defaultKm`; a radius without a place is refused.
 */
export function nearOf(
  place: string | undefined,
  radiusKm: number | undefined,
  defaultKm: number,
): SearchRequest["near"] {
  const text = place?.trim() ?? "";
  if (!text) {
    if (radiusKm !== undefined)
      throw invalid("near", { de: "fehlt (Umkreis ohne Ort)", en: "is required when a radius is given" });
    return undefined;
  }
  if (radiusKm !== undefined && !(radiusKm > 0 && radiusKm <= 500)) {
    throw invalid("radius_km", {
      de: "eine Zahl größer als 0 und höchstens 500 (km)",
      en: "a number above 0 and at most 500 (km)",
    });
  }
  const km = radiusKm ?? defaultKm;
  const point = /^\s*(-?\d+(?:\.\d+)?)\s*[,;]\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (point) {
    const lat = Number(point[1]);
    const lon = Number(point[2]);
    if (Math.abs(lat) > 90 || Math.abs(lon) > 180)
      throw invalid("near", { de: "Koordinaten außerhalb des gültigen Bereichs", en: "coordinates out of range" });
    return { lat, lon, radiusKm: km };
  }
  if (text.length > 200) throw invalid("near", { de: "höchstens 200 Zeichen", en: "at most 200 characters" });
  return { place: text, radiusKm: km };
}

/** Filter names in a filter text, German and English, folded (case, umlauts, spaces, - and _ ignored). */
const KEYS: Record<string, keyof FilterInput> = {
  industry: "industry",
  branche: "industry",
  wz: "industry",
  state: "state",
  bundesland: "state",
  land: "state",
  size: "sizeClass",
  sizeclass: "sizeClass",
  grosse: "sizeClass",
  groesse: "sizeClass",
  grossenklasse: "sizeClass",
  groessenklasse: "sizeClass",
  legalform: "legalForm",
  rechtsform: "legalForm",
  foundedafter: "foundedAfter",
  gegrundetnach: "foundedAfter",
  gegruendetnach: "foundedAfter",
  foundedbefore: "foundedBefore",
  gegrundetvor: "foundedBefore",
  gegruendetvor: "foundedBefore",
  active: "activeOnly",
  activeonly: "activeOnly",
  aktiv: "activeOnly",
  nuraktive: "activeOnly",
};
const YES = new Set(["", "yes", "ja", "true", "wahr", "1", "x"]);
const NO = new Set(["no", "nein", "false", "falsch", "0"]);

/**
 * A filter text such as "industry=J62; state=DE-BY; size=SMALL,MEDIUM;
 * founded_after=2015; active" (German keys too: "Branche=J62; Bundesland=Bayern;
 * Größe=klein; Rechtsform=GmbH; gegründet_vor=2000; aktiv"). Pairs are
 * separated by ";" or new lines; lists inside a value by ",".
 */
export function parseFilterText(text: string, field = "filters"): FilterInput {
  const out: FilterInput = {};
  for (const pair of text
    .split(/[;\n]/)
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = pair.search(/[=:]/);
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? "" : pair.slice(eq + 1).trim();
    const key = KEYS[fold(rawKey)];
    if (!key) {
      throw invalid(field, {
        de: `unbekannter Filter „${rawKey.trim()}“; bekannt: Branche, Bundesland, Größe, Rechtsform, gegründet_nach, gegründet_vor, aktiv`,
        en: `unknown filter "${rawKey.trim()}"; known: industry, state, size, legal_form, founded_after, founded_before, active`,
      });
    }
    if (key === "activeOnly") {
      const v = value.toLowerCase();
      if (!YES.has(v) && !NO.has(v))
        throw invalid(field, { de: `aktiv: ja oder nein, nicht „${value}“`, en: `active: yes or no, not "${value}"` });
      out.activeOnly = YES.has(v);
    } else {
      if (!value) throw invalid(field, { de: `„${rawKey.trim()}“ ohne Wert`, en: `"${rawKey.trim()}" has no value` });
      out[key] = value;
    }
  }
  return out;
}
