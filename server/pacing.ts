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
 *
 * Fair share (issue 36, item 5): first come, first served would let one
 * user's flood book the team's slots ten seconds ahead, and everyone else
 * would wait behind it. So a user's request first takes a slot on the
 * user's own timeline (one row per bucket and user, `pace_user_slots`,
 * GCRA again), whose interval is the team's times the number of users
 * with requests on their timelines now (`1 + others`): alone a user has the
 * whole rate, with two the half, and so on. Only when that slot comes does
 * the request take the team's slot, so a flood never holds team slots in
 * advance: it waits on its own timeline, or is answered its own 429 when
 * its own slot is further off than the wait allowed. Another user's request
 * finds the team's timeline at most a few intervals ahead and is sent
 * within about one request's time. Both rows are in the database, so
 * several processes share them as they share the team's.
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
  /**
   * The same for `user`: the user's own slot first (their fair share; null when it is beyond `maxWaitMs`),
   * waited for here, then the team's slot within what is left of the wait.
   */
  takeFor?(user: number, bucket: RateBucket, limit: RateLimit, maxWaitMs: number): Promise<number | null>;
}

/** How late a request may arrive behind its slot and still find a token (the reserve kept of the burst). */
export const TEAM_LATENESS_MS = 1000;

/** The margin: a reserve of the burst for late arrivals (at least one token left), 90 % of the rate. */
export function teamLimit(limit: RateLimit): RateLimit {
  const reserve = Math.ceil((limit.perSecond * TEAM_LATENESS_MS) / 1000);
  return { burst: Math.max(1, limit.burst - reserve), perSecond: limit.perSecond * TEAM_RATE_SHARE };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Slots in `db` for the key `apiKey` at `baseUrl` (the key only as a hash, as the client's Pacer keeps it). */
export function databasePacer(db: Db, baseUrl: string, apiKey: string): TeamPacer {
  const scope = `${baseUrl.replace(/\/+$/, "")} ${fnv1a32(apiKey).toString(36)}`;
  const known = new Set<string>();
  async function take(bucket: RateBucket, limit: RateLimit, maxWaitMs: number): Promise<number | null> {
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
  }
  /** The user's own slot: the team's interval times the users with requests on their timelines now (self included). */
  async function takeOwn(user: number, bucket: RateBucket, limit: RateLimit, maxWaitMs: number) {
    const key = `${scope} ${bucket}`;
    const mine = `${key} ${user}`;
    if (!known.has(mine)) {
      await db.query(
        "insert into pace_user_slots (key, user_id, tat) values ($1, $2, 0) on conflict (key, user_id) do nothing",
        [key, user],
      );
      known.add(mine);
    }
    const { burst, perSecond } = teamLimit(limit);
    const interval = 1000 / perSecond;
    const rows = await db.query<{ tat: number; now: number }>(
      `with n as (select extract(epoch from clock_timestamp())::float8 * 1000 as now),
            o as (select count(*)::float8 as others from pace_user_slots q, n
                  where q.key = $1 and q.user_id <> $2 and q.tat > n.now)
       update pace_user_slots p set tat = greatest(p.tat, n.now) + $3::float8 * (1 + o.others)
       from n, o
       where p.key = $1 and p.user_id = $2
         and greatest(p.tat, n.now) + $3::float8 * (1 + o.others) - $4::float8 - n.now <= $5::float8
       returning p.tat as tat, n.now as now`,
      [key, user, interval, burst * interval, maxWaitMs],
    );
    const row = rows[0];
    return row ? Math.max(0, Number(row.tat) - burst * interval - Number(row.now)) : null;
  }
  return {
    take,
    async takeFor(user, bucket, limit, maxWaitMs) {
      const started = Date.now();
      const own = await takeOwn(user, bucket, limit, maxWaitMs);
      if (own === null) return null;
      if (own > 0) await sleep(own);
      // The team's slot is taken only now: a flood waits on its own timeline, never on the team's.
      const left = Math.max(maxWaitMs - (Date.now() - started), 1000 / teamLimit(limit).perSecond);
      return take(bucket, limit, left);
    },
  };
}
