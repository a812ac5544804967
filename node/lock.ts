/**
 * One run per output file. Two processes enriching into the same `--out`
 * would both append to its side files and both pay for every row; the second
 * one is stopped at the start by `OUT.lock`, created exclusively (O_EXCL),
 * holding the owner's process id and host.
 *
 * A lock whose process is gone (a `kill -9`, a power cut) is stale and taken
 * over: it is first renamed away (an atomic step only one process can win
 * for one lock file), then read again: if what was renamed belongs to a live
 * process after all (another run took the stale lock over a moment earlier),
 * it is put back with link() (which never replaces a file) and this run
 * stops. A lock from another host (a shared network folder) cannot be checked
 * and is never taken over: the message names the file to delete.
 * Limit: a process id reused by an unrelated process after a crash keeps the
 * lock "alive"; the message then names the file to delete as well. A lock
 * naming this very process that this process does not hold is stale too (a
 * container restarted with the same pid, pid 1 say).
 *
 * The one lock of every Node host: the CLI's output files and runs, the team
 * server's PGlite data directory (server/db/data-lock.ts).
 */
import { closeSync, linkSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import * as z from "zod/mini";
import { readSaved, savedKind, writeSaved } from "../shared/core/index.ts";
import { openPrivate } from "./private-file.ts";

interface Owner {
  pid: number;
  host: string;
}

const ownerShape: z.ZodMiniType<Owner> = z.object({ pid: z.number(), host: z.string() });
/**
 * Written without a version before v1: still read, or a run of the previous
 * build would not be recognised as the owner (nor its lock as stale).
 * A lock that does not fit has no known owner and is treated as held.
 */
export const LOCK_OWNER = savedKind(1, ownerShape, ownerShape);

export type LockResult = { ok: true; release(): void } | { ok: false; owner: Owner | null };
export type { Owner as LockOwner };

/** Files this process holds now. */
const heldHere = new Set<string>();

/** Who holds `file`: its owner, or null when it is gone, empty, torn or not a lock. */
export function lockOwner(file: string): Owner | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null; // gone meanwhile
  }
  // The team server's data-directory lock held its pid alone before it took this lock: this host's.
  if (/^\s*\d+\s*$/.test(text)) return { pid: Number(text), host: hostname() };
  return readSaved(LOCK_OWNER, text) ?? null;
}

/**
 * True while process `pid` exists on this machine (EPERM: it exists but is another user's).
 * The one check for every host's lock (also the team server's data directory, server/db/data-lock.ts).
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A lock of this host whose process is gone, or that names this process but is not held by it. */
const stale = (o: Owner | null, file: string) =>
  o !== null && o.host === hostname() && (o.pid === process.pid ? !heldHere.has(file) : !alive(o.pid));

function create(file: string, me: Owner): boolean {
  let fd: number;
  try {
    fd = openPrivate(file, "wx");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
  try {
    writeSync(fd, writeSaved(LOCK_OWNER, me));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Take `file` for this process, taking over a stale lock; released by release() and at process exit. */
export function acquireLock(file: string): LockResult {
  const me: Owner = { pid: process.pid, host: hostname() };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(file, me)) {
      let held = true;
      heldHere.add(file);
      const release = () => {
        if (!held) return;
        held = false;
        heldHere.delete(file);
        process.off("exit", release);
        // Only our own lock: a lock that is not ours any more (deleted by hand and taken by another run) stays.
        if (lockOwner(file)?.pid === me.pid) unlinkSync(file);
      };
      process.on("exit", release);
      return { ok: true, release };
    }
    const owner = lockOwner(file);
    // An empty or torn lock may be one being written this instant: treat as held.
    if (!stale(owner, file)) return { ok: false, owner };
    const aside = `${file}.${me.pid}.stale`;
    try {
      renameSync(file, aside);
    } catch {
      continue; // another process moved it first: look again
    }
    const moved = lockOwner(aside);
    if (stale(moved, file)) {
      unlinkSync(aside);
      continue;
    }
    // We moved a live lock (taken over by another run in between): put it back, unless that run already made a new one.
    try {
      linkSync(aside, file);
    } catch {
      /* a lock exists again: it stays */
    }
    unlinkSync(aside);
    return { ok: false, owner: moved };
  }
  return { ok: false, owner: lockOwner(file) };
}
