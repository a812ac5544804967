/**
 * PGlite serves one process: two processes opening one data directory would
 * corrupt it. So whoever opens it (the server, or a `server token …`
 * command) first takes `<dir>/server.lock` with the one lock of every Node
 * host (node/lock.ts): created exclusively, naming its process and host; a
 * lock whose process is gone (a crash, a kill -9) is taken over by the safe
 * rename-and-link step, never one of a live process or of another host.
 */
import { mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { acquireLock } from "../../node/index.ts";

export const LOCK_FILE = "server.lock";

export class DataDirLocked extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
    /** The host of the process holding it, when it is not this one (a shared network folder). */
    readonly host?: string,
  ) {
    super(`data directory ${dir} is in use by process ${pid}${host ? ` on ${host}` : ""}`);
  }
}

export interface DataLock {
  release(): void;
}

export function lockDataDir(dir: string): DataLock {
  mkdirSync(dir, { recursive: true });
  const got = acquireLock(join(dir, LOCK_FILE));
  if (!got.ok) {
    const host = got.owner?.host;
    throw new DataDirLocked(dir, got.owner?.pid ?? NaN, host !== undefined && host !== hostname() ? host : undefined);
  }
  return { release: () => got.release() };
}
