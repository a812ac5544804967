/**
 * The team's answers under load (issue 43, item 4). Before, every request
 * for an answer the team had asked the database on its own: its claim (one
 * write) and the record of the hit (one insert), besides the token and the
 * paid gate. With 2,000 requests at once on PGlite (one statement at a time)
 * the median waited 5 s. Here:
 *
 *  - Hot answers: a ready answer read from the database is kept in this
 *    process at most HOT_MS, and never past its expiry, with the body as
 *    each reader's language was served it (relabelled once, not per request). Requests arriving
 *    while a read is out wait for the next read, which asks for all their
 *    questions at once (one `key = any($1)` statement). A purge, a newer
 *    purchase or an expiry is seen within HOT_MS. A call that needs an answer
 *    bought after a date (`boughtAfter`) never takes one from here.
 *  - Hits recorded in batches: each request still waits until its hit is in
 *    the database (cache_hits: what the answer would have cost; a shared
 *    answer charges the user nothing, X-Credits-Charged 0), so nothing is
 *    lost on a crash or a shutdown; the rows of requests arriving while one
 *    insert is out go in the next one (group commit).
 *  - The paid gates (gates.ts: the doctor's drift refusal) read at most once
 *    per HOT_MS per language.
 *
 * Money is untouched: purchases still claim, reserve, mark, settle in the
 * database (purchase.ts, ledger/budget.ts); only answers already bought are served from here.
 */
import type { Language } from "../shared/i18n/index.ts";
import type { Sql } from "./db/db.ts";
import type { ErrorAnswer } from "./errors.ts";
import { paidRefusal, type PaidGate } from "./gates.ts";
import { inLanguage } from "./labels.ts";
import { recent, type Recent } from "./recent.ts";
import type { Db } from "./db/db.ts";

/** How long a ready answer (and the gates' verdict) is kept in memory. */
export const HOT_MS = 1000;
/** Most questions asked in one read; most hit rows in one insert. */
const BATCH = 500;

interface HotEntry {
  body: string;
  lang: string | null;
  /** The body as each reader's language has been served it (labels.ts: a parse and a stringify once, not per request). */
  shown: Map<Language, string>;
}

/** Requests queued for the next statement, and whether one is out. */
interface Batcher<I, O> {
  queue: { item: I; done: (o: O) => void; fail: (e: unknown) => void }[];
  busy: boolean;
}

/** Run `items` through `run` in batches of BATCH: at most one statement out at a time, the queue goes in the next. */
export function batched<I, O>(run: (items: I[]) => Promise<O[]>): (item: I) => Promise<O> {
  const b: Batcher<I, O> = { queue: [], busy: false };
  const next = () => {
    if (b.busy || b.queue.length === 0) return;
    b.busy = true;
    const take = b.queue.splice(0, BATCH);
    run(take.map((t) => t.item))
      .then(
        (out) => take.forEach((t, i) => t.done(out[i]!)),
        (e: unknown) => take.forEach((t) => t.fail(e)),
      )
      .finally(() => {
        b.busy = false;
        next();
      });
  };
  return (item) =>
    new Promise<O>((done, fail) => {
      b.queue.push({ item, done, fail });
      // The requests of the same burst join before the first statement leaves.
      if (!b.busy) setImmediate(next);
    });
}

interface HitRow {
  month: string;
  userId: number;
  endpoint: string;
  company: string | null;
  saved: number;
}

interface Hot {
  read: (key: string) => Promise<HotEntry | null>;
  record: (row: HitRow) => Promise<void>;
  gate: Recent<ErrorAnswer | null>;
}

const perDb = new WeakMap<Sql, Hot>();

function hotOf(db: Db): Hot {
  let h = perDb.get(db);
  if (h) return h;
  const kept = recent<HotEntry | null>(HOT_MS, { keep: (e) => e !== null });
  const lookup = batched<string, { entry: HotEntry; ttlMs: number } | null>(async (keys) => {
    const rows = await db.query<{ key: string; body: string; lang: string | null; ttl_ms: number }>(
      `select key, body, lang, (extract(epoch from (expires_at - now())) * 1000)::float8 as ttl_ms
         from answers where key = any($1::text[]) and state = 'ready' and status = 200 and expires_at > now()`,
      [keys],
    );
    const found = new Map(rows.map((r) => [r.key, r]));
    return keys.map((k) => {
      const r = found.get(k);
      return r ? { entry: { body: r.body, lang: r.lang, shown: new Map() }, ttlMs: Number(r.ttl_ms) } : null;
    });
  });
  const read = (key: string) =>
    kept.get(key, async () => {
      const got = await lookup(key);
      // An answer about to expire is not kept past its expiry: dropped in time for the next request to miss it.
      if (got && got.ttlMs < HOT_MS) setTimeout(() => kept.drop(key), Math.max(0, got.ttlMs)).unref();
      return got?.entry ?? null;
    });
  const record = batched<HitRow, void>(async (rows) => {
    await db.query(
      `insert into cache_hits (month, user_id, endpoint, company, saved)
       select * from unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::int[])`,
      [
        rows.map((r) => r.month),
        rows.map((r) => r.userId),
        rows.map((r) => r.endpoint),
        rows.map((r) => r.company),
        rows.map((r) => r.saved),
      ],
    );
    return rows.map(() => undefined);
  });
  h = { read, record, gate: recent<ErrorAnswer | null>(HOT_MS) };
  perDb.set(db, h);
  return h;
}

/** The team's ready answer to `key` in `lang` (from memory, or one batched read), or null: claim and buy as before. */
export async function hotAnswer(db: Db, key: string, lang: Language): Promise<string | null> {
  const e = await hotOf(db).read(key);
  if (!e) return null;
  // Relabelled once per language while the entry is kept (it lives HOT_MS at most: never past the stored answer's).
  let shown = e.shown.get(lang);
  if (shown === undefined) e.shown.set(lang, (shown = inLanguage(e.body, e.lang, lang)));
  return shown;
}

/** Record a shared answer served (what it would have cost `userId`); resolves once the row is in the database. */
export function recordHitBatched(db: Db, row: HitRow): Promise<void> {
  return hotOf(db).record(row);
}

/** The paid gates' refusal (gates.ts), read at most once per HOT_MS and language. */
export function recentPaidRefusal(gates: readonly PaidGate[], db: Db, lang: Language): Promise<ErrorAnswer | null> {
  return hotOf(db).gate.get(lang, () => paidRefusal(gates, db, lang));
}
