/**
 * The key through the MCP server (the pattern of test/reliability/secrets.test.ts):
 * a distinctive good key under faults (500/503, 429 bursts, dropped
 * connections) and a distinctive failing key, over stdio and over HTTP;
 * every answer (text and structured content) and everything the server
 * processes wrote is scanned for the key and any 12 characters of it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliWorld, type CliWorld } from "../helpers/cli.ts";
import { call, httpSession, startHttpServer, stdioSession, type McpSession } from "./harness.ts";
import { take } from "../helpers/indexed.ts";

const KEY = "cdk_MCPSECRET_9b4e1f7a2c5d8e30";
const BAD_KEY = "cdk_MCPFAILING_3a7c9e1b5d2f46";
const leaks = (text: string, key: string) => {
  for (let i = 0; i + 12 <= key.length; i++) if (text.includes(key.slice(i, i + 12))) return true;
  return false;
};

let world: CliWorld;
const seen: string[] = [];

beforeAll(async () => {
  world = await startCliWorld({
    companies: 1500,
    seed: 31,
    dirPrefix: "cd-mcp-secrets-",
    faults: { failRate: 0.2, dropRate: 0.05, burstEvery: 7, burstLength: 2, burstRetryAfterSeconds: 0 },
  });
  world.emu.accounts.create(100_000, KEY);
});
afterAll(() => world?.server.close());

/** A representative set of calls: every tool, good and bad input, an ambiguous name. */
async function exercise(s: McpSession) {
  const [a, b] = take(world.emu.world.companies.slice(5, 7), 2);
  const [dup] = take(world.emu.companies.duplicateNames(1), 1);
  const calls: [string, Record<string, unknown>][] = [
    ["company_profile", { id: a.id }],
    ["company_profile", { name: dup.name }],
    ["company_profile", { id: "nope" }],
    ["search_companies", { query: a.name ?? "x" }],
    ["similar_companies", { ids: [a.id, b.id] }],
    ["recent_changes", { id: a.id, since: "2000-01-01" }],
    ["person_network", { personId: world.emu.companies.sharedPersonId()! }],
    ["portfolio_risk", { companies: [a.id, b.name ?? b.id, dup.name] }],
    ["estimate_credits", { tool: "portfolio_risk", arguments: { companies: [a.id] } }],
    ["account", {}],
  ];
  for (const [name, args] of calls) seen.push(JSON.stringify(await call(s, name, args)));
}

/** Each run checks its own answers and output, so it fails alone too (not only through the summary test). */
function expectNoLeakSince(since: number) {
  const own = seen.slice(since).join("\n");
  expect(own.length).toBeGreaterThan(1_000);
  expect(leaks(own, KEY)).toBe(false);
  expect(leaks(own, BAD_KEY)).toBe(false);
}

describe("the API key never leaks from the MCP server", () => {
  const KEYS: [string, string][] = [
    ["a good key under faults", KEY],
    ["a failing key", BAD_KEY],
  ];

  it.each(KEYS)(
    "over stdio, %s",
    async (_what, key) => {
      const since = seen.length;
      const s = await stdioSession(world.server, key, ["--budget", "none"]);
      try {
        await exercise(s);
      } finally {
        await s.close();
      }
      seen.push(s.output());
      expectNoLeakSince(since);
    },
    120_000,
  );

  it.each(KEYS)(
    "over HTTP, %s",
    async (_what, key) => {
      const since = seen.length;
      const srv = await startHttpServer(world.server, key, ["--budget", "none", "--lang", "en"]);
      const s = await httpSession(srv.url);
      try {
        await exercise(s);
      } finally {
        await s.close();
        await srv.stop();
      }
      seen.push(srv.output());
      expectNoLeakSince(since);
    },
    120_000,
  );

  it("no answer and no output holds either key", () => {
    const all = seen.join("\n");
    expect(all.length).toBeGreaterThan(10_000);
    // The runs did meet the failing key and the faults.
    expect(all).toMatch(/INVALID_KEY/);
    expect(all).toMatch(/"status":"matched"/);
    expect(leaks(all, KEY)).toBe(false);
    expect(leaks(all, BAD_KEY)).toBe(false);
  });
});
