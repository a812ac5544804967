#!/usr/bin/env node
// The `company-data` command. What runs depends on what lies beside this file:
//  - a clone (cli/main.ts is here): the TypeScript sources through tsx, always,
//    so a clone never runs a stale bundle while its tests exercise edited sources;
//  - an installed package (`npm pack` ships bin/ and dist/node/, no sources):
//    the bundle dist/node/company-data.js, plain JavaScript on production
//    dependencies only (scripts/build-node.ts builds it).
// COMPANY_DATA_RUN=bundle runs the bundle in a clone too (after `npm run build`;
// the bench's cold-start figures use it). Anything that fails to load or start
// is said here, what and why, with a non-zero exit: never a silent exit.
import { existsSync } from "node:fs";

const SOURCES = new URL("../cli/main.ts", import.meta.url);
const BUNDLE = new URL("../dist/node/company-data.js", import.meta.url);
/** EXIT.INTERNAL of cli/i18n.ts. */
const FAILED = 1;
// The language of messages as cli/main.ts picks it (shared/i18n/locale.ts, which this file cannot load
// before tsx): --lang, else the locale (LC_ALL, LC_MESSAGES, LANG; LANGUAGE unless C/POSIX) de_* is German,
// else English; nothing set on Windows: the system's. test/unit/locale-language.test.ts holds the two equal.
const langAt = process.argv.findIndex((a) => a === "--lang" || a.startsWith("--lang="));
const lang =
  langAt < 0 ? undefined : process.argv[langAt] === "--lang" ? process.argv[langAt + 1] : process.argv[langAt].slice(7);
/** "de_DE.UTF-8" → "de", "en_GB" → "en", else null. */
const langOfLocale = (name) => {
  const code = /^([a-z]{2,3})(?=$|[_.@-])/i.exec(name.trim())?.[1]?.toLowerCase();
  return code === "de" || code === "en" ? code : null;
};
function environmentLanguage(env) {
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].map((v) => v?.trim() ?? "").find((v) => v !== "") ?? "";
  if (locale === "")
    return process.platform === "win32" ? (langOfLocale(Intl.DateTimeFormat().resolvedOptions().locale) ?? "en") : "en";
  if (/^(c|posix)([.@]|$)/i.test(locale)) return "en";
  for (const entry of (env.LANGUAGE ?? "").split(":")) if (langOfLocale(entry)) return langOfLocale(entry);
  return langOfLocale(locale) === "de" ? "de" : "en";
}
const chosen = lang?.trim().toLowerCase();
const de = (chosen === "de" || chosen === "en" ? chosen : environmentLanguage(process.env)) === "de";

/** Errors that mean a module could not be found or read, not that the program failed while running. */
const LOADING = new Set([
  "ERR_MODULE_NOT_FOUND",
  "ERR_PACKAGE_PATH_NOT_EXPORTED",
  "ERR_UNSUPPORTED_DIR_IMPORT",
  "ERR_UNKNOWN_FILE_EXTENSION",
  "ERR_IMPORT_ATTRIBUTE_MISSING",
  "ERR_INVALID_PACKAGE_CONFIG",
]);

/** Print what failed and why (the stack with COMPANY_DATA_DEBUG=1), then exit non-zero. */
function fail(what, error, hint) {
  const e = /** @type {{ message?: string, code?: string, stack?: string }} */ (error ?? {});
  const loading = LOADING.has(e.code ?? "") || error instanceof SyntaxError;
  const why = `${e.message ?? String(error)}${e.code ? ` [${e.code}]` : ""}`;
  const lines = [
    loading
      ? de
        ? `company-data: ein Modul ließ sich nicht laden (${what}): ${why}`
        : `company-data: a module failed to load (${what}): ${why}`
      : de
        ? `company-data: Start fehlgeschlagen (${what}): ${why}`
        : `company-data: could not start (${what}): ${why}`,
  ];
  // Where it happened: the first frame of the stack (a syntax error's file and line come first).
  const at = (e.stack ?? "").split("\n").find((l) => /^\s+at |^file:|^\//.test(l) && !l.includes("node:internal"));
  if (process.env.COMPANY_DATA_DEBUG) lines.push(String(e.stack ?? error));
  else if (at) lines.push(`  ${at.trim()}`);
  if (hint) lines.push(hint);
  else if (loading)
    lines.push(
      de
        ? "Die Installation ist unvollständig oder beschädigt: das Paket neu installieren (im Klon: npm install). COMPANY_DATA_DEBUG=1 zeigt den Stack."
        : "The installation is incomplete or damaged: reinstall the package (in a clone: npm install). COMPANY_DATA_DEBUG=1 prints the stack.",
    );
  process.stderr.write(lines.join("\n") + "\n");
  process.exit(FAILED);
}

async function entry() {
  const clone = existsSync(SOURCES) && process.env.COMPANY_DATA_RUN !== "bundle";
  if (clone) {
    let register;
    try {
      ({ register } = await import("tsx/esm/api"));
    } catch (e) {
      fail(
        "tsx",
        e,
        de
          ? "Ein Klon führt die TypeScript-Quellen mit tsx aus (eine Entwicklungsabhängigkeit): npm install. Oder: npm run build, dann COMPANY_DATA_RUN=bundle."
          : "A clone runs the TypeScript sources with tsx (a development dependency): npm install. Or: npm run build, then COMPANY_DATA_RUN=bundle.",
      );
    }
    register();
    return SOURCES;
  }
  if (!existsSync(BUNDLE))
    fail(
      "dist/node/company-data.js",
      { message: de ? "fehlt" : "missing" },
      de
        ? "Das Paket wurde ohne seinen Build gepackt (npm pack baut ihn; im Klon: npm run build)."
        : "The package was packed without its build (npm pack builds it; in a clone: npm run build).",
    );
  // With COMPANY_DATA_DEBUG, stack traces name the TypeScript file and line (the bundle's source maps);
  // not by default: reading the maps costs about 20 ms of every start.
  if (process.env.COMPANY_DATA_DEBUG) process.setSourceMapsEnabled(true);
  return BUNDLE;
}

const file = await entry();
let program;
try {
  program = await import(file.href);
} catch (e) {
  fail(decodeURIComponent(file.pathname), e);
}
try {
  await program.run();
} catch (e) {
  // The command named (the first word that is no option and not the language).
  const command = process.argv.slice(2).find((a, i, all) => !a.startsWith("-") && all[i - 1] !== "--lang");
  fail(command ?? "company-data", e);
}
