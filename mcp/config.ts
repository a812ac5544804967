/**
 * The MCP server's configuration, read like the CLI's: the key and base URL
 * only from the environment (COMPANY_DATA_API_KEY, COMPANY_DATA_BASE_URL, or
 * a team server's COMPANY_DATA_SERVER and personal COMPANY_DATA_TOKEN;
 * shared/api/connection-env.ts),
 * the rest from flags or the environment. The key is kept here and handed to
 * the core's client, which puts it in the Authorization header and nowhere
 * else; it is never part of a message, a result or a log line.
 */
import { connectionFromEnv } from "../shared/api/index.ts";
import { invalid } from "../shared/core/index.ts";
import { hash } from "../shared/enrich/index.ts";
import { processLanguage, type Language } from "../shared/i18n/index.ts";
import { got, rule } from "../shared/i18n/index.ts";
import { parseMatchFloor } from "../shared/operations/index.ts";
import { MIN_TOKEN_LENGTH, TOKEN_ENV } from "./auth.ts";
import {
  DEFAULT_HOST,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_SECONDS,
  isLoopback,
  parseBudget,
} from "../node/index.ts";

export interface McpConfig {
  /** The bearer secret: the API key, or a team server's personal token (`credential`). */
  apiKey: string | undefined;
  baseUrl: string;
  credential: "apiKey" | "serverToken";
  lang: Language;
  /**
   * Credits this server run may spend; null = no limit. Through a team server none unless
   * --budget / COMPANY_DATA_BUDGET set one: the user's server budget is the budget (mcp/team-budget.ts).
   */
  budget: number | null;
  /** Streamable HTTP on this port; undefined = stdio. */
  http?: HttpConfig;
  /** Matches rated below this are reviews (COMPANY_DATA_MIN_CONFIDENCE; default 0.8). */
  matchFloor?: number;
}

export interface HttpConfig {
  port: number;
  host: string;
  /** --max-sessions: open sessions at most. */
  maxSessions: number;
  /** --session-idle: seconds after which an unused session is closed. */
  idleSeconds: number;
  /** --allow-origin: origins allowed besides pages on this machine. */
  allowedOrigins: string[];
  /** COMPANY_DATA_MCP_TOKEN: the bearer token clients must send; required beyond loopback. Never printed. */
  token: string | undefined;
}

function parseWhole(v: string, field: string, min: number, max: number): number {
  const n = Number(v);
  if (v.trim() === "" || !Number.isInteger(n) || n < min || n > max) throw invalid(field, got(rule.range(min, max), v));
  return n;
}

/** Origins as a browser sends them: scheme, host and port, nothing else ("https://team.example:8443"). */
function parseOrigins(v: string): string[] {
  return v
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean)
    .map((o) => {
      let u: URL | undefined;
      try {
        u = new URL(o);
      } catch {
        u = undefined;
      }
      if (!u || (u.protocol !== "http:" && u.protocol !== "https:") || u.origin !== o.replace(/\/$/, ""))
        throw invalid(
          "--allow-origin",
          got(
            {
              de: "eine Origin wie https://team.example (Schema, Host, Port)",
              en: "an origin such as https://team.example (scheme, host, port)",
            },
            o,
          ),
        );
      return u.origin;
    });
}

/** Flags that only mean something with --http. */
const HTTP_FLAGS = ["host", "max-sessions", "session-idle", "allow-origin"];
const FLAGS = ["http", "budget", "lang", ...HTTP_FLAGS];

/**
 * `mcp [--http PORT [--host H] [--max-sessions N] [--session-idle SECONDS]
 * [--allow-origin ORIGIN,…]] [--budget N|none] [--lang de|en]`; flags win
 * over COMPANY_DATA_BUDGET. Bad values are INVALID_INPUT naming the flag; so
 * is a server beyond loopback without a token (COMPANY_DATA_MCP_TOKEN).
 */
export function readConfig(argv: string[], env: NodeJS.ProcessEnv): McpConfig {
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === undefined) continue; // within argv.length: only a sparse array has holes
    const eq = a.indexOf("=");
    const name = a.startsWith("--") ? a.slice(2, eq < 0 ? undefined : eq) : "";
    if (!FLAGS.includes(name)) {
      const list = FLAGS.map((f) => `--${f}`).join(", ");
      throw invalid("mcp", got({ de: `erlaubt sind ${list}`, en: `allowed are ${list}` }, a));
    }
    const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
    if (v === undefined) throw invalid(`--${name}`, rule.required);
    flags[name] = v;
  }
  if (flags.lang !== undefined && flags.lang !== "de" && flags.lang !== "en")
    throw invalid("--lang", got(rule.oneOf(["de", "en"]), flags.lang));
  const lang: Language = processLanguage({ env, platform: process.platform }, flags.lang);
  const { secret: apiKey, baseUrl, credential } = connectionFromEnv(env);
  // Through a team server the user's server budget is the budget: an own limit only when asked for (then a lower one).
  const given = flags.budget ?? (env.COMPANY_DATA_BUDGET?.trim() ? env.COMPANY_DATA_BUDGET : undefined);
  const budget =
    credential === "serverToken" && given === undefined
      ? null
      : flags.budget !== undefined
        ? parseBudget(flags.budget, "--budget")
        : parseBudget(env.COMPANY_DATA_BUDGET, "COMPANY_DATA_BUDGET");
  for (const f of HTTP_FLAGS)
    if (flags[f] !== undefined && flags.http === undefined)
      throw invalid(`--${f}`, { de: "nur zusammen mit --http", en: "only together with --http" });
  const http = flags.http !== undefined ? readHttp(flags, env) : undefined;
  // Matches rated below it are reviews (shared/operations/contradiction.ts); the CLI reads the same variable.
  const matchFloor = parseMatchFloor(env.COMPANY_DATA_MIN_CONFIDENCE, "COMPANY_DATA_MIN_CONFIDENCE");
  return { apiKey, baseUrl, credential, lang, budget, http, matchFloor };
}

function readHttp(flags: Record<string, string>, env: NodeJS.ProcessEnv): HttpConfig {
  const host = flags.host?.trim() || DEFAULT_HOST;
  const token = env[TOKEN_ENV]?.trim() || undefined;
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH)
    throw invalid(TOKEN_ENV, {
      de: `zu kurz: mindestens ${MIN_TOKEN_LENGTH} Zeichen`,
      en: `too short: at least ${MIN_TOKEN_LENGTH} characters`,
    });
  if (!isLoopback(host) && token === undefined) {
    throw invalid("--host", {
      de: `${host} ist nicht nur dieser Rechner: wer den Port erreicht, verbraucht die Credits des Schlüssels. Der Server startet dort nur mit einem Token: ${TOKEN_ENV} setzen (die Clients senden es als Authorization: Bearer …), oder auf 127.0.0.1 lauschen`,
      en: `${host} is not this machine only: whoever reaches the port spends the key's credits. The server starts there only with a token: set ${TOKEN_ENV} (clients send it as Authorization: Bearer …), or listen on 127.0.0.1`,
    });
  }
  return {
    port: parseWhole(flags.http ?? "", "--http", 0, 65535),
    host,
    maxSessions:
      flags["max-sessions"] !== undefined
        ? parseWhole(flags["max-sessions"], "--max-sessions", 1, 100_000)
        : DEFAULT_MAX_SESSIONS,
    idleSeconds:
      flags["session-idle"] !== undefined
        ? parseWhole(flags["session-idle"], "--session-idle", 1, 7 * 24 * 3600)
        : DEFAULT_SESSION_IDLE_SECONDS,
    allowedOrigins: flags["allow-origin"] !== undefined ? parseOrigins(flags["allow-origin"]) : [],
    token,
  };
}

/** Cache and budget keys of this server: one base URL, one key per process. */
export const serverScope = (cfg: McpConfig) => "mcp:" + hash(cfg.baseUrl);
