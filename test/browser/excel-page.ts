/**
 * The Excel add-in's page as a test serves it: the built task pane (whose
 * page is also the custom functions' shared runtime) on an origin of its
 * own, with a fake Office.js in place of Microsoft's CDN script.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { staticHandler } from "../../excel-addin/build/static.ts";

/**
 * Just enough of Office.js for the page to start: onReady, context,
 * OfficeRuntime.storage, CustomFunctions. The functions Excel would call
 * are kept in `window.__customFunctions` (id → function), so a test calls
 * them as Excel does. Excel.run is absent on purpose.
 */
export const FAKE_OFFICE = `
(() => {
  const settings = new Map();
  window.Office = {
    onReady(cb) { const info = { host: "Excel", platform: "OfficeOnline" }; setTimeout(() => cb && cb(info), 0); return Promise.resolve(info); },
    context: {
      displayLanguage: "de-DE",
      requirements: { isSetSupported: () => false },
      document: { settings: { get: (k) => settings.get(k) ?? null, set: (k, v) => settings.set(k, v), saveAsync: (cb) => cb && cb({ status: "succeeded" }) } },
    },
  };
  const items = new Map();
  window.OfficeRuntime = { storage: {
    getItems: async (keys) => Object.fromEntries(keys.map((k) => [k, items.has(k) ? items.get(k) : null])),
    setItems: async (e) => { for (const [k, v] of Object.entries(e)) items.set(k, v); },
    removeItems: async (keys) => { for (const k of keys) items.delete(k); },
    getKeys: async () => [...items.keys()],
  } };
  window.__officeStorage = items;
  const fns = new Map();
  window.__customFunctions = fns;
  class CFError extends Error { constructor(code, message) { super(message); this.code = code; } }
  window.CustomFunctions = { associate(id, fn) { fns.set(id, fn); }, Error: CFError, ErrorCode: { notAvailable: "#N/A", invalidValue: "#VALUE!" } };
})();`;

export const listen = (server: Server, host: string) =>
  new Promise<string>((r) =>
    server.listen(0, host, () => r(`http://${host}:${(server.address() as AddressInfo).port}`)),
  );
export const closeServer = (server: Server | undefined) =>
  new Promise<void>((r) => (server ? (server.closeAllConnections(), server.close(() => r())) : r()));

/** Build the add-in into a temporary directory and serve it as the dev server does (its own origin). */
export async function serveBuiltAddin(
  prefix: string,
): Promise<{ tmp: string; out: string; server: Server; url: string }> {
  const { build } = await import("../../scripts/build-excel.ts");
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const out = (await build({ outDir: join(tmp, "excel-addin"), quiet: true })).outDir;
  const handle = staticHandler(out);
  const server = createServer((req, res) => void handle(req, res));
  const url = await listen(server, "127.0.0.1");
  return { tmp, out, server, url };
}

/**
 * An API that answers no CORS at all, as the real service may: a loopback
 * proxy in front of `target` that refuses every preflight (no
 * Access-Control-* headers, 405) and strips Access-Control-* headers from
 * every answer. A server calls it without trouble (CORS binds browsers
 * only); a page on another origin cannot read a single answer.
 */
export async function noCorsProxy(target: string): Promise<{ url: string; server: Server; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    if (req.method === "OPTIONS") return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === "string" && k !== "host" && k !== "connection" && k !== "content-length") headers[k] = v;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      fetch(target.replace(/\/+$/, "") + (req.url ?? "/"), { method: req.method, headers, body }).then(
        async (r) => {
          const out: Record<string, string> = {};
          r.headers.forEach((v, k) => {
            if (
              !k.startsWith("access-control") &&
              k !== "content-encoding" &&
              k !== "content-length" &&
              k !== "transfer-encoding" &&
              k !== "connection"
            )
              out[k] = v;
          });
          res.writeHead(r.status, out).end(Buffer.from(await r.arrayBuffer()));
        },
        () => res.writeHead(502).end(),
      );
    });
  });
  const url = await listen(server, "127.0.0.1");
  return { url, server, hits: () => hits };
}
