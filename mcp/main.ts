/**
 * `company-data mcp`: the MCP server on stdio (the client starts it as a
 * subprocess and speaks JSON-RPC over stdin/stdout), or with `--http PORT`
 * on Streamable HTTP. stdout belongs to the protocol: messages go to stderr.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { isLoopback, nodeDriver } from "../node/index.ts";
import { CompanyDataError, toCompanyDataError } from "../shared/core/index.ts";
import { processLanguage, type Language } from "../shared/i18n/index.ts";
import { readConfig } from "./config.ts";
import { startHttp } from "./http.ts";
import { localUser, tokenAuthenticator } from "./auth.ts";
import { budgetText } from "../node/index.ts";
import { serverBudgetNote } from "./team-budget.ts";
import { createHost, createMcpServer, type McpHost } from "./server.ts";

/** Exit codes as the CLI's (cli/i18n.ts EXIT): 0 done, 2 usage. */
const OK = 0;
const USAGE = 2;

/** Serve MCP on stdin/stdout until the client closes it. */
async function serveStdio(host: McpHost, budget: string, err: (line: string) => void): Promise<number> {
  const server = createMcpServer(host);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => {
      void server.close().finally(resolve);
    });
  });
  await server.connect(transport);
  const lang = host.cfg.lang;
  err(lang === "de" ? `MCP-Server (stdio) bereit. ${budget}` : `MCP server (stdio) ready. ${budget}`);
  await closed;
  return OK;
}

/** `messageLang`: the language of a configuration error (the CLI's, from --lang or LANG). */
export async function runMcp(
  argv: string[],
  env: NodeJS.ProcessEnv,
  err: (line: string) => void,
  messageLang?: Language,
): Promise<number> {
  let cfg;
  try {
    cfg = readConfig(argv, env);
  } catch (e) {
    const lang = messageLang ?? processLanguage({ env, platform: process.platform });
    err(e instanceof CompanyDataError ? e.text(lang) : toCompanyDataError(e).text(lang));
    return USAGE;
  }
  const lang = cfg.lang;
  const host = createHost(cfg, nodeDriver(), err);
  if (!cfg.apiKey) {
    const name = cfg.credential === "serverToken" ? "COMPANY_DATA_TOKEN" : "COMPANY_DATA_API_KEY";
    err(
      lang === "de"
        ? `Hinweis: ${name} ist nicht gesetzt; die Werkzeuge antworten mit einem Fehler, bis er gesetzt ist.`
        : `Note: ${name} is not set; the tools answer with an error until it is.`,
    );
  }
  const budget =
    cfg.credential === "serverToken"
      ? serverBudgetNote(cfg.budget, lang)
      : budgetText({ limit: cfg.budget, spent: 0, remaining: cfg.budget }, lang);

  if (!cfg.http) return serveStdio(host, budget, err);

  const { port, host: hostname, token } = cfg.http;
  let running;
  try {
    running = await startHttp(host, {
      port,
      hostname,
      maxSessions: cfg.http.maxSessions,
      idleMs: cfg.http.idleSeconds * 1000,
      allowedOrigins: cfg.http.allowedOrigins,
      authenticate: token !== undefined ? tokenAuthenticator(token) : localUser,
    });
  } catch (e) {
    err(
      lang === "de"
        ? `Port ${port} auf ${hostname} ist nicht verfügbar (${(e as NodeJS.ErrnoException).code ?? "Fehler"}).`
        : `Port ${port} on ${hostname} is not available (${(e as NodeJS.ErrnoException).code ?? "error"}).`,
    );
    return USAGE;
  }
  if (!isLoopback(hostname))
    err(
      lang === "de"
        ? `Achtung: ${hostname} ist nicht nur dieser Rechner; nur Clients mit dem Token (Authorization: Bearer) werden bedient.`
        : `Note: ${hostname} is not this machine only; only clients that send the token (Authorization: Bearer) are served.`,
    );
  const sessions =
    lang === "de"
      ? `Höchstens ${cfg.http.maxSessions} Sitzungen, ungenutzt nach ${cfg.http.idleSeconds} s geschlossen${token !== undefined ? "; Token verlangt" : ""}.`
      : `At most ${cfg.http.maxSessions} sessions, closed after ${cfg.http.idleSeconds} s unused${token !== undefined ? "; token required" : ""}.`;
  err(
    lang === "de"
      ? `MCP-Server (Streamable HTTP) auf ${running.url} ${budget} ${sessions}`
      : `MCP server (Streamable HTTP) at ${running.url} ${budget} ${sessions}`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGTERM", () => {
      void running.close().finally(resolve);
    });
  });
  return OK;
}
