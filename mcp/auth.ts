/**
 * Who may talk to the HTTP server. One seam, `Authenticate`: the bearer
 * token of a request in, the principal it speaks for out (or null: 401).
 * Today there is one token per server process (COMPANY_DATA_MCP_TOKEN),
 * required whenever the server listens beyond loopback; the team server can
 * pass a function that looks up its personal tokens instead, and sessions
 * stay bound to the principal that opened them either way.
 *
 * The token is compared in constant time (digests of equal length with
 * timingSafeEqual) and never written anywhere: not in a log line, an error
 * or a response.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The one who opened a session; a session answers only its own principal. */
export interface Principal {
  id: string;
}

/** The bearer token of a request (undefined when it sent none) → its principal, or null when refused. */
export type Authenticate = (bearer: string | undefined) => Promise<Principal | null>;

/** Shortest token accepted: a guessable token would open the key's credits to the network. */
export const MIN_TOKEN_LENGTH = 16;

/** The variable the server's token is read from (never a flag: flags show in `ps`). */
export const TOKEN_ENV = "COMPANY_DATA_MCP_TOKEN";

/** Loopback without a token: every request speaks for the user who started the server. */
export const localUser: Authenticate = () => Promise.resolve({ id: "local" });

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** One shared token: a request with it is the principal "token". */
export function tokenAuthenticator(token: string): Authenticate {
  const want = digest(token);
  return (bearer) =>
    Promise.resolve(bearer !== undefined && timingSafeEqual(digest(bearer), want) ? { id: "token" } : null);
}

/** The token of `Authorization: Bearer <token>` (RFC 6750 §2.1; the scheme is case-insensitive), or undefined. */
export function bearerOf(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  const m = typeof h === "string" ? /^Bearer +(\S+)\s*$/i.exec(h) : null;
  return m?.[1];
}
