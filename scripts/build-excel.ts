/**
 * Builds the Excel add-in into dist/excel-addin/:
 *   functions.json   from the generated functions' JSDoc, by custom-functions-metadata's API
 *   functions-de.json the same with the registry's German help (Excel picks it for a German UI)
 *   functions.js     the functions with a CustomFunctions.associate per id
 *   taskpane.html/js the shared UI with the Excel host (Office.js from Microsoft's CDN, the UI's CSS inlined)
 *   help.html        the support page (the manifest's SupportUrl and LearnMoreUrl)
 *   assets/icon-*.png
 *   manifest-dev.xml the dev manifest (https://localhost:3000, its own Id and name)
 *   manifest.xml     the production manifest, only with --host-url
 * Both manifests are checked offline and validated by libxml2 (xmllint-wasm)
 * against Microsoft's XSDs vendored in excel-addin/schemas/
 * (excel-addin/build/schema.ts) before they are written.
 * Standalone: npx tsx scripts/build-excel.ts [--host-url https://…]
 */
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { functionsFor } from "../shared/functions/index.ts";
import { functionsSource } from "../excel-addin/build/codegen.ts";
import { ICON_SIZES, iconPng } from "../excel-addin/build/png.ts";
import { checkManifest, devManifest, manifestForHost } from "../excel-addin/build/manifest.ts";
import { validateManifestSchema } from "../excel-addin/build/schema.ts";
import { supportHtml, taskpaneHtml } from "../excel-addin/build/html.ts";
import { excelDescription, LOCALISED_METADATA, localisedMetadata } from "../excel-addin/build/localise.ts";
import { buildTaskpaneAssets } from "./build-ui.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_OUT = join(ROOT, "dist", "excel-addin");

export interface BuildResult {
  outDir: string;
  functionIds: string[];
  /** File name → bytes, for the bundle-size report. */
  sizes: Record<string, number>;
}

async function bundle(entry: string, outfile: string, minify: boolean) {
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "iife",
    // Excel's shared runtime is a WebView2/WKWebView/browser page; ES2019 covers them all.
    target: "es2019",
    platform: "browser",
    minify,
    legalComments: "none",
    logLevel: "silent",
  });
}

/** functions.json with data types allowed (a top-level flag custom-functions-metadata does not write). */
export function withDataTypes(metadataJson: string): string {
  const meta = JSON.parse(metadataJson) as Record<string, unknown>;
  return JSON.stringify({ allowCustomDataForDataTypeAny: true, ...meta }, null, 2);
}

export interface BuildOptions {
  /** Where the add-in will be served (production manifest); default https://localhost:3000. */
  hostUrl?: string;
  minify?: boolean;
  quiet?: boolean;
  /** Default dist/excel-addin; tests build into their own directory. */
  outDir?: string;
}

/** The scratch folder beside an output folder where the functions' source is generated (dist/.excel-addin-gen). */
export const genDirFor = (outDir: string) => join(outDir, "..", `.${basename(outDir)}-gen`);

export async function build(opts: BuildOptions = {}): Promise<BuildResult> {
  const minify = opts.minify ?? true;
  const EXCEL_OUT = opts.outDir ?? DEFAULT_OUT;
  const GEN_DIR = genDirFor(EXCEL_OUT);
  await rm(EXCEL_OUT, { recursive: true, force: true });
  await mkdir(join(EXCEL_OUT, "assets"), { recursive: true });
  await mkdir(GEN_DIR, { recursive: true });

  // 1. Functions source from the registry, then functions.json from its JSDoc.
  const defs = functionsFor("excel");
  const genFile = join(GEN_DIR, "functions.ts");
  await writeFile(genFile, functionsSource(defs, join(ROOT, "excel-addin", "functions", "entry.ts")));
  const meta = await generateCustomFunctionsMetadata(genFile);
  // Its command line exits 0 even when it drops functions: the errors list is the truth.
  if (meta.errors.length) throw new Error(`custom-functions-metadata reported errors:\n${meta.errors.join("\n")}`);
  const metadata = JSON.parse(meta.metadataJson || "{}") as { functions?: { id: string }[] };
  const ids = (metadata.functions ?? []).map((f) => f.id);
  const wanted = defs.map((d) => d.name);
  const missing = wanted.filter((n) => !ids.includes(n));
  const extra = ids.filter((n) => !wanted.includes(n));
  if (missing.length || extra.length)
    throw new Error(
      `functions.json does not match the registry: missing ${missing.join(",") || "-"}, extra ${extra.join(",") || "-"}`,
    );
  const associated = meta.associate.map((a) => a.id);
  if (associated.length !== ids.length || ids.some((id) => !associated.includes(id)))
    throw new Error("functions.json and the associations differ");
  // COMPANY.CARD answers an entity value: Excel accepts data types from a custom function only with
  // this top-level flag (Microsoft, "Use data types with custom functions in Excel"; CustomFunctionsRuntime 1.4).
  const metadataJson = withDataTypes(meta.metadataJson);
  await writeFile(join(EXCEL_OUT, "functions.json"), metadataJson);
  // The same metadata with the registry's German help (manifest: <bt:Override Locale="de-DE|de-AT|de-CH">).
  for (const [lang, loc] of Object.entries(LOCALISED_METADATA)) {
    await writeFile(join(EXCEL_OUT, loc.file), localisedMetadata(metadataJson, defs, lang as "de"));
  }

  // 2. Bundles.
  await bundle(genFile, join(EXCEL_OUT, "functions.js"), minify);
  // The task pane: the UI build's bundle of the Excel entry and its stylesheet, inlined into the page.
  const pane = await buildTaskpaneAssets({ entry: join(ROOT, "excel-addin", "taskpane", "main.ts"), minify });
  await writeFile(join(EXCEL_OUT, "taskpane.js"), pane.js);
  await writeFile(join(EXCEL_OUT, "taskpane.html"), taskpaneHtml({ css: pane.css }));
  await writeFile(
    join(EXCEL_OUT, "help.html"),
    supportHtml(
      defs.map((d) => ({ name: d.name, en: excelDescription(d, "en", wanted), de: excelDescription(d, "de", wanted) })),
    ),
  );

  // 3. Icons.
  for (const size of ICON_SIZES) await writeFile(join(EXCEL_OUT, "assets", `icon-${size}.png`), iconPng(size));

  // 4. Manifests: the dev one always, the production one for a host URL; each checked offline and by the schema.
  const source = await readFile(join(ROOT, "manifests", "excel-manifest.xml"), "utf8");
  const manifests: [string, string][] = [["manifest-dev.xml", await devManifest(source)]];
  if (opts.hostUrl) manifests.push(["manifest.xml", manifestForHost(source, opts.hostUrl)]);
  for (const [file, xml] of manifests) {
    const problems = [...checkManifest(xml), ...(await validateManifestSchema(xml))];
    if (problems.length) throw new Error(`${file}: manifest problems:\n${problems.join("\n")}`);
    await writeFile(join(EXCEL_OUT, file), xml);
  }

  const sizes: Record<string, number> = {};
  for (const f of ["functions.js", "functions.json", "taskpane.js", "taskpane.html"])
    sizes[f] = (await stat(join(EXCEL_OUT, f))).size;
  if (!opts.quiet) {
    console.log(
      `excel-addin: ${ids.length} functions, ${manifests.map(([f]) => f).join(" and ")}${opts.hostUrl ? ` for ${opts.hostUrl}` : ""}`,
    );
    for (const [f, n] of Object.entries(sizes))
      console.log(`  ${f.padEnd(16)} ${(n / 1024).toFixed(1).padStart(7)} KB`);
  }
  return { outDir: EXCEL_OUT, functionIds: ids, sizes };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf("--host-url");
  const hostUrl = i >= 0 ? process.argv[i + 1] : undefined;
  build({ hostUrl }).catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
