/**
 * The one rule for the language of a program's messages (CLI, team server,
 * MCP server, reconciliation service, emulator, doctor, `npm start`): what the
 * user chose wins (`--lang`, then a saved setting), else the process's locale
 * says German or not, else English.
 *
 * The locale is read as POSIX and GNU gettext read it for messages
 * (https://www.gnu.org/software/gettext/manual/html_node/Locale-Environment-Variables.html):
 * the first non-empty of LC_ALL, LC_MESSAGES, LANG; `de…` (de_DE.UTF-8,
 * de_AT, de) is German, everything else English: C, C.UTF-8 and POSIX (the
 * default of servers, containers and CI), en_*, and languages the product
 * does not speak. LANGUAGE, gettext's priority list ("de_DE:de:en"), comes
 * before them, but only when the locale is set and is not C or POSIX
 * (gettext manual, "The LANGUAGE variable": "the variable LANGUAGE is
 * ignored if the locale is set to 'C'"); its first German or English entry
 * counts. With no locale variable at all, Windows (where none is usual)
 * gives the system's locale through Intl; elsewhere it is English.
 *
 * Pure: the environment comes as a parameter (Node hosts pass `process`).
 * A page (the playground) has the same rule with the browser's languages in
 * place of the locale (`pageLanguage`): a saved setting wins, else the first
 * German or English entry of navigator.languages (de* German, en* English,
 * as LANGUAGE's entries above), else English.
 */
import type { Language } from "./language.ts";

/** What the rule reads of a process: its environment and its OS (Node's `process` fits). */
export interface LocaleHost {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Node's `process.platform`: "win32" lets the system locale stand in for missing variables. */
  readonly platform?: string;
}

/** A chosen language: exactly de or en (any case, trimmed); anything else is no choice. */
function chosenLanguage(value: unknown): Language | null {
  const v = typeof value === "string" ? value.trim().toLowerCase() : "";
  return v === "de" || v === "en" ? v : null;
}

/** The language of one locale name or LANGUAGE entry: "de_DE.UTF-8" → de, "en_GB" → en, others null. */
function localeLanguage(name: string): Language | null {
  const m = /^([a-z]{2,3})(?=$|[_.@-])/i.exec(name.trim());
  const code = m?.[1]?.toLowerCase();
  return code === "de" || code === "en" ? code : null;
}

/** C, POSIX and their variants (C.UTF-8): no localisation asked for. */
const isPosixDefault = (locale: string) => /^(c|posix)([.@]|$)/i.test(locale.trim());

/** The language the process's locale asks for (see the module comment); chosen values are not read here. */
export function environmentLanguage(host: LocaleHost): Language {
  const env = host.env;
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].map((v) => v?.trim() ?? "").find((v) => v !== "") ?? "";
  if (locale === "") {
    if (host.platform !== "win32") return "en";
    return localeLanguage(Intl.DateTimeFormat().resolvedOptions().locale) ?? "en";
  }
  if (isPosixDefault(locale)) return "en";
  for (const entry of (env.LANGUAGE ?? "").split(":")) {
    const lang = localeLanguage(entry);
    if (lang) return lang;
  }
  return localeLanguage(locale) === "de" ? "de" : "en";
}

/**
 * The language of a program's messages: the first chosen value that is de or
 * en (`--lang`, then a saved setting; undefined and other values are
 * skipped), else the process's locale (`environmentLanguage`).
 */
export function processLanguage(host: LocaleHost, ...chosen: unknown[]): Language {
  for (const c of chosen) {
    const lang = chosenLanguage(c);
    if (lang) return lang;
  }
  return environmentLanguage(host);
}

/**
 * The language of a page's UI: the saved setting when it is de or en, else the browser's languages
 * (navigator.languages, most preferred first): the first de* or en* entry, else English.
 */
export function pageLanguage(saved: unknown, browserLanguages: readonly string[]): Language {
  const chosen = chosenLanguage(saved);
  if (chosen) return chosen;
  for (const entry of browserLanguages) {
    const lang = localeLanguage(entry);
    if (lang) return lang;
  }
  return "en";
}
