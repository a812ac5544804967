import { describe, expect, it } from "vitest";
import { importCycles } from "../../scripts/import-cycles.ts";

describe("module graph", () => {
  it("has no import cycles, type-only imports included", () => {
    expect(importCycles()).toEqual([]);
  });
});
