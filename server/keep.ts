/**
 * Keeping what the API charged (issue 37, item 7): a database write that
 * records a purchase (storing the answer, settling or giving back its ledger
 * row) must not be lost to a database error (a full disk, a restart). It is
 * tried now; if it fails, the user still gets the API's answer, and the write
 * is tried again in the background (every 0.25 s doubling to 5 s) until the
 * database takes it. Until then the ledger row stays as it was: sent rows are
 * pending, so they count as spent and `server report` lists them among the
 * unsettled (charged but not yet recorded), never as free. Should the process
 * die first, the row stays so for good (a sent row is never released).
 */
import type { Logger } from "./log.ts";

const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** Writes still waiting for the database, per logger (tests wait for them: `pendingWrites`). */
const waiting = new WeakMap<Logger, Set<Promise<void>>>();

/**
 * Run `write`; on an error, log it and keep trying in the background.
 * Resolves after the first attempt (true: done), never rejects.
 */
export async function writeOrKeep(
  log: Logger,
  what: string,
  fields: Record<string, unknown>,
  write: () => Promise<unknown>,
): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (e) {
    log.error("db.write.failed", { what, ...fields, error: String((e as Error)?.message ?? e).slice(0, 200) });
  }
  const later = (async () => {
    for (let wait = FIRST_RETRY_MS; ; wait = Math.min(LAST_RETRY_MS, wait * 2)) {
      await sleep(wait);
      try {
        await write();
        log.info("db.write.recovered", { what, ...fields });
        return;
      } catch {
        /* still down: try again */
      }
    }
  })();
  let set = waiting.get(log);
  if (!set) waiting.set(log, (set = new Set()));
  set.add(later);
  void later.finally(() => set.delete(later));
  return false;
}

/** The background writes of this logger's server still waiting (tests). */
export const pendingWrites = (log: Logger): Promise<void>[] => [...(waiting.get(log) ?? [])];
