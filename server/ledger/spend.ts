/**
 * The ledger read for the console (issue 39), beside report.ts (whose
 * month report is the one source of the per-user and per-endpoint figures):
 * spend per day of a month (the chart), the ledger as CSV with filters, and
 * one user's recent requests, bought (the ledger) or served from the team's
 * shared answers (cache_hits: nothing charged).
 */
import type { Sql } from "../db/db.ts";

export interface DaySpend {
  day: string;
  user: string;
  credits: number;
}

/** Credits per day (UTC) and user of a month; failed rows (nothing charged) left out, pending ones counted as the report counts them. */
export async function spendPerDay(db: Sql, month: string, userId?: number): Promise<DaySpend[]> {
  return db.query<DaySpend>(
    `select to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, u.name as user, sum(l.credits)::int as credits
       from ledger l join users u on u.id = l.user_id
      where l.month = $1 and l.status <> 'failed' and ($2::int is null or l.user_id = $2)
      group by 1, 2 order by 1, 2`,
    [month, userId ?? null],
  );
}

export interface LedgerFilter {
  month?: string;
  user?: string;
  endpoint?: string;
}

export const CSV_COLUMNS = [
  "id",
  "created_at",
  "month",
  "user",
  "endpoint",
  "company",
  "credits",
  "status",
  "settled_at",
] as const;

/**
 * One CSV cell (RFC 4180 quoting). A cell a spreadsheet would read as a
 * formula (=, +, -, @, tab, CR first) is written with a leading apostrophe:
 * the export is opened in Excel and Sheets, and no text becomes a formula.
 */
export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? "" : String(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s)) s = "'" + s;
  return /[",\r\n;]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The ledger's rows matching the filter, oldest first, as CSV with a header line. */
export async function ledgerCsv(db: Sql, f: LedgerFilter): Promise<string> {
  const rows = await db.query<Record<(typeof CSV_COLUMNS)[number], unknown>>(
    `select l.id, to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at, l.month,
            u.name as user, l.endpoint, l.company, l.credits, l.status,
            to_char(l.settled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as settled_at
       from ledger l join users u on u.id = l.user_id
      where ($1::text is null or l.month = $1) and ($2::text is null or u.name = $2) and ($3::text is null or l.endpoint = $3)
      order by l.id`,
    [f.month ?? null, f.user ?? null, f.endpoint ?? null],
  );
  const lines = [CSV_COLUMNS.join(",")];
  for (const r of rows) lines.push(CSV_COLUMNS.map((c) => csvCell(r[c])).join(","));
  return lines.join("\r\n") + "\r\n";
}

export interface RecentRequest {
  at: string;
  endpoint: string;
  company: string | null;
  /** Credits charged to the user (0 for a shared answer). */
  credits: number;
  /** bought: the ledger (pending = sent, maybe charged); shared: the team already had the answer. */
  source: "bought" | "shared";
  status: string;
  /** A shared answer: what it would have cost. */
  saved: number;
}

/** A user's latest requests (bought and shared), newest first. */
export async function recentRequests(db: Sql, userId: number, limit = 50): Promise<RecentRequest[]> {
  const rows = await db.query<{
    at: Date | string;
    endpoint: string;
    company: string | null;
    credits: number;
    source: "bought" | "shared";
    status: string;
    saved: number;
  }>(
    `select * from (
       select created_at as at, endpoint, company, credits, 'bought' as source, status, 0 as saved
         from ledger where user_id = $1
       union all
       select created_at, endpoint, company, 0, 'shared', 'shared', saved from cache_hits where user_id = $1
     ) x order by at desc limit $2`,
    [userId, limit],
  );
  return rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() }));
}

/** Endpoints in the ledger of a month (the CSV filter's choices). */
export async function ledgerEndpoints(db: Sql): Promise<string[]> {
  return (await db.query<{ endpoint: string }>("select distinct endpoint from ledger order by endpoint")).map(
    (r) => r.endpoint,
  );
}
