/**
 * The MCP server on Streamable HTTP (`company-data mcp --http 0`), reached
 * with the SDK's client: loopback only, the session budget (shared by every
 * session of the process) refusing with the price, DNS-rebinding protection,
 * Origin validation, the bearer token (required beyond loopback), and the
 * key and the token never in any output.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCliWorld, type CliWorld } from "../helpers/cli.ts";
import {
  call,
  charged,
  httpSession,
  newKey,
  startHttpServer,
  stdioSession,
  type HttpServerProcess,
  type McpSession,
} from "./harness.ts";
import { nth } from "../helpers/indexed.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

let world: CliWorld;
let key: string;
let srv: HttpServerProcess;
let s: McpSession;

beforeAll(async () => {
  world = await startCliWorld({ companies: 2000, seed: 23, dirPrefix: "cd-mcp-http-" });
  key = await newKey(world.server, 1000);
  srv = await startHttpServer(world.server, key, ["--budget", "3", "--lang", "en"]);
  s = await httpSession(srv.url);
});
afterAll(async () => {
  await s?.close();
  await srv?.stop();
  await world?.server.close();
});

/** POST an initialize request with a chosen Host header (fetch does not let one set it) and other headers. */
function rawInitialize(url: string, host: string, headers: Record<string, string> = {}): Promise<number> {
  const u = new URL(url);
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "x", version: "1" } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        headers: {
          Host: host,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("MCP server over Streamable HTTP", () => {
  it("listens on 127.0.0.1 and lists the tools", async () => {
    expect(srv.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { tools } = await s.client.listTools();
    expect(tools).toHaveLength(8);
  });

  it("refuses a Host that is not this machine (DNS rebinding)", async () => {
    const port = new URL(srv.url).port;
    expect(await rawInitialize(srv.url, `evil.example:${port}`)).toBe(403);
    expect(await rawInitialize(srv.url, `localhost:${port}`)).toBe(200);
  });

  it("refuses a foreign Origin (403); pages on this machine and clients without Origin pass", async () => {
    const port = new URL(srv.url).port;
    const host = `127.0.0.1:${port}`;
    expect(await rawInitialize(srv.url, host, { Origin: "http://evil.example" })).toBe(403);
    expect(await rawInitialize(srv.url, host, { Origin: `http://evil.example:${port}` })).toBe(403);
    expect(await rawInitialize(srv.url, host, { Origin: "null" })).toBe(403);
    expect(await rawInitialize(srv.url, host, { Origin: "http://localhost:6274" })).toBe(200);
    expect(await rawInitialize(srv.url, host, { Origin: `http://127.0.0.1:${port}` })).toBe(200);
    expect(await rawInitialize(srv.url, host)).toBe(200);
  });

  it("spends up to the budget, then refuses with the price and pays nothing; every session shares it", async () => {
    const ids = world.emu.world.companies.slice(10, 12).map((c) => c.id);
    const start = await charged(world.server, key);
    const a = await call(s, "search_companies", { query: "Bau" });
    expect(a.structuredContent!.spent.credits).toBe(1);
    const b = await call(s, "similar_companies", { ids });
    expect(b.structuredContent!.spent.credits).toBe(2);
    expect(b.structuredContent!.budget).toMatchObject({ limit: 3, spent: 3, remaining: 0 });
    expect((await charged(world.server, key)).total - start.total).toBe(3);

    const refused = await call(s, "person_network", { personId: world.emu.companies.sharedPersonId()! });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent!.error).toMatchObject({ code: "BUDGET_EXCEEDED", price: 2, priceBound: "exact" });
    const t = nth(refused.content as { text: string }[], 0).text;
    expect(t).toMatch(/^Refused: this MCP server's budget is not enough/);
    expect(t).toMatch(/Spent: 0 credits\.$/);
    expect(t).toMatch(/costs 2 credits; 3 of 3 spent, 0 left/);
    expect(refused.structuredContent!.error.de).toMatch(/kostet 2 Credits/);

    // A second session of the same server has no fresh budget.
    const other = await httpSession(srv.url);
    try {
      const r = await call(other, "search_companies", { query: "Handel" });
      expect(r.structuredContent!.error).toMatchObject({ code: "BUDGET_EXCEEDED", price: 1 });
    } finally {
      await other.close();
    }
    expect((await charged(world.server, key)).total - start.total).toBe(3);
    // A question answered before comes from the cache: nothing to pay, so not refused.
    const cached = await call(s, "search_companies", { query: "Bau" });
    expect(cached.isError).toBeFalsy();
    expect(cached.structuredContent!.spent.credits).toBe(0);
    // Free tools still answer.
    const acc = await call(s, "account");
    expect(acc.isError).toBeFalsy();
    expect(acc.structuredContent!.budget.remaining).toBe(0);
  });

  it("never writes the key to its output", () => {
    expect(srv.output()).not.toContain(key);
    expect(srv.output()).toMatch(/Budget: 0 of 3 spent/);
  });
});

describe("a refusal after a paid step", () => {
  it("portfolio_risk: names resolved (paid), the profiles refused with their exact price; spent = charged", async () => {
    const k = await newKey(world.server, 1000);
    const n = await stdioSession(world.server, k, ["--lang", "en", "--budget", "2"]);
    try {
      const names = world.emu.world.companies
        .filter((c) => world.emu.companies.findByName(c.name).length === 1)
        .slice(0, 10)
        .map((c) => c.name);
      const before = await charged(world.server, k);
      const r = await call(n, "portfolio_risk", { companies: names });
      const after = await charged(world.server, k);
      expect(r.isError).toBe(true);
      const e = r.structuredContent!.error;
      expect(e).toMatchObject({ code: "BUDGET_EXCEEDED", priceBound: "exact" });
      expect(e.price).toBeGreaterThanOrEqual(10);
      expect(r.structuredContent!.spent.credits).toBe(1);
      expect(after.total - before.total).toBe(1);
      expect(after.byEndpoint.profile ?? 0).toBe(0);
      expect(nth(r.content as { text: string }[], 0).text).toMatch(/Spent: 1 credit\.$/);
    } finally {
      await n.close();
    }
  });
});

describe("a bearer token", () => {
  const TOKEN = "mcp-token-Zq8v1LmN0pW3xR7s";

  it("a server beyond loopback without a token refuses to start, saying how to give one", async () => {
    const r = await runCli(world, ["mcp", "--http", "0", "--host", "0.0.0.0", "--lang", "en"], { key });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/0\.0\.0\.0 is not this machine only.*set COMPANY_DATA_MCP_TOKEN/);
    expect(r.stderr).not.toMatch(/MCP server \(Streamable HTTP\) at/);
  });

  it("when set, every request must carry it; a wrong or missing token is 401; the token is in no output", async () => {
    const t = await startHttpServer(world.server, key, ["--lang", "en"], { COMPANY_DATA_MCP_TOKEN: TOKEN });
    try {
      const host = new URL(t.url).host;
      expect(await rawInitialize(t.url, host)).toBe(401);
      expect(await rawInitialize(t.url, host, { Authorization: "Bearer wrong-token-0123456789" })).toBe(401);
      expect(await rawInitialize(t.url, host, { Authorization: `Bearer ${TOKEN}` })).toBe(200);
      const client = new Client({ name: "test", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(t.url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      });
      await client.connect(transport);
      expect((await client.listTools()).tools).toHaveLength(8);
      await transport.terminateSession();
      await client.close();
      expect(t.output()).toMatch(/token required/);
      expect(t.output()).not.toContain(TOKEN);
    } finally {
      await t.stop();
    }
  });
});

describe("configuration and the key", () => {
  it("bad flags exit 2 with a message in the chosen language", async () => {
    const r = await runCli(world, ["mcp", "--budget", "-1", "--lang", "en"], { key });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Invalid input \(--budget\)/);
    const d = await runCli(world, ["mcp", "--bogus", "--lang", "de"], { key });
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/Ungültige Eingabe/);
    const u = await runCli(world, ["mcp", "--lang", "en"], {
      key,
      env: { COMPANY_DATA_BASE_URL: "http://example.com" },
    });
    expect(u.code).toBe(2);
    expect(u.stdout + u.stderr).not.toContain(key);
  });

  it("without a key: tools answer MISSING_KEY naming the variable; estimate_credits still works", async () => {
    const n = await stdioSession(world.server, null, ["--lang", "en"]);
    try {
      const r = await call(n, "search_companies", { query: "x" });
      expect(r.structuredContent!.error.code).toBe("MISSING_KEY");
      expect(r.structuredContent!.error.en).toMatch(/COMPANY_DATA_API_KEY/);
      const e = await call(n, "estimate_credits", {
        tool: "similar_companies",
        arguments: { ids: [nth(world.emu.world.companies, 0).id] },
      });
      expect(e.structuredContent!.credits).toEqual({ min: 2, max: 2 });
    } finally {
      await n.close();
    }
  });

  it("a rejected key is INVALID_KEY and appears in no answer and no output", async () => {
    const secret = "sk_live_DoNotLeakMe_0123456789";
    const n = await stdioSession(world.server, secret, ["--lang", "de"]);
    const answers: string[] = [];
    try {
      for (const [name, args] of [
        ["company_profile", { id: nth(world.emu.world.companies, 0).id }],
        ["search_companies", { query: secret }],
        ["account", {}],
        ["portfolio_risk", { companies: [secret] }],
      ] as const) {
        const r = await call(n, name, args);
        answers.push(JSON.stringify(r));
      }
    } finally {
      await n.close();
    }
    expect(answers[0]).toMatch(/INVALID_KEY/);
    expect(answers[0]).toMatch(/COMPANY_DATA_API_KEY/);
    // The query text is the caller's own; the key must not be in answers to calls that did not echo it.
    expect(answers[0]).not.toContain(secret);
    expect(answers[2]).not.toContain(secret);
    expect(n.output()).not.toContain(secret);
  });
});
