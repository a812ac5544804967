/**
 * The project's picture of its imports, from the code: import cycles among
 * its own TypeScript modules, type-only imports included (a type-only cycle
 * still ties two modules' designs together), and between its top-level
 * folders the imports that run up a floor or sideways (FLOORS,
 * eslint-rules/layers.js) and the pairs of folders that import each other.
 * Every source folder is read (all top-level folders with TypeScript but the
 * tests). Used by test/unit/import-cycles.test.ts; `npx tsx
 * scripts/import-cycles.ts` prints the figures.
 *
 * Imports are read with TypeScript's own pre-processor (ts.preProcessFile), so
 * comments and strings that look like imports do not count; re-exports
 * (`export … from`) do.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { floorProblem } from "../eslint-rules/layers.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Not source: dependencies, builds, and the tests (which reach into every folder on purpose). */
const NOT_SOURCE = new Set(["node_modules", "dist", "test"]);

/** Every top-level folder that holds TypeScript, tests and builds aside. */
export function sourceFolders(root = ROOT): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith(".") && !NOT_SOURCE.has(e.name))
    .map((e) => e.name)
    .filter((name) => tsFiles(join(root, name)).length > 0)
    .sort();
}

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

/** Module graph: file -> the project files it imports (of the given top-level folders; every source folder by default). */
export function importGraph(root = ROOT, folders: readonly string[] = sourceFolders(root)): Map<string, string[]> {
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

/** Imports between top-level folders: "from -> to" → the first import that makes it ("file -> file"). */
export function folderImports(root = ROOT): Map<string, string> {
  const top = (f: string) => relative(root, f).split(/[\\/]/)[0]!;
  const out = new Map<string, string>();
  for (const [file, deps] of importGraph(root))
    for (const dep of deps) {
      const key = `${top(file)} -> ${top(dep)}`;
      if (top(file) !== top(dep) && !out.has(key)) out.set(key, `${relative(root, file)} -> ${relative(root, dep)}`);
    }
  return out;
}

/** What breaks the floors between top-level folders: imports up a floor or sideways, and two-way pairs. */
export function floorBreaks(root = ROOT): { upward: string[]; twoWay: string[] } {
  const pairs = folderImports(root);
  const upward: string[] = [];
  const twoWay: string[] = [];
  for (const [key, example] of pairs) {
    const [from, to] = key.split(" -> ") as [string, string];
    // Type-only imports count as imports here (the browser rule lets them through; a floor does not).
    const problem = floorProblem(from, to, true);
    if (problem === "upward" || problem === "beside") upward.push(`${example} (${problem})`);
    if (from < to && pairs.has(`${to} -> ${from}`)) twoWay.push(`${from} <-> ${to}`);
  }
  return { upward: upward.sort(), twoWay: twoWay.sort() };
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
  const { upward, twoWay } = floorBreaks();
  for (const u of upward) console.log(`up a floor or sideways: ${u}`);
  for (const p of twoWay) console.log(`two-way pair: ${p}`);
  console.log(
    `${sourceFolders().length} source folders, ${folderImports().size} imports between folders: ` +
      `${cycles.length} cycle(s), ${upward.length} import(s) up a floor or sideways, ${twoWay.length} two-way pair(s)`,
  );
  process.exitCode = cycles.length || upward.length || twoWay.length ? 1 : 0;
}
