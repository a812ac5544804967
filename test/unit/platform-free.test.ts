/**
 * shared/ is the core both spreadsheet hosts run: it must not touch a
 * platform global (ARCHITECTURE: "Hosts hand it what it needs"). Only
 * shared/ui/ renders into a DOM. This reads the source, comments removed.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dirname, "../../shared");
const ALLOWED_DIRS = ["ui"];
const FORBIDDEN: [string, RegExp][] = [
  ["Apps Script services", /\b(UrlFetchApp|SpreadsheetApp|CacheService|PropertiesService|LockService|ScriptApp|HtmlService|Utilities|Session)\s*\./],
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
    expect(FORBIDDEN[0][1].test(probe.split("\n")[1])).toBe(true);
    expect(FORBIDDEN[0][1].test(probe.split("\n")[0])).toBe(false);
  });
});
