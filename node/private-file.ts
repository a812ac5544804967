/**
 * The CLI's side files hold bought answers (journals, the resolve phase's
 * answers, the monitor's store and cursor), what was spent (the intent
 * journal) and who runs (lock files): they are their user's alone (0600),
 * whatever the umask, as the team server's data directory is
 * (server/db/data-dir.ts). The outputs a user names (--out, --changes) keep
 * the umask's modes: where they go is the user's choice.
 */
import { appendFileSync, closeSync, fchmodSync, openSync, writeFileSync } from "node:fs";

export const PRIVATE_FILE_MODE = 0o600;

/** openSync with 0600 for a new file; an existing one of ours (an earlier version's, 0644) is tightened too. */
export function openPrivate(file: string, flags: "a" | "w" | "wx"): number {
  const fd = openSync(file, flags, PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch {
    /* another user's file we may write (a shared folder): its owner decides */
  }
  return fd;
}

function withPrivate(file: string, flags: "a" | "w", write: (fd: number) => void): void {
  const fd = openPrivate(file, flags);
  try {
    write(fd);
  } finally {
    closeSync(fd);
  }
}

/** writeFileSync, the file 0600. */
export const writePrivate = (file: string, data: string): void =>
  withPrivate(file, "w", (fd) => writeFileSync(fd, data));

/** appendFileSync, the file 0600. */
export const appendPrivate = (file: string, data: string): void =>
  withPrivate(file, "a", (fd) => appendFileSync(fd, data));
