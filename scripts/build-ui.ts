/**
 * Builds the one UI for its hosts, and the two pages that are one HTML file each:
 *   buildSidebarHtml({ panel })  a self-contained Sheets sidebar page (JS and CSS inlined)
 *   buildTaskpaneAssets()        the task pane's script and stylesheet for excel-addin's page
 *   buildPlayground()            dist/playground/index.html (the page `npm start` serves)
 *   buildConsole()               dist/console/index.html (the team console, GET /console)
 * Bundles are esbuild iife, minified, ES2019 (the sidebar runs in Google's
 * iframe, the task pane in Office's webview).
 */
import * as esbuild from "esbuild";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PANEL_IDS } from "../shared/ui/index.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const PLAYGROUND_OUT = join(ROOT, "dist", "playground");
export const CONSOLE_OUT = join(ROOT, "dist", "console");

export async function bundle(entry: string, opts: { minify?: boolean } = {}): Promise<string> {
  const out = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    target: "es2019",
    platform: "browser",
    minify: opts.minify ?? true,
    legalComments: "none",
    logLevel: "silent",
    write: false,
    charset: "utf8",
  });
  const file = out.outputFiles[0];
  if (!file) throw new Error(`esbuild wrote no bundle for ${entry}`);
  return file.text;
}

/** The UI's stylesheet, comments and blank space squeezed out. */
export async function uiCss(): Promise<string> {
  return minifyCss(await readFile(join(ROOT, "shared", "ui", "styles.css"), "utf8"));
}

export function minifyCss(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\s*\n\s*/g, "")
    .replace(/\s*([{};,>])\s*/g, "$1")
    .trim();
}

/** Inline JS must not end its own <script> element. */
export const inlineScript = (js: string) => js.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
const attr = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

let sheetsJs: Promise<string> | undefined;

/** One Sheets sidebar (Search, Enrich, Similar, Monitor, Settings, Help): a self-contained HTML page. */
export async function buildSidebarHtml(opts: { panel: string; host?: "sheets" }): Promise<string> {
  if (!PANEL_IDS.includes(opts.panel)) throw new Error(`unknown panel ${opts.panel}; known: ${PANEL_IDS.join(", ")}`);
  if ((opts.host ?? "sheets") !== "sheets") throw new Error("buildSidebarHtml builds Sheets pages only");
  sheetsJs ??= bundle(join(ROOT, "shared", "ui", "entries", "sheets.ts"));
  const [js, css] = await Promise.all([sheetsJs, uiCss()]);
  return (
    `<!DOCTYPE html><html><head><base target="_top"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<style>html,body{margin:0}${css}</style></head><body data-panel="${attr(opts.panel)}"><div id="app"></div><script>${inlineScript(js)}</script></body></html>`
  );
}

/**
 * The task pane's assets: the bundle of excel-addin's task pane entry (the
 * shared UI with the Excel host) and the UI's stylesheet. The page itself
 * (Office.js from Microsoft's CDN + these) is excel-addin/build/html.ts.
 */
export async function buildTaskpaneAssets(
  opts: { entry?: string; minify?: boolean } = {},
): Promise<{ js: string; css: string }> {
  const entry = opts.entry ?? join(ROOT, "excel-addin", "taskpane", "main.ts");
  const [js, css] = await Promise.all([bundle(entry, { minify: opts.minify }), uiCss()]);
  return { js, css };
}

/**
 * A page built into one HTML file: `<folder>/index.html`, whose comment
 * `<marker>_CSS` becomes the UI's stylesheet and the folder's own, and whose
 * `<marker>_JS` becomes the bundle of `<folder>/main.ts`.
 */
interface InlinePage {
  folder: string;
  stylesheet: string;
  marker: string;
}

/** The playground: the server fills in the config per request. */
const PLAYGROUND: InlinePage = { folder: "playground", stylesheet: "playground.css", marker: "PG" };
/**
 * The team console, which the team server serves at GET /console
 * (server/console/page.ts) with a Content-Security-Policy naming the
 * script's hash. Holds no secret and no figure: both come from the API.
 */
const CONSOLE: InlinePage = { folder: "console", stylesheet: "console.css", marker: "CC" };

/** Writes `outDir/index.html` for `page`; the folder holds that page only. */
export async function buildInlinePage(page: InlinePage, outDir: string): Promise<{ file: string; bytes: number }> {
  const dir = join(ROOT, page.folder);
  const [template, js, css, own] = await Promise.all([
    readFile(join(dir, "index.html"), "utf8"),
    bundle(join(dir, "main.ts")),
    uiCss(),
    readFile(join(dir, page.stylesheet), "utf8").then(minifyCss),
  ]);
  const html = template
    .replace(`/*${page.marker}_CSS*/`, () => css + own)
    .replace(`/*${page.marker}_JS*/`, () => inlineScript(js));
  await mkdir(outDir, { recursive: true });
  const file = join(outDir, "index.html");
  await writeFile(file, html);
  // Whatever else is in the folder is left over from an older build.
  // (Removed after the write, so a server reading the page never finds it missing.)
  for (const entry of await readdir(outDir))
    if (entry !== "index.html") await rm(join(outDir, entry), { recursive: true, force: true });
  return { file, bytes: Buffer.byteLength(html) };
}

export const buildPlayground = (outDir = PLAYGROUND_OUT) => buildInlinePage(PLAYGROUND, outDir);
export const buildConsole = (outDir = CONSOLE_OUT) => buildInlinePage(CONSOLE, outDir);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  const [playground, consolePage, sidebar] = await Promise.all([
    buildPlayground(),
    buildConsole(),
    buildSidebarHtml({ panel: "search" }),
  ]);
  console.log(`playground: ${playground.file} (${kib(playground.bytes)})`);
  console.log(`console: ${consolePage.file} (${kib(consolePage.bytes)})`);
  console.log(`sidebar page ${kib(Buffer.byteLength(sidebar))}`);
}
