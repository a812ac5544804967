/**
 * shared/ is the core both spreadsheet hosts run: it must not touch a
 * platform global (ARCHITECTURE: "Hosts hand it what it needs"). Only
 * shared/ui/ renders into a DOM, and only shared/web/ sends through fetch.
 * This reads the source, comments removed; the built Apps Script bundle is
 * checked for shared/web/ separately.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import { APP_FILE } from "../../apps-script/stubs.ts";
import { nth } from "../helpers/indexed.ts";

const ROOT = join(import.meta.dirname, "../../shared");
const ALLOWED_DIRS = [
  // The one UI renders into the DOM of the sidebar, the task pane and the playground.
  "ui",
  // Code for the fetch-based hosts only (Excel, playground, CLI): fetch, setTimeout, AbortController.
  // Apps Script has none of them and never imports it (checked on the built Code.js below).
  "web",
];
/** What shared/web/ brings into a bundle: neither exists in Apps Script (UrlFetchApp.fetch is a method, not this). */
const WEB_ONLY: [string, RegExp][] = [
  ["AbortController", /\bAbortController\b/],
  ["fetch(", /(^|[^.\w])fetch\s*\(/m],
];
const FORBIDDEN: [string, RegExp][] = [
  [
    "Apps Script services",
    /\b(UrlFetchApp|SpreadsheetApp|CacheService|PropertiesService|LockService|ScriptApp|HtmlService|Utilities|Session)\s*\./,
  ],
  ["Office.js", /\b(Excel|Office|OfficeRuntime|CustomFunctions)\s*\./],
  ["timers", /\b(setTimeout|setInterval|setImmediate)\s*\(/],
  ["network", /(^|[^.\w])fetch\s*\(|\bXMLHttpRequest\b/],
  ["Node", /\bprocess\s*\.|\brequire\s*\(|from\s+["']node:/],
  ["DOM", /\b(document|window|localStorage)\s*\./],
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return ALLOWED_DIRS.includes(relative(ROOT, path)) ? [] : files(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

const withoutComments = (src: string) => src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

describe("shared/ is free of platform globals", () => {
  const sources = files(ROOT);

  it("reads the core's sources", () => {
    expect(sources.length).toBeGreaterThan(40);
  });

  it.each(FORBIDDEN)("uses no %s", (what, pattern) => {
    const hits = sources.flatMap((f) => {
      const src = withoutComments(readFileSync(f, "utf8"));
      // A parameter or local named `fetch` is the caller's function, not the global.
      if (what === "network" && /[(,]\s*fetch\s*[:,)?]|\b(const|let|function)\s+fetch\b/.test(src)) return [];
      return src
        .split("\n")
        .map((line, i) => [line, i] as const)
        .filter(([line]) => pattern.test(line))
        .map(([line, i]) => `${relative(ROOT, f)}:${i + 1}: ${line.trim()}`);
    });
    expect(hits).toEqual([]);
  });

  it("would notice one", () => {
    const probe = withoutComments('const x = 1; // UrlFetchApp.fetch()\nUrlFetchApp.fetch("u");');
    expect(nth(FORBIDDEN, 0)[1].test(nth(probe.split("\n"), 1))).toBe(true);
    expect(nth(FORBIDDEN, 0)[1].test(nth(probe.split("\n"), 0))).toBe(false);
  });
});

describe("Apps Script never imports shared/web/", () => {
  let code = "";
  beforeAll(async () => {
    // Built into a temporary directory like test/apps-script, so a test run never rewrites dist/apps-script.
    const out = mkdtempSync(join(tmpdir(), "platform-free-"));
    try {
      await buildWithReport(out);
      // Code.js and the app bundle it loads for the sidebars and the trigger (apps-script/stubs.ts).
      code = readFileSync(join(out, "Code.js"), "utf8") + readFileSync(join(out, `${APP_FILE}.html`), "utf8");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  it("reads the built Code.js", () => {
    expect(code).toContain("UrlFetchApp");
  });

  it.each(WEB_ONLY)("the built Code.js contains no %s", (_what, pattern) => {
    expect(code.match(pattern)?.[0]).toBeUndefined();
  });

  it("would notice one", () => {
    expect(nth(WEB_ONLY, 0)[1].test("const c = new AbortController();")).toBe(true);
    expect(nth(WEB_ONLY, 1)[1].test("r = await fetch(url, init)")).toBe(true);
    expect(nth(WEB_ONLY, 1)[1].test("UrlFetchApp.fetch(url, o)")).toBe(false);
  });
});
