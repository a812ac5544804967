/**
 * The HTTP server's sessions, in process (so the test can see the count and
 * the heap): 3,000 clients that initialize and never say goodbye leave at
 * most the cap open and the heap bounded; a session unused past the idle
 * limit is closed (on a test clock, not by waiting); a client that is
 * connected (its event stream open) keeps its session through the flood.
 */
import { request } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { nodeDriver } from "../../node/driver.ts";
import { readConfig } from "../../mcp/config.ts";
import { localUser } from "../../mcp/auth.ts";
import { startHttp, type RunningMcpHttp } from "../../mcp/http.ts";
import { createHost } from "../../mcp/server.ts";

const CAP = 25;
const IDLE_MS = 10 * 60_000;
let clock = 0;
let srv: RunningMcpHttp;

// A real garbage collection before each heap reading (vitest does not start node with --expose-gc).
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

beforeAll(async () => {
  const cfg = readConfig(["--http", "0"], {
    COMPANY_DATA_BASE_URL: "http://127.0.0.1:9",
    COMPANY_DATA_API_KEY: "k",
    LANG: "de_DE.UTF-8",
  });
  const host = createHost(cfg, nodeDriver(), () => undefined);
  srv = await startHttp(host, {
    port: 0,
    hostname: "127.0.0.1",
    maxSessions: CAP,
    idleMs: IDLE_MS,
    allowedOrigins: [],
    authenticate: localUser,
    now: () => clock,
  });
});
afterAll(() => srv?.close());

/** One initialize (a new session each time), never ended; the status and the session id it got. */
function initialize(): Promise<{ status: number; sid?: string }> {
  const u = new URL(srv.url);
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "flood", version: "1" } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, sid: res.headers["mcp-session-id"] as string | undefined }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("MCP HTTP sessions", () => {
  it("3,000 session attempts: every one is served, at most the cap stays open, the heap stays bounded", async () => {
    const client = new Client({ name: "kept", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL(srv.url));
    await client.connect(transport);
    const heapBefore = heapAfterGc();
    let served = 0;
    for (let round = 0; round < 150; round++) {
      clock += 1;
      const batch = await Promise.all(Array.from({ length: 20 }, () => initialize()));
      served += batch.filter((r) => r.status === 200 && r.sid).length;
      expect(srv.openSessions()).toBeLessThanOrEqual(CAP);
    }
    expect(served).toBe(3000);
    expect(srv.openSessions()).toBe(CAP);
    const grown = heapAfterGc() - heapBefore;
    // Measured: about 8 KB of heap per open session (one Ajv per process, not per session), so 3,000 kept
    // sessions would add about 24 MB; the 25 the cap keeps, with the test's own garbage, stay well under this.
    expect(grown).toBeLessThan(15 * 1024 * 1024);
    // The connected client (its event stream open, so never the one evicted) still has its session.
    expect((await client.listTools()).tools).toHaveLength(8);
    await transport.terminateSession(); // DELETE: its session ends now
    await client.close();
    expect(srv.openSessions()).toBe(CAP - 1);
  }, 300_000);

  it("sessions unused past the idle limit are closed; a session in use is not", async () => {
    expect(srv.openSessions()).toBe(CAP - 1);
    clock += IDLE_MS + 1; // every session of the flood is now unused past the limit
    const client = new Client({ name: "active", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
    expect(await srv.sweep()).toBe(CAP - 1);
    expect(srv.openSessions()).toBe(1);
    expect((await client.listTools()).tools).toHaveLength(8);
    // Gone without DELETE: once the server has seen its stream end and it is unused past the limit, it is closed too.
    await client.close();
    let closed = 0;
    for (let i = 0; i < 250 && closed === 0; i++) {
      clock += IDLE_MS + 1;
      closed = await srv.sweep();
      if (!closed) await new Promise((r) => setTimeout(r, 20));
    }
    expect(closed).toBe(1);
    expect(srv.openSessions()).toBe(0);
  });
});
