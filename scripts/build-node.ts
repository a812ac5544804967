/**
 * The Node programs as one bundle: `company-data` (cli/main.ts) with every
 * subcommand it reaches (server, mcp, reconcile, emulator, doctor…) in
 * dist/node/, ESM for Node 20, with source maps. The installed package runs
 * it through bin/company-data.js; a clone runs the sources (see that file).
 *
 * - Production dependencies stay external: they resolve from node_modules
 *   at run time (PGlite finds its wasm and data files beside its own module,
 *   pg its optional native part, the MCP SDK its own zod). One exception:
 *   zod/mini is bundled, tree-shaken, because importing the whole zod package
 *   costs about 110 ms of every start (`--help` 0.19 → 0.12 s); the MCP code
 *   (mcp/, loaded only for `company-data mcp`) imports "zod" from
 *   node_modules, the copy the SDK uses.
 * - Subcommands are split into chunks loaded on demand (cli/main.ts imports
 *   them dynamically), so `--help` parses the CLI's chunk only.
 * - `ignoreAnnotations`: package.json says `"sideEffects": false` for the
 *   browser bundles, but the server's modules register their migrations
 *   by being imported (server/extensions.ts); esbuild would drop them.
 * - THIRD-PARTY-LICENSES.txt: the licence of every third-party file the
 *   bundle carries (zod's, the emulator's reference data).
 *
 * `npm run build` runs it; `npm pack` runs it first too (prepack), so a
 * package never carries a stale bundle.
 */
import * as esbuild from "esbuild";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const NODE_OUT = join(ROOT, "dist", "node");
/** The bundle's entry: what bin/company-data.js imports in an installed package. */
export const NODE_ENTRY = "company-data.js";

/** Dependencies the bundle carries inside rather than importing from node_modules (see above). */
const BUNDLED = new Set(["zod/mini"]);

function productionDependencies(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  return Object.keys(pkg.dependencies ?? {});
}

/** Bare imports of a production dependency (or a subpath of one) stay imports, except those in BUNDLED. */
function externalDependencies(deps: string[]): esbuild.Plugin {
  return {
    name: "external-dependencies",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith("node:") || BUNDLED.has(args.path)) return undefined;
        const external = deps.some((d) => args.path === d || args.path.startsWith(`${d}/`));
        return external ? { path: args.path, external: true } : undefined;
      });
    },
  };
}

const LICENCE_NAMES = ["LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "COPYING"];

/**
 * The licence of a bundled file: its npm package's (the folder after the last
 * node_modules/), or else the nearest LICENSE in its folder or one above it,
 * below the project root (e.g. emulator/data/reference/LICENSE).
 */
function licenceOf(file: string): string | undefined {
  const inPackage = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(file);
  const folders: string[] = [];
  if (inPackage) folders.push(inPackage[1]!);
  else for (let dir = dirname(file); dir !== ROOT && dir.startsWith(ROOT + sep); dir = dirname(dir)) folders.push(dir);
  for (const dir of folders) for (const name of LICENCE_NAMES) if (existsSync(join(dir, name))) return join(dir, name);
  return undefined;
}

/** The notices of what the bundle carries that the project did not write. */
function thirdPartyNotices(inputs: string[]): string {
  const licences = new Map<string, string[]>();
  for (const input of inputs) {
    const abs = resolve(ROOT, input);
    const licence = licenceOf(abs);
    if (!licence) continue;
    const list = licences.get(licence) ?? [];
    list.push(relative(ROOT, abs));
    licences.set(licence, list);
  }
  const parts = [...licences.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([licence, files]) => {
      const where = relative(ROOT, dirname(licence));
      return `== ${where} (${files.length} file${files.length === 1 ? "" : "s"} bundled)\n\n${readFileSync(licence, "utf8").trim()}\n`;
    });
  return [
    "Third-party material inside dist/node/ and the licence each comes with.",
    "The project's own code is under ../../LICENSE.",
    "",
    ...parts,
  ].join("\n");
}

export interface NodeBuild {
  /** Files written, relative to the output folder. */
  files: string[];
  /** Milliseconds the build took. */
  ms: number;
}

/** Bundle into `out` (default dist/node): written beside it first, then swapped in whole. */
export async function buildNode(out = NODE_OUT): Promise<NodeBuild> {
  const started = Date.now();
  const scratch = `${out}.new-${process.pid}`;
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true });
  try {
    const result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: { [NODE_ENTRY.replace(/\.js$/, "")]: join(ROOT, "cli", "main.ts") },
      outdir: scratch,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      chunkNames: "chunks/[name]-[hash]",
      sourcemap: "linked",
      sourcesContent: false,
      ignoreAnnotations: true,
      legalComments: "eof",
      metafile: true,
      logLevel: "silent",
      plugins: [externalDependencies(productionDependencies())],
    });
    const inputs = Object.keys(result.metafile.inputs);
    await writeFile(join(scratch, "THIRD-PARTY-LICENSES.txt"), thirdPartyNotices(inputs));
    await rm(out, { recursive: true, force: true });
    await rename(scratch, out);
    const files = Object.keys(result.metafile.outputs).map((p) => relative(scratch, resolve(ROOT, p)));
    return { files: [...files, "THIRD-PARTY-LICENSES.txt"].sort(), ms: Date.now() - started };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildNode(process.argv[2] ? resolve(process.argv[2]) : NODE_OUT);
  console.log(`built dist/node (${built.files.length} files, ${built.ms} ms)`);
}
