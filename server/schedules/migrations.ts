/** The schedules' schema (migration numbers 100–199, server/db/migrations.ts; 130–139: the audit of runs, issue 40; 140: sharing, issue 42). */
import { registerMigration } from "../db/migrations.ts";

registerMigration({
  id: 100,
  name: "portfolio schedules, their document store, change log and runs",
  sql: `
-- A user's portfolio with its schedule and alert channels (webhook addresses are secrets:
-- never answered in full, never logged).
create table schedules (
  id serial primary key,
  user_id integer not null references users(id),
  name text not null,
  companies jsonb not null,
  frequency text not null check (frequency in ('hourly', 'daily', 'weekly')),
  hour integer not null check (hour between 0 and 23),
  weekday integer not null default 1 check (weekday between 0 and 6),
  budget integer check (budget is null or budget >= 1),
  webhooks jsonb not null default '[]',
  emails jsonb not null default '[]',
  language text not null default 'de' check (language in ('de', 'en')),
  -- the server's (injectable) clock: the next slot; a claimed run keeps it until the run ends
  next_run timestamptz not null,
  -- the process running it now and until when its claim holds (the database's clock)
  running_by text,
  running_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, name)
);
create index schedules_due on schedules (next_run);
-- The core check's document store per schedule: watermarks, last results, alert outboxes.
create table schedule_store (
  schedule_id integer not null references schedules(id) on delete cascade,
  key text not null,
  value text not null,
  primary key (schedule_id, key)
);
-- The change log: every line once per schedule (its key), with the run that appended it.
create table schedule_changes (
  id serial primary key,
  schedule_id integer not null references schedules(id) on delete cascade,
  run_id integer not null,
  key text not null,
  line jsonb not null,
  unique (schedule_id, key)
);
-- Each run's result: status, credits, the companies it screened, new changes, alerts, errors.
create table schedule_runs (
  id serial primary key,
  schedule_id integer not null references schedules(id) on delete cascade,
  process text not null,
  started_at timestamptz not null,
  finished_at timestamptz,
  status text not null,
  estimate integer not null default 0,
  credits integer not null default 0,
  result jsonb not null default '{}'
);
create index schedule_runs_of on schedule_runs (schedule_id, id);
`,
});

registerMigration({
  id: 110,
  name: "schedules: pause, and the administrator's actions (pause, transfer, run now)",
  sql: `
-- A paused schedule is never claimed (store.ts claimDue) until it is resumed.
alter table schedules add column paused_at timestamptz;
alter table schedules add column paused_by text;
-- What an administrator did to a schedule, with who and when (the console, issue 39).
create table schedule_admin_log (
  id serial primary key,
  schedule_id integer not null references schedules(id) on delete cascade,
  action text not null check (action in ('pause', 'resume', 'transfer', 'run-now')),
  detail jsonb not null default '{}',
  done_by text not null,
  done_at timestamptz not null default now()
);
create index schedule_admin_log_of on schedule_admin_log (schedule_id, id);
`,
});

registerMigration({
  id: 130,
  name: "schedules: the portfolio sheet a schedule's runs write (the audit's old values, issue 40)",
  sql: `
-- The portfolio sheet as the schedule's last run left it: the next run writes into it, so the audit of
-- its writes (the doc:audit: keys in schedule_store, shared/undo/) has each cell's old value, and an
-- undo of a run has the sheet to write back into. One row of at most MAX_COMPANIES rows by 9 cells.
create table schedule_sheets (
  schedule_id integer primary key references schedules(id) on delete cascade,
  cells jsonb not null,
  updated_at timestamptz not null default now()
);
`,
});

registerMigration({
  id: 140,
  name: "schedules: shared with the team read-only, under a stable id (issue 42, item 1)",
  sql: `
-- A schedule its owner shares with the team: any user of this server who knows its share id (a
-- workbook's link records it) may read it and its runs (GET /shared-schedules/ID), never change it.
-- The id is random (122 bits of a v4 UUID), made once per schedule and kept when it is replaced, so a
-- workbook's link stays valid; it is no secret on its own (a personal token of this server is needed too).
alter table schedules add column shared boolean not null default false;
alter table schedules add column share_id text not null default replace(gen_random_uuid()::text, '-', '');
create unique index schedules_share_id on schedules (share_id);
`,
});
