/**
 * Every schedule on the server as its administrator sees it (the console,
 * issue 39): one list across users (owner, companies, next run, the last
 * run and its outcome, alerts sent and failed), pause and resume, transfer
 * to another user (a schedule no longer dies with its owner's token), "run
 * now", and a run history across all schedules with the changes each found.
 * Every action is recorded with who and when (schedule_admin_log).
 * Webhook addresses are never answered (hosts only).
 */
import type { Db, Sql } from "../db/db.ts";
import { maskedWebhook } from "./model.ts";
import type { RunResult } from "./run.ts";

export interface AdminSchedule {
  id: number;
  owner: string;
  name: string;
  companies: number;
  /** The first few ids, for the list. */
  sample: string[];
  frequency: string;
  hour: number;
  weekday: number;
  budget: number | null;
  webhooks: string[];
  emails: string[];
  nextRun: string;
  paused: { at: string; by: string | null } | null;
  running: boolean;
  lastRun: { id: number; status: string; startedAt: string; finishedAt: string | null; credits: number } | null;
  alerts: { sent: number; failed: number };
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function allSchedules(db: Sql): Promise<AdminSchedule[]> {
  const rows = await db.query<{
    id: number;
    owner: string;
    name: string;
    companies: string[];
    frequency: string;
    hour: number;
    weekday: number;
    budget: number | null;
    webhooks: string[];
    emails: string[];
    next_run: Date | string;
    paused_at: Date | string | null;
    paused_by: string | null;
    running_by: string | null;
    run_id: number | null;
    run_status: string | null;
    run_started: Date | string | null;
    run_finished: Date | string | null;
    run_credits: number | null;
    sent: number;
    failed: number;
  }>(
    `select s.id, u.name as owner, s.name, s.companies, s.frequency, s.hour, s.weekday, s.budget, s.webhooks, s.emails,
            s.next_run, s.paused_at, s.paused_by, s.running_by,
            r.id as run_id, r.status as run_status, r.started_at as run_started, r.finished_at as run_finished, r.credits as run_credits,
            (select count(*) from schedule_runs x, jsonb_array_elements(x.result->'alerts') a
              where x.schedule_id = s.id and a->>'status' = 'sent')::int as sent,
            (select count(*) from schedule_runs x, jsonb_array_elements(x.result->'alerts') a
              where x.schedule_id = s.id and a->>'status' in ('failed', 'not-configured'))::int as failed
       from schedules s join users u on u.id = s.user_id
       left join lateral (select id, status, started_at, finished_at, credits from schedule_runs
                           where schedule_id = s.id order by id desc limit 1) r on true
      order by u.name, s.name`,
  );
  return rows.map((r) => ({
    id: r.id,
    owner: r.owner,
    name: r.name,
    companies: r.companies.length,
    sample: r.companies.slice(0, 3),
    frequency: r.frequency,
    hour: r.hour,
    weekday: r.weekday,
    budget: r.budget,
    webhooks: r.webhooks.map(maskedWebhook),
    emails: r.emails,
    nextRun: iso(r.next_run)!,
    paused: r.paused_at !== null ? { at: iso(r.paused_at)!, by: r.paused_by } : null,
    running: r.running_by !== null,
    lastRun:
      r.run_id !== null
        ? {
            id: r.run_id,
            status: r.run_status!,
            startedAt: iso(r.run_started)!,
            finishedAt: iso(r.run_finished),
            credits: r.run_credits ?? 0,
          }
        : null,
    alerts: { sent: r.sent, failed: r.failed },
  }));
}

async function log(tx: Sql, id: number, action: string, detail: unknown, by: string): Promise<void> {
  await tx.query(
    "insert into schedule_admin_log (schedule_id, action, detail, done_by) values ($1, $2, $3::jsonb, $4)",
    [id, action, JSON.stringify(detail), by],
  );
}

/** Pause (never claimed) or resume (due again at its next slot, which it kept); false when there is no such schedule. */
export async function setPaused(db: Db, id: number, paused: boolean, by: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.query(
      paused
        ? "update schedules set paused_at = now(), paused_by = $2 where id = $1 returning id"
        : "update schedules set paused_at = null, paused_by = null where id = $1 returning id",
      paused ? [id, by] : [id],
    );
    if (!rows.length) return false;
    await log(tx, id, paused ? "pause" : "resume", {}, by);
    return true;
  });
}

export type TransferOutcome = "done" | "no-schedule" | "no-user" | "name-taken";

/** Give a schedule (its companies, watermarks, change log and runs) to another user. */
export async function transferSchedule(db: Db, id: number, toUser: string, by: string): Promise<TransferOutcome> {
  return db.transaction(async (tx) => {
    const [s] = await tx.query<{ user_id: number; name: string; owner: string }>(
      "select s.user_id, s.name, u.name as owner from schedules s join users u on u.id = s.user_id where s.id = $1 for update of s",
      [id],
    );
    if (!s) return "no-schedule";
    const [u] = await tx.query<{ id: number }>("select id from users where name = $1", [toUser]);
    if (!u) return "no-user";
    if (u.id === s.user_id) return "done";
    const [taken] = await tx.query("select 1 from schedules where user_id = $1 and name = $2", [u.id, s.name]);
    if (taken) return "name-taken";
    await tx.query("update schedules set user_id = $2, updated_at = now() where id = $1", [id, u.id]);
    await log(tx, id, "transfer", { from: s.owner, to: toUser }, by);
    return "done";
  });
}

/** Due now (the loop runs it at its next tick); false when there is no such schedule. A paused one stays paused. */
export async function runNow(db: Db, id: number, now: number, by: string, price: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.query("update schedules set next_run = $2 where id = $1 returning id", [id, new Date(now)]);
    if (!rows.length) return false;
    await log(tx, id, "run-now", { price }, by);
    return true;
  });
}

export interface HistoryRun {
  id: number;
  scheduleId: number;
  schedule: string;
  owner: string;
  status: string;
  startedAt: string;
  finishedAt: string | null;
  estimate: number;
  credits: number;
  companies: number;
  alerts: RunResult["alerts"];
  /** The change log lines the run appended: date, company id, company, kind, text, source, key. */
  changes: RunResult["changes"];
}

/** Runs across all schedules, newest first; `before` a run id to page back. */
export async function runHistory(db: Sql, limit: number, before?: number): Promise<HistoryRun[]> {
  const rows = await db.query<{
    id: number;
    schedule_id: number;
    schedule: string;
    owner: string;
    status: string;
    started_at: Date | string;
    finished_at: Date | string | null;
    estimate: number;
    credits: number;
    result: Partial<RunResult>;
  }>(
    `select r.id, r.schedule_id, s.name as schedule, u.name as owner, r.status, r.started_at, r.finished_at,
            r.estimate, r.credits, r.result
       from schedule_runs r join schedules s on s.id = r.schedule_id join users u on u.id = s.user_id
      where ($2::int is null or r.id < $2) order by r.id desc limit $1`,
    [limit, before ?? null],
  );
  return rows.map((r) => ({
    id: r.id,
    scheduleId: r.schedule_id,
    schedule: r.schedule,
    owner: r.owner,
    status: r.status,
    startedAt: iso(r.started_at)!,
    finishedAt: iso(r.finished_at),
    estimate: r.estimate,
    credits: r.credits,
    companies: r.result.counts?.companies ?? 0,
    alerts: r.result.alerts ?? [],
    changes: r.result.changes ?? [],
  }));
}

/** A schedule by id, as the store reads it (for pricing and running). */
export async function scheduleById(db: Sql, id: number) {
  const [row] = await db.query<{ user_id: number; name: string }>("select user_id, name from schedules where id = $1", [
    id,
  ]);
  return row ?? null;
}
