/** `company-data --version` (cli/version.ts): the package's version and the database schema the build migrates to. */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { idRanges, schemaVersion, versionText } from "../../cli/version.ts";
import { migrations } from "../../server/db/migrations.ts";

describe("--version", () => {
  it("writes runs of migration ids as ranges", () => {
    expect(idRanges([1, 2, 3, 100, 101, 300])).toBe("1–3, 100–101, 300");
    expect(idRanges([7])).toBe("7");
    expect(idRanges([])).toBe("");
  });

  it("names the package's semver version and the highest migration id with every id", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    const ids = migrations().map((m) => m.id);
    expect(schemaVersion()).toEqual({ highest: Math.max(...ids), ids });
    const [name, schema] = versionText().split("\n");
    expect(name).toBe(`company-data ${pkg.version}`);
    expect(schema).toBe(`database schema ${Math.max(...ids)} (migrations ${idRanges(ids)})`);
  });
});
