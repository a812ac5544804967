/**
 * The MCP server's configuration, read like the CLI's: the key and base URL
 * only from the environment (COMPANY_DATA_API_KEY, COMPANY_DATA_BASE_URL, or
 * a team server's COMPANY_DATA_SERVER and personal COMPANY_DATA_TOKEN;
 * shared/api/connection-env.ts),
 * the rest from flags or the environment. The key is kept here and handed to
 * the core's client, which puts it in the Authorization header and nowhere
 * else; it is never part of a message, a result or a log line.
 */
import { connectionFromEnv } from "../shared/api/connection-env.ts";
import { invalid } from "../shared/core/errors.ts";
import { hash } from "../shared/enrich/job.ts";
import { toLanguage, type Language } from "../shared/i18n/language.ts";
import { got, rule } from "../shared/i18n/rules.ts";
import type { ClientConfig } from "../shared/api/client.ts";
import type { OpContext } from "../shared/operations/context.ts";
import type { Pacer } from "../shared/api/pacing.ts";

/** Credits a server run may spend when neither --budget nor COMPANY_DATA_BUDGET says otherwise. */
export const DEFAULT_BUDGET = 100;
/** Loopback only unless asked otherwise: the server spends the key's credits for whoever can reach it. */
export const DEFAULT_HOST = "127.0.0.1";

export interface McpConfig {
  /** The bearer secret: the API key, or a team server's personal token (`credential`). */
  apiKey: string | undefined;
  baseUrl: string;
  credential: "apiKey" | "serverToken";
  lang: Language;
  /** Credits this server run may spend; null = no limit. */
  budget: number | null;
  /** Streamable HTTP on this port; undefined = stdio. */
  http?: { port: number; host: string };
}


/** `none` (no limit) or a whole number of credits ≥ 0. */
export function parseBudget(v: string | undefined, field: string): number | null {
  if (v === undefined || v.trim() === "") return DEFAULT_BUDGET;
  if (v.trim().toLowerCase() === "none") return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw invalid(field, got({ de: "eine ganze Zahl ≥ 0 oder none", en: "a whole number ≥ 0 or none" }, v));
  return n;
}

function parsePort(v: string, field: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw invalid(field, got(rule.range(0, 65535), v));
  return n;
}

/**
 * `mcp [--http PORT] [--host H] [--budget N|none] [--lang de|en]`; flags win
 * over COMPANY_DATA_BUDGET. Bad values are INVALID_INPUT naming the flag.
 */
export function readConfig(argv: string[], env: NodeJS.ProcessEnv): McpConfig {
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === undefined) continue; // within argv.length: only a sparse array has holes
    const eq = a.indexOf("=");
    const name = a.startsWith("--") ? a.slice(2, eq < 0 ? undefined : eq) : "";
    if (!["http", "host", "budget", "lang"].includes(name))
      throw invalid("mcp", got({ de: "erlaubt sind --http, --host, --budget, --lang", en: "allowed are --http, --host, --budget, --lang" }, a));
    const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
    if (v === undefined) throw invalid(`--${name}`, rule.required);
    flags[name] = v;
  }
  if (flags.lang !== undefined && flags.lang !== "de" && flags.lang !== "en") throw invalid("--lang", got(rule.oneOf(["de", "en"]), flags.lang));
  const lang: Language = flags.lang === "de" || flags.lang === "en" ? flags.lang : toLanguage(env.LC_ALL || env.LANG, "de");
  const { secret: apiKey, baseUrl, credential } = connectionFromEnv(env);
  const budget = flags.budget !== undefined ? parseBudget(flags.budget, "--budget") : parseBudget(env.COMPANY_DATA_BUDGET, "COMPANY_DATA_BUDGET");
  if (flags.host !== undefined && flags.http === undefined) throw invalid("--host", { de: "nur zusammen mit --http", en: "only together with --http" });
  const http = flags.http !== undefined ? { port: parsePort(flags.http, "--http"), host: flags.host?.trim() || DEFAULT_HOST } : undefined;
  return { apiKey, baseUrl, credential, lang, budget, http };
}

/**
 * One tool call's context, tallying what it sends and what the service
 * charges (the catalogue's price of each successful paid call). Without a
 * key the client answers MISSING_KEY before anything is sent.
 */
export function callContext(cfg: McpConfig, tally: { credits: number; requests: number }, pacer: Pacer): OpContext {
  const client: ClientConfig = {
    apiKey: cfg.apiKey,
    baseUrl: cfg.baseUrl,
    credential: cfg.credential,
    language: cfg.lang,
    now: Date.now,
    random: Math.random,
    onSpend: (_id, credits) => { tally.credits += credits; },
    onRequest: () => { tally.requests += 1; },
    pacer,
  };
  return { client, cacheTtlSeconds: 6 * 3600, maxBatch: 100, scope: serverScope(cfg) };
}

/** Cache and budget keys of this server: one base URL, one key per process. */
export const serverScope = (cfg: McpConfig) => "mcp:" + hash(cfg.baseUrl);
