/**
 * Streamable HTTP (MCP transport spec 2025-03-26 and later) on node:http, at
 * one path, /mcp. Each client session gets its own McpServer and transport
 * (the SDK keeps per-session state); all sessions share the host: the driver
 * with its cache, the budget, the queue of calls.
 *
 * Bound to 127.0.0.1 unless --host says otherwise: whoever reaches the port
 * spends the key's credits. On loopback the SDK's DNS-rebinding protection
 * is on (Host must name this port on 127.0.0.1, localhost or [::1]), so a web
 * page in the user's browser cannot talk to the server through a hostname of
 * its own (the transport spec's security warning for local servers).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { createMcpServer, type McpHost } from "./server.ts";

export const MCP_PATH = "/mcp";
/** Largest request body: far above any tool call (100 portfolio entries are a few KB). */
const MAX_BODY = 1024 * 1024;

export const isLoopback = (host: string) => /^127\.\d+\.\d+\.\d+$/.test(host) || host === "localhost" || host === "::1" || host === "[::1]";

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string) {
  res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error("too large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export interface RunningMcpHttp {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startHttp(host: McpHost, port: number, hostname: string): Promise<RunningMcpHttp> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== MCP_PATH) return jsonRpcError(res, 404, -32000, `Not found: the MCP endpoint is ${MCP_PATH}`);
    const sid = req.headers["mcp-session-id"];
    const existing = typeof sid === "string" ? sessions.get(sid) : undefined;
    if (req.method === "POST") {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return jsonRpcError(res, 400, -32700, "Parse error");
      }
      if (existing) return existing.handleRequest(req, res, body);
      if (sid !== undefined) return jsonRpcError(res, 404, -32001, "Session not found");
      if (!isInitializeRequest(body)) return jsonRpcError(res, 400, -32000, "Bad Request: no session; start with initialize");
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => { sessions.set(id, transport); },
        enableDnsRebindingProtection: allowedHosts !== undefined,
        allowedHosts,
      });
      transport.onclose = () => { if (transport.sessionId) sessions.delete(transport.sessionId); };
      await createMcpServer(host).connect(transport);
      return transport.handleRequest(req, res, body);
    }
    if (req.method === "GET" || req.method === "DELETE") {
      if (!existing) return jsonRpcError(res, sid === undefined ? 400 : 404, -32000, sid === undefined ? "Bad Request: Mcp-Session-Id header required" : "Session not found");
      return existing.handleRequest(req, res);
    }
    res.writeHead(405, { Allow: "GET, POST, DELETE" }).end();
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      host.log("mcp http: request failed");
      if (!res.headersSent) jsonRpcError(res, 500, -32603, "Internal error");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  if (isLoopback(hostname)) allowedHosts = ["127.0.0.1", "localhost", "[::1]"].map((h) => `${h}:${actual}`);
  const shown = hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
  return {
    url: `http://${shown}:${actual}${MCP_PATH}`,
    port: actual,
    close: async () => {
      for (const t of [...sessions.values()]) await t.close().catch(() => undefined);
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections?.();
    },
  };
}
