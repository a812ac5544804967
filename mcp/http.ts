/**
 * Streamable HTTP (MCP transport spec 2025-03-26 and later) on node:http, at
 * one path, /mcp. Each client session gets its own MCP server and transport
 * (the SDK keeps per-session state); all sessions share the host: the driver
 * with its cache, the budget, the queue of calls.
 *
 * What guards it, in the order a request meets it:
 * - Origin. The transport specification says servers MUST validate the
 *   Origin header of every incoming connection, against DNS rebinding, and
 *   answer an invalid one with 403
 *   (https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#security-warning;
 *   2025-11-25: "If the Origin header is present and invalid, servers MUST
 *   respond with HTTP 403 Forbidden"). A request without Origin comes from
 *   no browser and passes; one with Origin passes when it is a page on this
 *   machine (http(s) on 127.0.0.1, localhost or [::1], any port: the MCP
 *   Inspector's page) or named with --allow-origin.
 * - Host, on loopback: the SDK's DNS-rebinding protection (Host must name
 *   this port on 127.0.0.1, localhost or [::1]).
 * - Bearer token (./auth.ts), whenever one is configured; a server that
 *   listens beyond loopback does not start without one (config.ts).
 * - Sessions (./sessions.ts): at most `maxSessions` open. A new session beyond that closes
 *   the one used least recently that has no request in flight (the
 *   specification lets a server end a session at any time; its client gets
 *   404 and starts a new one: same page, "Session Management"); when every
 *   session is busy, 503. A session unused for `idleMs` is closed. So
 *   memory is bounded by the cap however many clients come and go without
 *   DELETE.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { bearerOf, type Authenticate } from "./auth.ts";
import { createMcpServer, type McpHost } from "./server.ts";
import { closeUnread, isLoopback, readBody } from "../node/index.ts";
import { sessionTable, type Session, type SessionTable } from "./sessions.ts";

export const MCP_PATH = "/mcp";
/** Largest request body: far above any tool call (100 portfolio entries are a few KB). */
const MAX_BODY = 1024 * 1024;

export interface HttpOptions {
  port: number;
  hostname: string;
  /** Open sessions at most. */
  maxSessions: number;
  /** A session unused this long is closed. */
  idleMs: number;
  /** Origins allowed besides pages on this machine, e.g. "https://team.example". */
  allowedOrigins: readonly string[];
  authenticate: Authenticate;
  /** The clock of idle expiry (tests pass their own). */
  now?: () => number;
}

export interface RunningMcpHttp {
  url: string;
  port: number;
  /** Sessions open now. */
  openSessions(): number;
  /** Close the sessions idle for longer than the limit now (also runs on a timer); how many were closed. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

function jsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) {
  // A refusal that closes the connection leaves the rest of the body unread (and the answer is not lost to a reset).
  if (headers.Connection === "close") closeUnread(res);
  res
    .writeHead(status, { "Content-Type": "application/json", ...headers })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** Is this Origin a page on this machine, or one the operator allowed? */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes(origin)) return true;
  try {
    const u = new URL(origin);
    return (u.protocol === "http:" || u.protocol === "https:") && isLoopback(u.hostname) && u.origin === origin;
  } catch {
    return false; // "null" (sandboxed pages, file://) and anything unparsable
  }
}

/** What the request handlers share: the host, the options, the sessions, the Host names the SDK checks. */
interface McpHttpState {
  host: McpHost;
  opts: HttpOptions;
  sessions: SessionTable;
  now: () => number;
  /** Set once the port is known (loopback only): the SDK's DNS-rebinding protection for new sessions. */
  allowedHosts?: string[];
}

async function handle(st: McpHttpState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? "/").split("?")[0];
  // Refusals before the body: the connection closes after them, so a body nobody asked for is not read.
  const close = { Connection: "close" };
  if (path !== MCP_PATH) return jsonRpcError(res, 404, -32000, `Not found: the MCP endpoint is ${MCP_PATH}`, close);
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, st.opts.allowedOrigins))
    return jsonRpcError(res, 403, -32000, "Forbidden: Origin not allowed", close);
  const principal = await st.opts.authenticate(bearerOf(req));
  if (!principal) {
    return jsonRpcError(res, 401, -32000, "Unauthorized: send the server's token as Authorization: Bearer <token>", {
      "WWW-Authenticate": 'Bearer realm="company-data-mcp"',
      ...close,
    });
  }
  const sid = req.headers["mcp-session-id"];
  const found = typeof sid === "string" ? st.sessions.byId.get(sid) : undefined;
  // Another principal's session does not exist for this one.
  const existing = found && found.principal === principal.id ? found : undefined;
  if (req.method === "POST") return handlePost(st, req, res, { principal: principal.id, sid, existing });
  if (req.method === "GET" || req.method === "DELETE") {
    if (!existing)
      return jsonRpcError(
        res,
        sid === undefined ? 400 : 404,
        -32000,
        sid === undefined ? "Bad Request: Mcp-Session-Id header required" : "Session not found",
      );
    st.sessions.use(existing, res);
    return existing.transport.handleRequest(req, res);
  }
  res.writeHead(405, { Allow: "GET, POST, DELETE" }).end();
}

/** A POST: a message of an existing session, or an initialize that opens one (room permitting). */
async function handlePost(
  st: McpHttpState,
  req: IncomingMessage,
  res: ServerResponse,
  who: { principal: string; sid: string | string[] | undefined; existing: Session | undefined },
): Promise<void> {
  const text = await readBody(req, MAX_BODY);
  if (text === null)
    return jsonRpcError(res, 413, -32600, `Request body too large (at most ${MAX_BODY} bytes)`, {
      Connection: "close",
    });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return jsonRpcError(res, 400, -32700, "Parse error");
  }
  if (who.existing) {
    st.sessions.use(who.existing, res);
    return who.existing.transport.handleRequest(req, res, body);
  }
  if (who.sid !== undefined) return jsonRpcError(res, 404, -32001, "Session not found");
  if (!isInitializeRequest(body))
    return jsonRpcError(res, 400, -32000, "Bad Request: no session; start with initialize");
  if (!(await st.sessions.makeRoom())) {
    return jsonRpcError(
      res,
      503,
      -32000,
      `Too many sessions in use (at most ${st.opts.maxSessions}); try again shortly`,
      { "Retry-After": "5" },
    );
  }
  return openSession(st, req, res, who.principal, body);
}

/** A new session: its own MCP server and transport, entered in the table once the SDK gives it an id. */
async function openSession(
  st: McpHttpState,
  req: IncomingMessage,
  res: ServerResponse,
  principal: string,
  body: unknown,
): Promise<void> {
  const server = createMcpServer(st.host);
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    // Called while the initialize request is handled below, after `session` exists.
    onsessioninitialized: (id) => {
      st.sessions.byId.set(id, session);
    },
    enableDnsRebindingProtection: st.allowedHosts !== undefined,
    allowedHosts: st.allowedHosts,
  });
  const session: Session = { transport, server, principal, lastUsed: st.now(), busy: 0 };
  transport.onclose = () => {
    if (transport.sessionId) st.sessions.byId.delete(transport.sessionId);
  };
  await server.connect(transport);
  st.sessions.use(session, res);
  return transport.handleRequest(req, res, body);
}

export async function startHttp(host: McpHost, opts: HttpOptions): Promise<RunningMcpHttp> {
  const now = opts.now ?? Date.now;
  const sessions = sessionTable(opts.maxSessions, opts.idleMs, now);
  const st: McpHttpState = { host, opts, sessions, now };
  const server: Server = createServer((req, res) => {
    handle(st, req, res).catch(() => {
      host.log("mcp http: request failed");
      if (!res.headersSent) jsonRpcError(res, 500, -32603, "Internal error");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.hostname, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  if (isLoopback(opts.hostname)) st.allowedHosts = ["127.0.0.1", "localhost", "[::1]"].map((h) => `${h}:${actual}`);
  const shown = opts.hostname.includes(":") && !opts.hostname.startsWith("[") ? `[${opts.hostname}]` : opts.hostname;
  // Expiry runs in the background; it never keeps the process alive.
  const timer = setInterval(
    () => {
      void sessions.sweep();
    },
    Math.max(1000, Math.min(opts.idleMs / 2, 60_000)),
  );
  timer.unref();
  return {
    url: `http://${shown}:${actual}${MCP_PATH}`,
    port: actual,
    openSessions: () => sessions.byId.size,
    sweep: () => sessions.sweep(),
    close: async () => {
      clearInterval(timer);
      for (const id of [...sessions.byId.keys()]) await sessions.close(id);
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections?.();
    },
  };
}
