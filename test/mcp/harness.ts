/**
 * The MCP server as clients meet it: `node bin/company-data.js mcp`, spawned
 * with the SDK's stdio client transport or started with `--http 0` and
 * reached with the SDK's Streamable HTTP client, against an emulator on
 * 127.0.0.1. Everything either process writes (stdout, stderr) is kept, so
 * tests can check that the key never appears in it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RunningServer } from "../../emulator/server.ts";
import { nth } from "../helpers/indexed.ts";

export const BIN = join(import.meta.dirname, "../../bin/company-data.js");

export interface McpSession {
  client: Client;
  /** Everything the server wrote to stderr (and, over HTTP, stdout) so far. */
  output(): string;
  close(): Promise<void>;
}

function serverEnv(
  server: RunningServer,
  key: string | null,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && k !== "COMPANY_DATA_API_KEY" && k !== "COMPANY_DATA_BUDGET") env[k] = v;
  Object.assign(env, { COMPANY_DATA_BASE_URL: server.url, LANG: "de_DE.UTF-8" }, extra);
  if (key) env.COMPANY_DATA_API_KEY = key;
  return env;
}

export async function stdioSession(
  server: RunningServer,
  key: string | null,
  args: string[] = [],
  extraEnv: Record<string, string> = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", ...args],
    env: serverEnv(server, key, extraEnv),
    stderr: "pipe",
  });
  let out = "";
  transport.stderr?.on("data", (d) => (out += d));
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  return { client, output: () => out, close: () => client.close() };
}

export interface HttpServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

/** `company-data mcp --http 0 …`: the URL is read from its start-up line on stderr. */
export function startHttpServer(
  server: RunningServer,
  key: string | null,
  args: string[] = [],
  extraEnv: Record<string, string> = {},
): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [BIN, "mcp", "--http", "0", ...args], {
    env: serverEnv(server, key, extraEnv),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no start-up line: " + out)), 20_000);
    child.stderr.on("data", (d) => {
      out += d;
      const m = /(http:\/\/[^\s]+\/mcp)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: nth(m, 1),
          child,
          output: () => out,
          stop: () =>
            new Promise((r) => {
              child.once("close", (code) => r(code));
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
}

export async function httpSession(url: string): Promise<McpSession> {
  const client = new Client({ name: "test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return {
    client,
    output: () => "",
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

export type ToolResult = CallToolResult & { structuredContent?: Record<string, any> };

export async function call(s: McpSession, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await s.client.callTool({ name, arguments: args })) as ToolResult;
}

/** The emulator's ledger for a key: balance, credits charged in all (emulator/billing.ts Usage) and per endpoint. */
export async function charged(
  server: RunningServer,
  key: string,
): Promise<{ balance: number; total: number; byEndpoint: Record<string, number> }> {
  const r = (await (await fetch(`${server.url}/_emulator/usage?key=${encodeURIComponent(key)}`)).json()) as {
    credits: number;
    usage: { total: number; credits: Record<string, number> };
  };
  return { balance: r.credits, total: r.usage.total, byEndpoint: r.usage.credits };
}

export async function newKey(server: RunningServer, credits: number): Promise<string> {
  const r = await fetch(`${server.url}/_emulator/keys`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ credits }),
  });
  return ((await r.json()) as { key: string }).key;
}
