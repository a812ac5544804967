/** dist/ holds what the current builds write, nothing an older build left there; git ignores it. */
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { DIST, ownedOutputs, pruneStale } from "../../scripts/dist.ts";

describe("dist/ hygiene", () => {
  it("the owned outputs are the builds' folders, and the stale .excel-gen is not one of them", () => {
    const names = ownedOutputs().map((p) => basename(p));
    expect(names.sort()).toEqual([".excel-addin-gen", "apps-script", "console", "excel-addin", "node", "playground"]);
    for (const p of ownedOutputs()) expect(join(p, "..")).toBe(DIST);
  });

  it("pruneStale removes what no build owns and keeps the rest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cd-dist-"));
    for (const d of ["apps-script", "excel-addin", ".excel-addin-gen", "playground", ".excel-gen", "old-output"]) {
      mkdirSync(join(dir, d));
      writeFileSync(join(dir, d, "f.txt"), "x");
    }
    writeFileSync(join(dir, "stray.js"), "x");
    const keep = ["apps-script", "excel-addin", ".excel-addin-gen", "playground"].map((d) => join(dir, d));
    expect(await pruneStale(dir, keep)).toEqual([".excel-gen", "old-output", "stray.js"]);
    for (const d of keep) expect(existsSync(join(d, "f.txt"))).toBe(true);
    expect(existsSync(join(dir, ".excel-gen"))).toBe(false);
    expect(await pruneStale(dir, keep)).toEqual([]);
    expect(await pruneStale(join(dir, "missing"), keep)).toEqual([]);
  });

  it(".gitignore keeps dist/ out of git", () => {
    const root = join(DIST, "..");
    const out = execFileSync(
      "git",
      ["check-ignore", "-v", "dist/.excel-gen/functions.ts", "dist/playground/index.html"],
      { cwd: root, encoding: "utf8" },
    );
    expect(out).toMatch(/\.gitignore:\d+:dist\/\tdist\/\.excel-gen\/functions\.ts/);
    expect(out).toMatch(/dist\/playground\/index\.html/);
  });
});
