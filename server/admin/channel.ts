/**
 * The admin channel (issue 38 item 1): while a server holds a PGlite data
 * directory (PGlite serves one process), `company-data server token …`,
 * `budget`, `report`, `ack-drift` and `backup` reach its database through
 * the server: an HTTP server on a Unix socket, `<data>/admin.sock`.
 *
 * Who may open it: the socket is created mode 0600 (umask 0177 while it is
 * bound, then chmod) inside the data directory, itself 0700, so only the
 * server's own user (and root) can connect — the same people who could open
 * the data directory itself. A connection is therefore an admin: no token is
 * asked. It speaks exactly the /admin/… API the server offers over HTTP to an
 * admin token (routes.ts, api.ts), and nothing else (any other path: 404).
 */
import * as http from "node:http";
import { chmodSync, existsSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";
import type { AuthUser } from "../auth/tokens.ts";
import { errorAnswer, send } from "../errors.ts";
import { msg } from "../i18n.ts";
import { languageOf } from "../language.ts";
import type { ServiceContext } from "../routes.ts";
import { ADMIN_PATH, handleAdmin } from "./routes.ts";

/** Not a row of `users`: admin routes do not spend, and the log names the channel as the caller. */
export const CHANNEL_ADMIN: AuthUser = { id: 0, name: "(admin channel)", monthBudget: null, admin: true };
const MAX_BODY = 64 * 1024;
/** A Unix socket's path is limited (sun_path: 108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;

export interface AdminChannel {
  path: string;
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on("end", () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Listen on `socketPath`; null (and a warning in the log) when the path is too long for a socket. */
export async function startAdminChannel(socketPath: string, service: ServiceContext): Promise<AdminChannel | null> {
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    service.log.warn("admin.channel.unavailable", {
      reason: "path too long for a Unix socket",
      length: socketPath.length,
    });
    return null;
  }
  chmodSync(dirname(socketPath), 0o700);
  // We hold the data directory's lock: a socket file left here is a dead server's.
  if (existsSync(socketPath)) unlinkSync(socketPath);
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://admin.invalid");
      const lang = languageOf(url, req.headers["accept-language"]);
      const body = await readBody(req);
      if (body === null) return send(res, errorAnswer("PAYLOAD_TOO_LARGE", msg.tooLarge[lang], { field: "body" }));
      if (url.pathname !== ADMIN_PATH && !url.pathname.startsWith(ADMIN_PATH + "/"))
        return send(res, errorAnswer("NOT_FOUND", msg.notFound[lang]));
      await handleAdmin(req, res, { ...service, user: CHANNEL_ADMIN, lang, url, body });
    })().catch((e: unknown) => {
      service.log.error("admin.channel.failed", { message: String((e as Error)?.message ?? e).slice(0, 300) });
      send(res, errorAnswer("SERVER_ERROR", msg.internal.en));
    });
  });
  const listening = new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.once("listening", () => resolve());
  });
  // The socket file is made by bind(), synchronously inside listen(): the umask is this process's only for that call.
  const previous = process.umask(0o177);
  try {
    server.listen(socketPath);
  } finally {
    process.umask(previous);
  }
  await listening;
  chmodSync(socketPath, 0o600);
  service.log.info("admin.channel", { socket: "admin.sock" });
  return {
    path: socketPath,
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
      try {
        unlinkSync(socketPath);
      } catch {
        /* already gone */
      }
    },
  };
}
