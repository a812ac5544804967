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
import type { Cell } from "../../shared/core/sheet-protocol.ts";

/**
 * Just enough of Office.js for the page to start: onReady, context,
 * OfficeRuntime.storage, CustomFunctions. The functions Excel would call
 * are kept in `window.__customFunctions` (id → function), so a test calls
 * them as Excel does. Excel.run is absent on purpose (see excelWorkbookScript).
 *
 * `persist`: the workbook's settings (saved into the file by Excel) and
 * OfficeRuntime.storage (kept per add-in on the device) survive the page, in
 * the origin's localStorage, so a page closed and opened again in the same
 * browser context is the workbook closed and opened again. It also records
 * Office.addin.setStartupBehavior in `window.__startupBehavior`.
 * What the documentation promises, and no more: document settings are
 * written into the document only by `saveAsync` ("The developer is
 * responsible for calling the saveAsync method … to save the settings in the
 * document", https://learn.microsoft.com/javascript/api/office/office.settings),
 * so a setting set but not saved is gone when the page is opened again;
 * OfficeRuntime.storage is per add-in on the device, not in the file
 * (https://learn.microsoft.com/office/dev/add-ins/develop/persisting-add-in-state-and-settings);
 * the start with the document follows setStartupBehavior
 * (https://learn.microsoft.com/office/dev/add-ins/develop/run-code-on-document-open).
 */
/** `displayLanguage`: Office.context.displayLanguage, Excel's UI language (e.g. "en-US"). */
export function fakeOffice(persist = false, displayLanguage = "de-DE"): string {
  return `
(() => {
  const persist = ${persist};
  const kept = (name) => new Map(persist ? JSON.parse(localStorage.getItem(name) || "[]") : []);
  const keep = (name, map) => { if (persist) localStorage.setItem(name, JSON.stringify([...map])); };
  const settings = kept("__officeSettings");
  window.Office = {
    onReady(cb) { const info = { host: "Excel", platform: "OfficeOnline" }; setTimeout(() => cb && cb(info), 0); return Promise.resolve(info); },
    context: {
      displayLanguage: ${JSON.stringify(displayLanguage)},
      requirements: { isSetSupported: () => false },
      document: { settings: { get: (k) => settings.get(k) ?? null, set: (k, v) => settings.set(k, v), remove: (k) => settings.delete(k), saveAsync: (cb) => { keep("__officeSettings", settings); cb && cb({ status: "succeeded" }); } } },
    },
  };
  if (persist) {
    window.Office.StartupBehavior = { load: "Load", none: "None" };
    window.Office.addin = { setStartupBehavior: async (b) => { window.__startupBehavior = b; localStorage.setItem("__startupBehavior", b); } };
  }
  const items = kept("__officeItems");
  window.OfficeRuntime = { storage: {
    getItems: async (keys) => Object.fromEntries(keys.map((k) => [k, items.has(k) ? items.get(k) : null])),
    setItems: async (e) => { for (const [k, v] of Object.entries(e)) items.set(k, v); keep("__officeItems", items); },
    removeItems: async (keys) => { for (const k of keys) items.delete(k); keep("__officeItems", items); },
    getKeys: async () => [...items.keys()],
  } };
  window.__officeStorage = items;
  const fns = new Map();
  window.__customFunctions = fns;
  class CFError extends Error { constructor(code, message) { super(message); this.code = code; } }
  window.CustomFunctions = { associate(id, fn) { fns.set(id, fn); }, Error: CFError, ErrorCode: { notAvailable: "#N/A", invalidValue: "#VALUE!" } };
})();`;
}

export const FAKE_OFFICE = fakeOffice();

/**
 * Excel.run for the page: the conformance suite's workbook
 * (test/conformance/excel-workbook.ts: proxies, load and sync as Office.js
 * has them) bundled for the browser, its cells kept in the origin's
 * localStorage after every batch, so they are there again when the
 * workbook is opened again (`seed`: the sheets of a workbook opened for
 * the first time). `window.__workbook` is the workbook.
 */
export async function excelWorkbookScript(seed: Record<string, Cell[][]>): Promise<string> {
  const { bundle } = await import("../../scripts/build-ui.ts");
  const code = await bundle(join(import.meta.dirname, "excel-workbook-page.ts"), { minify: false });
  return `window.__workbookSeed = ${JSON.stringify(seed)};\n${code}`;
}

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
