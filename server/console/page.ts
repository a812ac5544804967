/**
 * GET /console: the console's page, built by `npm run build`
 * (scripts/build-ui.ts → dist/console/index.html: one HTML file with its
 * script and styles inline). The page holds no secret and no figure: it asks
 * the console's API with the token the user types, which stays in the tab's
 * sessionStorage. A strict Content-Security-Policy: only the page's own
 * inline script (by its hash) runs, it may talk to this server only, and no
 * other page may frame it.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerContext } from "../routes.ts";

export const CONSOLE_HTML = new URL("../../dist/console/index.html", import.meta.url);

let cached: { mtimeMs: number; html: string; csp: string } | null = null;

function cspOf(html: string): string {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash("sha256").update(m[1]!, "utf8").digest("base64")}'`,
  );
  return [
    "default-src 'none'",
    `script-src ${hashes.join(" ") || "'none'"}`,
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

async function page(): Promise<{ html: string; csp: string } | null> {
  try {
    const s = await stat(CONSOLE_HTML);
    if (!cached || cached.mtimeMs !== s.mtimeMs) {
      const html = await readFile(CONSOLE_HTML, "utf8");
      cached = { mtimeMs: s.mtimeMs, html, csp: cspOf(html) };
    }
    return cached;
  } catch {
    return null;
  }
}

const NOT_BUILT = {
  de: "Die Konsole ist nicht gebaut: im Projektordner „npm run build“ ausführen und den Server neu starten.",
  en: "The console is not built: run “npm run build” in the project folder and restart the server.",
};

export async function handleConsolePage(_req: IncomingMessage, res: ServerResponse, ctx: ServerContext) {
  if (ctx.url.pathname !== "/console" && ctx.url.pathname !== "/console/") {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
    return;
  }
  const p = await page();
  if (!p) {
    res.writeHead(503, { "content-type": "text/plain; charset=utf-8" }).end(NOT_BUILT[ctx.lang]);
    return;
  }
  res
    .writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": p.csp,
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
    })
    .end(p.html);
}
