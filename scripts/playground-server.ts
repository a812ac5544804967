/**
 * Serves the playground on 127.0.0.1: dist/playground/index.html (built
 * first when missing) with the emulator URL and the demo key filled in at
 * request time, so neither is ever in a built or committed file.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, readdirSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPlayground, PLAYGROUND_OUT } from "./build-ui.ts";

export interface PlaygroundOptions {
  /** 0 = any free port. */
  port?: number;
  host?: string;
  emulatorUrl: string;
  demoKey: string;
  /** Names the emulator holds more than once, added to the grid's list so match review has work (emulator.companies.duplicateNames()). */
  ambiguousNames?: string[];
  /** Rebuild even when dist/playground is up to date. */
  rebuild?: boolean;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Newest modification time of the page's sources, so an edited UI is never served stale. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (/\.(ts|css|html)$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

function stale(file: string): boolean {
  if (!existsSync(file)) return true;
  const built = statSync(file).mtimeMs;
  return ["shared", "playground"].some((d) => newestSource(join(ROOT, d)) > built);
}

export interface RunningPlayground {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** JSON safe inside <script>: no "</script>", no "<!--". */
const scriptJson = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

export async function startPlayground(opts: PlaygroundOptions): Promise<RunningPlayground> {
  const file = join(PLAYGROUND_OUT, "index.html");
  if (opts.rebuild || stale(file)) await buildPlayground();
  const template = await readFile(file, "utf8");
  const config = {
    baseUrl: opts.emulatorUrl.replace(/\/+$/, ""),
    demoKey: opts.demoKey,
    ambiguousNames: opts.ambiguousNames ?? [],
  };
  const page = template.replace(
    "<!--PG_CONFIG-->",
    () => `<script id="pg-config" type="application/json">${scriptJson(config)}</script>`,
  );
  const headers = {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    // The page talks to the emulator, an https service, or a team server on this machine (http only to
    // loopback, the base-URL rule of shared/api/base-url.ts; CSP has no syntax for [::1]); everything else it needs is inline.
    "content-security-policy": `default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src ${new URL(config.baseUrl).origin} https: http://127.0.0.1:* http://localhost:*; img-src data: blob:; base-uri 'none'; form-action 'none'`,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405, { allow: "GET, HEAD" }).end();
    if (path === "/" || path === "/index.html")
      return void res.writeHead(200, headers).end(req.method === "HEAD" ? undefined : page);
    if (path === "/favicon.ico") return void res.writeHead(204).end();
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found");
  });
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
