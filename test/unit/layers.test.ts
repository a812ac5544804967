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
import { LAYERS, layersPlugin } from "../../eslint-rules/layers.js";

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
});
