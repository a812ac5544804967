/**
 * The reconciliation service's configuration, read like the MCP server's
 * (mcp/config.ts): the connection only from the environment, as every command
 * reads it (shared/api/connection-env.ts: COMPANY_DATA_API_KEY and
 * COMPANY_DATA_BASE_URL, or a team server's COMPANY_DATA_SERVER and the
 * user's personal token COMPANY_DATA_TOKEN, which is how OpenRefine reaches a
 * team server: it cannot send the token itself), the rest from flags or the
 * environment. Beyond loopback a token is required
 * (COMPANY_DATA_RECONCILE_TOKEN, from the environment only: a flag would show
 * in the process list), because whoever reaches the port spends the key's
 * credits.
 */
import { connectionFromEnv } from "../shared/api/index.ts";
import { invalid } from "../shared/core/index.ts";
import { parseMatchFloor } from "../shared/operations/index.ts";
import { hash } from "../shared/enrich/index.ts";
import { processLanguage, type Language } from "../shared/i18n/index.ts";
import { got, rule } from "../shared/i18n/index.ts";
import { DEFAULT_HOST, isLoopback, parseBudget } from "../node/index.ts";

/** The port when --http gives none is not guessed: --http is required (0 = any free port). */
export interface ReconcileConfig {
  /** The API key, or a team server's personal token (`credential` says which). */
  apiKey: string | undefined;
  baseUrl: string;
  credential: "apiKey" | "serverToken";
  lang: Language;
  /** Credits per UTC day; null = no limit. Default: the MCP server's (100); through a team server none of its own (the server's budgets). */
  budget: number | null;
  port: number;
  host: string;
  /** Required on every request but the manifest when the service listens beyond loopback. */
  token: string | undefined;
  /** Browser origins allowed to send paid requests. */
  allowedOrigins: string[];
  /** Matches rated below this are candidates, not `match: true` (COMPANY_DATA_MIN_CONFIDENCE, as the CLI and MCP read it). */
  matchFloor: number;
}

/** OpenRefine's own address (its default port), the one browser origin a local user needs. */
export const DEFAULT_ORIGINS = ["http://127.0.0.1:3333", "http://localhost:3333"];
/** Shortest token accepted: a guessable token would open the key's credits to the network. */
export const MIN_TOKEN_LENGTH = 24;

const FLAGS = ["http", "host", "budget", "lang", "allow-origin"];

function parsePort(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw invalid("--http", got(rule.range(0, 65535), v));
  return n;
}

function parseOrigin(v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw invalid(
      "--allow-origin",
      got({ de: "eine Herkunft wie http://127.0.0.1:3333", en: "an origin such as http://127.0.0.1:3333" }, v),
    );
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw invalid("--allow-origin", got(rule.oneOf(["http", "https"]), u.protocol));
  return u.origin;
}

/**
 * `reconcile --http PORT [--host H] [--budget N|none] [--lang de|en]
 * [--allow-origin URL]…`; flags win over COMPANY_DATA_BUDGET. Bad values are
 * INVALID_INPUT naming the flag.
 */
export function readConfig(argv: string[], env: NodeJS.ProcessEnv): ReconcileConfig {
  const flags: Record<string, string> = {};
  const origins: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === undefined) continue;
    const eq = a.indexOf("=");
    const name = a.startsWith("--") ? a.slice(2, eq < 0 ? undefined : eq) : "";
    if (!FLAGS.includes(name))
      throw invalid(
        "reconcile",
        got(
          {
            de: "erlaubt sind --http, --host, --budget, --lang, --allow-origin",
            en: "allowed are --http, --host, --budget, --lang, --allow-origin",
          },
          a,
        ),
      );
    const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
    if (v === undefined) throw invalid(`--${name}`, rule.required);
    if (name === "allow-origin") origins.push(parseOrigin(v));
    else flags[name] = v;
  }
  if (flags.http === undefined) throw invalid("--http", rule.required);
  if (flags.lang !== undefined && flags.lang !== "de" && flags.lang !== "en")
    throw invalid("--lang", got(rule.oneOf(["de", "en"]), flags.lang));
  const lang: Language = processLanguage({ env, platform: process.platform }, flags.lang);
  const { secret: apiKey, baseUrl, credential } = connectionFromEnv(env);
  // Through a team server the user's server budget is the budget: an own limit only when asked for (as MCP).
  const given = flags.budget ?? (env.COMPANY_DATA_BUDGET?.trim() ? env.COMPANY_DATA_BUDGET : undefined);
  const budget =
    credential === "serverToken" && given === undefined
      ? null
      : flags.budget !== undefined
        ? parseBudget(flags.budget, "--budget")
        : parseBudget(env.COMPANY_DATA_BUDGET, "COMPANY_DATA_BUDGET");
  const host = flags.host?.trim() || DEFAULT_HOST;
  const token = env.COMPANY_DATA_RECONCILE_TOKEN?.trim() || undefined;
  if (!isLoopback(host) && !token)
    throw invalid("--host", {
      de: `${host} ist nicht nur dieser Rechner: bitte COMPANY_DATA_RECONCILE_TOKEN setzen (mindestens ${MIN_TOKEN_LENGTH} Zeichen)`,
      en: `${host} is not this machine only: please set COMPANY_DATA_RECONCILE_TOKEN (at least ${MIN_TOKEN_LENGTH} characters)`,
    });
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH)
    throw invalid("COMPANY_DATA_RECONCILE_TOKEN", got(rule.atLeast(MIN_TOKEN_LENGTH, "string"), `${token.length}`));
  return {
    apiKey,
    baseUrl,
    credential,
    lang,
    budget,
    port: parsePort(flags.http),
    host,
    token,
    allowedOrigins: [...DEFAULT_ORIGINS, ...origins],
    matchFloor: parseMatchFloor(env.COMPANY_DATA_MIN_CONFIDENCE, "COMPANY_DATA_MIN_CONFIDENCE"),
  };
}

/** Cache and budget keys of this service: one base URL, one key per process. */
export const serviceScope = (cfg: ReconcileConfig) => "reconcile:" + hash(cfg.baseUrl);
