/**
 * Budgets and the ledger (the CLI's intent journal, server-side): a paid
 * request is checked against the user's and the team's monthly budget and
 * recorded as pending in one transaction before it is sent; its answer
 * settles it (charged) or fails it (the API answered an error: nothing
 * charged, the reservation is given back).
 *
 * Under concurrency, on one process or several on one PostgreSQL, the
 * budget rows of the month are locked FOR UPDATE, the team's row first
 * (one order everywhere, so two reservations never deadlock): a budget is
 * never exceeded, not even by requests in flight, because what is pending
 * counts as spent.
 *
 * A row's states (server/README.md, Ledger): reserved (status pending, no
 * sent_at) → sent (sent_at set in the instant before the request's bytes go
 * out: markSent, the one gate to the network) → settled (charged) or failed
 * (the API answered an error); a reserved row whose request provably never
 * left (refused, unresolved, TLS failed, the process died before the mark) is
 * released: both budgets get it back at once. A sent row left by a process
 * that died stays counted: the API may have charged it, and the ledger must
 * add up to the API's bill.
 */
import type { Db, Sql } from "../db/db.ts";
import type { AuthUser } from "../auth/tokens.ts";
import "./budget-migrations.ts";
import { findUserId } from "../auth/user-name.ts";

/** The team's row in budget_spend. */
const TEAM = 0;

/** The calendar month (UTC) a request belongs to, YYYY-MM. */
export const monthOf = (t: number) => new Date(t).toISOString().slice(0, 7);

export interface Reservation {
  ledgerId: number;
  month: string;
  userId: number;
  credits: number;
}

/** Why a request was refused: which budget, how large, how much is left of it. */
export interface OverBudget {
  scope: "user" | "team";
  budget: number;
  spent: number;
  remaining: number;
  price: number;
}

export interface SpendLine {
  endpoint: string;
  company: string | null;
  credits: number;
}

interface Locked {
  team: number;
  user: number;
  userBudget: number | null;
  teamBudget: number | null;
}

/**
 * A budget as it holds at $at: the month's budget plus the temporary
 * increases (budget_increases, the console's) not yet lapsed. No budget
 * stays no budget. `who` is the SQL of the user id (0 = the team).
 */
export const effectiveBudgetSql = (base: string, who: string, at: string) =>
  `(${base} + coalesce((select sum(i.credits) from budget_increases i where i.user_id = ${who} and i.revoked_at is null and i.ends_at > ${at}), 0))::int`;

/** Lock the month's rows of the team and the user (team first: one order everywhere) and read them with the budgets at `at`. */
async function lockMonth(tx: Sql, month: string, userId: number, at: number = Date.now()): Promise<Locked> {
  await tx.query(
    "insert into budget_spend (month, user_id, credits) values ($1, $2, 0), ($1, $3, 0) on conflict do nothing",
    [month, TEAM, userId],
  );
  const rows = await tx.query<{
    user_id: number;
    credits: number;
    user_budget: number | null;
    team_budget: number | null;
  }>(
    `select s.user_id, s.credits,
            (select ${effectiveBudgetSql("month_budget", "$3", "$4")} from users where id = $3) as user_budget,
            (select ${effectiveBudgetSql("month_budget", "0", "$4")} from team where id = 1) as team_budget
       from budget_spend s where s.month = $1 and s.user_id in ($2, $3) order by s.user_id for update of s`,
    [month, TEAM, userId, new Date(at)],
  );
  return {
    team: rows.find((r) => r.user_id === TEAM)?.credits ?? 0,
    user: rows.find((r) => r.user_id === userId)?.credits ?? 0,
    userBudget: rows[0]?.user_budget ?? null,
    teamBudget: rows[0]?.team_budget ?? null,
  };
}

/**
 * Check the budgets and record the request as pending, or say which budget
 * it would exceed. `lines` are the upstream requests of one answer (usually
 * one); all or none are reserved.
 */
export async function reserve(
  db: Db,
  user: AuthUser,
  lines: SpendLine[],
  process: string,
  now: number,
): Promise<{ ok: true; reservations: Reservation[] } | { ok: false; over: OverBudget }> {
  const month = monthOf(now);
  const price = lines.reduce((s, l) => s + l.credits, 0);
  return db.transaction(async (tx) => {
    // Budgets are read inside the lock: a budget lowered a moment ago applies.
    const spent = await lockMonth(tx, month, user.id, now);
    const check = (scope: OverBudget["scope"], budget: number | null, used: number): OverBudget | null =>
      budget !== null && used + price > budget
        ? { scope, budget, spent: used, remaining: Math.max(0, budget - used), price }
        : null;
    const over = check("user", spent.userBudget, spent.user) ?? check("team", spent.teamBudget, spent.team);
    if (over) return { ok: false as const, over };
    const reservations: Reservation[] = [];
    for (const [i, l] of lines.entries()) {
      // The counters move with the first row, in the same statement.
      const [row] = await tx.query<{ id: number }>(
        `with spend as (update budget_spend set credits = credits + $7 where month = $1 and user_id in ($2, $8) and $7 > 0)
         insert into ledger (month, user_id, endpoint, company, credits, status, process) values ($1, $2, $3, $4, $5, 'pending', $6) returning id`,
        [month, user.id, l.endpoint, l.company, l.credits, process, i === 0 ? price : 0, TEAM],
      );
      reservations.push({ ledgerId: row!.id, month, userId: user.id, credits: l.credits });
    }
    return { ok: true as const, reservations };
  });
}

/** The answer arrived and the API charged it. */
export async function settle(db: Sql, r: Reservation): Promise<void> {
  await db.query("update ledger set status = 'settled', settled_at = now() where id = $1 and status = 'pending'", [
    r.ledgerId,
  ]);
}

/**
 * End a pending reservation as `status` (only while `condition` holds) and give its credits back to both budgets,
 * under the month's lock: the one step of `fail` and `giveBack`. True when this call ended it.
 */
async function endReservation(
  db: Db,
  r: Pick<Reservation, "ledgerId" | "month" | "userId" | "credits">,
  status: "failed" | "released",
  condition: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockMonth(tx, r.month, r.userId);
    const done = await tx.query(
      `update ledger set status = '${status}', settled_at = now() where id = $1 and ${condition} returning id`,
      [r.ledgerId],
    );
    if (done.length && r.credits > 0) {
      await tx.query("update budget_spend set credits = credits - $3 where month = $1 and user_id in ($2, $4)", [
        r.month,
        r.userId,
        r.credits,
        TEAM,
      ]);
    }
    return done.length > 0;
  });
}

/** The API answered an error (nothing charged): the reservation goes back to both budgets. */
export async function fail(db: Db, r: Reservation): Promise<void> {
  await endReservation(db, r, "failed", "status = 'pending'");
}

/**
 * The send mark: the request is about to leave. False when the row is no
 * longer reserved (a sweep released it as a dead process's): then it must not
 * be sent. One statement, so a sweep and the mark never both win.
 */
export async function markSent(db: Sql, r: Reservation): Promise<boolean> {
  const rows = await db.query(
    "update ledger set sent_at = now() where id = $1 and status = 'pending' and sent_at is null returning id",
    [r.ledgerId],
  );
  return rows.length > 0;
}

/** The request never left (no mark): not spent, not pending; the budgets get the credits back. False when it was not reserved. */
export async function giveBack(
  db: Db,
  r: Pick<Reservation, "ledgerId" | "month" | "userId" | "credits">,
): Promise<boolean> {
  return endReservation(db, r, "released", "status = 'pending' and sent_at is null");
}

/**
 * Release the reserved rows (never marked sent) of processes that are not
 * alive (`alive`: names whose heartbeat is fresh, this one's included): their
 * requests never left. Rows with the mark stay as they are. Returns how many.
 */
export async function releaseUnsentOfDead(db: Db, alive: string[]): Promise<number> {
  const rows = await db.query<{ id: number; month: string; user_id: number; credits: number }>(
    `select id, month, user_id, credits from ledger
      where status = 'pending' and sent_at is null and not (process = any($1::text[])) order by id limit 1000`,
    [alive],
  );
  let n = 0;
  for (const row of rows)
    if (await giveBack(db, { ledgerId: row.id, month: row.month, userId: row.user_id, credits: row.credits })) n++;
  return n;
}

/** What a user and the team have left this month (null = no budget), temporary increases included. */
export async function remaining(
  db: Sql,
  user: AuthUser,
  now: number,
): Promise<{
  month: string;
  user: { budget: number | null; spent: number };
  team: { budget: number | null; spent: number };
}> {
  const month = monthOf(now);
  const rows = await db.query<{ user_id: number; credits: number }>(
    "select user_id, credits from budget_spend where month = $1 and user_id in ($2, $3)",
    [month, TEAM, user.id],
  );
  const at = new Date(now);
  const [u] = await db.query<{ month_budget: number | null }>(
    `select ${effectiveBudgetSql("month_budget", "$1", "$2")} as month_budget from users where id = $1`,
    [user.id, at],
  );
  const [t] = await db.query<{ month_budget: number | null }>(
    `select ${effectiveBudgetSql("month_budget", "0", "$1")} as month_budget from team where id = 1`,
    [at],
  );
  return {
    month,
    user: { budget: u?.month_budget ?? null, spent: rows.find((r) => r.user_id === user.id)?.credits ?? 0 },
    team: { budget: t?.month_budget ?? null, spent: rows.find((r) => r.user_id === TEAM)?.credits ?? 0 },
  };
}

/** Set the team's monthly budget (null = none). */
export async function setTeamBudget(db: Sql, budget: number | null): Promise<void> {
  await db.query("update team set month_budget = $1 where id = 1", [budget]);
}

/** Set a user's monthly budget (null = none); false when there is no such user. */
export async function setUserBudget(db: Sql, name: string, budget: number | null): Promise<boolean> {
  const id = await findUserId(db, name); // `Alice` is `alice` (auth/user-name.ts)
  if (id === null) return false;
  return (await db.query("update users set month_budget = $2 where id = $1 returning id", [id, budget])).length > 0;
}
