/**
 * /admin/… on the team server: the admin API (api.ts) for an admin token
 * (`auth: "admin"`: 401 without a token, 403 with a user's), and the same
 * handler on the admin channel (channel.ts). Every admin request is logged
 * (who, what; never a token or a body).
 */
import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerContext, ServerExtension } from "../routes.ts";
import { adminApi } from "./api.ts";
import { writeBackup } from "./backup.ts";

export const ADMIN_PATH = "/admin";

async function streamBackup(res: ServerResponse, ctx: ServerContext): Promise<void> {
  res.writeHead(200, { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" });
  try {
    const counts = await writeBackup(ctx.db, async (line) => {
      if (!res.write(line + "\n")) await once(res, "drain");
    });
    ctx.log.info("admin.backup", {
      tables: Object.keys(counts).length,
      rows: Object.values(counts).reduce((a, b) => a + b, 0),
    });
    res.end();
  } catch (e) {
    // The file lacks its end line, so no restore takes it for whole.
    ctx.log.error("admin.backup.failed", { message: String((e as Error)?.message ?? e).slice(0, 300) });
    res.destroy();
  }
}

export async function handleAdmin(req: IncomingMessage, res: ServerResponse, ctx: ServerContext): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  const path = ctx.url.pathname.slice(ADMIN_PATH.length) || "/";
  ctx.log.info("admin", { user: ctx.user?.name, method, path });
  if (path === "/backup" && method === "GET") return streamBackup(res, ctx);
  const a = await adminApi(ctx.db, { method, path, query: ctx.url.searchParams, body: ctx.body, lang: ctx.lang });
  res.writeHead(a.status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(a.json));
}

export const adminExtension: ServerExtension = {
  name: "admin",
  routes: [{ method: "*", prefix: ADMIN_PATH, auth: "admin", handler: handleAdmin }],
};
