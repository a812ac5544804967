/**
 * The parts of a request the front door reads before it knows the route:
 * the user's language, the Origin, the body within a limit; and the refusal
 * that closes the connection instead of reading a body.
 */
import type * as http from "node:http";
import { send, type ErrorAnswer } from "../errors.ts";
import { closeUnread, readBody } from "../../node/index.ts";

export { readBody };

export const MAX_BODY_BYTES = 1024 * 1024;
/** Bodies of methods that carry none (GET, DELETE, HEAD): what a client may still send by habit. */
export const BODYLESS_MAX_BYTES = 16 * 1024;

/** ?lang= wins over Accept-Language (its first language); German otherwise, as the API. */
export { languageOf } from "../language.ts";

/** An origin as the browser sends it: scheme://host[:port], lower case, no path. */
export function normaliseOrigin(o: string): string {
  const u = new URL(o);
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new Error(`origin must be http(s): ${o}`);
  return u.origin;
}

/**
 * A request from a page this server served itself (the console at /console):
 * its Origin names this server's own host. Browsers send Origin on a
 * same-origin POST too; it is not a cross-origin call, so --allow-origin is
 * not needed for it. (A page of another site cannot send this server's host
 * as its Origin; a rebinding page that could would still hold no token: the
 * server takes bearer tokens only, no cookies.)
 */
export function sameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * The request's body within `max` bytes (null: larger). A request with neither Content-Length nor
 * Transfer-Encoding has none (RFC 9112, 6.3): "" without listening to its stream (node:http drains it).
 */
export function bodyOf(req: http.IncomingMessage, max: number): Promise<string | null> {
  const h = req.headers;
  if (h["content-length"] === undefined && h["transfer-encoding"] === undefined) return Promise.resolve("");
  return readBody(req, max);
}

/** The body limit for a request: the route's (or the server's), at most BODYLESS_MAX_BYTES for GET, HEAD, DELETE. */
export function bodyLimit(method: string, routeMax: number | undefined, serverMax: number): number {
  const bodyless = method === "GET" || method === "HEAD" || method === "DELETE";
  return Math.min(routeMax ?? serverMax, bodyless ? BODYLESS_MAX_BYTES : Infinity);
}

/**
 * An answer given before the body is read (or while it is still coming):
 * the connection is closed after it, so the rest of the body is never read
 * (node/close-unread.ts: what is already in the socket's buffers stays there).
 */
export function refuse(res: http.ServerResponse, a: ErrorAnswer, headers: Record<string, string>): void {
  closeUnread(res);
  send(res, a, { ...headers, connection: "close" });
}
