/**
 * The schedules in the database: registration, listing, the claim of a due
 * run, the check's document store, the change log and the runs. Every
 * coordination between server processes is a statement here (no state in
 * memory): a due schedule is claimed by one UPDATE whose WHERE re-checks,
 * under the row's lock, that nobody holds it, so two processes (or two
 * loops of one) never run one schedule at the same time; a claim holds
 * for a lease (the database's clock) that a live run renews, so a process
 * killed mid-run leaves its schedule to the next process once the lease ends.
 */
import type { Db, Sql } from "../db/db.ts";
import type { Language } from "../../shared/i18n/index.ts";
import { nextSlot, type ScheduleFrequency, type ScheduleInput } from "./model.ts";

export interface Schedule extends ScheduleInput {
  id: number;
  userId: number;
  name: string;
  nextRun: Date;
  /** Shared with the team read-only (GET /shared-schedules/ID): migration 140. */
  shared: boolean;
  /** The stable id a workbook's link records: random, kept when the schedule is replaced. */
  shareId: string;
}

interface Row {
  id: number;
  user_id: number;
  name: string;
  companies: string[];
  frequency: ScheduleFrequency;
  hour: number;
  weekday: number;
  budget: number | null;
  webhooks: string[];
  emails: string[];
  language: Language;
  next_run: Date | string;
  shared: boolean;
  share_id: string;
}

const COLUMNS =
  "id, user_id, name, companies, frequency, hour, weekday, budget, webhooks, emails, language, next_run, shared, share_id";

const scheduleOf = (r: Row): Schedule => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  companies: r.companies,
  frequency: r.frequency,
  hour: r.hour,
  weekday: r.weekday,
  budget: r.budget,
  webhooks: r.webhooks,
  emails: r.emails,
  language: r.language,
  nextRun: new Date(r.next_run),
  shared: r.shared,
  shareId: r.share_id,
});

/** A user who has `max` schedules registers another. */
export class ScheduleCapReached extends Error {
  constructor(readonly max: number) {
    super(`at most ${max} schedules per user`);
  }
}

/** A registration: the schedule, and whether it is shared with the team (absent: a new one is not, a replaced one stays as it was). */
export type ScheduleRegistration = ScheduleInput & { shared?: boolean };

/**
 * Register or replace a user's schedule `name`; its next run is the first slot after `now`. Watermarks stay.
 * A new name beyond `max` schedules of the user is a ScheduleCapReached: counted under the user's row lock,
 * so two registrations at once (on two processes) cannot both take the last place.
 */
export async function upsertSchedule(
  db: Db,
  userId: number,
  name: string,
  s: ScheduleRegistration,
  now: number,
  max = Infinity,
): Promise<Schedule> {
  return db.transaction(async (tx) => {
    await tx.query("select id from users where id = $1 for update", [userId]);
    const [c] = await tx.query<{ n: number; same: number }>(
      "select count(*)::int as n, (count(*) filter (where name = $2))::int as same from schedules where user_id = $1",
      [userId, name],
    );
    if (c && c.same === 0 && c.n >= max) throw new ScheduleCapReached(max);
    return insertOrReplace(tx, userId, name, s, now);
  });
}

async function insertOrReplace(
  tx: Sql,
  userId: number,
  name: string,
  s: ScheduleRegistration,
  now: number,
): Promise<Schedule> {
  const [row] = await tx.query<Row>(
    `insert into schedules (user_id, name, companies, frequency, hour, weekday, budget, webhooks, emails, language, next_run, shared)
     values ($1, $2, $3::jsonb, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11, coalesce($12::boolean, false))
     on conflict (user_id, name) do update set companies = excluded.companies, frequency = excluded.frequency,
       hour = excluded.hour, weekday = excluded.weekday, budget = excluded.budget, webhooks = excluded.webhooks,
       emails = excluded.emails, language = excluded.language, next_run = excluded.next_run,
       shared = coalesce($12::boolean, schedules.shared), updated_at = now()
     returning ${COLUMNS}`,
    [
      userId,
      name,
      JSON.stringify(s.companies),
      s.frequency,
      s.hour,
      s.weekday,
      s.budget,
      JSON.stringify(s.webhooks),
      JSON.stringify(s.emails),
      s.language,
      new Date(nextSlot(s, now)),
      s.shared ?? null,
    ],
  );
  return scheduleOf(row!);
}

export async function listSchedules(db: Sql, userId: number): Promise<Schedule[]> {
  return (await db.query<Row>(`select ${COLUMNS} from schedules where user_id = $1 order by name`, [userId])).map(
    scheduleOf,
  );
}

export async function findSchedule(db: Sql, userId: number, name: string): Promise<Schedule | null> {
  const [row] = await db.query<Row>(`select ${COLUMNS} from schedules where user_id = $1 and name = $2`, [
    userId,
    name,
  ]);
  return row ? scheduleOf(row) : null;
}

export async function deleteSchedule(db: Sql, userId: number, name: string): Promise<boolean> {
  return (
    (await db.query("delete from schedules where user_id = $1 and name = $2 returning id", [userId, name])).length > 0
  );
}

/** The owner shares the schedule with the team read-only, or stops; null when the user has none of that name. */
export async function setShared(db: Sql, userId: number, name: string, shared: boolean): Promise<Schedule | null> {
  const [row] = await db.query<Row>(
    `update schedules set shared = $3, updated_at = now() where user_id = $1 and name = $2 returning ${COLUMNS}`,
    [userId, name, shared],
  );
  return row ? scheduleOf(row) : null;
}

/** A schedule by its share id as `userId` may read it: the owner's own always, another user's only while shared. */
export async function findShared(
  db: Sql,
  shareId: string,
  userId: number,
): Promise<{ schedule: Schedule; owner: string } | null> {
  const cols = COLUMNS.split(", ")
    .map((c) => `s.${c}`)
    .join(", ");
  const [row] = await db.query<Row & { owner: string }>(
    `select ${cols}, u.name as owner from schedules s join users u on u.id = s.user_id
     where s.share_id = $1 and (s.shared or s.user_id = $2)`,
    [shareId, userId],
  );
  return row ? { schedule: scheduleOf(row), owner: row.owner } : null;
}

/** "Run now": due at `now` (the loop picks it up at its next tick). */
export async function makeDue(db: Sql, userId: number, name: string, now: number): Promise<boolean> {
  const rows = await db.query("update schedules set next_run = $3 where user_id = $1 and name = $2 returning id", [
    userId,
    name,
    new Date(now),
  ]);
  return rows.length > 0;
}

/**
 * Claim one due schedule for `process` (never a paused one: admin.ts): one statement, so of two processes
 * asking at once one gets it (the other's UPDATE waits for the row's lock,
 * re-reads it, and its WHERE no longer holds; SKIP LOCKED lets it move on
 * to another schedule meanwhile). Null when nothing is due.
 */
export async function claimDue(db: Sql, process: string, now: number, leaseMs: number): Promise<Schedule | null> {
  const [row] = await db.query<Row>(
    `update schedules set running_by = $1, running_until = now() + $3 * interval '1 millisecond'
     where id = (select id from schedules
                 where next_run <= $2 and paused_at is null and (running_until is null or running_until < now())
                 order by next_run limit 1 for update skip locked)
       and next_run <= $2 and paused_at is null and (running_until is null or running_until < now())
     returning ${COLUMNS}`,
    [process, new Date(now), leaseMs],
  );
  return row ? scheduleOf(row) : null;
}

/** A live run extends its claim. */
export async function renewClaim(db: Sql, id: number, process: string, leaseMs: number): Promise<void> {
  await db.query(
    "update schedules set running_until = now() + $3 * interval '1 millisecond' where id = $1 and running_by = $2",
    [id, process, leaseMs],
  );
}

/** The run ended: the claim is given back and the next slot set (after the slot that was due, never in the past). */
export async function releaseClaim(db: Sql, s: Schedule, process: string, now: number): Promise<void> {
  await db.query(
    "update schedules set running_by = null, running_until = null, next_run = $3 where id = $1 and running_by = $2",
    [s.id, process, new Date(nextSlot(s, Math.max(now, s.nextRun.getTime())))],
  );
}

// ---- the check's document store

export async function storeGet(db: Sql, scheduleId: number, keys: string[]): Promise<(string | null)[]> {
  const rows = await db.query<{ key: string; value: string }>(
    "select key, value from schedule_store where schedule_id = $1 and key = any($2::text[])",
    [scheduleId, keys],
  );
  const map = new Map(rows.map((r) => [r.key, r.value]));
  return keys.map((k) => map.get(k) ?? null);
}

export async function storePut(db: Db, scheduleId: number, entries: Record<string, string | null>): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [key, value] of Object.entries(entries)) {
      if (value === null)
        await tx.query("delete from schedule_store where schedule_id = $1 and key = $2", [scheduleId, key]);
      else
        await tx.query(
          `insert into schedule_store (schedule_id, key, value) values ($1, $2, $3)
           on conflict (schedule_id, key) do update set value = excluded.value`,
          [scheduleId, key, value],
        );
    }
  });
}

// ---- the change log

/** A change log line as the check appends it (date, id, company, kind, text, source, key). */
export type LogRow = (string | number | boolean | null)[];

export async function logRows(db: Sql, scheduleId: number): Promise<LogRow[]> {
  return (
    await db.query<{ line: LogRow }>("select line from schedule_changes where schedule_id = $1 order by id", [
      scheduleId,
    ])
  ).map((r) => r.line);
}

/** Append lines (a key already logged is skipped: the log holds every change once). */
export async function appendLog(db: Db, scheduleId: number, runId: number, rows: LogRow[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const row of rows)
      await tx.query(
        `insert into schedule_changes (schedule_id, run_id, key, line) values ($1, $2, $3, $4::jsonb)
         on conflict (schedule_id, key) do nothing`,
        [scheduleId, runId, String(row[row.length - 1] ?? ""), JSON.stringify(row)],
      );
  });
}

// ---- runs

export async function startRun(db: Sql, scheduleId: number, process: string, now: number): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    "insert into schedule_runs (schedule_id, process, started_at, status) values ($1, $2, $3, 'running') returning id",
    [scheduleId, process, new Date(now)],
  );
  return row!.id;
}

export async function finishRun(
  db: Sql,
  runId: number,
  r: { status: string; estimate: number; credits: number; result: unknown },
  now: number,
): Promise<void> {
  await db.query(
    "update schedule_runs set status = $2, estimate = $3, credits = $4, result = $5::jsonb, finished_at = $6 where id = $1",
    [runId, r.status, r.estimate, r.credits, JSON.stringify(r.result), new Date(now)],
  );
}

export interface RunRecord {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  status: string;
  estimate: number;
  credits: number;
  result: unknown;
}

/** Finished runs after the cursor (a run id), oldest first. */
export async function runsAfter(db: Sql, scheduleId: number, after: number, limit: number): Promise<RunRecord[]> {
  const rows = await db.query<{
    id: number;
    started_at: Date | string;
    finished_at: Date | string | null;
    status: string;
    estimate: number;
    credits: number;
    result: unknown;
  }>(
    `select id, started_at, finished_at, status, estimate, credits, result from schedule_runs
     where schedule_id = $1 and id > $2 and finished_at is not null order by id limit $3`,
    [scheduleId, after, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    startedAt: new Date(r.started_at).toISOString(),
    finishedAt: r.finished_at === null ? null : new Date(r.finished_at).toISOString(),
    status: r.status,
    estimate: r.estimate,
    credits: r.credits,
    result: r.result,
  }));
}
