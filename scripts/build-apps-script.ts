/**
 * Builds the Google Sheets add-on into dist/apps-script/:
 *   Code.js           the custom functions' and the menu's esbuild bundle (iife, ES2020,
 *                     minified; apps-script/main.ts) wrapped so it is built on first use,
 *                     plus generated top-level stubs (custom functions with @customfunction
 *                     JSDoc, menu, sidebars, settings, uiCall, monitorTick)
 *   app-bundle.html   the app bundle (apps-script/app-main.ts: what the sidebars and the
 *                     trigger call), read and evaluated by Code.js only for those calls
 *   appsscript.json   from manifests/, plus the team server's prefix in urlFetchWhitelist
 *                     with `--team-server URL` (scripts/apps-script-manifest.ts); both
 *                     bundles get the resulting allowlist as URL_FETCH_ALLOWLIST, so
 *                     Settings refuses a server the deployment may not fetch
 *   sidebar-*.html    one self-contained page per sidebar (JS and CSS inlined), from the
 *                     UI build (scripts/build-ui.ts: the shared UI with the Sheets host)
 * Standalone: npx tsx scripts/build-apps-script.ts
 */
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { functionsFor } from "../shared/functions/index.ts";
import { APP_FILE, appFileText, codeJs } from "../apps-script/stubs.ts";
import { SIDEBARS, type SidebarId } from "../apps-script/menu.ts";
import { buildSidebarHtml } from "./build-ui.ts";
import { deployedManifest, teamServerOption } from "./apps-script-manifest.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const APPS_SCRIPT_OUT = join(ROOT, "dist", "apps-script");

const COMMON: esbuild.BuildOptions = {
  bundle: true,
  format: "iife",
  // Apps Script's V8 runtime takes modern ECMAScript syntax
  // (https://developers.google.com/apps-script/guides/v8-runtime) and has BigInt (the cache-key
  // hash uses it), an ES2020 feature: so ES2020 syntax stays as written. Lowering `?.` and `??` to
  // ES2019 cost 14 KiB of Code.js, which Apps Script evaluates on every call.
  target: "es2020",
  // Apps Script files are UTF-8: umlauts stay one character instead of a \xFC escape.
  charset: "utf8",
  platform: "browser",
  minify: true,
  legalComments: "none",
  logLevel: "silent",
  write: false,
};

/** What a build is for: the team server a deployment adds to the manifest's allowlist (none: the shipped manifest). */
export interface AppsScriptBuildOptions {
  teamServer?: string;
}

async function bundle(
  entry: string,
  globalName: string,
  plugins: esbuild.Plugin[] = [],
  allowlist: readonly string[] = deployedManifest().urlFetchWhitelist,
): Promise<string> {
  const out = await esbuild.build({
    ...COMMON,
    entryPoints: [join(ROOT, "apps-script", entry)],
    globalName,
    plugins,
    // The deployed allowlist, known to the code (apps-script/allowlist.ts).
    define: { URL_FETCH_ALLOWLIST: JSON.stringify(allowlist) },
  });
  const file = out.outputFiles?.[0];
  if (!file) throw new Error(`esbuild wrote no bundle for apps-script/${entry}`);
  return file.text;
}

/** Code.js's own bundle: the custom functions and the menu (apps-script/main.ts). */
export const bundleServer = (allowlist?: readonly string[]): Promise<string> =>
  bundle("main.ts", "CompanyData", [], allowlist);
/** The app bundle: what the sidebars and the trigger call (apps-script/app-main.ts), kept in APP_FILE.html. */
export const bundleApp = (plugins: esbuild.Plugin[] = [], allowlist?: readonly string[]): Promise<string> =>
  bundle("app-main.ts", "CompanyDataApp", plugins, allowlist);

/** The add-on's server code as Apps Script holds it: Code.js, and the HTML files by name (without .html) that it reads. */
export interface AppsScriptProject {
  code: string;
  files: Record<string, string>;
}

/**
 * Code.js and the app bundle, in memory (tests and benches load them into the
 * harness). `appPlugins`: esbuild plugins for the app bundle only (a bench
 * builds a variant to measure against, bench/audit.bench.ts).
 */
export async function buildProject(
  appPlugins: esbuild.Plugin[] = [],
  options: AppsScriptBuildOptions = {},
): Promise<AppsScriptProject> {
  const allowlist = deployedManifest(options.teamServer).urlFetchWhitelist;
  const [main, app] = await Promise.all([bundleServer(allowlist), bundleApp(appPlugins, allowlist)]);
  return { code: codeJs(main, functionsFor("sheets")), files: { [APP_FILE]: appFileText(app) } };
}

export interface AppsScriptBuild {
  outDir: string;
  codeBytes: number;
  files: Record<string, number>;
}

export async function build(options: AppsScriptBuildOptions = {}): Promise<void> {
  await buildWithReport(APPS_SCRIPT_OUT, options);
}

/** Build into `outDir` (default dist/apps-script) and report the sizes. */
export async function buildWithReport(
  outDir = APPS_SCRIPT_OUT,
  options: AppsScriptBuildOptions = {},
): Promise<AppsScriptBuild> {
  // A bad --team-server fails before anything is removed.
  const manifest = deployedManifest(options.teamServer);
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const project = await buildProject([], options);
  await writeFile(join(outDir, "Code.js"), project.code);
  for (const [name, text] of Object.entries(project.files)) await writeFile(join(outDir, `${name}.html`), text);
  await writeFile(join(outDir, "appsscript.json"), JSON.stringify(manifest, null, 2) + "\n");
  for (const id of Object.keys(SIDEBARS) as SidebarId[]) {
    await writeFile(join(outDir, `${SIDEBARS[id].file}.html`), await buildSidebarHtml({ panel: id, host: "sheets" }));
  }
  const files: Record<string, number> = {};
  for (const f of [
    "Code.js",
    ...Object.keys(project.files).map((name) => `${name}.html`),
    "appsscript.json",
    ...Object.values(SIDEBARS).map((s) => `${s.file}.html`),
  ])
    files[f] = (await stat(join(outDir, f))).size;
  return { outDir: outDir, codeBytes: Buffer.byteLength(project.code), files };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  Promise.resolve()
    .then(() => buildWithReport(APPS_SCRIPT_OUT, { teamServer: teamServerOption(process.argv.slice(2)).teamServer }))
    .then(
      (r) => {
        for (const [f, n] of Object.entries(r.files)) console.log(`${f.padEnd(24)} ${(n / 1024).toFixed(1)} KB`);
      },
      (e) => {
        console.error(e instanceof Error ? e.message : e);
        process.exit(1);
      },
    );
}
