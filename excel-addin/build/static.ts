/**
 * A small static file handler for the dev server: serves one directory,
 * never outside it, with the content types Office needs and no caching
 * (Office caches add-in files aggressively; a stale functions.json is a
 * classic dev-loop trap).
 *
 * CORS: Excel on the web fetches functions.json (and the functions' files)
 * from its own origin (excel.officeapps.live.com and others), so without
 * `Access-Control-Allow-Origin` the custom functions never register there
 * (OfficeDev/office-js#3970; Microsoft's custom functions docs: "the server
 * that hosts the JSON file must have CORS enabled"). The add-in's files are
 * public and sent without credentials, so every origin may read them (`*`).
 * A production host must send the same header (excel-addin/README.md).
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

/** The CORS headers every answer carries (public files, no credentials). */
export const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
};

export function staticHandler(rootDir: string) {
  const root = resolve(rootDir);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const send = (status: number, body: string | Buffer, type = "text/plain; charset=utf-8") => {
      res.writeHead(status, {
        "Content-Type": type,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        ...CORS_HEADERS,
      });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    // A preflight (a page that adds a header when it fetches a file): allowed, nothing to send.
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...CORS_HEADERS, "Access-Control-Max-Age": "600" });
      return void res.end();
    }
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
