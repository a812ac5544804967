/** Building answers: JSON bodies and the error body every 4xx/5xx carries (ErrorBody in schemas.ts). */
import type { HttpResponse } from "../shared/core/index.ts";
import { msg, type Lang, type MsgVar, MESSAGES } from "./i18n.ts";
import type { Rule } from "./rules.ts";

export interface EmulatorResponse extends HttpResponse {
  /** Latency the network wrapper should add before answering. */
  delayMs?: number;
  /** The wrapper should destroy the connection without answering. */
  drop?: boolean;
}

export type ErrorCode =
  | "INVALID_INPUT"
  | "UNAUTHORIZED"
  | "INSUFFICIENT_CREDITS"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "RATE_LIMITED"
  | "SERVER_ERROR"
  | "UNAVAILABLE";

export const STATUS_OF: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_CREDITS: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
  UNAVAILABLE: 503,
};

/** A failure a handler or check raises; turned into an error answer by the pipeline. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly messageKey: keyof typeof MESSAGES,
    readonly vars: Record<string, MsgVar> = {},
    readonly field?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(code);
  }
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): EmulatorResponse {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
    body: JSON.stringify(body),
  };
}

export function errorResponse(e: ApiError, lang: Lang): EmulatorResponse {
  const headers: Record<string, string> = {};
  if (e.retryAfterSeconds !== undefined) headers["retry-after"] = String(e.retryAfterSeconds);
  if (e.code === "UNAUTHORIZED") headers["www-authenticate"] = 'Bearer realm="company-data"';
  return json(
    STATUS_OF[e.code],
    {
      error: {
        code: e.code,
        message: msg(e.messageKey, lang, e.vars),
        ...(e.field !== undefined ? { field: e.field } : {}),
        ...(e.retryAfterSeconds !== undefined ? { retryAfterSeconds: e.retryAfterSeconds } : {}),
      },
    },
    headers,
  );
}

/** 400 naming the field and, when known, the rule the value broke. */
export const invalid = (field: string, rule?: Rule) =>
  rule
    ? new ApiError("INVALID_INPUT", "invalidFieldRule", { what: field, rule }, field)
    : new ApiError("INVALID_INPUT", "invalidField", { what: field }, field);
export const notFound = (what: string, field?: string) => new ApiError("NOT_FOUND", "notFound", { what }, field);
