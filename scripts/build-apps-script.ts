/**
 * Builds the Google Sheets add-on into dist/apps-script/:
 *   Code.js           one esbuild bundle (iife, ES2019, minified) wrapped so it is
 *                     built on first use, plus generated top-level stubs (custom
 *                     functions with @customfunction JSDoc, menu, sidebars, settings, uiCall)
 *   appsscript.json   from manifests/
 *   sidebar-*.html    one self-contained page per sidebar (JS and CSS inlined)
 * Standalone: npx tsx scripts/build-apps-script.ts
 */
import { copyFile, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { functionsFor } from "../shared/functions/registry.ts";
import { codeJs } from "../apps-script/stubs.ts";
import { SIDEBARS, type SidebarId } from "../apps-script/ui.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const APPS_SCRIPT_OUT = join(ROOT, "dist", "apps-script");

const COMMON: esbuild.BuildOptions = {
  bundle: true,
  format: "iife",
  target: "es2019",
  // Apps Script's V8 has BigInt (the cache-key hash uses it).
  supported: { bigint: true },
  platform: "browser",
  minify: true,
  legalComments: "none",
  logLevel: "silent",
  write: false,
};

export async function bundleServer(): Promise<string> {
  const out = await esbuild.build({ ...COMMON, entryPoints: [join(ROOT, "apps-script", "main.ts")], globalName: "CompanyData" });
  return out.outputFiles![0].text;
}

const escapeScript = (js: string) => js.replace(/<\/script/gi, "<\\/script");

const FALLBACK_CSS = `body{font:13px/1.4 Arial,sans-serif;margin:0;padding:8px;color:#202124}button{font:inherit;padding:4px 10px}input,select{font:inherit;max-width:100%}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:2px 4px;text-align:left}.cd-error{color:#b3261e}.cd-note{color:#5f6368}`;

/** A sidebar page from the UI build when it exists, otherwise the shared UI bundled here. */
async function sidebarHtml(panel: SidebarId): Promise<string> {
  const uiBuild = join(ROOT, "scripts", "build-ui.ts");
  if (existsSync(uiBuild)) {
    const mod = (await import(pathToFileURL(uiBuild).href)) as { buildSidebarHtml?: (o: { panel: string; host?: string }) => Promise<string> | string };
    if (typeof mod.buildSidebarHtml === "function") return await mod.buildSidebarHtml({ panel, host: "sheets" });
  }
  const out = await esbuild.build({ ...COMMON, entryPoints: [join(ROOT, "apps-script", "sidebar-entry.ts")] });
  const js = out.outputFiles![0].text;
  return `<!DOCTYPE html><html><head><base target="_top"><meta charset="utf-8"><style>${FALLBACK_CSS}</style></head>` +
    `<body data-panel="${panel}"><div id="app"></div><script>${escapeScript(js)}</script></body></html>`;
}

export interface AppsScriptBuild {
  outDir: string;
  codeBytes: number;
  files: Record<string, number>;
}

export async function build(): Promise<void> {
  await buildWithReport();
}

/** Build into `outDir` (default dist/apps-script) and report the sizes. */
export async function buildWithReport(outDir = APPS_SCRIPT_OUT): Promise<AppsScriptBuild> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const code = codeJs(await bundleServer(), functionsFor("sheets"));
  await writeFile(join(outDir, "Code.js"), code);
  await copyFile(join(ROOT, "manifests", "appsscript.json"), join(outDir, "appsscript.json"));
  for (const id of Object.keys(SIDEBARS) as SidebarId[]) {
    await writeFile(join(outDir, `${SIDEBARS[id].file}.html`), await sidebarHtml(id));
  }
  const files: Record<string, number> = {};
  for (const f of ["Code.js", "appsscript.json", ...Object.values(SIDEBARS).map((s) => `${s.file}.html`)]) files[f] = (await stat(join(outDir, f))).size;
  return { outDir: outDir, codeBytes: Buffer.byteLength(code), files };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildWithReport().then(
    (r) => {
      for (const [f, n] of Object.entries(r.files)) console.log(`${f.padEnd(24)} ${(n / 1024).toFixed(1)} KB`);
    },
    (e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
