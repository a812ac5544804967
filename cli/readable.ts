/**
 * Why an input file cannot be read, as an errno code the messages name
 * (cli/i18n.ts `noFile`): not found, permission denied, a folder. Checked by
 * opening it, not by existsSync: a file that exists but is not readable is
 * "permission denied", not "not found".
 */
import { closeSync, fstatSync, openSync } from "node:fs";

/** null when the file can be opened for reading and is no folder; else its errno code (EISDIR for a folder). */
export function unreadable(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    return (e as NodeJS.ErrnoException)?.code ?? "EIO";
  }
  try {
    return fstatSync(fd).isDirectory() ? "EISDIR" : null;
  } finally {
    closeSync(fd);
  }
}

/** The errno code of a failed read, or undefined when it is none. */
export const errnoOf = (e: unknown): string | undefined => {
  const code = (e as NodeJS.ErrnoException)?.code;
  return typeof code === "string" && /^E[A-Z]+$/.test(code) ? code : undefined;
};
