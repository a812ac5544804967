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
/** How often each process looks for dead ones' reserved rows. */
export const SWEEP_MS = 2_000;

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

/** A loop of `fn` every `ms`, never two at once; an error is logged and the loop goes on. */
function every(ms: number, fn: () => Promise<void>, log: Logger, what: string) {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = fn()
      .catch((e: unknown) => log.warn(`${what}.failed`, { error: String((e as Error)?.message ?? e).slice(0, 200) }))
      .finally(() => (running = null));
  }, ms);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * Beat now (before the first request) and sweep, then keep both going: the
 * beat every BEAT_MS on its own connection, the sweep every SWEEP_MS on the
 * pool. Apart, so a sweep waiting for locks (hundreds of rows of a dead
 * process to give back while the budgets are busy) never delays a beat: a
 * late beat is how a live process comes to look dead.
 */
export async function startHeartbeat(db: Db, self: string, log: Logger): Promise<Heartbeat> {
  const beatDb = db.priority ?? db;
  await beat(beatDb, self);
  const sweep = async () => {
    const n = await sweepDead(db, self);
    if (n > 0) log.warn("released.unsent", { rows: n, why: "process dead before the send mark" });
  };
  await sweep();
  let lastBeat = Date.now();
  const stopBeat = every(
    BEAT_MS,
    async () => {
      await beat(beatDb, self);
      const since = Date.now() - lastBeat;
      lastBeat = Date.now();
      // A blocked event loop or a slow database: the admin should know before peers take this process for dead.
      if (since > STALE_MS / 2) log.warn("heartbeat.late", { ms: since });
    },
    log,
    "heartbeat",
  );
  const stopSweep = every(SWEEP_MS, sweep, log, "sweep");
  return {
    async stop() {
      await stopSweep();
      await stopBeat();
      await beatDb.query("delete from processes where name = $1", [self]).catch(() => undefined);
    },
  };
}
