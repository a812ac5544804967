/** The server core's schema (migration numbers 1–99; see migrations.ts). */
import { registerMigration } from "./migrations.ts";

registerMigration({
  id: 1,
  name: "users, tokens, team, budget counters, ledger, shared answers, cache hits",
  sql: `
create table users (
  id serial primary key,
  name text not null unique,
  -- credits per calendar month (UTC); null = no limit of its own
  month_budget integer check (month_budget is null or month_budget >= 0),
  created_at timestamptz not null default now()
);
-- Personal tokens, only as SHA-256 hex of the token (auth/tokens.ts says why that suffices).
create table tokens (
  id serial primary key,
  user_id integer not null references users(id),
  hash text not null unique,
  -- the last four characters, so an administrator can tell tokens apart
  hint text not null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create table team (
  id integer primary key check (id = 1),
  month_budget integer check (month_budget is null or month_budget >= 0)
);
insert into team (id, month_budget) values (1, null);
-- Credits reserved or spent per month and user (user_id 0 = the whole team): the rows
-- locked FOR UPDATE when a paid request is checked against the budgets.
create table budget_spend (
  month text not null,
  user_id integer not null,
  credits integer not null default 0,
  primary key (month, user_id)
);
-- Every paid request upstream: written (pending) before it is sent, settled when its answer
-- arrives (settled = charged, failed = the API answered an error and charged nothing).
-- A row left pending belongs to a process that died with the request in flight.
create table ledger (
  id serial primary key,
  month text not null,
  user_id integer not null references users(id),
  endpoint text not null,
  company text,
  credits integer not null,
  status text not null check (status in ('pending', 'settled', 'failed')),
  process text not null,
  created_at timestamptz not null default now(),
  settled_at timestamptz
);
create index ledger_month_user on ledger (month, user_id);
-- Shared answers: one per question (endpoint + path + query + body), bought once for the team.
-- state pending = one process is buying it (until lease_until), ready = body is the answer.
create table answers (
  key text primary key,
  endpoint text not null,
  company text,
  state text not null check (state in ('pending', 'ready')),
  owner text,
  lease_until timestamptz,
  status integer,
  body text,
  credits integer not null default 0,
  expires_at timestamptz,
  bought_by integer,
  bought_at timestamptz
);
-- Answers served from the shared cache: what each would have cost (the report's savings).
create table cache_hits (
  id serial primary key,
  month text not null,
  user_id integer not null references users(id),
  endpoint text not null,
  company text,
  saved integer not null,
  created_at timestamptz not null default now()
);
create index cache_hits_month on cache_hits (month, user_id);
`,
});

registerMigration({
  id: 2,
  name: "team pacer",
  sql: `
-- One pacer for the team across processes (server/pacing.ts): per upstream bucket (base URL, key hash,
-- bucket), the theoretical arrival time (GCRA) of the next request in epoch ms of the database's clock.
create table pace_slots (
  key text primary key,
  tat double precision not null
);
`,
});

registerMigration({
  id: 3,
  name: "admin tokens",
  sql: `
-- An admin token (company-data server token create --admin): accepted by the admin routes (auth: "admin").
alter table tokens add column admin boolean not null default false;
`,
});

registerMigration({
  id: 4,
  name: "token expiry and last use",
  sql: `
-- A token may expire (token create --expires 90d); null = never.
alter table tokens add column expires_at timestamptz;
-- Written at most once a minute per token (auth/tokens.ts), so a request adds no write.
alter table tokens add column last_used_at timestamptz;
`,
});

registerMigration({
  id: 20,
  name: "fair share of the team pacer",
  sql: `
-- Each user's own timeline per upstream bucket (server/pacing.ts, fair share): GCRA at the team's interval
-- times the users with requests waiting, taken before the team's slot, so one user's flood waits on its own.
create table pace_user_slots (
  key text not null,
  user_id integer not null,
  tat double precision not null,
  primary key (key, user_id)
);
`,
});

registerMigration({
  id: 10,
  name: "ledger send mark and released rows, process heartbeats, the language of a shared answer",
  sql: `
-- The send mark (ledger/budget.ts markSent): set in the instant before the request's bytes go out.
-- reserved = pending without it, sent = pending with it; released = never left (given back at once).
alter table ledger add column sent_at timestamptz;
-- Rows from before the mark: any that was not answered with an error may have left.
update ledger set sent_at = created_at where status <> 'failed';
alter table ledger drop constraint ledger_status_check;
alter table ledger add constraint ledger_status_check check (status in ('pending', 'settled', 'failed', 'released'));
create index ledger_unsent on ledger (process) where status = 'pending' and sent_at is null;
-- One row per server process, beaten every second (server/heartbeat.ts): a claim or a reserved row
-- whose process has not beaten for a few seconds belongs to a dead process.
create table processes (
  name text primary key,
  started_at timestamptz not null default now(),
  beat_at timestamptz not null default now()
);
-- The language the answer was bought in (its labels are given to other readers in theirs: server/labels.ts).
alter table answers add column lang text;
`,
});
