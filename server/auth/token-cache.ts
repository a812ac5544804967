/**
 * A token's user, kept in memory for at most TOKEN_CACHE_MS (issue 43,
 * item 4): 2,000 requests at once with one team's tokens ask the database
 * once per token and second instead of once per request. A revoked or
 * expired token is refused within TOKEN_CACHE_MS of the change on every
 * process (the entry's age counts from when the database was asked, so a
 * slow answer does not stretch it). Only accepted tokens are kept; a refused
 * one is shared only by the requests that asked while it was being looked
 * up, so an unknown token costs a lookup each time, as before.
 */
import type { Sql } from "../db/db.ts";
import { recent, type Recent } from "../recent.ts";
import { checkToken, hashToken, tokenChanges, type TokenCheck } from "./tokens.ts";

export const TOKEN_CACHE_MS = 1000;

const caches = new WeakMap<Sql, { changes: number; cache: Recent<TokenCheck> }>();

/**
 * checkToken, with each accepted token's user kept TOKEN_CACHE_MS (per database: a test's servers do not share
 * it); a revocation or rotation made by this process empties it at once (tokens.ts tokenChanges).
 */
export function checkTokenCached(db: Sql, authorization: string | undefined): Promise<TokenCheck> {
  let entry = caches.get(db);
  if (!entry || entry.changes !== tokenChanges()) {
    entry = { changes: tokenChanges(), cache: recent<TokenCheck>(TOKEN_CACHE_MS, { keep: (c) => "user" in c }) };
    caches.set(db, entry);
  }
  const cache = entry.cache;
  // Keyed by the token's hash: the map holds no secret a heap dump could show.
  return cache.get(hashToken(authorization ?? ""), () => checkToken(db, authorization));
}
