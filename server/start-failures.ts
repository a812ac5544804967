/**
 * Why a start (or an administrator's command) could not work, in the
 * administrator's language: the data directory that cannot be created or
 * written or holds another user's files, the full disk with its free space,
 * the tightened modes. server/cli.ts prints these and exits non-zero.
 */
import { createServer } from "node:net";
import { catalogue, type Language } from "../shared/i18n/index.ts";
import { DataDirError, freeBytes, MIN_FREE_BYTES } from "./db/data-dir.ts";
import type { DbTarget } from "./db/db.ts";
import { errnoCode, errorText } from "./error-text.ts";

/** Exit codes as the CLI's (cli/i18n.ts EXIT). */
const EXIT_USAGE = 2;
const EXIT_DISK_FULL = 9;

const mb = (bytes: number | undefined) => (bytes === undefined ? "?" : (bytes / 1024 / 1024).toFixed(1));

export const startText = catalogue({
  create: {
    de: (dir: string, why: string) =>
      `Das Datenverzeichnis ${dir} kann nicht angelegt werden (${why}). Einen Pfad wählen, den der Benutzer des Servers anlegen darf (--data).`,
    en: (dir: string, why: string) =>
      `The data directory ${dir} cannot be created (${why}). Choose a path the server's user may create (--data).`,
  },
  write: {
    de: (dir: string, why: string) =>
      `In das Datenverzeichnis ${dir} kann nicht geschrieben werden (${why}). Es muss dem Benutzer des Servers gehören und für ihn beschreibbar sein.`,
    en: (dir: string, why: string) =>
      `The data directory ${dir} cannot be written (${why}). It must belong to the server's user and be writable by it.`,
  },
  owner: {
    de: (dir: string, entry: string) =>
      `Im Datenverzeichnis ${dir} gehört ${entry} einem anderen Benutzer; der Server kann es nicht privat machen. Den Server als dessen Benutzer starten oder die Dateien übertragen (chown -R).`,
    en: (dir: string, entry: string) =>
      `In the data directory ${dir}, ${entry} belongs to another user; the server cannot make it private. Start the server as that user or hand the files over (chown -R).`,
  },
  full: {
    de: (dir: string, free: string) =>
      `Kein Platz auf dem Datenträger des Datenverzeichnisses ${dir}: ${free} MB frei, gebraucht werden mindestens ${mb(MIN_FREE_BYTES)} MB. Platz schaffen und neu starten.`,
    en: (dir: string, free: string) =>
      `No space on the disk of the data directory ${dir}: ${free} MB free, at least ${mb(MIN_FREE_BYTES)} MB needed. Free some space and start again.`,
  },
  tightened: {
    de: (dir: string, n: number) =>
      `Datenverzeichnis ${dir}: ${n} Einträge waren für andere lesbar oder beschreibbar und sind jetzt nur für den Benutzer des Servers (Verzeichnisse 0700, Dateien 0600).`,
    en: (dir: string, n: number) =>
      `Data directory ${dir}: ${n} entries were open to others and are now the server's user's alone (directories 0700, files 0600).`,
  },
});

/** The message and exit code for a failure the administrator can act on, or null (the caller prints errorText). */
export function startFailure(e: unknown, target: DbTarget, lang: Language): { text: string; exit: number } | null {
  if (e instanceof DataDirError) {
    if (e.problem === "full") return { text: startText.full[lang](e.dir, mb(e.freeBytes)), exit: EXIT_DISK_FULL };
    const text =
      e.problem === "owner" ? startText.owner[lang](e.dir, e.detail) : startText[e.problem][lang](e.dir, e.detail);
    return { text, exit: EXIT_USAGE };
  }
  const code = errnoCode(e);
  if ((code === "ENOSPC" || code === "EDQUOT") && target.kind === "pglite")
    return { text: startText.full[lang](target.dir, mb(freeBytes(target.dir) ?? undefined)), exit: EXIT_DISK_FULL };
  if ((code === "EACCES" || code === "EROFS" || code === "EPERM") && target.kind === "pglite")
    return { text: startText.write[lang](target.dir, errorText(e)), exit: EXIT_USAGE };
  return null;
}

/**
 * Whether `host:port` cannot be listened on now (in use, or not allowed): asked before the database is opened,
 * so a start on a taken port fails in a moment rather than after PGlite's start. The real listen decides anyway.
 */
export function portUnavailable(host: string, port: number): Promise<boolean> {
  if (port === 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (e: NodeJS.ErrnoException) => resolve(e.code === "EADDRINUSE" || e.code === "EACCES"));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}
