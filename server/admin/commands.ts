/**
 * `company-data server token|budget|report|ack-drift|backup|restore`: each
 * command is one request of the admin API (api.ts). Where it goes:
 *
 * - PGlite, a server holding the data directory: over that server's admin
 *   channel (`<data>/admin.sock`, channel.ts), so nothing stops the team.
 * - PGlite, no server: the command opens the directory itself (locked for
 *   the moment) and runs the same function in-process.
 * - PostgreSQL: in-process on its own connection, as several servers share
 *   the database (a revocation is seen by the next request of every process).
 *
 * This module loads light: the channel path needs neither PGlite nor the server.
 */
import { createReadStream, openSync, closeSync, renameSync, writeSync, unlinkSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Language } from "../../shared/i18n/index.ts";
import type { Db, DbTarget } from "../db/db.ts";
import { admin as texts } from "../i18n.ts";
import type { AdminAnswer, AdminRequest } from "./api.ts";
import { channelOf, channelRequest, channelStream } from "./client.ts";

export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

export interface OpenDb {
  (target: DbTarget, opts?: { migrate?: boolean }): Promise<{ db: Db; close: () => Promise<void> }>;
}

/** An answer the admin API refused (its message is in the user's language already). */
export class AdminRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const unreachable = (e: unknown) => ["ECONNREFUSED", "ENOENT"].includes((e as NodeJS.ErrnoException)?.code ?? "");

/** One admin request, over the channel of a running server or on the database itself. */
export async function adminCall(
  target: DbTarget,
  openDb: OpenDb,
  req: Omit<AdminRequest, "query"> & { query?: Record<string, string> },
): Promise<unknown> {
  const query = new URLSearchParams(req.query ?? {});
  let a: AdminAnswer | null = null;
  const socket = target.kind === "pglite" ? channelOf(target.dir) : null;
  if (socket) {
    const qs = query.size ? `?${query}` : "";
    const body = req.body === "" ? undefined : (JSON.parse(req.body) as unknown);
    // A server that just stopped leaves no one on the socket: then the directory is free to open.
    a = await channelRequest(socket, req.method, `/admin${req.path}${qs}`, body, req.lang).catch((e: unknown) => {
      if (unreachable(e)) return null;
      throw e;
    });
  }
  if (!a) {
    const { adminApi } = await import("./api.ts");
    const { db, close } = await openDb(target);
    try {
      a = await adminApi(db, { ...req, query });
    } finally {
      await close();
    }
  }
  if (a.status >= 400) {
    const message = (a.json as { error?: { message?: string } })?.error?.message ?? `HTTP ${a.status}`;
    throw new AdminRefused(a.status, message);
  }
  return a.json;
}

/** "90d", "12h", "30m", "3600s" → seconds; "none"/"never" → undefined; anything else → NaN. */
export function durationSeconds(v: string): number | undefined {
  const t = v.trim().toLowerCase();
  if (t === "none" || t === "never") return undefined;
  const m = /^(\d{1,6})([smhd])$/.exec(t);
  if (!m) return NaN;
  return Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as "s" | "m" | "h" | "d"];
}

/** `backup --to FILE`: the server streams it over its channel, or this process reads the database (no migration first). */
export async function backupTo(target: DbTarget, openDb: OpenDb, file: string): Promise<Record<string, number>> {
  const partial = `${file}.partial-${process.pid}`;
  const fd = openSync(partial, "w", 0o600);
  let last = "";
  const write = (text: string) => {
    writeSync(fd, text);
    last = (last + text).slice(-4096);
  };
  try {
    const socket = target.kind === "pglite" ? channelOf(target.dir) : null;
    let streamed = false;
    if (socket) {
      const status = await channelStream(socket, "/admin/backup", (c) => write(c.toString("utf8"))).catch(
        (e: unknown) => {
          if (unreachable(e)) return null;
          throw e;
        },
      );
      if (status !== null && status !== 200) throw new AdminRefused(status, `the server answered ${status}`);
      streamed = status === 200;
    }
    if (!streamed) {
      const { writeBackup } = await import("./backup.ts");
      const { db, close } = await openDb(target, { migrate: false });
      try {
        await writeBackup(db, (line) => write(line + "\n"));
      } finally {
        await close();
      }
    }
    const end = last.trimEnd().split("\n").at(-1) ?? "";
    const counts = (JSON.parse(end) as { end?: boolean; rows?: Record<string, number> }).rows;
    if (!counts) throw new Error("the backup has no end line");
    closeSync(fd);
    renameSync(partial, file);
    return counts;
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      /* closed already */
    }
    unlinkSync(partial);
    throw e;
  }
}

/** `restore --from FILE` into an empty database (PGlite: an empty or new directory no server holds). */
export async function restoreFrom(
  target: DbTarget,
  openDb: OpenDb,
  file: string,
  lang: Language,
): Promise<Record<string, number>> {
  if (target.kind === "pglite" && channelOf(target.dir)) throw new AdminRefused(409, texts.restoreServed[lang]);
  const { restoreBackup } = await import("./backup.ts");
  const { db, close } = await openDb(target, { migrate: false });
  try {
    const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
    return await restoreBackup(db, lines);
  } finally {
    await close();
  }
}

export interface ListedToken {
  hint: string;
  admin: boolean;
  created: string;
  expires: string | null;
  lastUsed: string | null;
  revoked: string | null;
  state: "live" | "grace" | "expired" | "revoked";
}

/** One line per user for `token list`: budget, then each token that is not revoked (live, in grace, expired). */
export function tokenListLines(
  users: { name: string; monthBudget: number | null; tokens: ListedToken[] }[],
  lang: Language,
): string[] {
  const lines = [texts.listHeader[lang]];
  for (const u of users) {
    const shown = u.tokens.filter((t) => t.state !== "revoked");
    const tokens = shown.map((t) => {
      const parts = [
        texts.tokenCreatedAt[lang](t.created),
        t.expires ? texts.tokenExpires[lang](t.expires, t.state === "expired") : texts.tokenNoExpiry[lang],
        t.lastUsed ? texts.tokenLastUsed[lang](t.lastUsed) : texts.tokenNeverUsed[lang],
      ];
      if (t.state === "grace") parts.push(texts.tokenGrace[lang](t.revoked ?? ""));
      if (t.admin) parts.push("admin");
      return `…${t.hint} (${parts.join("; ")})`;
    });
    lines.push(`${u.name}\t${u.monthBudget ?? texts.none[lang]}\t${tokens.join(", ") || "-"}`);
  }
  return lines;
}
