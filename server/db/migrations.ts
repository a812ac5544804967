/**
 * Versioned migrations, one list for PGlite and PostgreSQL: each has a number
 * and SQL; `migrate` applies those the database has not seen, in number
 * order, and records them in `schema_migrations`. Several processes starting
 * at once on one database take an advisory lock, so each migration runs once.
 *
 * Extension modules append their own (registerMigration, usually from the
 * module imported by server/extensions.ts). Numbers are reserved by owner:
 *   1–99     the server core (core-migrations.ts; 50–59 the budgets' administration, ledger/budget-migrations.ts)
 *   100–199  portfolio schedules (server/schedules/)
 *   200–299  reconciliation (/reconcile)
 *   300–399  doctor (deep health, drift acknowledgements)
 * A migration, once released, is never edited: a change is a new number.
 */
import { SERVER_VERSION } from "../version.ts";
import type { Db, Sql } from "./db.ts";

export interface Migration {
  id: number;
  /** Short description, stored beside the number. */
  name: string;
  /** Statements without parameters; run in one transaction with the others of this start. */
  sql: string;
}

const registered = new Map<number, Migration>();

export function registerMigration(m: Migration): void {
  if (!Number.isInteger(m.id) || m.id < 1) throw new Error(`migration id must be a whole number ≥ 1, got ${m.id}`);
  const prior = registered.get(m.id);
  if (prior && prior.sql !== m.sql) throw new Error(`migration ${m.id} registered twice (${prior.name}, ${m.name})`);
  registered.set(m.id, m);
}

export function migrations(): Migration[] {
  return [...registered.values()].sort((a, b) => a.id - b.id);
}

/** Any fixed number: the advisory lock every migrating process takes. */
const MIGRATION_LOCK = 8790_0001;

export class NewerDatabaseError extends Error {
  constructor(
    readonly unknown: number[],
    /** The release that applied the newest of those migrations ("unknown" for a release before versions were kept). */
    readonly databaseVersion: string,
    readonly serverVersion: string,
  ) {
    super(
      `the database was migrated by company-data ${databaseVersion} (migrations ${unknown.join(", ")} are unknown here); this server is company-data ${serverVersion}: upgrade this server`,
    );
  }
}

/**
 * Apply the migrations of `list` the database lacks, inside the caller's
 * transaction; each row of schema_migrations records the release that applied
 * it (`version`), so a newer database names its release to an older server.
 */
export async function applyMigrations(tx: Sql, list: Migration[], version = SERVER_VERSION): Promise<number[]> {
  await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
  await tx.exec(
    "create table if not exists schema_migrations (id integer primary key, name text not null, applied_at timestamptz not null default now())",
  );
  await tx.exec("alter table schema_migrations add column if not exists version text");
  const rows = await tx.query<{ id: number; version: string | null }>(
    "select id, version from schema_migrations order by applied_at, id",
  );
  const done = new Set(rows.map((r) => r.id));
  const known = new Set(list.map((m) => m.id));
  const unknown = rows.filter((r) => !known.has(r.id));
  if (unknown.length)
    throw new NewerDatabaseError(
      unknown.map((r) => r.id).sort((a, b) => a - b),
      unknown.at(-1)?.version ?? "unknown",
      version,
    );
  const applied: number[] = [];
  for (const m of list) {
    if (done.has(m.id)) continue;
    await tx.exec(m.sql);
    await tx.query("insert into schema_migrations (id, name, version) values ($1, $2, $3)", [m.id, m.name, version]);
    applied.push(m.id);
  }
  return applied;
}

/** Apply the registered migrations the database lacks, in one transaction; returns the numbers applied. */
export async function migrate(db: Db, list: Migration[] = migrations(), version = SERVER_VERSION): Promise<number[]> {
  return db.transaction((tx) => applyMigrations(tx, list, version));
}
