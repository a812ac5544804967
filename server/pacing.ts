/**
 * One pacer for the team across processes. The API limits its free
 * endpoints per key with token buckets (shared/api/pacing.ts); every server
 * process on one database sends with the same key, so the slots are taken
 * from the database, not from a process's memory: one row per bucket holds
 * the theoretical arrival time of the next request (GCRA, the token bucket
 * written as one timestamp), and a request takes its slot with one
 * `UPDATE … RETURNING` (the row lock serialises the processes; PGlite runs
 * one statement at a time anyway). Times are the database's clock, so the
 * processes' clocks need not agree.
 *
 * A margin keeps the team under the limit when requests bunch on the way
 * (one delayed by a busy event loop or network, the next on time): a
 * second's worth of tokens of the burst is kept in reserve (at least one
 * token goes at once), and the rate is 90 % of the API's. The in-process Pacer of the
 * client still runs behind this gate (it never waits longer); a 429 with
 * Retry-After is still waited for (the API did not count it).
 */
import type { RateBucket, RateLimit } from "../shared/api/index.ts";
import { fnv1a32 } from "../shared/core/index.ts";
import type { Db } from "./db/db.ts";

/** Fraction of the API's rate the team uses. */
export const TEAM_RATE_SHARE = 0.9;

export interface TeamPacer {
  /**
   * Take the next slot of `bucket` if it comes within `maxWaitMs` (null
   * otherwise: nothing is taken); the answer is how long to wait before sending.
   */
  take(bucket: RateBucket, limit: RateLimit, maxWaitMs: number): Promise<number | null>;
}

/** How late a request may arrive behind its slot and still find a token (the reserve kept of the burst). */
export const TEAM_LATENESS_MS = 1000;

/** The margin: a reserve of the burst for late arrivals (at least one token left), 90 % of the rate. */
export function teamLimit(limit: RateLimit): RateLimit {
  const reserve = Math.ceil((limit.perSecond * TEAM_LATENESS_MS) / 1000);
  return { burst: Math.max(1, limit.burst - reserve), perSecond: limit.perSecond * TEAM_RATE_SHARE };
}

/** Slots in `db` for the key `apiKey` at `baseUrl` (the key only as a hash, as the client's Pacer keeps it). */
export function databasePacer(db: Db, baseUrl: string, apiKey: string): TeamPacer {
  const scope = `${baseUrl.replace(/\/+$/, "")} ${fnv1a32(apiKey).toString(36)}`;
  const known = new Set<string>();
  return {
    async take(bucket, limit, maxWaitMs) {
      const key = `${scope} ${bucket}`;
      if (!known.has(key)) {
        await db.query("insert into pace_slots (key, tat) values ($1, 0) on conflict (key) do nothing", [key]);
        known.add(key);
      }
      const { burst, perSecond } = teamLimit(limit);
      const interval = 1000 / perSecond;
      // GCRA: a request may go at tat + interval - burst·interval (a full bucket lets `burst` go at once);
      // the row is moved on only when that is within the wait allowed.
      const rows = await db.query<{ tat: number; now: number }>(
        `update pace_slots p set tat = greatest(p.tat, n.now) + $2::float8
         from (select extract(epoch from clock_timestamp())::float8 * 1000 as now) n
         where p.key = $1 and greatest(p.tat, n.now) + $2::float8 - $3::float8 - n.now <= $4::float8
         returning p.tat as tat, n.now as now`,
        [key, interval, burst * interval, maxWaitMs],
      );
      const row = rows[0];
      if (!row) return null;
      return Math.max(0, Number(row.tat) - burst * interval - Number(row.now));
    },
  };
}
