/**
 * Tests do not import the benchmarks (issue 18, item 10). What a test and a
 * benchmark both need (the generated lists, the built-Code.js Sheets driver,
 * the CLI as a child process, the CLI's operation context) lives in
 * test/support/, which bench/ imports; a bench module changed for a figure
 * must never change what a test runs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { importGraph } from "../../scripts/import-cycles.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Every "test file -> bench file" import under `root`, as relative paths. */
function testImportsOfBench(root: string): string[] {
  const inFolder = (file: string, folder: string) => relative(root, file).startsWith(folder + sep);
  const found: string[] = [];
  for (const [file, deps] of importGraph(root, ["test", "bench"])) {
    if (!inFolder(file, "test")) continue;
    for (const dep of deps) if (inFolder(dep, "bench")) found.push(`${relative(root, file)} -> ${relative(root, dep)}`);
  }
  return found.sort();
}

describe("test/ and bench/", () => {
  const fixture = mkdtempSync(join(tmpdir(), "test-imports-"));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it("no file under test/ imports from bench/ (type-only imports included)", () => {
    expect(testImportsOfBench(ROOT)).toEqual([]);
  });

  it("the check finds such an import, value or type-only, and lets bench/ import test/support/", () => {
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(fixture, path)), { recursive: true });
      writeFileSync(join(fixture, path), text);
    };
    write("bench/lib.ts", "export const x = 1;\nexport type T = number;\n");
    write("bench/a.bench.ts", 'import { y } from "../test/support/y.ts";\nexport const z = y;\n');
    write("test/support/y.ts", "export const y = 2;\n");
    write("test/reliability/uses.test.ts", 'import { x } from "../../bench/lib.ts";\nexport const w = x;\n');
    write("test/unit/types.test.ts", 'import type { T } from "../../bench/lib";\nexport const v: T = 3;\n');
    expect(testImportsOfBench(fixture)).toEqual([
      `test${sep}reliability${sep}uses.test.ts -> bench${sep}lib.ts`,
      `test${sep}unit${sep}types.test.ts -> bench${sep}lib.ts`,
    ]);
  });
});
