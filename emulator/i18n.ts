/**
 * Every label the emulator answers with, in German and English
 * (Accept-Language: DE | EN). Codes are stable; only `name` changes.
 */
export type Lang = "de" | "en";

/** Decision: German is the default, as the service is German; EN on request. */
export const DEFAULT_LANG: Lang = "de";

export function langOf(headers: Record<string, string>): Lang {
  let v: string | undefined;
  for (const [k, value] of Object.entries(headers)) if (k.toLowerCase() === "accept-language") v = value;
  if (!v) return DEFAULT_LANG;
  // "en-US,en;q=0.9,de;q=0.8": the first listed language wins; q-values are not weighed.
  const first = (v.split(",")[0] ?? "").trim().slice(0, 2).toLowerCase();
  return first === "en" ? "en" : first === "de" ? "de" : DEFAULT_LANG;
}

type Dict = Record<string, { de: string; en: string }>;

export const LEGAL_FORMS: Dict = {
  GMBH: { de: "Gesellschaft mit beschränkter Haftung", en: "Limited liability company" },
  AG: { de: "Aktiengesellschaft", en: "Stock corporation" },
  SE: { de: "Europäische Gesellschaft", en: "European company" },
  UG: { de: "Unternehmergesellschaft (haftungsbeschränkt)", en: "Entrepreneurial company (limited liability)" },
  GMBH_CO_KG: { de: "GmbH & Co. KG", en: "Limited partnership with a limited liability company as general partner" },
  KG: { de: "Kommanditgesellschaft", en: "Limited partnership" },
  KGAA: { de: "Kommanditgesellschaft auf Aktien", en: "Partnership limited by shares" },
  OHG: { de: "Offene Handelsgesellschaft", en: "General partnership" },
  EK: { de: "Eingetragener Kaufmann", en: "Registered merchant" },
  EG: { de: "Eingetragene Genossenschaft", en: "Registered cooperative" },
  PARTG: { de: "Partnerschaftsgesellschaft", en: "Partnership company" },
};

export const SIZE_LABELS: Dict = {
  MICRO: { de: "Kleinstunternehmen", en: "Micro enterprise" },
  SMALL: { de: "Kleines Unternehmen", en: "Small enterprise" },
  MEDIUM: { de: "Mittleres Unternehmen", en: "Medium-sized enterprise" },
  LARGE: { de: "Großunternehmen", en: "Large enterprise" },
};

export const STATUS_LABELS: Dict = {
  ACTIVE: { de: "Aktiv", en: "Active" },
  IN_LIQUIDATION: { de: "In Liquidation", en: "In liquidation" },
  INSOLVENT: { de: "Insolvenzverfahren", en: "Insolvency proceedings" },
  DELETED: { de: "Gelöscht", en: "Deleted" },
  INACTIVE: { de: "Inaktiv", en: "Inactive" },
};

export const ANNOUNCEMENT_LABELS: Dict = {
  NEW_ENTRY: { de: "Neueintragung", en: "New entry" },
  CHANGE: { de: "Veränderung", en: "Change" },
  MANAGEMENT_CHANGE: { de: "Wechsel der Geschäftsführung", en: "Management change" },
  CAPITAL_CHANGE: { de: "Kapitaländerung", en: "Capital change" },
  LIQUIDATION: { de: "Auflösung / Liquidation", en: "Dissolution / liquidation" },
  INSOLVENCY: { de: "Insolvenzbekanntmachung", en: "Insolvency notice" },
  DELETION: { de: "Löschung", en: "Deletion" },
};

export const CHANGE_LABELS: Dict = {
  NAME: { de: "Firmenname", en: "Company name" },
  ADDRESS: { de: "Anschrift", en: "Address" },
  MANAGEMENT: { de: "Management", en: "Management" },
  CAPITAL: { de: "Kapital", en: "Capital" },
  STATUS: { de: "Status", en: "Status" },
  LEGAL_FORM: { de: "Rechtsform", en: "Legal form" },
  PURPOSE: { de: "Unternehmensgegenstand", en: "Purpose" },
  ANNOUNCEMENT: { de: "Bekanntmachung", en: "Announcement" },
};

export const ROLE_LABELS: Dict = {
  MANAGING_DIRECTOR: { de: "Geschäftsführer/in", en: "Managing director" },
  BOARD_MEMBER: { de: "Vorstandsmitglied", en: "Board member" },
  CHAIR: { de: "Vorstandsvorsitzende/r", en: "Chair of the board" },
  SUPERVISORY_BOARD: { de: "Aufsichtsratsmitglied", en: "Supervisory board member" },
  PROKURIST: { de: "Prokurist/in", en: "Authorised signatory" },
  GENERAL_PARTNER: { de: "Persönlich haftende/r Gesellschafter/in", en: "General partner" },
  OWNER: { de: "Inhaber/in", en: "Owner" },
  PARTNER: { de: "Partner/in", en: "Partner" },
  LIQUIDATOR: { de: "Liquidator/in", en: "Liquidator" },
};

export function label(dict: Dict, code: string, lang: Lang): { code: string; name: string } {
  const e = dict[code];
  return { code, name: e ? e[lang] : code };
}

export const MESSAGES = {
  unauthorized: { de: "API-Schlüssel fehlt oder ist unbekannt.", en: "API key missing or unknown." },
  insufficientCredits: {
    de: "Guthaben reicht nicht: der Aufruf kostet {cost} Credits, verfügbar sind {balance}.",
    en: "Insufficient credits: the call costs {cost} credits, {balance} are available.",
  },
  notFound: { de: "Nicht gefunden: {what}.", en: "Not found: {what}." },
  noRoute: { de: "Unbekannter Pfad: {what}.", en: "Unknown path: {what}." },
  methodNotAllowed: { de: "Methode {what} ist hier nicht erlaubt.", en: "Method {what} is not allowed here." },
  rateLimited: {
    de: "Zu viele Anfragen. Bitte in {seconds} s erneut versuchen.",
    en: "Too many requests. Retry in {seconds} s.",
  },
  tooManyConcurrent: {
    de: "Zu viele gleichzeitige Anfragen: höchstens {max} je Schlüssel. Bitte erneut versuchen, sobald eine Antwort da ist.",
    en: "Too many concurrent requests: at most {max} per key. Retry once an answer has arrived.",
  },
  payloadTooLarge: {
    de: "Anfrage zu groß (höchstens {max} Bytes).",
    en: "Request body too large (at most {max} bytes).",
  },
  controlHost: {
    de: "Die Steuerung des Emulators antwortet nur unter localhost, 127.0.0.1 oder [::1] (Host: {what}).",
    en: "The emulator's control endpoints answer only as localhost, 127.0.0.1 or [::1] (Host: {what}).",
  },
  controlJson: {
    de: "Die Steuerung des Emulators nimmt POST nur mit Content-Type: application/json an (eine fremde Webseite kann so nichts ändern).",
    en: "The emulator's control endpoints take a POST only with Content-Type: application/json (so a foreign web page cannot change anything).",
  },
  malformedJson: { de: "Der Anfrageinhalt ist kein gültiges JSON.", en: "The request body is not valid JSON." },
  bodyRequired: { de: "Anfrageinhalt (JSON) fehlt.", en: "Request body (JSON) is missing." },
  unknownParam: { de: "Unbekannter Parameter: {what}.", en: "Unknown parameter: {what}." },
  repeatedParam: { de: "Parameter {what} darf nur einmal vorkommen.", en: "Parameter {what} may appear only once." },
  unknownField: { de: "Unbekanntes Feld: {what}.", en: "Unknown field: {what}." },
  unknownFieldRule: { de: "Unbekanntes Feld: {what} ({rule}).", en: "Unknown field: {what} ({rule})." },
  invalidField: { de: "Ungültiger Wert für {what}.", en: "Invalid value for {what}." },
  invalidFieldRule: { de: "Ungültiger Wert für {what}: {rule}.", en: "Invalid value for {what}: {rule}." },
  invalidId: { de: "Ungültige Kennung: {what}.", en: "Invalid id: {what}." },
  invalidIdRule: { de: "Ungültige Kennung ({what}): {rule}.", en: "Invalid id ({what}): {rule}." },
  serverError: { de: "Interner Fehler (simuliert).", en: "Internal error (simulated)." },
  unavailable: {
    de: "Dienst vorübergehend nicht verfügbar (simuliert).",
    en: "Service temporarily unavailable (simulated).",
  },
} as const satisfies Dict;

/** A message variable: plain, or bilingual (a rule) and picked by language. */
export type MsgVar = string | number | { de: string; en: string };

export function msg(key: keyof typeof MESSAGES, lang: Lang, vars: Record<string, MsgVar> = {}): string {
  return MESSAGES[key][lang].replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = vars[k] ?? "";
    return typeof v === "object" ? v[lang] : String(v);
  });
}
