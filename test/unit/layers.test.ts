/**
 * The layer rule (eslint-rules/layers.js) catches what it is meant to: an
 * upward import between shared/ folders, a two-way pair, and a deep import
 * from a host; and lets the public surface and sibling imports through. The
 * rule itself runs over the whole tree in `npm run lint`.
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { FLOORS, LAYERS, layersPlugin } from "../../eslint-rules/layers.js";

const ROOT = join(import.meta.dirname, "..", "..");
const linter = new Linter({ configType: "flat" });
const config = [
  {
    files: ["**/*.ts"],
    plugins: { project: layersPlugin },
    languageOptions: {
      parser: tseslint.parser as Linter.Parser,
      ecmaVersion: 2022 as const,
      sourceType: "module" as const,
    },
    rules: { "project/layers": "error" as const },
  },
];
const problems = (file: string, code: string) =>
  linter.verify(code, config, { filename: join(ROOT, file) }).map((m) => m.message);

describe("the layer rule", () => {
  it("refuses an upward import between folders of shared/, type-only too", () => {
    expect(problems("shared/core/x.ts", `import { a } from "../enrich/index.ts";`).join()).toMatch(
      /shared\/core \(core\) may not import shared\/enrich \(features\)/,
    );
    expect(problems("shared/api/x.ts", `import type { A } from "../app/index.ts";`)).toHaveLength(1);
  });

  it("refuses the second direction of a pair in one layer (no two-way folder dependency)", () => {
    expect(problems("shared/monitor/x.ts", `import { a } from "../enrich/index.ts";`)).toEqual([]);
    expect(problems("shared/enrich/x.ts", `import { a } from "../monitor/index.ts";`)).toHaveLength(1);
    expect(problems("shared/batch/x.ts", `import { a } from "../operations/index.ts";`)).toHaveLength(1);
  });

  it("refuses a deep import from another folder or a host, and lets the index and siblings through", () => {
    expect(problems("shared/monitor/x.ts", `import { a } from "../enrich/job.ts";`).join()).toMatch(
      /through its public surface shared\/enrich\/index.ts/,
    );
    expect(problems("cli/x.ts", `import { a } from "../shared/enrich/job.ts";`)).toHaveLength(1);
    expect(problems("cli/x.ts", `export { a } from "../shared/enrich/job.ts";`)).toHaveLength(1);
    expect(problems("cli/x.ts", `import { a } from "../shared/enrich/index.ts";`)).toEqual([]);
    expect(problems("shared/enrich/x.ts", `import { a } from "./job.ts";`)).toEqual([]);
    expect(problems("shared/ui/panels/x.ts", `import { a } from "../strings.ts";`)).toEqual([]);
  });

  it("lets tests and benches reach inside, but not upward within shared/", () => {
    expect(problems("test/unit/x.test.ts", `import { a } from "../../shared/enrich/job.ts";`)).toEqual([]);
    expect(problems("bench/x.ts", `import { a } from "../shared/enrich/job.ts";`)).toEqual([]);
  });

  it("names a folder that is in no layer", () => {
    expect(problems("cli/x.ts", `import { a } from "../shared/newthing/index.ts";`).join()).toMatch(/in no layer/);
    expect(LAYERS.map(([name]) => name)).toEqual(["core", "api", "operations", "table", "features", "app"]);
  });

  it("refuses an import up a floor: a host of the dispatcher, node/ of a host, shared/ of node/", () => {
    expect(problems("server/db/x.ts", `import { a } from "../../cli/lock.ts";`).join()).toMatch(
      /server\/ \(team server\) may not import cli\/ \(entry\)/,
    );
    expect(problems("node/x.ts", `import { a } from "../cli/io.ts";`)).toHaveLength(1);
    expect(problems("node/x.ts", `import type { A } from "../server/routes.ts";`)).toHaveLength(1);
    expect(problems("shared/core/x.ts", `import { a } from "../../node/index.ts";`)).toHaveLength(1);
    expect(problems("reconcile/x.ts", `import { a } from "../server/routes.ts";`)).toHaveLength(1);
  });

  it("refuses an import between hosts that stand side by side (no two-way pair can arise)", () => {
    expect(problems("mcp/x.ts", `import { a } from "../reconcile/context.ts";`).join()).toMatch(/side by side/);
    expect(problems("reconcile/x.ts", `import { a } from "../mcp/config.ts";`)).toHaveLength(1);
    expect(problems("playground/x.ts", `import { a } from "../emulator/index.ts";`)).toHaveLength(1);
  });

  it("keeps node/ out of browser code, and other Node folders to their types there", () => {
    expect(problems("playground/x.ts", `import { a } from "../node/index.ts";`).join()).toMatch(
      /may not import node\//,
    );
    expect(problems("console/x.ts", `import type { A } from "../node/index.ts";`)).toHaveLength(1);
    expect(problems("console/views/x.ts", `import { a } from "../../server/ledger/report.ts";`).join()).toMatch(
      /for its types only/,
    );
    expect(problems("console/views/x.ts", `import type { A } from "../../server/ledger/report.ts";`)).toEqual([]);
  });

  it("lets a folder import the floors below it, node/ through its index, the dispatcher the hosts", () => {
    expect(problems("mcp/x.ts", `import { a } from "../node/index.ts";`)).toEqual([]);
    expect(problems("mcp/x.ts", `import { a } from "../node/driver.ts";`).join()).toMatch(/node\/index.ts/);
    expect(problems("server/x.ts", `import { a } from "../reconcile/service.ts";`)).toEqual([]);
    expect(problems("cli/x.ts", `const m = await import("../server/cli.ts");`)).toEqual([]);
    expect(problems("scripts/x.ts", `import { a } from "../playground/main.ts";`)).toEqual([]);
    expect(problems("test/node/x.test.ts", `import { a } from "../../node/lock.ts";`)).toEqual([]);
  });

  it("names a top-level folder that is on no floor", () => {
    expect(problems("newhost/x.ts", `import { a } from "../node/index.ts";`).join()).toMatch(/on no floor/);
    expect(FLOORS.map(([name]) => name)).toEqual([
      "core",
      "node",
      "hosts",
      "team server",
      "team console",
      "entry",
      "tools",
    ]);
  });
});
