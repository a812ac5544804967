/**
 * `company-data server report`: what the team spent in a month, per user and
 * endpoint (settled = charged, pending = reserved or sent but not settled: in
 * flight, or lost in a crash after it left, possibly charged), and what the
 * shared answers saved: credits the answers served from the team's cache
 * would have cost again. Failed rows (the API answered an error) and released
 * rows (the request never left) cost nothing and are not counted.
 */
import type { Sql } from "../db/db.ts";

export interface ReportLine {
  user: string;
  endpoint: string;
  requests: number;
  settled: number;
  pending: number;
}
export interface Report {
  month: string;
  lines: ReportLine[];
  saved: { user: string; endpoint: string; answers: number; credits: number }[];
  totals: { settled: number; pending: number; spent: number; saved: number };
  byUser: { user: string; spent: number; saved: number; budget: number | null }[];
  /**
   * Ledger rows still pending, per user: requests in flight right now, or
   * lost (a crash, a kill, a timeout) after they were recorded; each may
   * have been charged, so they count as spent. `ids` are the ledger ids the
   * requests carried as `X-Request-Id: ledger-<id>`, to match them with the
   * API's own records (README "Ledger and report").
   */
  unsettled: {
    user: string;
    rows: number;
    credits: number;
    /** Of `rows`, those with the send mark: their requests left (charged unless the API answered an error). */
    sent: number;
    first: string;
    last: string;
    ids: number[];
  }[];
  team: { budget: number | null };
}

export async function monthReport(db: Sql, month: string): Promise<Report> {
  const lines = await db.query<ReportLine>(
    `select u.name as user, l.endpoint, count(*)::int as requests,
            coalesce(sum(l.credits) filter (where l.status = 'settled'), 0)::int as settled,
            coalesce(sum(l.credits) filter (where l.status = 'pending'), 0)::int as pending
       from ledger l join users u on u.id = l.user_id
      where l.month = $1 and l.status in ('settled', 'pending')
      group by u.name, l.endpoint order by u.name, l.endpoint`,
    [month],
  );
  const saved = await db.query<{ user: string; endpoint: string; answers: number; credits: number }>(
    `select u.name as user, h.endpoint, count(*)::int as answers, sum(h.saved)::int as credits
       from cache_hits h join users u on u.id = h.user_id where h.month = $1
      group by u.name, h.endpoint order by u.name, h.endpoint`,
    [month],
  );
  const users = await db.query<{ name: string; month_budget: number | null }>(
    "select name, month_budget from users order by name",
  );
  const [team] = await db.query<{ month_budget: number | null }>("select month_budget from team where id = 1");
  const unsettled = await db.query<{
    user: string;
    rows: number;
    credits: number;
    sent: number;
    first: string;
    last: string;
    ids: number[];
  }>(
    `select u.name as user, count(*)::int as rows, sum(l.credits)::int as credits,
            count(*) filter (where l.sent_at is not null)::int as sent,
            to_char(min(l.created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as first,
            to_char(max(l.created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as last,
            array_agg(l.id order by l.id) as ids
       from ledger l join users u on u.id = l.user_id
      where l.month = $1 and l.status = 'pending'
      group by u.name order by u.name`,
    [month],
  );
  const sum = <T>(xs: T[], f: (x: T) => number) => xs.reduce((s, x) => s + f(x), 0);
  const settled = sum(lines, (l) => l.settled);
  const pending = sum(lines, (l) => l.pending);
  return {
    month,
    lines,
    saved,
    totals: { settled, pending, spent: settled + pending, saved: sum(saved, (s) => s.credits) },
    byUser: users.map((u) => ({
      user: u.name,
      spent: sum(
        lines.filter((l) => l.user === u.name),
        (l) => l.settled + l.pending,
      ),
      saved: sum(
        saved.filter((s) => s.user === u.name),
        (s) => s.credits,
      ),
      budget: u.month_budget,
    })),
    team: { budget: team?.month_budget ?? null },
    unsettled: unsettled.map((u) => ({ ...u, ids: u.ids.map(Number) })),
  };
}
