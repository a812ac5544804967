/**
 * The Db interface on PGlite (embedded PostgreSQL in a data directory). One
 * process only: the caller holds the directory's lock (data-lock.ts). PGlite
 * runs one statement at a time and a transaction exclusively, which is what
 * makes row locks trivially true here.
 */
import { mkdirSync } from "node:fs";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import type { Db, Sql } from "./sql.ts";

export async function openPglite(dir: string): Promise<Db> {
  // "memory://" keeps everything in memory (tests that need no files).
  if (!dir.startsWith("memory://")) mkdirSync(dir, { recursive: true });
  const pg = await PGlite.create(dir);
  const on = (c: PGlite | Transaction): Sql => ({
    query: async <T>(text: string, params?: unknown[]) => (await c.query<T>(text, params)).rows,
    exec: async (text: string) => void (await c.exec(text)),
  });
  return {
    kind: "pglite",
    ...on(pg),
    transaction: <T>(fn: (tx: Sql) => Promise<T>) => pg.transaction((tx) => fn(on(tx))),
    close: () => pg.close(),
  };
}
