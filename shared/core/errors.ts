/**
 * The typed error taxonomy. Every failure a user can meet is one of these
 * codes, with a message in German and English. Hosts show `message(lang)`;
 * nothing else (no stack, no API text that could carry the key) reaches a cell.
 */
import type { Language } from "../i18n/language.ts";

export type ErrorCode =
  | "MISSING_KEY" // no API key configured
  | "INVALID_KEY" // 401 from the API
  | "OUT_OF_CREDITS" // 402
  | "NOT_FOUND" // 404 or no match
  | "AMBIGUOUS" // several candidates, none chosen
  | "RATE_LIMITED" // 429, with retry time
  | "SERVER_ERROR" // 5xx
  | "NETWORK" // no answer, connection refused/reset
  | "TIMEOUT" // no answer in time, or the caller's deadline passed
  | "MALFORMED_RESPONSE" // answer not parseable as the schema
  | "INVALID_INPUT" // the user's input, rejected before sending (or a 400)
  | "BUDGET_EXCEEDED" // the add-on's own daily formula budget
  | "INTERNAL"; // a bug of ours: shown neutrally, never as a stack

export interface ErrorDetails {
  /** The input field or parameter at fault. */
  field?: string;
  /** For RATE_LIMITED: when a retry may succeed (epoch ms). */
  retryAt?: number;
  /** For AMBIGUOUS: candidate labels. */
  candidates?: string[];
  /** HTTP status when the error came from an answer. */
  status?: number;
  /** Free detail, already safe to show (never API text with secrets). */
  detail?: string;
}

type MessageFn = (d: ErrorDetails, lang: Language) => string;

const fmtTime = (ms: number, lang: Language) => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  // Local time of the process; cells show HH:MM:SS, which is what a user retries by.
  return lang === "de"
    ? `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} Uhr`
    : `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
};
const field = (d: ErrorDetails) => (d.field ? ` (${d.field})` : "");
const detail = (d: ErrorDetails) => (d.detail ? `: ${d.detail}` : "");

const MESSAGES: Record<ErrorCode, { de: MessageFn; en: MessageFn }> = {
  MISSING_KEY: {
    de: () => "Kein API-Schlüssel hinterlegt. Bitte unter Firmendaten › Einstellungen eintragen.",
    en: () => "No API key set. Please enter it under Company data › Settings.",
  },
  INVALID_KEY: {
    de: () => "Der API-Schlüssel wurde abgelehnt. Bitte in den Einstellungen prüfen.",
    en: () => "The API key was rejected. Please check it in Settings.",
  },
  OUT_OF_CREDITS: {
    de: (d) => `Nicht genug Credits für diese Abfrage${detail(d)}. Bitte Guthaben aufladen.`,
    en: (d) => `Not enough credits for this request${detail(d)}. Please top up your balance.`,
  },
  NOT_FOUND: {
    de: (d) => `Nicht gefunden${detail(d)}.`,
    en: (d) => `Not found${detail(d)}.`,
  },
  AMBIGUOUS: {
    de: (d) => `Mehrdeutig, bitte genauer angeben (Ort, PLZ oder Register)${d.candidates?.length ? ": " + d.candidates.join("; ") : ""}.`,
    en: (d) => `Ambiguous, please be more specific (city, postcode or register)${d.candidates?.length ? ": " + d.candidates.join("; ") : ""}.`,
  },
  RATE_LIMITED: {
    de: (d) => (d.retryAt ? `Zu viele Anfragen. Bitte ab ${fmtTime(d.retryAt, "de")} erneut versuchen.` : "Zu viele Anfragen. Bitte gleich erneut versuchen."),
    en: (d) => (d.retryAt ? `Too many requests. Please try again at ${fmtTime(d.retryAt, "en")}.` : "Too many requests. Please try again shortly."),
  },
  SERVER_ERROR: {
    de: (d) => `Der Datendienst hat einen Fehler gemeldet${d.status ? ` (HTTP ${d.status})` : ""}. Bitte später erneut versuchen.`,
    en: (d) => `The data service reported an error${d.status ? ` (HTTP ${d.status})` : ""}. Please try again later.`,
  },
  NETWORK: {
    de: () => "Keine Verbindung zum Datendienst. Bitte Netzwerk und Basis-URL prüfen.",
    en: () => "Could not reach the data service. Please check the network and the base URL.",
  },
  TIMEOUT: {
    de: () => "Der Datendienst hat nicht rechtzeitig geantwortet. Bitte erneut versuchen.",
    en: () => "The data service did not answer in time. Please try again.",
  },
  MALFORMED_RESPONSE: {
    de: (d) => `Unerwartete Antwort des Datendienstes${field(d)}.`,
    en: (d) => `Unexpected answer from the data service${field(d)}.`,
  },
  INVALID_INPUT: {
    de: (d) => `Ungültige Eingabe${field(d)}${detail(d)}.`,
    en: (d) => `Invalid input${field(d)}${detail(d)}.`,
  },
  BUDGET_EXCEEDED: {
    de: (d) => `Tagesbudget für Formeln erreicht${detail(d)}. In den Einstellungen anpassbar.`,
    en: (d) => `Daily formula budget reached${detail(d)}. You can change it in Settings.`,
  },
  INTERNAL: {
    de: () => "Interner Fehler des Add-ons. Bitte erneut versuchen.",
    en: () => "Internal error in the add-on. Please try again.",
  },
};

export class CompanyDataError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  constructor(code: ErrorCode, details: ErrorDetails = {}) {
    super(MESSAGES[code].en(details, "en"));
    this.name = "CompanyDataError";
    this.code = code;
    this.details = details;
  }
  /** The message to show the user. */
  text(lang: Language): string {
    return MESSAGES[this.code][lang](this.details, lang);
  }
  /** Worth retrying automatically (the retry policy decides how and when). */
  get transient(): boolean {
    return this.code === "RATE_LIMITED" || this.code === "SERVER_ERROR" || this.code === "NETWORK" || this.code === "TIMEOUT";
  }
}

export const isCompanyDataError = (e: unknown): e is CompanyDataError => e instanceof CompanyDataError;

/** Shorthand for rejecting bad input with the field named. */
export function invalid(field: string, detail: string): CompanyDataError {
  return new CompanyDataError("INVALID_INPUT", { field, detail });
}

/**
 * Any thrown value as a CompanyDataError, for the last line of defence in a
 * host: an unexpected exception becomes a neutral message, never a stack.
 */
export function toCompanyDataError(e: unknown): CompanyDataError {
  if (e instanceof CompanyDataError) return e;
  return new CompanyDataError("INTERNAL");
}
