/**
 * The server's database: PostgreSQL, either embedded (PGlite, PostgreSQL
 * compiled to WebAssembly, in a data directory) or a real server given by
 * DATABASE_URL (node-postgres). Both speak the same SQL through this small
 * interface, so the schema, the migrations and every query exist once.
 *
 * Money (budgets, the ledger) lives only here, never in process memory:
 * several server processes on one PostgreSQL keep the guarantees through
 * transactions and row locks (SELECT … FOR UPDATE, see ledger/budget.ts).
 */
import type { Db } from "./sql.ts";
export type { Db, Sql } from "./sql.ts";

/** Where the database is: DATABASE_URL wins over --data (the interface). */
export type DbTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dir: string };

export const DEFAULT_DATA_DIR = "./company-data-server";

export function dbTarget(data: string | undefined, env: NodeJS.ProcessEnv): DbTarget {
  const url = env.DATABASE_URL?.trim();
  if (url) return { kind: "postgres", url };
  return { kind: "pglite", dir: data ?? DEFAULT_DATA_DIR };
}

/** Open the database (without migrating; see migrations.ts). PGlite's directory is locked first (data-lock.ts). */
export async function openDb(target: DbTarget): Promise<Db> {
  if (target.kind === "postgres") return (await import("./postgres.ts")).openPostgres(target.url);
  return (await import("./pglite.ts")).openPglite(target.dir);
}
