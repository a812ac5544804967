/**
 * Every label the emulator answers with, in German and English
 * (Accept-Language: DE | EN). Codes are stable; only `name` changes.
 */
import { LABELS } from "../shared/api/index.ts";

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

type Dict = Readonly<Record<string, { de: string; en: string }>>;

// The label tables are the shared core's (one table for the emulator and the clients: shared/api/labels.ts).
export const LEGAL_FORMS: Dict = LABELS.legalForm;
export const SIZE_LABELS: Dict = LABELS.size;
export const STATUS_LABELS: Dict = LABELS.status;
export const ANNOUNCEMENT_LABELS: Dict = LABELS.type;
export const CHANGE_LABELS: Dict = LABELS.kind;
export const ROLE_LABELS: Dict = LABELS.role;

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
