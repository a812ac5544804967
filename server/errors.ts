/**
 * Answers the server gives itself, in the API's error body shape
 * ({ error: { code, message, field?, retryAfterSeconds? } }, shared/api/schemas.ts
 * ErrorBody), so every client reads them as it reads the API's.
 */
import type { ServerResponse } from "node:http";
import { ERROR_STATUS, type ErrorBodyCode } from "../shared/api/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import type { OverBudget } from "./ledger/budget.ts";
import { msg } from "./i18n.ts";

/** The codes of the API's error body, and BAD_GATEWAY: the one table (shared/api/schemas.ts ERROR_STATUS). */
export type ServerErrorCode = ErrorBodyCode;
const STATUS = ERROR_STATUS;

export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function errorAnswer(
  code: ServerErrorCode,
  message: string,
  extra: { field?: string; retryAfterSeconds?: number; budget?: OverBudget } = {},
): ErrorAnswer {
  // Every answer says what it cost the user (hosts count X-Credits-Charged): one the server makes itself, nothing.
  const headers: Record<string, string> = {
    "content-type": "application/json; charset=utf-8",
    "x-credits-charged": "0",
  };
  if (extra.retryAfterSeconds !== undefined) headers["retry-after"] = String(extra.retryAfterSeconds);
  if (code === "UNAUTHORIZED") headers["www-authenticate"] = 'Bearer realm="company-data-server"';
  return { status: STATUS[code], headers, body: JSON.stringify({ error: { code, message, ...extra } }) };
}

/** 402 naming the budget, its size and what is left, in the user's language. */
export function overBudgetAnswer(over: OverBudget, lang: Language): ErrorAnswer {
  return errorAnswer(
    "INSUFFICIENT_CREDITS",
    msg.overBudget[lang](over.scope, over.price, over.budget, over.remaining, lang),
    { budget: over },
  );
}

/** `a` saying it cost the user `credits` (part of a batch bought before it failed, a paid answer that could not be used). */
export function withCharge(a: ErrorAnswer, credits: number): ErrorAnswer {
  const before = Number(a.headers["x-credits-charged"] ?? 0) || 0;
  return { ...a, headers: { ...a.headers, "x-credits-charged": String(before + credits) } };
}

/**
 * Write a whole answer: its headers with its Content-Length, then its body. Node's writeHead fixes the
 * headers at once, so without a length the body would go chunked (a size line, the body, a last chunk:
 * several writes and more bytes for every answer); with it, head and body leave in one write.
 */
export function writeAnswer(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, { ...headers, "content-length": String(Buffer.byteLength(body)) }).end(body);
}

export function send(res: ServerResponse, a: ErrorAnswer, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  writeAnswer(res, a.status, { ...a.headers, ...extraHeaders }, a.body);
}
