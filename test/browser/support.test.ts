/**
 * The browser suites' own guards (no Chromium needed): a missing Chromium
 * fails under CI instead of passing silently, and every UI string is used.
 */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT, skipWithoutChromium } from "./browser.ts";
import { STRINGS } from "../../shared/ui/strings.ts";

describe("skipWithoutChromium", () => {
  it("runs the suites when Chromium is there", () => {
    expect(skipWithoutChromium({ CI: "1" }, true)).toBe(false);
    expect(skipWithoutChromium({}, true)).toBe(false);
  });
  it("skips without Chromium on a developer's machine", () => {
    expect(skipWithoutChromium({}, false)).toBe(true);
    expect(skipWithoutChromium({ CI: "false" }, false)).toBe(true);
  });
  it("fails hard without Chromium under CI, saying what to do", () => {
    expect(() => skipWithoutChromium({ CI: "true" }, false, "/nowhere/chromium")).toThrow(
      /Chromium not found at \/nowhere\/chromium.*apt-get install -y chromium/,
    );
  });
});

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") && !p.endsWith("strings.ts") ? [p] : [];
  });
}

describe("UI strings", () => {
  it("has no string that no panel uses", () => {
    const code = sources(join(ROOT, "shared", "ui"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    // Keys built at run time: `role_${role}` (enrich columns), `status_${code}` (company status).
    const dynamic = (k: string) =>
      (/^role_/.test(k) && code.includes("`role_${")) || (/^status_/.test(k) && code.includes("`status_${"));
    const unused = Object.keys(STRINGS).filter(
      (k) => !dynamic(k) && !new RegExp(`["'\`]${k}["'\`]|STRINGS\\.${k}\\b`).test(code),
    );
    expect(unused).toEqual([]);
  });
});
