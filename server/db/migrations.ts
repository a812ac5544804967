/**
 * Versioned migrations, one list for PGlite and PostgreSQL: each has a number
 * and SQL; `migrate` applies those the database has not seen, in number
 * order, and records them in `schema_migrations`. Several processes starting
 * at once on one database take an advisory lock, so each migration runs once.
 *
 * Extension modules append their own (registerMigration, usually from the
 * module imported by server/extensions.ts). Numbers are reserved by owner:
 *   1–99     the server core (core-migrations.ts)
 *   100–199  portfolio schedules (server/schedules/)
 *   200–299  reconciliation (/reconcile)
 *   300–399  doctor (deep health, drift acknowledgements)
 * A migration, once released, is never edited: a change is a new number.
 */
import type { Db } from "./db.ts";

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
  constructor(readonly unknown: number[]) {
    super(
      `the database has migrations this server does not know (${unknown.join(", ")}): it was upgraded by a newer version; upgrade this server`,
    );
  }
}

/** Apply the registered migrations the database lacks; returns the numbers applied. */
export async function migrate(db: Db, list: Migration[] = migrations()): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.exec(
      "create table if not exists schema_migrations (id integer primary key, name text not null, applied_at timestamptz not null default now())",
    );
    const done = new Set((await tx.query<{ id: number }>("select id from schema_migrations")).map((r) => r.id));
    const known = new Set(list.map((m) => m.id));
    const unknown = [...done].filter((id) => !known.has(id)).sort((a, b) => a - b);
    if (unknown.length) throw new NewerDatabaseError(unknown);
    const applied: number[] = [];
    for (const m of list) {
      if (done.has(m.id)) continue;
      await tx.exec(m.sql);
      await tx.query("insert into schema_migrations (id, name) values ($1, $2)", [m.id, m.name]);
      applied.push(m.id);
    }
    return applied;
  });
}
