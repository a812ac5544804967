/**
 * Each server process beats in the database (`processes`, its last beat on
 * the database's clock) every second. A process whose beat is older than
 * STALE_MS is dead: its claims on questions are free at once (cache.ts
 * claim), and its reserved ledger rows without the send mark are released
 * (their requests never left; ledger/budget.ts). So a `kill -9` frees what
 * the process held within a few seconds, not after a lease of a minute.
 *
 * The sweep runs at start and with every beat, on every process: whichever
 * notices a dead one first releases its rows (one UPDATE per row, guarded by
 * the row's state, so two sweeps and the dead process's own mark never both win).
 */
import type { Db, Sql } from "./db/db.ts";
import { releaseUnsentOfDead } from "./ledger/budget.ts";
import type { Logger } from "./log.ts";

export const BEAT_MS = 1_000;
/** A beat older than this: the process is dead (three beats missed). */
export const STALE_MS = 3_000;

/** This process is alive (insert or refresh its row). */
export async function beat(db: Sql, name: string): Promise<void> {
  await db.query("insert into processes (name) values ($1) on conflict (name) do update set beat_at = now()", [name]);
}

/** The processes whose beat is fresh. */
export async function aliveProcesses(db: Sql): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    "select name from processes where beat_at > now() - $1 * interval '1 millisecond'",
    [STALE_MS],
  );
  return rows.map((r) => r.name);
}

/** Release the unsent rows of dead processes, and forget processes dead for an hour. */
export async function sweepDead(db: Db, self: string): Promise<number> {
  const alive = await aliveProcesses(db);
  const released = await releaseUnsentOfDead(db, [...new Set([...alive, self])]);
  await db.query("delete from processes where beat_at < now() - interval '1 hour'");
  return released;
}

export interface Heartbeat {
  /** Stop beating and take this process's row out: its claims lapse at once (after they were given back). */
  stop(): Promise<void>;
}

/** Beat now (before the first request), sweep, and keep both going every BEAT_MS. */
export async function startHeartbeat(db: Db, self: string, log: Logger): Promise<Heartbeat> {
  // The beat is latency-critical (three missed are a death): a connection of its own where there is one.
  const beatDb = db.priority ?? db;
  await beat(beatDb, self);
  const sweep = async () => {
    const n = await sweepDead(db, self);
    if (n > 0) log.warn("released.unsent", { rows: n, why: "process dead before the send mark" });
  };
  await sweep();
  let running: Promise<void> | null = null;
  let ticks = 0;
  const timer = setInterval(() => {
    // A beat still waiting for the database is not doubled.
    if (running) return;
    running = (async () => {
      try {
        await beat(beatDb, self);
        // Sweeping every second beat is plenty: a dead process is noticed within STALE_MS + 2 beats.
        if (++ticks % 2 === 0) await sweep();
      } catch (e) {
        log.warn("heartbeat.failed", { error: String((e as Error)?.message ?? e).slice(0, 200) });
      } finally {
        running = null;
      }
    })();
  }, BEAT_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await beatDb.query("delete from processes where name = $1", [self]).catch(() => undefined);
    },
  };
}
