/**
 * Issue 38 item 7 (and issue 36's "a module failed to load"): whatever fails
 * to load or start is said on stderr, what and why, with a non-zero exit.
 * bin/company-data.js is run from scratch copies (the repository's files are
 * never edited): the package's layout (bin/ + a fresh bundle, a broken import
 * planted in the entry or in the server's chunk) and a clone's (bin/ +
 * cli/main.ts through tsx: a missing tsx, a broken import, a start that throws).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildNode } from "../../scripts/build-node.ts";
import { ROOT, runToEnd, scratch } from "../support/installed-package.ts";

const ENV = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: "en_GB.UTF-8" };

/** A folder holding bin/company-data.js and package.json as the repository has them, plus `files`. */
function layout(files: Record<string, string>, withModules: boolean): string {
  const dir = scratch("cd-start-");
  mkdirSync(join(dir, "bin"));
  copyFileSync(join(ROOT, "bin", "company-data.js"), join(dir, "bin", "company-data.js"));
  copyFileSync(join(ROOT, "package.json"), join(dir, "package.json"));
  if (withModules) symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const company = (dir: string, args: string[]) =>
  runToEnd(process.execPath, [join(dir, "bin", "company-data.js"), ...args], { cwd: dir, env: ENV });

describe("a start that fails says what and why", () => {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });

  describe("the installed package (the bundle)", () => {
    let pkg: string;
    beforeAll(async () => {
      pkg = layout({}, true);
      made.push(pkg);
      await buildNode(join(pkg, "dist", "node"));
    }, 60_000);

    /** Put a broken import at the top of one file of the bundle. */
    function plant(file: string) {
      const text = readFileSync(file, "utf8");
      writeFileSync(file, `import "./planted-missing-module.js";\n${text}`);
    }

    it("runs (the bundle as built), then names the module a broken server chunk misses", async () => {
      const ok = await company(pkg, ["--help", "--lang", "en"]);
      expect(ok.code, ok.stderr).toBe(0);
      const chunks = join(pkg, "dist", "node", "chunks");
      const server = readdirSync(chunks).find(
        (f) => f.endsWith(".js") && readFileSync(join(chunks, f), "utf8").includes("async function runServerCli("),
      );
      expect(server).toBeDefined();
      plant(join(chunks, server!));
      // Other commands load without the server's chunk.
      expect((await company(pkg, ["--help"])).code).toBe(0);
      const r = await company(pkg, ["server", "--data", join(pkg, "data")]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^company-data: a module failed to load \(server\): Cannot find module .*planted-missing-module\.js/,
      );
      expect(r.stderr).toContain("[ERR_MODULE_NOT_FOUND]");
      expect(r.stderr).toMatch(/reinstall the package/);
    });

    it("names the entry and the module it misses when the entry itself is broken", async () => {
      plant(join(pkg, "dist", "node", "company-data.js"));
      const r = await company(pkg, ["--version"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /a module failed to load \(.*dist\/node\/company-data\.js\): Cannot find module .*planted-missing-module\.js/,
      );
    });

    it("says the bundle is missing when the package was packed without it", async () => {
      rmSync(join(pkg, "dist"), { recursive: true, force: true });
      const r = await company(pkg, ["--help"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/dist\/node\/company-data\.js.*missing/);
      expect(r.stderr).toMatch(/npm pack builds it/);
    });
  });

  describe("a clone (the sources through tsx)", () => {
    it("says tsx is missing instead of running anything else", async () => {
      const dir = layout({ "cli/main.ts": "export async function run() {}\n" }, false);
      made.push(dir);
      const r = await company(dir, ["--help"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/could not start \(tsx\)|a module failed to load \(tsx\)/);
      expect(r.stderr).toMatch(/npm install/);
    });

    it("names the module a source file misses", async () => {
      const dir = layout({ "cli/main.ts": 'import "./gone.ts";\nexport async function run() {}\n' }, true);
      made.push(dir);
      const r = await company(dir, ["--help"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/a module failed to load \(.*cli\/main\.ts\): Cannot find module .*gone\.ts/);
    });

    it("says why a start failed, in German by default", async () => {
      const dir = layout(
        { "cli/main.ts": 'export async function run() { throw new Error("the data directory is not writable"); }\n' },
        true,
      );
      made.push(dir);
      const r = await runToEnd(process.execPath, [join(dir, "bin", "company-data.js"), "server"], {
        cwd: dir,
        env: { ...ENV, LANG: "de_DE.UTF-8" },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^company-data: Start fehlgeschlagen \(server\): the data directory is not writable/);
      expect(r.stderr).toMatch(/^\s+at .*cli\/main\.ts/m);
    });
  });
});
