/**
 * The connection of the programs configured by their environment (the CLI,
 * the MCP server): either the API key to the API (COMPANY_DATA_API_KEY,
 * COMPANY_DATA_BASE_URL) or a personal token to a team server
 * (COMPANY_DATA_SERVER, COMPANY_DATA_TOKEN). A set COMPANY_DATA_SERVER picks
 * the team server; the key is then not sent anywhere. The token is a secret
 * like the key: it travels only in the Authorization header, and the server
 * URL follows the same rule as the base URL (https, http to this machine
 * only; shared/api/base-url.ts).
 *
 * The environment is passed in (shared code reads no process globals).
 */
import { checkBaseUrl } from "./base-url.ts";
import { PRODUCTION_BASE_URL } from "./client.ts";
import type { CompanyDataError, ErrorCode } from "../core/index.ts";
import type { Language } from "../i18n/index.ts";

export interface EnvConnection {
  mode: "direct" | "server";
  /** The bearer secret (API key or personal token); undefined when not set. */
  secret: string | undefined;
  baseUrl: string;
  credential: "apiKey" | "serverToken";
}

const label = (name: string) => ({ de: name, en: name });

export function connectionFromEnv(env: Readonly<Record<string, string | undefined>>): EnvConnection {
  const server = env.COMPANY_DATA_SERVER?.trim();
  if (server) {
    return {
      mode: "server",
      secret: env.COMPANY_DATA_TOKEN?.trim() || undefined,
      baseUrl: checkBaseUrl(server, "COMPANY_DATA_SERVER", label("COMPANY_DATA_SERVER")),
      credential: "serverToken",
    };
  }
  return {
    mode: "direct",
    secret: env.COMPANY_DATA_API_KEY?.trim() || undefined,
    baseUrl: checkBaseUrl(
      env.COMPANY_DATA_BASE_URL?.trim() || PRODUCTION_BASE_URL,
      "COMPANY_DATA_BASE_URL",
      label("COMPANY_DATA_BASE_URL"),
    ),
    credential: "apiKey",
  };
}

/**
 * A missing or refused key or token in the words of a program configured by
 * its environment (`where`: "" for the CLI, or " in the MCP server's
 * environment"); undefined for every other error.
 */
export function envKeyMessage(
  e: CompanyDataError,
  lang: Language,
  where: { de: string; en: string } = { de: "", en: "" },
): string | undefined {
  const code: ErrorCode = e.code;
  const token = e.details.field === "serverToken";
  const w = where[lang];
  if (code === "MISSING_KEY") {
    if (token)
      return lang === "de"
        ? `Kein persönliches Token: bitte COMPANY_DATA_TOKEN${w} setzen (Team-Server COMPANY_DATA_SERVER).`
        : `No personal token: please set COMPANY_DATA_TOKEN${w} (team server COMPANY_DATA_SERVER).`;
    return lang === "de"
      ? `Kein API-Schlüssel: bitte COMPANY_DATA_API_KEY${w} setzen.`
      : `No API key: please set COMPANY_DATA_API_KEY${w}.`;
  }
  if (code === "INVALID_KEY") {
    if (token)
      return lang === "de"
        ? "Der Team-Server hat das persönliche Token abgelehnt (ungültig oder zurückgezogen). Bitte COMPANY_DATA_TOKEN prüfen."
        : "The team server refused the personal token (invalid or revoked). Please check COMPANY_DATA_TOKEN.";
    return lang === "de"
      ? "Der API-Schlüssel wurde abgelehnt. Bitte COMPANY_DATA_API_KEY prüfen."
      : "The API key was rejected. Please check COMPANY_DATA_API_KEY.";
  }
  return undefined;
}
