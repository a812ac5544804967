/**
 * PGlite serves one process: two processes opening one data directory would
 * corrupt it. So whoever opens it (the server, or a `server token …`
 * command) first creates `<dir>/server.lock` holding its pid, exclusively.
 * A lock whose pid is no longer alive (a crash, a kill -9) is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
// The hosts share their Node code through cli/ (as mcp/ and reconcile/ take its driver).
import { alive } from "../../node/index.ts";

export const LOCK_FILE = "server.lock";

export class DataDirLocked extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`data directory ${dir} is in use by process ${pid}`);
  }
}

export interface DataLock {
  release(): void;
}

/** Directories this process holds: a lock file with our own pid that is not here is stale (a container restarted with the same pid). */
const held = new Set<string>();

export function lockDataDir(dir: string): DataLock {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      held.add(file);
      return {
        release() {
          if (released) return;
          released = true;
          held.delete(file);
          try {
            if (readFileSync(file, "utf8").trim() === String(process.pid)) unlinkSync(file);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    let pid = NaN;
    try {
      pid = Number(readFileSync(file, "utf8").trim());
    } catch {
      continue; // removed between our attempt and the read: try again
    }
    const ours = pid === process.pid;
    if (Number.isInteger(pid) && pid > 0 && (ours ? held.has(file) : alive(pid))) throw new DataDirLocked(dir, pid);
    // A dead owner's lock (or an unreadable one): take it over.
    try {
      unlinkSync(file);
    } catch {
      /* another process took it over first: the next attempt finds its lock */
    }
  }
  throw new DataDirLocked(dir, NaN);
}
