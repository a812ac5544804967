/**
 * PGlite's data directory (`--data`) is the team's answers, ledger and
 * schedules (webhook secrets included), so it belongs to the server's user
 * alone: directories 0700, files 0600, on the first start and every start
 * after. The process umask (0o077, set by `company-data server`) is not
 * enough: PGlite unpacks its initial cluster with the modes of its archive
 * (0666 files, 0777 directories, measured with PGlite 0.5), so the tree is
 * tightened before it is opened, after, and when it is closed.
 *
 * A start that cannot work says why before PGlite is asked (it either
 * aborts with an emscripten error or, for some paths, never returns):
 * a directory that cannot be created or written, entries of another user,
 * or a disk without room (its free space named).
 */
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  statfsSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;
/** Below this much free space a start is refused: PGlite unpacks about 40 MB and a WAL segment is 16 MB. */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;

export type DataDirProblem = "create" | "write" | "owner" | "full";

export class DataDirError extends Error {
  constructor(
    readonly dir: string,
    readonly problem: DataDirProblem,
    /** The system's reason (an errno code), the foreign entry, or the free bytes. */
    readonly detail: string,
    readonly freeBytes?: number,
  ) {
    super(`data directory ${dir}: ${problem} (${detail})`);
  }
}

let statfsOverride: ((dir: string) => { bavail: number; bsize: number }) | null = null;

/** Tests: what statfs says about the data directory's file system (a full disk without filling one); null ends it. */
export function injectStatfs(f: typeof statfsOverride): void {
  statfsOverride = f;
}

/** Bytes an unprivileged process may still write on the file system of `dir`, or null when the system cannot say. */
export function freeBytes(dir: string): number | null {
  try {
    const s = statfsOverride ? statfsOverride(dir) : statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

const codeOf = (e: unknown) => String((e as NodeJS.ErrnoException)?.code ?? (e as Error)?.message ?? e);

/**
 * Create `dir` and its missing parents one level at a time (0700). Not
 * mkdirSync's recursive mode: on some paths (under /proc) it loops forever
 * instead of failing, the start that "neither starts nor exits".
 */
function makeDir(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    try {
      // stat, not lstat: a data directory (or a parent) may be a symbolic link to one.
      if (!statSync(d).isDirectory()) throw new DataDirError(dir, "create", "ENOTDIR");
      break;
    } catch (e) {
      if (e instanceof DataDirError) throw e;
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw new DataDirError(dir, "create", codeOf(e));
      missing.unshift(d);
      if (dirname(d) === d) break;
    }
  }
  for (const d of missing) {
    try {
      mkdirSync(d, { mode: DIR_MODE });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw new DataDirError(dir, "create", codeOf(e));
    }
  }
}

/**
 * Set every entry under `dir` (itself included) to 0700 (directories) or
 * 0600 (files); symbolic links are left alone (never followed). Returns how
 * many entries were looser. An entry of another user is a DataDirError: the
 * server could not make it private (and the other user could read it).
 */
export function tightenTree(dir: string): number {
  const uid = typeof process.getuid === "function" ? process.getuid() : null;
  let changed = 0;
  const visit = (path: string) => {
    let st;
    try {
      // The directory itself may be a link to where the data lives; below it nothing is followed.
      st = path === dir ? statSync(path) : lstatSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return; // removed meanwhile (PGlite's temporary files)
      throw e;
    }
    if (st.isSymbolicLink()) return;
    if (uid !== null && st.uid !== uid) throw new DataDirError(dir, "owner", `${path} (uid ${st.uid})`);
    const want = st.isDirectory() ? DIR_MODE : FILE_MODE;
    if ((st.mode & 0o7777) !== want) {
      chmodSync(path, want);
      changed++;
    }
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return changed;
}

/**
 * Make `dir` ready for PGlite: created (0700), owned by this user and
 * tightened, writable (a probe file), with room on its disk. Returns how
 * many entries were looser than 0700/0600 (the caller logs it).
 */
export function prepareDataDir(dir: string): number {
  makeDir(dir);
  let tightened: number;
  try {
    tightened = tightenTree(dir);
  } catch (e) {
    if (e instanceof DataDirError) throw e;
    throw new DataDirError(dir, "write", codeOf(e));
  }
  const probe = join(dir, `.write-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, "w", FILE_MODE));
    unlinkSync(probe);
  } catch (e) {
    if (codeOf(e) === "ENOSPC" || codeOf(e) === "EDQUOT")
      throw new DataDirError(dir, "full", codeOf(e), freeBytes(dir) ?? undefined);
    throw new DataDirError(dir, "write", codeOf(e));
  }
  const free = freeBytes(dir);
  if (free !== null && free < MIN_FREE_BYTES) throw new DataDirError(dir, "full", "statfs", free);
  return tightened;
}
