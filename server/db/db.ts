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
export interface Sql {
  /** One statement with $1… parameters; the rows it returns. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
}

export interface Db extends Sql {
  readonly kind: "pglite" | "postgres";
  /**
   * A connection of its own for short statements that must not wait behind a
   * busy pool (the process heartbeat: server/heartbeat.ts); absent where
   * statements run one at a time anyway (PGlite).
   */
  readonly priority?: Sql;
  /** Run `fn` in one transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

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
