/**
 * The reconciliation service's answers: JSON and HTML with the headers every
 * answer carries (CORS on every endpoint, as 0.2 "Cross-Origin Access" says;
 * no sniffing, no caching), and errors as JSON in German and English with the
 * HTTP status of their kind (0.2 "Error Handling and Rate-limiting": the
 * status codes say what went wrong; the body is the service's own).
 */
import { CompanyDataError } from "../shared/core/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { errorMessage } from "./i18n.ts";

export interface ReconcileResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type",
  "Access-Control-Max-Age": "600",
  "Access-Control-Expose-Headers": "X-Credits-Spent, X-Budget-Remaining",
};
export const SECURITY = { "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store" };

export function json(status: number, value: unknown, extra: Record<string, string> = {}): ReconcileResponse {
  return {
    status,
    headers: { ...CORS, ...SECURITY, "Content-Type": "application/json; charset=utf-8", ...extra },
    body: JSON.stringify(value),
  };
}

export function html(status: number, text: string): ReconcileResponse {
  return {
    status,
    headers: {
      ...CORS,
      ...SECURITY,
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *",
    },
    body: text,
  };
}

/** An image (the logo): cached for a day, nothing in it can run (no script in the file, none allowed). */
export function svg(text: string): ReconcileResponse {
  return {
    status: 200,
    headers: {
      ...CORS,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "public, max-age=86400",
      "Content-Type": "image/svg+xml",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
    body: text,
  };
}

/** HTTP status of an error: the client's fault, the budget, or the API's. */
function statusOf(e: CompanyDataError): number {
  switch (e.code) {
    case "INVALID_INPUT":
      return 400;
    case "BUDGET_EXCEEDED":
    case "OUT_OF_CREDITS":
      return 402;
    case "NOT_FOUND":
      return 404;
    case "RATE_LIMITED":
      return 429;
    case "MISSING_KEY":
    case "INVALID_KEY":
      return 503;
    case "TIMEOUT":
      return 504;
    case "INTERNAL":
      return 500;
    default:
      return 502;
  }
}

/** An error answer: German and English, the code, and for a refusal the budget. */
export function errorResponse(
  e: CompanyDataError,
  lang: Language,
  extra: Record<string, unknown> = {},
): ReconcileResponse {
  const error: Record<string, unknown> = {
    code: e.code,
    message: errorMessage(e, lang),
    de: errorMessage(e, "de"),
    en: errorMessage(e, "en"),
    ...extra,
  };
  if (e.details.field) error.field = e.details.field;
  if (e.details.retryAt) error.retryAt = new Date(e.details.retryAt).toISOString();
  const headers: Record<string, string> = {};
  if (e.details.retryAt)
    headers["Retry-After"] = String(Math.max(1, Math.ceil((e.details.retryAt - Date.now()) / 1000)));
  return json(statusOf(e), { error }, headers);
}
