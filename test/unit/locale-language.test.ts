/**
 * The one language rule of every Node program (shared/i18n/locale.ts): the
 * locale table (C, C.UTF-8, POSIX, en_*, de_*, LC_ALL over LANG, LANGUAGE
 * only beside a real locale, --lang and a saved setting winning), and the
 * copy of the rule in bin/company-data.js (which runs before TypeScript can
 * be loaded) agreeing with it row by row, run as a process.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { environmentLanguage, processLanguage, type Language } from "../../shared/i18n/index.ts";

type Env = Record<string, string>;

const TABLE: [string, Env, Language][] = [
  ["nothing set (Linux, macOS)", {}, "en"],
  ["LANG=C", { LANG: "C" }, "en"],
  ["LANG=C.UTF-8 (containers, CI)", { LANG: "C.UTF-8" }, "en"],
  ["LANG=POSIX", { LANG: "POSIX" }, "en"],
  ["LANG=en_US.UTF-8", { LANG: "en_US.UTF-8" }, "en"],
  ["LANG=en_GB", { LANG: "en_GB" }, "en"],
  ["LANG=de_DE.UTF-8", { LANG: "de_DE.UTF-8" }, "de"],
  ["LANG=de_AT.UTF-8", { LANG: "de_AT.UTF-8" }, "de"],
  ["LANG=de_CH.utf8@euro", { LANG: "de_CH.utf8@euro" }, "de"],
  ["LANG=de", { LANG: "de" }, "de"],
  ["LANG=fr_FR.UTF-8: not German", { LANG: "fr_FR.UTF-8" }, "en"],
  ["LANG=deu (not a German locale name)", { LANG: "deu" }, "en"],
  ["LC_ALL over LANG (de over en)", { LC_ALL: "de_DE.UTF-8", LANG: "en_US.UTF-8" }, "de"],
  ["LC_ALL over LANG (C over de)", { LC_ALL: "C.UTF-8", LANG: "de_DE.UTF-8" }, "en"],
  ["an empty LC_ALL is unset", { LC_ALL: "", LANG: "de_DE.UTF-8" }, "de"],
  ["LC_MESSAGES over LANG", { LC_MESSAGES: "de_DE.UTF-8", LANG: "en_US.UTF-8" }, "de"],
  ["LC_ALL over LC_MESSAGES", { LC_ALL: "en_US.UTF-8", LC_MESSAGES: "de_DE.UTF-8" }, "en"],
  ["LANGUAGE over LANG", { LANGUAGE: "de_DE:de", LANG: "en_US.UTF-8" }, "de"],
  ["LANGUAGE's first known entry", { LANGUAGE: "fr:en:de", LANG: "de_DE.UTF-8" }, "en"],
  ["LANGUAGE without de or en: the locale", { LANGUAGE: "fr:it", LANG: "de_DE.UTF-8" }, "de"],
  ["LANGUAGE is ignored under C (gettext)", { LANGUAGE: "de", LANG: "C.UTF-8" }, "en"],
  ["LANGUAGE is ignored with no locale", { LANGUAGE: "de" }, "en"],
];

describe("the language of a program's messages", () => {
  it.each(TABLE)("%s", (_, env, want) => {
    expect(environmentLanguage({ env, platform: "linux" })).toBe(want);
    expect(processLanguage({ env, platform: "linux" })).toBe(want);
  });

  it("--lang wins over the locale, then a saved setting; values that are no language are skipped", () => {
    const german = { env: { LANG: "de_DE.UTF-8" } };
    const c = { env: { LANG: "C.UTF-8" } };
    expect(processLanguage(german, "en")).toBe("en");
    expect(processLanguage(c, "de")).toBe("de");
    expect(processLanguage(c, undefined, "de")).toBe("de");
    expect(processLanguage(c, "en", "de")).toBe("en");
    expect(processLanguage(german, "fr", "", null, " EN ")).toBe("en");
    expect(processLanguage(german, "english")).toBe("de");
  });

  it("on Windows with no locale variable the system's locale stands in; a set variable still decides", () => {
    const system = Intl.DateTimeFormat().resolvedOptions().locale.toLowerCase().startsWith("de") ? "de" : "en";
    expect(environmentLanguage({ env: {}, platform: "win32" })).toBe(system);
    expect(environmentLanguage({ env: { LANG: "C.UTF-8" }, platform: "win32" })).toBe("en");
    expect(environmentLanguage({ env: { LANG: "de_DE.UTF-8" }, platform: "win32" })).toBe("de");
  });
});

describe("bin/company-data.js speaks the same rule before TypeScript loads", () => {
  // A copy of the launcher with neither the sources nor the bundle beside it: it says what is missing, in its language.
  const dir = mkdtempSync(join(tmpdir(), "cd-locale-bin-"));
  mkdirSync(join(dir, "bin"));
  copyFileSync(join(import.meta.dirname, "../../bin/company-data.js"), join(dir, "bin", "company-data.js"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const PATH = process.env.PATH ?? "";

  const run = (env: Env, args: string[] = []) => {
    const r = spawnSync(process.execPath, [join(dir, "bin", "company-data.js"), ...args], {
      env: { PATH, ...env },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    if (r.stderr.includes("Start fehlgeschlagen")) return "de";
    expect(r.stderr).toContain("could not start");
    return "en";
  };

  it.each(TABLE.filter((_, i) => i % 3 === 0 || i >= TABLE.length - 5))("%s", (_, env, want) => {
    expect(run(env)).toBe(want);
  });

  it("--lang wins there too", () => {
    expect(run({ LANG: "C.UTF-8" }, ["--lang", "de"])).toBe("de");
    expect(run({ LANG: "de_DE.UTF-8" }, ["--lang=en"])).toBe("en");
  });
});
