/**
 * Shared answers: every paid answer is stored under its question (endpoint,
 * path, query, body) and served to every user of the team until it expires,
 * so a company is bought once per team. Several requests for one question
 * at once, on one process or several, buy it once: the first claims the
 * question (a pending row with a lease), the others wait for its answer. A
 * claim whose owner died (kill -9) lapses as soon as the owner's heartbeat is
 * stale (heartbeat.ts, a few seconds) and is claimed again, which is the one
 * way a question is bought twice. The lease stays as the bound for an owner
 * that is alive but stuck.
 *
 * A caller that needs today's answer (a scheduled portfolio check: a stored
 * profile may predate an insolvency) passes `boughtAfter`: an answer bought
 * before it is bought again, and the new one replaces it for the team.
 */
import type { Db, Sql } from "./db/db.ts";
import { ENDPOINTS, type EndpointId } from "../shared/api/index.ts";
import { STALE_MS } from "./heartbeat.ts";

export interface StoredAnswer {
  status: number;
  body: string;
  /** The language it was bought in (null: before it was recorded). */
  lang?: string | null;
}

export type Claim = { kind: "mine" } | { kind: "ready"; answer: StoredAnswer } | { kind: "wait" };

/**
 * Days an answer is kept, by endpoint: the catalogue's `cacheDays` (shared/api/endpoints.ts, required
 * there, so no endpoint falls back to a lifetime nobody chose). COMPANY_DATA_CACHE_DAYS overrides them,
 * e.g. "profile=60,changes=0.5,default=7": `default` sets every paid endpoint the variable does not name.
 */
export const DEFAULT_CACHE_DAYS: Readonly<Record<EndpointId, number>> = Object.fromEntries(
  ENDPOINTS.map((e) => [e.id, e.cacheDays]),
) as Record<EndpointId, number>;

export type CacheDays = Readonly<Record<string, number>>;

/** COMPANY_DATA_CACHE_DAYS: "endpoint=days,…" over the catalogue's; a bad entry is an error naming it. */
export function parseCacheDays(v: string | undefined): CacheDays {
  const named: Record<string, number> = {};
  for (const part of (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([\w.]+)=(\d+(?:\.\d+)?)$/.exec(part);
    if (!m) throw new Error(`COMPANY_DATA_CACHE_DAYS: expected endpoint=days, got "${part}"`);
    if (m[1] !== "default" && !ENDPOINTS.some((e) => e.id === m[1]))
      throw new Error(`COMPANY_DATA_CACHE_DAYS: no endpoint "${m[1]}"`);
    named[m[1]!] = Number(m[2]);
  }
  const out: Record<string, number> = { ...DEFAULT_CACHE_DAYS };
  const all = named.default;
  if (all !== undefined) for (const e of ENDPOINTS) if (e.billing === "credits") out[e.id] = all;
  return { ...out, ...named };
}

/** The lifetime of `id`'s answers; an id outside the catalogue has none to give. */
export function cacheDaysOf(days: CacheDays, id: string): number {
  const d = days[id];
  if (d === undefined) throw new Error(`no cache lifetime for endpoint ${id}`);
  return d;
}

/**
 * Claim a question, or find its answer, or learn that another request is
 * buying it: one statement (an expired answer or a dead owner's lapsed claim
 * is claimed anew; otherwise the row as it was is read back).
 */
export async function claim(
  db: Sql,
  key: string,
  endpoint: string,
  company: string | null,
  owner: string,
  leaseMs: number,
  boughtAfter: Date | null = null,
): Promise<Claim> {
  const [row] = await db.query<{
    mine: number;
    state: string | null;
    status: number | null;
    body: string | null;
    lang: string | null;
    fresh: boolean | null;
  }>(
    `with c as (
       insert into answers (key, endpoint, company, state, owner, lease_until)
       values ($1, $2, $3, 'pending', $4, now() + $5 * interval '1 millisecond')
       on conflict (key) do update set state = 'pending', owner = excluded.owner, lease_until = excluded.lease_until, status = null, body = null
       where (answers.state = 'pending' and (answers.lease_until < now() or (answers.owner <> $4 and not exists (
                select 1 from processes p where p.name = answers.owner and p.beat_at > now() - $7 * interval '1 millisecond'))))
          or (answers.state = 'ready' and (answers.expires_at <= now() or answers.bought_at < $6::timestamptz))
       returning 1)
     select (select count(*) from c)::int as mine, a.state, a.status, a.body, a.lang,
            (a.expires_at > now() and ($6::timestamptz is null or a.bought_at >= $6::timestamptz)) as fresh
       from (select 1) as one left join answers a on a.key = $1`,
    [key, endpoint, company, owner, leaseMs, boughtAfter, STALE_MS],
  );
  if (row?.mine) return { kind: "mine" };
  if (row?.state === "ready" && row.fresh && row.body !== null && row.status !== null)
    return { kind: "ready", answer: { status: row.status, body: row.body, lang: row.lang } };
  return { kind: "wait" };
}

/** The ready answer to a question, or null. */
export async function lookup(db: Sql, key: string): Promise<StoredAnswer | null> {
  const [row] = await db.query<{ status: number; body: string; lang: string | null }>(
    "select status, body, lang from answers where key = $1 and state = 'ready' and expires_at > now()",
    [key],
  );
  return row ?? null;
}

/** Store the answer bought under a claim (only the owner's claim is filled). */
export async function fill(
  db: Sql,
  key: string,
  owner: string,
  answer: StoredAnswer,
  credits: number,
  days: number,
  userId: number,
): Promise<void> {
  await db.query(
    `update answers set state = 'ready', status = $3, body = $4, credits = $5, expires_at = now() + $6 * interval '1 day',
       bought_by = $7, bought_at = now(), owner = null, lease_until = null, lang = $8
     where key = $1 and owner = $2 and state = 'pending'`,
    [key, owner, answer.status, answer.body, credits, days, userId, answer.lang ?? null],
  );
}

/** One answer stored and its ledger row settled, in one statement (atomic without a transaction). */
export async function fillAndSettle(
  db: Sql,
  key: string,
  owner: string,
  body: string,
  credits: number,
  days: number,
  userId: number,
  ledgerId: number,
  lang: string,
): Promise<void> {
  await db.query(
    `with f as (
       update answers set state = 'ready', status = 200, body = $3, credits = $4, expires_at = now() + $5 * interval '1 day',
         bought_by = $6, bought_at = now(), owner = null, lease_until = null, lang = $8
       where key = $1 and owner = $2 and state = 'pending')
     update ledger set status = 'settled', settled_at = now() where id = $7 and status = 'pending'`,
    [key, owner, body, credits, days, userId, ledgerId, lang],
  );
}

/** Renew this process's claims for another lease (the budget check may have waited long for its locks). */
export async function renew(db: Sql, keys: string[], owner: string, leaseMs: number): Promise<void> {
  await db.query(
    "update answers set lease_until = now() + $3 * interval '1 millisecond' where key = any($1::text[]) and owner = $2 and state = 'pending'",
    [keys, owner, leaseMs],
  );
}

/** Give a claim back (the purchase was refused or failed): the next request claims it anew. */
export async function release(db: Sql, key: string, owner: string): Promise<void> {
  await db.query("delete from answers where key = $1 and owner = $2 and state = 'pending'", [key, owner]);
}

/** An answer served from the shared cache: what it would have cost (the report's savings). */
export async function recordHit(
  db: Sql,
  month: string,
  userId: number,
  endpoint: string,
  company: string | null,
  saved: number,
): Promise<void> {
  await db.query("insert into cache_hits (month, user_id, endpoint, company, saved) values ($1, $2, $3, $4, $5)", [
    month,
    userId,
    endpoint,
    company,
    saved,
  ]);
}

/** Drop expired answers (run now and then; a miss is bought again anyway). */
export async function purgeExpired(db: Db): Promise<number> {
  return (await db.query("delete from answers where state = 'ready' and expires_at <= now() returning key")).length;
}
