/**
 * The typed error taxonomy. Every failure a user can meet is one of these
 * codes, with a message in German and English. Hosts show `message(lang)`;
 * nothing else (no stack, no API text that could carry the key) reaches a cell.
 */
import type { Bilingual, Language } from "../i18n/index.ts";
import { fieldLabel } from "../i18n/index.ts";

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
  | "STORAGE_FULL" // this document's storage (the host's per-document store) is full
  | "INTERNAL"; // a bug of ours: shown neutrally, never as a stack

export interface ErrorDetails {
  /** The input field or parameter at fault: an internal id (`baseUrl`, `rows[3].name`); messages show its label. */
  field?: string;
  /** The field's name as the user knows it, where the id's label (shared/i18n/fields.ts) would not fit. */
  label?: Bilingual;
  /** For RATE_LIMITED: when a retry may succeed (epoch ms). */
  retryAt?: number;
  /** For AMBIGUOUS: candidate labels. */
  candidates?: string[];
  /** HTTP status when the error came from an answer. */
  status?: number;
  /** What is wrong, in both languages, already safe to show (never API text with secrets). */
  detail?: Bilingual;
  /** For OUT_OF_CREDITS: refused by a team server (whose budgets its admin sets; the user has nothing to top up). */
  teamServer?: boolean;
  /** The team server's budget it refused by (its 402 `error.budget`), when it said. */
  teamBudget?: TeamBudget;
}

/** A team server's budget at a refusal: the user's or the team's monthly budget, what it spent, what is left, the price asked. */
export interface TeamBudget {
  scope: "user" | "team";
  budget: number;
  spent: number;
  remaining: number;
  price: number;
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
const field = (d: ErrorDetails, lang: Language) => {
  const name = d.label?.[lang] ?? (d.field ? fieldLabel(d.field, lang) : "");
  return name ? ` (${name})` : "";
};
/**
 * The detail in the message's language. A detail that is not bilingual (a
 * caller outside the type system) is left out rather than shown in the wrong
 * language; a closing full stop is dropped because the message adds its own.
 */
const detail = (d: ErrorDetails, lang: Language) => {
  const t = d.detail && typeof d.detail === "object" ? d.detail[lang] : undefined;
  return typeof t === "string" && t.trim() ? `: ${t.trim().replace(/\.$/, "")}` : "";
};

const grouped = (n: number, lang: Language) => n.toLocaleString(lang === "de" ? "de-DE" : "en-GB");
const creditsWord = (n: number, lang: Language) =>
  `${grouped(n, lang)} ${lang === "de" ? (n === 1 ? "Credit" : "Credits") : n === 1 ? "credit" : "credits"}`;

/** A team server's refusal: the budget, what is left and the price; without the figures, the team's account. */
export function teamBudgetText(b: TeamBudget | undefined, lang: Language): string {
  if (!b)
    return lang === "de"
      ? "Das Konto des Teams hat nicht genug Credits für diese Abfrage"
      : "The team's account has not enough credits for this request";
  const [price, budget, left] = [creditsWord(b.price, lang), creditsWord(b.budget, lang), grouped(b.remaining, lang)];
  if (lang === "de")
    return `${b.scope === "user" ? "Ihr Monatsbudget auf dem Team-Server" : "Das Monatsbudget des Teams"} reicht nicht: Budget ${budget}, übrig ${left}, diese Abfrage kostet ${price}`;
  return `${b.scope === "user" ? "Your monthly budget on the team server" : "The team's monthly budget"} is not enough: budget ${budget}, ${left} left, this request costs ${price}`;
}

const MESSAGES: Record<ErrorCode, { de: MessageFn; en: MessageFn }> = {
  // field "serverToken": the team server's personal token stands where the key would (Settings › Connection).
  MISSING_KEY: {
    de: (d) =>
      d.field === "serverToken"
        ? "Kein Team-Server oder kein persönliches Token hinterlegt. Bitte unter Firmendaten › Einstellungen eintragen."
        : "Kein API-Schlüssel hinterlegt. Bitte unter Firmendaten › Einstellungen eintragen.",
    en: (d) =>
      d.field === "serverToken"
        ? "No team server or no personal token set. Please enter them under Company data › Settings."
        : "No API key set. Please enter it under Company data › Settings.",
  },
  INVALID_KEY: {
    // With a detail: malformed before sending (shared/api/client.ts), not rejected by the service.
    de: (d) =>
      d.field === "serverToken"
        ? d.detail
          ? `Das persönliche Token ist fehlerhaft${detail(d, "de")}. Bitte in den Einstellungen prüfen.`
          : "Der Team-Server hat das persönliche Token abgelehnt (ungültig oder zurückgezogen). Bitte in den Einstellungen prüfen oder ein neues Token erbitten."
        : d.detail
          ? `Der API-Schlüssel ist fehlerhaft${detail(d, "de")}. Bitte in den Einstellungen prüfen.`
          : "Der API-Schlüssel wurde abgelehnt. Bitte in den Einstellungen prüfen.",
    en: (d) =>
      d.field === "serverToken"
        ? d.detail
          ? `The personal token is malformed${detail(d, "en")}. Please check it in Settings.`
          : "The team server refused the personal token (invalid or revoked). Please check it in Settings or ask for a new token."
        : d.detail
          ? `The API key is malformed${detail(d, "en")}. Please check it in Settings.`
          : "The API key was rejected. Please check it in Settings.",
  },
  // Through a team server the user cannot top up: the admin sets budgets and the team's account.
  OUT_OF_CREDITS: {
    de: (d) =>
      d.teamServer
        ? `${teamBudgetText(d.teamBudget, "de")}${detail(d, "de")}. Bitte wenden Sie sich an den Admin Ihres Teams.`
        : `Nicht genug Credits für diese Abfrage${detail(d, "de")}. Bitte Guthaben aufladen.`,
    en: (d) =>
      d.teamServer
        ? `${teamBudgetText(d.teamBudget, "en")}${detail(d, "en")}. Please ask your team's admin.`
        : `Not enough credits for this request${detail(d, "en")}. Please top up your balance.`,
  },
  NOT_FOUND: {
    de: (d) => `Nicht gefunden${detail(d, "de")}.`,
    en: (d) => `Not found${detail(d, "en")}.`,
  },
  AMBIGUOUS: {
    de: (d) =>
      `Mehrdeutig, bitte genauer angeben (Ort, PLZ oder Register)${d.candidates?.length ? ": " + d.candidates.join("; ") : ""}.`,
    en: (d) =>
      `Ambiguous, please be more specific (city, postcode or register)${d.candidates?.length ? ": " + d.candidates.join("; ") : ""}.`,
  },
  RATE_LIMITED: {
    de: (d) =>
      d.retryAt
        ? `Zu viele Anfragen. Bitte ab ${fmtTime(d.retryAt, "de")} erneut versuchen.`
        : "Zu viele Anfragen. Bitte gleich erneut versuchen.",
    en: (d) =>
      d.retryAt
        ? `Too many requests. Please try again at ${fmtTime(d.retryAt, "en")}.`
        : "Too many requests. Please try again shortly.",
  },
  SERVER_ERROR: {
    de: (d) =>
      `Der Datendienst hat einen Fehler gemeldet${d.status ? ` (HTTP ${d.status})` : ""}. Bitte später erneut versuchen.`,
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
    de: (d) => `Unerwartete Antwort des Datendienstes${field(d, "de")}.`,
    en: (d) => `Unexpected answer from the data service${field(d, "en")}.`,
  },
  INVALID_INPUT: {
    de: (d) => `Ungültige Eingabe${field(d, "de")}${detail(d, "de")}.`,
    en: (d) => `Invalid input${field(d, "en")}${detail(d, "en")}.`,
  },
  BUDGET_EXCEEDED: {
    de: (d) => `Tagesbudget für Formeln erreicht${detail(d, "de")}. In den Einstellungen anpassbar.`,
    en: (d) => `Daily formula budget reached${detail(d, "en")}. You can change it in Settings.`,
  },
  STORAGE_FULL: {
    de: (d) =>
      `Der Speicher dieses Dokuments ist voll${detail(d, "de") || ". Bitte nicht mehr benötigte Daten entfernen oder ein weiteres Dokument verwenden"}.`,
    en: (d) =>
      `This document's storage is full${detail(d, "en") || ". Please remove data you no longer need or use another document"}.`,
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
    return (
      this.code === "RATE_LIMITED" || this.code === "SERVER_ERROR" || this.code === "NETWORK" || this.code === "TIMEOUT"
    );
  }
}

export const isCompanyDataError = (e: unknown): e is CompanyDataError => e instanceof CompanyDataError;

/**
 * Shorthand for rejecting bad input with the field named and what is wrong
 * in both languages (see shared/i18n/rules.ts for the common rules).
 */
export function invalid(field: string, detail: Bilingual, label?: Bilingual): CompanyDataError {
  return new CompanyDataError("INVALID_INPUT", label ? { field, detail, label } : { field, detail });
}

/** Every code, for tests and hosts that list them. */
export const ERROR_CODES = Object.keys(MESSAGES) as ErrorCode[];

/**
 * Any thrown value as a CompanyDataError, for the last line of defence in a
 * host: an unexpected exception becomes a neutral message, never a stack.
 */
export function toCompanyDataError(e: unknown): CompanyDataError {
  if (e instanceof CompanyDataError) return e;
  return new CompanyDataError("INTERNAL");
}
