/**
 * The budgets as an administrator steers them (the console, issue 39): the
 * team's and each user's monthly budget, a soft limit per budget (alerts
 * once a month, soft-alerts.ts), temporary increases with an end that lapse
 * by themselves (budget.ts counts them while the server's clock is before
 * their end), and every change recorded with who made it and when. Each
 * change and its record are one transaction. The team is user id 0, as in
 * budget_spend.
 */
import { maskWebhook } from "../../shared/monitor/index.ts";
import type { Language } from "../../shared/i18n/index.ts";
import type { Db, Sql } from "../db/db.ts";
import { effectiveBudgetSql, monthOf } from "./budget.ts";
import "./budget-migrations.ts";

export const TEAM_ID = 0;

/** A budget: the team's, or a user's by name. */
export type BudgetScope = { team: true } | { user: string };

export interface SoftLimit {
  percent: number;
  webhooks: string[];
  emails: string[];
  language: Language;
}

export interface Increase {
  id: number;
  credits: number;
  endsAt: string;
  createdBy: string;
  createdAt: string;
}

export interface BudgetLine {
  /** null for the team. */
  user: string | null;
  /** The month's budget as set (null = none). */
  budget: number | null;
  /** The budget now: with the increases not yet lapsed. */
  effective: number | null;
  spent: number;
  increases: Increase[];
  /** Webhooks by host only: they are secrets. */
  softLimit: SoftLimit | null;
  /** This month's soft-limit alert, when one went out (or failed). */
  alert: { status: string; percent: number; spent: number; at: string } | null;
}

export class NoSuchUser extends Error {
  constructor(readonly user: string) {
    super(`no user ${user}`);
  }
}

async function scopeId(db: Sql, scope: BudgetScope): Promise<number> {
  if ("team" in scope) return TEAM_ID;
  const [u] = await db.query<{ id: number }>("select id from users where name = $1", [scope.user]);
  if (!u) throw new NoSuchUser(scope.user);
  return u.id;
}

async function record(tx: Sql, userId: number, kind: string, oldValue: unknown, newValue: unknown, by: string) {
  await tx.query(
    "insert into budget_changes (user_id, kind, old_value, new_value, changed_by) values ($1, $2, $3::jsonb, $4::jsonb, $5)",
    [userId, kind, JSON.stringify(oldValue ?? null), JSON.stringify(newValue ?? null), by],
  );
}

/** Set a monthly budget (null = none), recorded with who. */
export async function setBudget(db: Db, scope: BudgetScope, budget: number | null, by: string): Promise<void> {
  await db.transaction(async (tx) => {
    const id = await scopeId(tx, scope);
    const table = id === TEAM_ID ? "team" : "users";
    const key = id === TEAM_ID ? 1 : id;
    const [old] = await tx.query<{ month_budget: number | null }>(
      `select month_budget from ${table} where id = $1 for update`,
      [key],
    );
    await tx.query(`update ${table} set month_budget = $2 where id = $1`, [key, budget]);
    await record(tx, id, "budget", old?.month_budget ?? null, budget, by);
  });
}

/** Set (or with null remove) a budget's soft limit; webhooks were checked by the caller. */
export async function setSoftLimit(db: Db, scope: BudgetScope, limit: SoftLimit | null, by: string): Promise<void> {
  await db.transaction(async (tx) => {
    const id = await scopeId(tx, scope);
    const [old] = await tx.query<{ percent: number; webhooks: string[]; emails: string[] }>(
      "select percent, webhooks, emails from budget_soft_limits where user_id = $1 for update",
      [id],
    );
    if (limit === null) await tx.query("delete from budget_soft_limits where user_id = $1", [id]);
    else
      await tx.query(
        `insert into budget_soft_limits (user_id, percent, webhooks, emails, language) values ($1, $2, $3::jsonb, $4::jsonb, $5)
         on conflict (user_id) do update set percent = excluded.percent, webhooks = excluded.webhooks,
           emails = excluded.emails, language = excluded.language`,
        [id, limit.percent, JSON.stringify(limit.webhooks), JSON.stringify(limit.emails), limit.language],
      );
    // The record names webhooks by host only: the history is shown to every admin and may be exported.
    const shown = (l: { percent: number; webhooks: string[]; emails: string[] } | undefined | null) =>
      l ? { percent: l.percent, webhooks: l.webhooks.map(maskWebhook), emails: l.emails } : null;
    await record(tx, id, "soft-limit", shown(old), shown(limit), by);
  });
}

/** A temporary increase of `credits` until `endsAt` (epoch ms); its id. */
export async function grantIncrease(
  db: Db,
  scope: BudgetScope,
  credits: number,
  endsAt: number,
  by: string,
): Promise<number> {
  return db.transaction(async (tx) => {
    const id = await scopeId(tx, scope);
    const [row] = await tx.query<{ id: number }>(
      "insert into budget_increases (user_id, credits, ends_at, created_by) values ($1, $2, $3, $4) returning id",
      [id, credits, new Date(endsAt), by],
    );
    await record(tx, id, "increase", null, { id: row!.id, credits, endsAt: new Date(endsAt).toISOString() }, by);
    return row!.id;
  });
}

/** End an increase before its time; false when there is no such live increase. */
export async function revokeIncrease(db: Db, increaseId: number, by: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ user_id: number; credits: number }>(
      "update budget_increases set revoked_at = now() where id = $1 and revoked_at is null returning user_id, credits",
      [increaseId],
    );
    if (!row) return false;
    await record(tx, row.user_id, "increase-revoked", { id: increaseId, credits: row.credits }, null, by);
    return true;
  });
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** Every budget (the team's first, then each user's) as it stands at `now`. */
export async function budgetLines(db: Sql, now: number): Promise<BudgetLine[]> {
  const at = new Date(now);
  const month = monthOf(now);
  const budgets = await db.query<{ id: number; name: string | null; budget: number | null; effective: number | null }>(
    `select 0 as id, null as name, month_budget as budget, ${effectiveBudgetSql("month_budget", "0", "$1")} as effective from team where id = 1
     union all
     select id, name, month_budget, ${effectiveBudgetSql("month_budget", "users.id", "$1")} from users
     order by id`,
    [at],
  );
  const spend = await db.query<{ user_id: number; credits: number }>(
    "select user_id, credits from budget_spend where month = $1",
    [month],
  );
  const increases = await db.query<{
    id: number;
    user_id: number;
    credits: number;
    ends_at: Date | string;
    created_by: string;
    created_at: Date | string;
  }>(
    "select id, user_id, credits, ends_at, created_by, created_at from budget_increases where revoked_at is null and ends_at > $1 order by id",
    [at],
  );
  const limits = await db.query<{ user_id: number } & SoftLimit>(
    "select user_id, percent, webhooks, emails, language from budget_soft_limits",
  );
  const alerts = await db.query<{
    user_id: number;
    status: string;
    percent: number;
    spent: number;
    created_at: Date | string;
  }>("select user_id, status, percent, spent, created_at from budget_soft_alerts where month = $1", [month]);
  return budgets.map((b) => {
    const limit = limits.find((l) => l.user_id === b.id);
    const alert = alerts.find((a) => a.user_id === b.id);
    return {
      user: b.id === TEAM_ID ? null : b.name,
      budget: b.budget,
      effective: b.effective,
      spent: spend.find((s) => s.user_id === b.id)?.credits ?? 0,
      increases: increases
        .filter((i) => i.user_id === b.id)
        .map((i) => ({
          id: i.id,
          credits: i.credits,
          endsAt: iso(i.ends_at),
          createdBy: i.created_by,
          createdAt: iso(i.created_at),
        })),
      softLimit: limit
        ? {
            percent: limit.percent,
            webhooks: limit.webhooks.map(maskWebhook),
            emails: limit.emails,
            language: limit.language,
          }
        : null,
      alert: alert
        ? { status: alert.status, percent: alert.percent, spent: alert.spent, at: iso(alert.created_at) }
        : null,
    };
  });
}

export interface BudgetChange {
  id: number;
  user: string | null;
  kind: string;
  oldValue: unknown;
  newValue: unknown;
  by: string;
  at: string;
}

/** The newest changes first. */
export async function budgetHistory(db: Sql, limit = 200): Promise<BudgetChange[]> {
  const rows = await db.query<{
    id: number;
    user_id: number;
    name: string | null;
    kind: string;
    old_value: unknown;
    new_value: unknown;
    changed_by: string;
    changed_at: Date | string;
  }>(
    `select c.id, c.user_id, u.name, c.kind, c.old_value, c.new_value, c.changed_by, c.changed_at
       from budget_changes c left join users u on u.id = c.user_id order by c.id desc limit $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    user: r.user_id === TEAM_ID ? null : r.name,
    kind: r.kind,
    oldValue: r.old_value,
    newValue: r.new_value,
    by: r.changed_by,
    at: iso(r.changed_at),
  }));
}
