/**
 * Database round trips, counted at the adapter (issue 43, item 4: the server
 * bench reports them per request): a Db that counts every statement sent,
 * the ones inside a transaction and its begin and commit included.
 */
import type { Db, Sql } from "./db.ts";

export interface CountingDb extends Db {
  /** Statements sent so far. */
  readonly roundTrips: number;
  /** Statements sent so far by their first words (what asks the most). */
  readonly byStatement: ReadonlyMap<string, number>;
}

export function countingDb(db: Db): CountingDb {
  let n = 0;
  const byStatement = new Map<string, number>();
  const count = (text: string) => {
    n++;
    const k = text.replace(/\s+/g, " ").trim().slice(0, 60);
    byStatement.set(k, (byStatement.get(k) ?? 0) + 1);
  };
  const counted = (s: Sql): Sql => ({
    query: (text, params) => (count(text), s.query(text, params)),
    exec: (text) => (count(text), s.exec(text)),
  });
  return {
    kind: db.kind,
    ...(db.priority ? { priority: counted(db.priority) } : {}),
    ...counted(db),
    transaction: (fn) => (count("begin"), count("commit"), db.transaction((tx) => fn(counted(tx)))),
    close: () => db.close(),
    get roundTrips() {
      return n;
    },
    byStatement,
  };
}
