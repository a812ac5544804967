/**
 * A small static file handler for the dev server: serves one directory,
 * never outside it, with the content types Office needs and no caching
 * (Office caches add-in files aggressively; a stale functions.json is a
 * classic dev-loop trap).
 */
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".png": "image/png",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

export function staticHandler(rootDir: string) {
  const root = resolve(rootDir);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const send = (status: number, body: string | Buffer, type = "text/plain; charset=utf-8") => {
      res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (req.method !== "GET" && req.method !== "HEAD") return send(405, "method not allowed");
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    } catch {
      return send(400, "bad path");
    }
    if (path.endsWith("/")) path += "taskpane.html";
    const file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) return send(403, "forbidden");
    try {
      if (!(await stat(file)).isFile()) return send(404, "not found");
      send(200, await readFile(file), TYPES[extname(file)] ?? "application/octet-stream");
    } catch {
      send(404, "not found");
    }
  };
}
