/**
 * The project's picture of its imports (scripts/import-cycles.ts), over every
 * source folder: no import cycle, type-only imports included; between the
 * top-level folders no import up a floor or sideways (FLOORS,
 * eslint-rules/layers.js) and no pair that imports each other. Each check is
 * shown failing on a small tree planted with the violation.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { floorBreaks, folderImports, importCycles, sourceFolders } from "../../scripts/import-cycles.ts";

const planted: string[] = [];
/** A tree of files (path → source) in a temporary folder. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "import-picture-"));
  planted.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
afterAll(() => {
  for (const root of planted) rmSync(root, { recursive: true, force: true });
});

describe("the project's picture of its imports", () => {
  it("reads every source folder (all but tests and builds)", () => {
    const folders = sourceFolders();
    for (const f of ["shared", "node", "cli", "server", "mcp", "reconcile", "emulator", "playground", "console"])
      expect(folders).toContain(f);
    expect(folders).not.toContain("test");
    expect(folderImports().size).toBeGreaterThan(10);
  });

  it("has no import cycles, type-only imports included", () => {
    expect(importCycles()).toEqual([]);
  });

  it("has no import up a floor or sideways between top-level folders, and no two-way pair", () => {
    expect(floorBreaks()).toEqual({ upward: [], twoWay: [] });
  });

  it("finds a planted cycle, a type-only one too", () => {
    const root = tree({
      "server/a.ts": `import { b } from "./b.ts";\nexport const a = 1;\n`,
      "server/b.ts": `import type { A } from "./a.ts";\nexport const b = 2;\n`,
      "shared/c.ts": `export const c = 3;\n`,
    });
    expect(importCycles(root)).toEqual([["server/a.ts", "server/b.ts"]]);
  });

  it("finds a planted import up a floor, one sideways, and a two-way pair", () => {
    const root = tree({
      "server/lock.ts": `import { l } from "../cli/lock.ts";\nexport const s = 1;\n`,
      "cli/lock.ts": `import { s } from "../server/lock.ts";\nexport const l = 2;\n`,
      "mcp/x.ts": `import { r } from "../reconcile/y.ts";\nexport const m = 3;\n`,
      "reconcile/y.ts": `export const r = 4;\n`,
    });
    const breaks = floorBreaks(root);
    expect(breaks.upward).toEqual(["mcp/x.ts -> reconcile/y.ts (beside)", "server/lock.ts -> cli/lock.ts (upward)"]);
    expect(breaks.twoWay).toEqual(["cli <-> server"]);
  });
});
