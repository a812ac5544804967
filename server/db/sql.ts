/**
 * The small interface both databases speak (db.ts opens one): PGlite
 * (pglite.ts) and node-postgres (postgres.ts) implement it, everything else
 * queries through it. Apart from db.ts so that the two implementations do
 * not import the module that loads them.
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
