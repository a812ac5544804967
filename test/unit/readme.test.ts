/**
 * The README stays a front page (issue 41, item 6): at most 200 lines, the
 * two commands that run and test the project, and links that lead somewhere
 * (detail lives in docs/ and the hosts' READMEs).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

test("the README is at most 200 lines", () => {
  expect(README.split("\n").length).toBeLessThanOrEqual(200);
});

test("the README keeps the two commands", () => {
  expect(README).toContain("npm install && npm start");
  expect(README).toMatch(/^npm test\b/m);
});

test("every relative link of the README names a file of the repository", () => {
  const links = [...README.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
    .map((m) => m[1]!)
    .filter((l) => !/^[a-z]+:/.test(l));
  expect(links.length).toBeGreaterThan(10);
  expect(links.filter((l) => !existsSync(join(ROOT, l)))).toEqual([]);
});
