/**
 * Soft limits: when a budget's spend this month reaches its soft limit
 * (a percentage of the budget as it holds now, increases included), one
 * alert goes to the budget's webhooks and recipients, once per month. The
 * check runs on every server process at each tick; the month's alert row is
 * claimed by one INSERT (primary key month + budget), so of several
 * processes exactly one sends. A failed delivery is retried at later ticks,
 * at most MAX_ATTEMPTS times in all.
 */
import type { OutboundPolicy } from "../net/outbound.ts";
import { catalogue } from "../../shared/i18n/index.ts";
import type { Sql } from "../db/db.ts";
import type { Logger } from "../log.ts";
import type { ScheduleConfig } from "../schedules/config.ts";
import { sendAlert, type AlertMessage } from "../schedules/send.ts";
import { effectiveBudgetSql, monthOf } from "./budget.ts";
import { TEAM_ID } from "./budget-admin.ts";

export const MAX_ATTEMPTS = 3;

const text = catalogue({
  subject: {
    de: (who: string, percent: number) => `Budget ${who}: ${percent} % erreicht`,
    en: (who: string, percent: number) => `Budget ${who}: ${percent} % reached`,
  },
  body: {
    de: (who: string, spent: string, budget: string, month: string, percent: number) =>
      `Das Budget ${who} hat im Monat ${month} ${spent} von ${budget} Credits verbraucht und damit die Warnschwelle von ${percent} % erreicht. ` +
      `Weitere Anfragen laufen bis zum Budget weiter; ein Administrator kann das Budget in der Konsole (/console) erhöhen.`,
    en: (who: string, spent: string, budget: string, month: string, percent: number) =>
      `The budget ${who} has spent ${spent} of ${budget} credits in ${month}, reaching its soft limit of ${percent} %. ` +
      `Requests go on until the budget is reached; an administrator can raise the budget in the console (/console).`,
  },
  team: { de: "des Teams", en: "of the team" },
  user: { de: (n: string) => `von ${n}`, en: (n: string) => `of ${n}` },
});

interface Due {
  user_id: number;
  name: string | null;
  percent: number;
  webhooks: string[];
  emails: string[];
  language: "de" | "en";
  budget: number;
  spent: number;
}

/** Budgets with a soft limit whose spend this month is at or past it. */
async function dueBudgets(db: Sql, month: string, at: Date): Promise<Due[]> {
  return db.query<Due>(
    `with b as (
       select 0 as user_id, null::text as name, ${effectiveBudgetSql("month_budget", "0", "$2")} as budget from team where id = 1
       union all
       select id, name, ${effectiveBudgetSql("month_budget", "users.id", "$2")} from users)
     select l.user_id, b.name, l.percent, l.webhooks, l.emails, l.language, b.budget, coalesce(s.credits, 0)::int as spent
       from budget_soft_limits l join b on b.user_id = l.user_id
       left join budget_spend s on s.month = $1 and s.user_id = l.user_id
      where b.budget is not null and coalesce(s.credits, 0) * 100 >= b.budget * l.percent`,
    [month, at],
  );
}

function message(d: Due, month: string): AlertMessage {
  const lang = d.language;
  const who = d.user_id === TEAM_ID ? text.team[lang] : text.user[lang](d.name ?? "?");
  const n = (x: number) => x.toLocaleString(lang === "de" ? "de-DE" : "en-GB");
  return {
    language: lang,
    subject: text.subject[lang](who, d.percent),
    text: text.body[lang](who, n(d.spent), n(d.budget), month, d.percent),
  };
}

/** One look: claim and send the alerts due now; answers how many were sent. */
export async function checkSoftLimits(
  db: Sql,
  cfg: ScheduleConfig,
  log: Logger,
  /** Where the alerts may go (the server's --allow-webhook-host policy); absent: public addresses only. */
  outbound?: OutboundPolicy,
): Promise<number> {
  const now = cfg.now();
  const month = monthOf(now);
  let sent = 0;
  for (const d of await dueBudgets(db, month, new Date(now))) {
    // Claim: a new row for this month, or a failed one with attempts left; whoever gets the row sends.
    const [claimed] = await db.query<{ attempts: number }>(
      `insert into budget_soft_alerts (month, user_id, percent, spent, budget, status) values ($1, $2, $3, $4, $5, 'sending')
       on conflict (month, user_id) do update set status = 'sending', attempts = budget_soft_alerts.attempts + 1
         where budget_soft_alerts.status = 'failed' and budget_soft_alerts.attempts < $6
       returning attempts`,
      [month, d.user_id, d.percent, d.spent, d.budget, MAX_ATTEMPTS],
    );
    if (!claimed) continue;
    const outcomes = await sendAlert(
      { log, outbound },
      { webhooks: d.webhooks, emails: d.emails },
      message(d, month),
      cfg,
    );
    const ok = outcomes.length > 0 && outcomes.every((o) => o.status === "sent");
    await db.query("update budget_soft_alerts set status = $3, detail = $4::jsonb where month = $1 and user_id = $2", [
      month,
      d.user_id,
      ok ? "sent" : "failed",
      JSON.stringify(outcomes),
    ]);
    log[ok ? "info" : "warn"]("budget.soft-limit", {
      budget: d.user_id === TEAM_ID ? "team" : d.name,
      percent: d.percent,
      spent: d.spent,
      status: ok ? "sent" : "failed",
    });
    if (ok) sent++;
  }
  return sent;
}
