/** The Db interface on a PostgreSQL server (node-postgres pool). */
import pg from "pg";
import type { Db, Sql } from "./sql.ts";

/** Connections per process: enough for the requests a server has in flight, few enough for several processes on one database. */
const POOL_SIZE = 20;

export async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  // An idle connection the database drops (restart, failover) must not crash the process.
  pool.on("error", () => undefined);
  await pool.query("select 1");
  // One connection beside the pool for the heartbeat (db.ts Db.priority).
  const side = new pg.Pool({ connectionString: url, max: 1 });
  side.on("error", () => undefined);
  const on = (c: pg.Pool | pg.PoolClient): Sql => ({
    query: async <T>(text: string, params?: unknown[]) => (await c.query(text, params)).rows as T[],
    exec: async (text: string) => void (await c.query(text)),
  });
  return {
    kind: "postgres",
    ...on(pool),
    priority: on(side),
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const out = await fn(on(client));
        await client.query("commit");
        return out;
      } catch (e) {
        await client.query("rollback").catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    close: async () => {
      await side.end();
      await pool.end();
    },
  };
}
