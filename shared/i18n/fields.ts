/**
 * The names users see for the fields our messages point at. Errors carry the
 * internal id (`baseUrl`, `rows[3].name`, a function's `radius_km`) for code
 * and tests; the message shows the label in the user's language, so a German
 * user reads "Basis-URL", never "baseUrl". Ids not listed are shown as they
 * are (sheet headers, keys a host gave us).
 */
import type { Bilingual, Language } from "./language.ts";

const l = (de: string, en: string): Bilingual => ({ de, en });

export const FIELD_LABELS = {
  // settings (the same words as the settings panel)
  apiKey: l("API-Schlüssel", "API key"),
  baseUrl: l("Basis-URL", "base URL"),
  connection: l("Verbindung", "connection"),
  serverUrl: l("Adresse des Team-Servers", "team server address"),
  serverToken: l("persönliches Token", "personal token"),
  language: l("Sprache", "language"),
  formulaDailyBudget: l("Tagesbudget für Formeln", "daily formula budget"),
  cacheHours: l("Zwischenspeicher (Stunden)", "cache lifetime (hours)"),
  matchFloor: l("Mindest-Trefferqualität", "minimum match confidence"),
  rateLimits: l("Ratenbegrenzung", "rate limits"),
  // searching and looking up (app methods, core operations, function arguments)
  query: l("Suchtext", "search text"),
  /** What resolve takes (a name plus hints); its field id stays "query". */
  resolveQuery: l("Firmenanfrage", "company query"),
  search: l("Suche", "search"),
  filters: l("Filter", "filters"),
  place: l("Ort", "place"),
  near: l("Ort für die Umkreissuche", "place for the proximity search"),
  lat: l("Breitengrad", "latitude"),
  lon: l("Längengrad", "longitude"),
  radiusKm: l("Umkreis in km", "radius in km"),
  radius_km: l("Umkreis in km", "radius in km"),
  size: l("Anzahl Treffer", "number of results"),
  offset: l("Startposition", "offset"),
  from: l("Startposition", "offset"),
  industry: l("Branche", "industry"),
  state: l("Bundesland", "state"),
  legalForm: l("Rechtsform", "legal form"),
  minAgeYears: l("Mindestalter (Jahre)", "minimum age (years)"),
  maxAgeYears: l("Höchstalter (Jahre)", "maximum age (years)"),
  "filters.size": l("Größenklasse", "size class"),
  "filters.city": l("Ort", "city"),
  "filters.active": l("nur aktive Firmen", "active companies only"),
  prefix: l("Namensanfang", "name prefix"),
  id: l("Firmen-ID", "company ID"),
  ids: l("Firmen-IDs", "company IDs"),
  companies: l("Firmen", "companies"),
  candidateId: l("gewählte Firma", "chosen company"),
  personId: l("Personen-ID", "person ID"),
  person_id: l("Personen-ID", "person ID"),
  since: l("Datum „seit“", "since date"),
  year: l("Geschäftsjahr", "financial year"),
  metric: l("Kennzahl", "metric"),
  include: l("Zusatzdaten", "extra data"),
  fields: l("Felder", "fields"),
  kind: l("Art", "kind"),
  name: l("Firmenname", "company name"),
  city: l("Ort", "city"),
  zip: l("PLZ", "postcode"),
  register: l("Register", "register"),
  zip_or_register: l("PLZ oder Register", "postcode or register"),
  // identifiers a row can be matched by (shared/operations/identifiers.ts)
  website: l("Website", "website"),
  vatId: l("USt-IdNr.", "VAT id"),
  lei: l("LEI", "LEI"),
  rows: l("Zeilen", "rows"),
  row: l("Zeile", "row"),
  mode: l("Verfahren", "mode"),
  maxBatch: l("Stapelgröße", "batch size"),
  maxPages: l("Seitenzahl", "number of pages"),
  // enrichment and sheets
  jobId: l("Anreicherungslauf", "enrichment run"),
  columns: l("Spalten", "columns"),
  headers: l("Kopfzeile", "header row"),
  headerRow: l("Kopfzeile", "header row"),
  col: l("Spalte", "column"),
  cols: l("Spaltenzahl", "number of columns"),
  sheet: l("Tabellenblatt", "sheet"),
  range: l("Bereich", "range"),
  selection: l("Auswahl", "selection"),
  output: l("Ausgabespalten", "output columns"),
  rerun: l("Wiederholung", "rerun"),
  days: l("Tage", "days"),
  // monitoring
  schedule: l("Zeitplan", "schedule"),
  frequency: l("Häufigkeit", "frequency"),
  hour: l("Uhrzeit (Stunde)", "hour of day"),
  enabled: l("aktiv", "enabled"),
  budget: l("Credit-Budget", "credit budget"),
  windowRows: l("Zeilen je Schritt", "rows per step"),
  // the app service's envelope and internal entry points
  method: l("Methode", "method"),
  input: l("Eingabe", "input"),
  operation: l("Vorgang", "operation"),
  endpoint: l("Endpunkt", "endpoint"),
  calls: l("Aufrufe", "calls"),
  parts: l("Teile", "parts"),
  distinct: l("verschiedene Zeilen", "distinct rows"),
  cached: l("Zeilen im Zwischenspeicher", "cached rows"),
  ctx: l("Kontext", "context"),
  key: l("Suchschlüssel", "lookup key"),
  statusCode: l("Statuscode", "status code"),
  active: l("aktiv", "active"),
  body: l("Anfrage", "request"),
} as const satisfies Readonly<Record<string, Bilingual>>;

/** The label of a field id, if it has one (any string may be asked). */
const labelOf = (id: string): Bilingual | undefined =>
  (FIELD_LABELS as Readonly<Record<string, Bilingual | undefined>>)[id];

/** One entry of a list field, counted from 1 as in a sheet: "Zeile 4", "company ID 3". */
const ITEM_LABELS: Readonly<Record<string, Bilingual | undefined>> = {
  rows: l("Zeile", "row"),
  ids: l("Firmen-ID", "company ID"),
  companies: l("Firma", "company"),
  headers: l("Kopfzelle", "header cell"),
  fields: l("Feld", "field"),
  columns: l("Spalte", "column"),
};

/** The label of one path segment, or the segment itself when we have none. */
const segment = (s: string, lang: Language) => labelOf(s)?.[lang] ?? s;

/**
 * A field id as the user reads it: "baseUrl" → "Basis-URL"; a path
 * "rows[3].name" → "Zeilen Nr. 4 › Firmenname" (positions count from 1, as in
 * a sheet). Unknown segments stay as they are.
 */
export function fieldLabel(field: string, lang: Language): string {
  const whole = labelOf(field);
  if (whole) return whole[lang];
  const raw = field.split(".");
  const parts = raw.map((part, i) => {
    // A segment may mean something else under its parent ("filters.size" is a size class, not a count).
    const m = /^([^[\]]*)((?:\[\d+\])+)$/.exec(part);
    const name = m?.[1] ?? part;
    const parent = i > 0 ? raw[i - 1] : undefined;
    const scoped = parent !== undefined ? labelOf(`${parent.replace(/(\[\d+\])+$/, "")}.${name}`) : undefined;
    const label = scoped ? scoped[lang] : name ? segment(name, lang) : "";
    if (!m) return label;
    const idx = [...(m[2] ?? "").matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]) + 1);
    const item = !scoped && idx.length === 1 ? ITEM_LABELS[name]?.[lang] : undefined;
    if (item) return `${item} ${idx[0]}`;
    const nr = idx.map((n) => (lang === "de" ? `Nr. ${n}` : `no. ${n}`)).join(" ");
    return label ? `${label} ${nr}` : nr;
  });
  return parts.join(" › ");
}
