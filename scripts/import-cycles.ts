/**
 * Import cycles among the project's own TypeScript modules, type-only imports
 * included (a type-only cycle still ties two modules' designs together).
 * Used by test/unit/import-cycles.test.ts; `npx tsx scripts/import-cycles.ts`
 * prints them.
 *
 * Imports are read with TypeScript's own pre-processor (ts.preProcessFile), so
 * comments and strings that look like imports do not count; re-exports
 * (`export … from`) do.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const FOLDERS = [
  "shared",
  "apps-script",
  "excel-addin",
  "emulator",
  "cli",
  "playground",
  "console",
  "scripts",
  "bench",
  "mcp",
];

function tsFiles(dir: string, out: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    if (n === "node_modules" || n === "dist") continue;
    const p = join(dir, n);
    if (statSync(p).isDirectory()) tsFiles(p, out);
    else if (/\.tsx?$/.test(n) && !n.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** Module graph: file -> the project files it imports (of the given top-level folders; the project's, tests excluded, by default). */
export function importGraph(root = ROOT, folders: readonly string[] = FOLDERS): Map<string, string[]> {
  const files = folders.flatMap((f) => tsFiles(join(root, f)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const info = ts.preProcessFile(readFileSync(f, "utf8"), true, false);
    const deps = new Set<string>();
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith(".")) continue;
      let target = resolve(dirname(f), ref.fileName);
      if (!known.has(target)) {
        const alt = [target + ".ts", target.replace(/\.js$/, ".ts"), join(target, "index.ts")].find((c) =>
          known.has(c),
        );
        if (!alt) continue;
        target = alt;
      }
      deps.add(target);
    }
    graph.set(f, [...deps]);
  }
  return graph;
}

/** Strongly connected components with more than one module (or a module importing itself): Tarjan. */
export function importCycles(root = ROOT): string[][] {
  const graph = importGraph(root);
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.map((c) => relative(root, c)).sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cycles = importCycles();
  for (const c of cycles) console.log(c.join("  <->  "));
  console.log(`${cycles.length} cycle(s)`);
  process.exitCode = cycles.length ? 1 : 0;
}
