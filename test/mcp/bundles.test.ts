/**
 * The MCP SDK is Node-only: neither it nor mcp/ may reach a bundle that runs
 * in Apps Script, Excel or a browser. esbuild resolves the same entry points
 * the builds use (scripts/build-apps-script.ts, scripts/build-excel.ts,
 * scripts/build-ui.ts) and lists every module each bundle takes in.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const ENTRIES = [
  "apps-script/main.ts",
  "apps-script/app-main.ts",
  "excel-addin/functions/entry.ts",
  "excel-addin/taskpane/main.ts",
  "playground/main.ts",
  ...readdirSync(join(ROOT, "shared/ui/entries"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `shared/ui/entries/${f}`),
];
const NODE_ONLY = /(^|\/)node_modules\/@modelcontextprotocol\/|(^|\/)mcp\//;

async function inputsOf(entry: string, platform: "browser" | "node"): Promise<string[]> {
  const out = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: platform === "node" ? "esm" : "iife",
    platform,
    logLevel: "silent",
    outdir: "out",
  });
  return Object.keys(out.metafile.inputs);
}

describe("the MCP server stays out of the spreadsheet and browser bundles", () => {
  it.each(ENTRIES)(
    "%s takes in nothing from mcp/ or @modelcontextprotocol",
    async (entry) => {
      const inputs = await inputsOf(entry, "browser");
      expect(inputs.length).toBeGreaterThan(10);
      expect(inputs.filter((f) => NODE_ONLY.test(f))).toEqual([]);
    },
    60_000,
  );

  it("would notice one: the server's own bundle has both", async () => {
    const inputs = await inputsOf("mcp/server.ts", "node");
    expect(inputs.some((f) => /node_modules\/@modelcontextprotocol\//.test(f))).toBe(true);
    expect(inputs.some((f) => /^mcp\//.test(f))).toBe(true);
  }, 60_000);
});
