/**
 * The budgets' administration (the console, issue 39; core migration ids
 * 50–59): soft limits that alert once a month, temporary increases that
 * lapse by themselves, and the record of every change with who and when.
 * user_id 0 stands for the team, as in budget_spend.
 */
import { registerMigration } from "../db/migrations.ts";

registerMigration({
  id: 50,
  name: "budget soft limits, temporary increases, change history",
  sql: `
-- A soft limit per budget: at percent of the month's budget, one alert per month to its channels.
-- Webhook addresses are secrets: never answered in full, never logged.
create table budget_soft_limits (
  user_id integer primary key,
  percent integer not null check (percent between 1 and 100),
  webhooks jsonb not null default '[]',
  emails jsonb not null default '[]',
  language text not null default 'de' check (language in ('de', 'en'))
);
-- The alert of one budget in one month: claimed by one process (insert … on conflict do nothing), then sent or failed.
create table budget_soft_alerts (
  month text not null,
  user_id integer not null,
  percent integer not null,
  spent integer not null,
  budget integer not null,
  status text not null check (status in ('sending', 'sent', 'failed')),
  attempts integer not null default 1,
  detail jsonb not null default '[]',
  created_at timestamptz not null default now(),
  primary key (month, user_id)
);
-- A temporary increase of a budget: counts while the server's clock is before ends_at.
create table budget_increases (
  id serial primary key,
  user_id integer not null,
  credits integer not null check (credits > 0),
  ends_at timestamptz not null,
  created_by text not null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index budget_increases_of on budget_increases (user_id, ends_at);
-- Every change of a budget, a soft limit or an increase: who (the admin's user name), when, what.
create table budget_changes (
  id serial primary key,
  user_id integer not null,
  kind text not null check (kind in ('budget', 'soft-limit', 'increase', 'increase-revoked')),
  old_value jsonb,
  new_value jsonb,
  changed_by text not null,
  changed_at timestamptz not null default now()
);
create index budget_changes_of on budget_changes (user_id, id);
`,
});
