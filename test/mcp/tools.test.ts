/**
 * The MCP server as MCP clients reach it — over stdio, spawned as a client
 * starts it (`company-data mcp`), and over Streamable HTTP (`company-data mcp
 * --http 0`) — against the emulator: the tool list, each tool, ambiguity,
 * bad input, and that what each tool reports spent is what the emulator
 * charged. Each transport has its own server process (and cache).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliWorld, type CliWorld } from "../helpers/cli.ts";
import { call, charged, httpSession, newKey, startHttpServer, stdioSession, type McpSession, type ToolResult } from "./harness.ts";
import { nth, take } from "../helpers/indexed.ts";

let world: CliWorld;
let key: string;
/** The session of the transport under test, and everything its server process wrote. */
let s: McpSession;
let output: () => string;

beforeAll(async () => {
  world = await startCliWorld({ companies: 3000, seed: 17, dirPrefix: "cd-mcp-" });
  key = await newKey(world.server, 100_000);
});
afterAll(() => world?.server.close());

/** Call a tool and check that what it reports spent is what the emulator charged for it. */
async function paid(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const before = await charged(world.server, key);
  const r = await call(s, name, args);
  const after = await charged(world.server, key);
  expect(r.structuredContent?.spent?.credits).toBe(after.total - before.total);
  return r;
}

const text = (r: ToolResult) => (r.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
const uniqueCompany = () => world.emu.world.companies.find((c) => world.emu.companies.findByName(c.name).length === 1)!;

describe.each(["stdio", "http"] as const)("MCP server over %s", (transport) => {
  let stop: (() => Promise<unknown>) | undefined;
  beforeAll(async () => {
    const args = ["--lang", "en", "--budget", "none"];
    if (transport === "stdio") {
      s = await stdioSession(world.server, key, args);
      output = s.output;
    } else {
      const srv = await startHttpServer(world.server, key, args);
      s = await httpSession(srv.url);
      output = srv.output;
      stop = srv.stop;
    }
  });
  afterAll(async () => {
    await s?.close();
    await stop?.();
  });

  it("lists the six actions plus estimate_credits and account, each with a schema and its price", async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["company_profile", "search_companies", "similar_companies", "recent_changes", "person_network", "portfolio_risk", "estimate_credits", "account"]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.description).toMatch(/credit|Free/i);
    }
    const search = tools.find((t) => t.name === "search_companies")!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["query", "filters", "near", "size"]));
  });

  it("company_profile by id: master data, people and financials in one call; spent = charged", async () => {
    const c = uniqueCompany();
    const r = await paid("company_profile", { id: c.id });
    expect(r.isError).toBeFalsy();
    const sc = r.structuredContent!;
    expect(sc.status).toBe("matched");
    expect(sc.company.id).toBe(c.id);
    expect(sc.spent.credits).toBeGreaterThanOrEqual(1);
    expect(text(r)).toMatch(/Spent: \d+ credits?/);
    // The same question again comes from the cache: nothing spent.
    const again = await paid("company_profile", { id: c.id });
    expect(again.structuredContent!.spent.credits).toBe(0);
  });

  it("company_profile buys no include the free availability check rules out", async () => {
    let id: string | undefined;
    for (const c of world.emu.world.companies.slice(200, 400)) {
      const a = (await (await fetch(`${world.server.url}/v2/companies/${c.id}/availability`, { headers: { Authorization: `Bearer ${key}` } })).json()) as { financials?: boolean; people?: boolean };
      if (a.financials === false && a.people !== false) { id = c.id; break; }
    }
    expect(id).toBeDefined();
    const r = await paid("company_profile", { id });
    expect(r.structuredContent!.notAvailable).toEqual(["financials"]);
    expect(r.structuredContent!.spent.credits).toBe(2);
    expect(text(r)).toMatch(/not available \(not paid for\): financials/);
  });

  it("company_profile by name resolves for free and pays only for the profile", async () => {
    const c = nth(world.emu.world.companies.filter((x) => world.emu.companies.findByName(x.name).length === 1), 5);
    const r = await paid("company_profile", { name: c.name, include: [] });
    expect(r.structuredContent!.status).toBe("matched");
    expect(r.structuredContent!.company.id).toBe(c.id);
    expect(r.structuredContent!.spent.credits).toBe(1);
  });

  it("an ambiguous name answers its candidates, never a guess, and costs nothing", async () => {
    const [dup] = take(world.emu.companies.duplicateNames(1), 1);
    const r = await paid("company_profile", { name: dup.name });
    expect(r.isError).toBeFalsy();
    const sc = r.structuredContent!;
    expect(sc.status).toBe("ambiguous");
    expect(sc.company).toBeUndefined();
    expect(sc.candidates.map((x: { id: string }) => x.id).sort()).toEqual([...dup.ids].sort());
    expect(sc.spent.credits).toBe(0);
    expect(text(r)).toMatch(/Ambiguous/);
  });

  it("search_companies by text and filters; 1 credit", async () => {
    const c = uniqueCompany();
    const r = await paid("search_companies", { query: c.name, size: 5 });
    expect(r.structuredContent!.companies.some((x: { id: string }) => x.id === c.id)).toBe(true);
    expect(r.structuredContent!.spent.credits).toBe(1);
    const f = await paid("search_companies", { filters: { size: ["LARGE"] }, size: 3 });
    expect(f.isError).toBeFalsy();
    expect(f.structuredContent!.companies.length).toBeGreaterThan(0);
  });

  it("similar_companies for one or more ids; 2 credits", async () => {
    const [a, b] = take(world.emu.world.companies.slice(40, 42), 2);
    const r = await paid("similar_companies", { ids: [a.id, b.id], size: 5 });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent!.spent.credits).toBe(2);
    expect(r.structuredContent!.companies.length).toBeGreaterThan(0);
  });

  it("recent_changes: changes and announcements since a date", async () => {
    const c = nth(world.emu.world.companies, 60);
    const r = await paid("recent_changes", { id: c.id, since: "2000-01-01" });
    expect(r.isError).toBeFalsy();
    const sc = r.structuredContent!;
    expect(Array.isArray(sc.changes)).toBe(true);
    expect(Array.isArray(sc.announcements)).toBe(true);
    expect(sc.complete === true || sc.complete === false).toBe(true);
  });

  it("recent_changes pays nothing for changes when the free check shows none since the date", async () => {
    const c = nth(world.emu.world.companies, 61);
    const before = await charged(world.server, key);
    const r = await paid("recent_changes", { id: c.id, since: "2099-01-01", announcements: false });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent!.changes).toEqual([]);
    expect(r.structuredContent!.spent.credits).toBe(0);
    expect((await charged(world.server, key)).byEndpoint.changes ?? 0).toBe(before.byEndpoint.changes ?? 0);
  });

  it("person_network: every company of a person; 2 credits", async () => {
    const personId = world.emu.companies.sharedPersonId()!;
    const r = await paid("person_network", { personId });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent!.companies.length).toBeGreaterThan(1);
    expect(r.structuredContent!.spent.credits).toBe(2);
  });

  it("portfolio_risk: ids and names grouped risk / watch / none with reasons; ambiguous names get candidates", async () => {
    const ids = world.emu.world.companies.slice(100, 106).map((c) => c.id);
    const named = nth(world.emu.world.companies.filter((x) => world.emu.companies.findByName(x.name).length === 1), 9);
    const [dup] = take(world.emu.companies.duplicateNames(2).slice(1), 1);
    const risky = world.emu.companies.withStatus("INSOLVENT")[0];
    const list = [...ids, named.name, { name: dup.name }, ...(risky ? [risky] : [])];
    const est = await call(s, "estimate_credits", { tool: "portfolio_risk", arguments: { companies: list } });
    const r = await paid("portfolio_risk", { companies: list });
    expect(r.isError).toBeFalsy();
    const sc = r.structuredContent!;
    expect(sc.results).toHaveLength(list.length);
    expect(sc.results.map((x: { status: string }) => x.status).slice(0, 6)).toEqual(Array(6).fill("matched"));
    expect(sc.results[6]).toMatchObject({ status: "matched", id: named.id });
    expect(sc.results[7].status).toBe("ambiguous");
    expect(sc.results[7].candidates.length).toBeGreaterThan(1);
    for (const x of sc.results.filter((y: { status: string }) => y.status === "matched")) {
      expect(["risk", "watch", "none"]).toContain(x.group);
      expect(x.flags.length).toBeGreaterThan(0);
      expect(x.reason.text.en).toBeTruthy();
    }
    if (risky) expect(sc.results[8]).toMatchObject({ group: "risk" });
    expect(sc.groups.risk + sc.groups.watch + sc.groups.none + sc.groups.ambiguous + sc.groups.notFound + sc.groups.error).toBe(list.length);
    expect(text(r)).toMatch(/not a credit rating/);
    // Within the price named beforehand.
    expect(sc.spent.credits).toBeGreaterThanOrEqual(est.structuredContent!.credits.min);
    expect(sc.spent.credits).toBeLessThanOrEqual(est.structuredContent!.credits.max);
  });

  it("estimate_credits prices a call from the price table, sending nothing", async () => {
    const before = await charged(world.server, key);
    const r = await call(s, "estimate_credits", { tool: "company_profile", arguments: { id: "DE0000000001", include: ["people", "announcements", "financials"] } });
    expect(r.structuredContent!.credits).toEqual({ min: 1, max: 7 });
    expect(r.structuredContent!.spent.credits).toBe(0);
    const s2 = await call(s, "estimate_credits", { tool: "search_companies", arguments: { query: "x" } });
    expect(s2.structuredContent!.credits).toEqual({ min: 1, max: 1 });
    expect((await charged(world.server, key)).total).toBe(before.total);
  });

  it("account: balance as the emulator has it, and the budget", async () => {
    const r = await call(s, "account");
    const now = await charged(world.server, key);
    expect(r.structuredContent!.credits).toBe(now.balance);
    expect(r.structuredContent!.budget.limit).toBeNull();
    expect(text(r)).toMatch(/Balance/);
  });

  it("bad input: a tool error naming the field, in German and English, nothing spent", async () => {
    const r = await paid("company_profile", { id: "XYZ" });
    expect(r.isError).toBe(true);
    const e = r.structuredContent!.error;
    expect(e.code).toBe("INVALID_INPUT");
    expect(e.en).toMatch(/Invalid input/);
    expect(e.de).toMatch(/Ungültige Eingabe/);
    expect(text(r)).toBe(`${e.en} Spent: 0 credits.`);
    const both = await paid("company_profile", { id: nth(world.emu.world.companies, 0).id, name: "x" });
    expect(both.structuredContent!.error.code).toBe("INVALID_INPUT");
    const date = await paid("recent_changes", { id: nth(world.emu.world.companies, 0).id, since: "2024-02-30" });
    expect(date.structuredContent!.error).toMatchObject({ code: "INVALID_INPUT", field: "since" });
    const tooMany = await paid("portfolio_risk", { companies: Array(101).fill("DE0000000001") });
    expect(tooMany.structuredContent!.error).toMatchObject({ code: "INVALID_INPUT", field: "companies" });
    const empty = await paid("search_companies", {});
    expect(empty.structuredContent!.error.code).toBe("INVALID_INPUT");
    // A wrong type is refused by the input schema before the tool runs.
    const typed = await call(s, "company_profile", { id: 5 });
    expect(typed.isError).toBe(true);
    expect(text(typed)).toMatch(/Ungültige Eingabe \(Firmen-ID\).*Invalid input \(company ID\)/);
    const missing = await call(s, "recent_changes", { id: nth(world.emu.world.companies, 0).id });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/Ungültige Eingabe \(Datum „seit“\).*Invalid input \(since date\): expected a string/);
  });

  it("an unknown company is NOT_FOUND, free", async () => {
    const r = await paid("company_profile", { id: "DEZZZZZZZZZZ" });
    expect(r.isError).toBe(true);
    expect(r.structuredContent!.error.code).toBe("NOT_FOUND");
  });

  it("never writes the key anywhere", () => {
    expect(output()).not.toContain(key);
    expect(output()).toMatch(/ready|MCP server/);
  });
});
