/** Building answers: JSON bodies and the error body every 4xx/5xx carries (ErrorBody in schemas.ts). */
import { ERROR_STATUS, type ErrorBodyCode } from "../shared/api/index.ts";
import type { HttpResponse } from "../shared/core/index.ts";
import { msg, type Lang, type MsgVar, MESSAGES } from "./i18n.ts";
import type { Rule } from "./rules.ts";

export interface EmulatorResponse extends HttpResponse {
  /** Latency the network wrapper should add before answering. */
  delayMs?: number;
  /** The wrapper should destroy the connection without answering. */
  drop?: boolean;
}

/** The API's error codes (the one table: shared/api/schemas.ts ERROR_STATUS); a bad gateway is a proxy's, not the API's. */
export type ErrorCode = Exclude<ErrorBodyCode, "BAD_GATEWAY">;

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
    ERROR_STATUS[e.code],
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
