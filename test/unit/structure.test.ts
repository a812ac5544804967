/**
 * The size rules of every source folder (issues 29 and 41,
 * docs/architecture.md): no function over 80 lines, no file over 400 lines
 * without a one-line reason at its top (a comment line "Over 400 lines …:
 * why" in the first ten lines). Long functions and files are where two
 * concerns hide; the rule makes a split the default and a long file a
 * decision someone wrote down.
 *
 * shared/ keeps both rules without exception. Outside it, the functions and
 * files that were long when the rule reached them wait in two ratchet lists
 * below: a list may only shrink. A new long function or file fails, and so
 * does one that got short but is still listed (strike it).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFolders } from "../../scripts/import-cycles.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const SHARED = join(ROOT, "shared");

/** Functions over 80 lines outside shared/ still waiting for their split ("file name"). Only ever shrinks. */
const LONG_FUNCTIONS_WAITING: readonly string[] = [
  "apps-script/driver.ts createDriver",
  "bench/cold-start.bench.ts runColdStartBench",
  "bench/emulator.bench.ts runEmulatorBench",
  "bench/enrich.bench.ts runEnrichBench",
  "bench/excel.bench.ts runExcelBench",
  "bench/sheets.bench.ts runSheetsBench",
];

/** Files over 400 lines outside shared/ without a stated reason, still waiting. Only ever shrinks. */
const LONG_FILES_WAITING: readonly string[] = [
  "apps-script/monitor.ts",
  "bench/enrich.bench.ts",
  "cli/i18n.ts",
  "server/schedules/run.ts",
];
const MAX_FUNCTION_LINES = 80;
const MAX_FILE_LINES = 400;
const REASON = /^\s*(\/\/|\*)\s*Over 400 lines\b[^:]*:\s*\S/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")
        ? [join(dir, e.name)]
        : [],
  );
}

/** Files over the limit without a reason in their first ten lines: path → lines. */
function unexplainedFiles(files: readonly { file: string; text: string }[]): Record<string, number> {
  return Object.fromEntries(
    files
      .map(({ file, text }) => ({ file, lines: text.replace(/\n$/, "").split("\n") }))
      .filter(({ lines }) => lines.length > MAX_FILE_LINES && !lines.slice(0, 10).some((l) => REASON.test(l)))
      .map(({ file, lines }) => [relative(ROOT, file), lines.length]),
  );
}

/** A ratchet: what is found but not listed (new), and what is listed but no longer found (fixed: strike it). */
function ratchet(found: readonly string[], waiting: readonly string[]): { fresh: string[]; fixed: string[] } {
  return {
    fresh: found.filter((f) => !waiting.includes(f)).sort(),
    fixed: waiting.filter((w) => !found.includes(w)).sort(),
  };
}

/** Every function, method, arrow function and function expression longer than the limit: "file name" → lines. */
function longFunctions(file: string, text: string, limit: number): Record<string, number> {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Record<string, number> = {};
  const visit = (node: ts.Node): void => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)
    ) {
      const first = src.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = src.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      if (lines > limit) {
        const named = (node as { name?: ts.Node }).name ?? (node.parent as { name?: ts.Node }).name;
        const what = `${relative(ROOT, file)} ${named ? named.getText(src) : `(anonymous at line ${first + 1})`}`;
        found[what] = Math.max(found[what] ?? 0, lines);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return found;
}

describe("size rules of shared/", () => {
  const files = sourceFiles(SHARED).map((f) => ({ file: f, text: readFileSync(f, "utf8") }));

  it("finds the files it checks", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const found = Object.assign({}, ...files.map(({ file, text }) => longFunctions(file, text, MAX_FUNCTION_LINES)));
    expect(found).toEqual({});
  });

  it(`no file over ${MAX_FILE_LINES} lines without a reason at its top`, () => {
    expect(unexplainedFiles(files)).toEqual({});
  });
});

describe("size rules of every other source folder, with a ratchet", () => {
  const folders = sourceFolders().filter((f) => f !== "shared");
  const files = folders
    .flatMap((d) => sourceFiles(join(ROOT, d)))
    .map((f) => ({ file: f, text: readFileSync(f, "utf8") }));

  it("reads every source folder", () => {
    for (const f of ["node", "cli", "server", "mcp", "reconcile", "emulator", "playground", "console", "bench"])
      expect(folders).toContain(f);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines but those waiting, and none waiting that got short`, () => {
    const found = Object.keys(
      Object.assign({}, ...files.map(({ file, text }) => longFunctions(file, text, MAX_FUNCTION_LINES))),
    );
    expect(ratchet(found, LONG_FUNCTIONS_WAITING)).toEqual({ fresh: [], fixed: [] });
  });

  it(`no file over ${MAX_FILE_LINES} lines without a reason but those waiting, and none waiting that got fine`, () => {
    expect(ratchet(Object.keys(unexplainedFiles(files)), LONG_FILES_WAITING)).toEqual({ fresh: [], fixed: [] });
  });
});

describe("the size checks", () => {
  it("see a long function and a file's reason (they can fail)", () => {
    const body = Array.from({ length: 90 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const found = longFunctions(join(SHARED, "x.ts"), `export function big() {\n${body}\n}\n`, MAX_FUNCTION_LINES);
    expect(found).toEqual({ "shared/x.ts big": 92 });
    expect(
      longFunctions(join(SHARED, "x.ts"), `export function small() {\n  return 1;\n}\n`, MAX_FUNCTION_LINES),
    ).toEqual({});
    expect(REASON.test(" * Over 400 lines: one table of the API's fields")).toBe(true);
    expect(REASON.test(" * Over 400 lines on purpose: the whole protocol")).toBe(true);
    expect(REASON.test(" * A module")).toBe(false);
    const long = Array.from({ length: 401 }, (_, i) => `const v${i} = ${i};`).join("\n");
    expect(unexplainedFiles([{ file: join(ROOT, "cli", "x.ts"), text: long }])).toEqual({ "cli/x.ts": 401 });
    expect(
      unexplainedFiles([{ file: join(ROOT, "cli", "x.ts"), text: `// Over 400 lines: a table\n${long}` }]),
    ).toEqual({});
  });

  it("fail on a long function that is new to the ratchet, and on one listed that got short", () => {
    const body = Array.from({ length: 90 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const planted = Object.keys(longFunctions(join(ROOT, "mcp", "x.ts"), `function big() {\n${body}\n}\n`, 80));
    expect(ratchet(planted, ["mcp/x.ts big"])).toEqual({ fresh: [], fixed: [] });
    expect(ratchet(planted, [])).toEqual({ fresh: ["mcp/x.ts big"], fixed: [] });
    expect(ratchet([], ["mcp/x.ts big"])).toEqual({ fresh: [], fixed: ["mcp/x.ts big"] });
  });
});
