/**
 * The MCP server as MCP clients reach it — over stdio, spawned as a client
 * starts it (`company-data mcp`), and over Streamable HTTP (`company-data mcp
 * --http 0`) — against the emulator: the tool list, each tool, ambiguity,
 * bad input, and that what each tool reports spent is what the emulator
 * charged. Each transport has its own server process (and cache).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliWorld, type CliWorld } from "../helpers/cli.ts";
import {
  call,
  charged,
  httpSession,
  newKey,
  startHttpServer,
  stdioSession,
  type McpSession,
  type ToolResult,
} from "./harness.ts";
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
    expect(tools.map((t) => t.name)).toEqual([
      "company_profile",
      "search_companies",
      "similar_companies",
      "recent_changes",
      "person_network",
      "portfolio_risk",
      "estimate_credits",
      "account",
    ]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.description).toMatch(/credit|Free/i);
    }
    const search = tools.find((t) => t.name === "search_companies")!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["query", "filters", "near", "size"]),
    );
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
      const a = (await (
        await fetch(`${world.server.url}/v2/companies/${c.id}/availability`, {
          headers: { Authorization: `Bearer ${key}` },
        })
      ).json()) as { financials?: boolean; people?: boolean };
      if (a.financials === false && a.people !== false) {
        id = c.id;
        break;
      }
    }
    expect(id).toBeDefined();
    const r = await paid("company_profile", { id });
    expect(r.structuredContent!.notAvailable).toEqual(["financials"]);
    expect(r.structuredContent!.spent.credits).toBe(2);
    expect(text(r)).toMatch(/not available \(not paid for\): financials/);
  });

  it("company_profile by name resolves for free and pays only for the profile", async () => {
    const c = nth(
      world.emu.world.companies.filter((x) => world.emu.companies.findByName(x.name).length === 1),
      5,
    );
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

  it("recent_changes buys neither changes nor announcements when the free check shows nothing since the date", async () => {
    // A company whose newest change or announcement lies before today: ask from the day after it.
    let found: { id: string; since: string } | undefined;
    for (const c of world.emu.world.companies.slice(61, 300)) {
      const a = (await (
        await fetch(`${world.server.url}/v2/companies/${c.id}/availability`, {
          headers: { Authorization: `Bearer ${key}` },
        })
      ).json()) as { announcements?: boolean; lastChangeDate?: string | null };
      if (!a.announcements || !a.lastChangeDate) continue;
      const next = new Date(Date.parse(a.lastChangeDate.slice(0, 10)) + 86_400_000).toISOString().slice(0, 10);
      if (Date.parse(next) < Date.now()) {
        found = { id: c.id, since: next };
        break;
      }
    }
    expect(found).toBeDefined();
    const before = await charged(world.server, key);
    const r = await paid("recent_changes", { id: found!.id, since: found!.since });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent!).toMatchObject({ changes: [], announcements: [], complete: true });
    expect(r.structuredContent!.spent.credits).toBe(0);
    const after = await charged(world.server, key);
    expect(after.byEndpoint.changes ?? 0).toBe(before.byEndpoint.changes ?? 0);
    expect(after.byEndpoint.announcements ?? 0).toBe(before.byEndpoint.announcements ?? 0);
    expect(text(r)).toMatch(/0 changes and 0 announcements .*nothing bought/);
  });

  it("recent_changes refuses a start date in the future for free, before even the free check", async () => {
    const c = nth(world.emu.world.companies, 62);
    const before = await charged(world.server, key);
    const r = await paid("recent_changes", { id: c.id, since: "2099-01-01" });
    expect(r.isError).toBe(true);
    expect(r.structuredContent!.error).toMatchObject({ code: "INVALID_INPUT", field: "since" });
    expect(r.structuredContent!.error.en).toMatch(/must not be in the future/);
    expect(r.structuredContent!.error.de).toMatch(/darf nicht in der Zukunft liegen/);
    expect(r.structuredContent!.spent).toEqual({ credits: 0, requests: 0 });
    expect((await charged(world.server, key)).total).toBe(before.total);
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
    const named = nth(
      world.emu.world.companies.filter((x) => world.emu.companies.findByName(x.name).length === 1),
      9,
    );
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
    expect(
      sc.groups.risk + sc.groups.watch + sc.groups.none + sc.groups.ambiguous + sc.groups.notFound + sc.groups.error,
    ).toBe(list.length);
    expect(text(r)).toMatch(/not a credit rating/);
    // Within the price named beforehand.
    expect(sc.spent.credits).toBeGreaterThanOrEqual(est.structuredContent!.credits.min);
    expect(sc.spent.credits).toBeLessThanOrEqual(est.structuredContent!.credits.max);
  });

  it("every invalid filter is refused for 0 credits, naming the values it accepts", async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { filters: { state: ["DE-XX"] } },
        "filters.state",
        /"DE-XX": not a federal state; allowed: .*DE-BY Bavaria\/Bayern.*DE-TH Thuringia\/Thüringen/,
      ],
      [{ filters: { state: ["Texas"] } }, "filters.state", /DE-NW North Rhine-Westphalia\/Nordrhein-Westfalen/],
      [
        { filters: { industry: ["ZZZ"] } },
        "filters.industry",
        /"ZZZ": not a WZ 2008 code; allowed: WZ 2008 codes or prefixes: a section A–U, .*J 58–63/,
      ],
      [{ filters: { industry: ["K62"] } }, "filters.industry", /not a WZ 2008 code/],
      [
        { filters: { legalForm: ["Quatsch"] } },
        "filters.legalForm",
        /"Quatsch": not a legal form the service filters by; allowed: .*GmbH, .*AG, .*GmbH & Co\. KG/,
      ],
      [{ filters: { size: ["HUGE"] } }, "filters.size[0]", /allowed: MICRO, SMALL, MEDIUM, LARGE/],
      [{ filters: { state: "Bayern" } }, "filters.state", /expected a list/],
      [
        { filters: { colour: ["red"] } },
        "filters.colour",
        /unknown field; allowed: industry, state, size, legalForm, city, active, minAgeYears, maxAgeYears/,
      ],
      [{ filters: { minAgeYears: 20, maxAgeYears: 5 } }, "filters.maxAgeYears", /must not be less than minAgeYears/],
      [{ near: { place: "München", radiusKm: 0 } }, "near.radiusKm", /greater than 0 and at most 500/],
      [{ near: { place: "München", lat: 48.1 } }, "near", /give exactly one of place, lat \+ lon/],
      [{ query: "x", from: -1 }, "from", /an integer from 0 to 10000/],
    ];
    const before = await charged(world.server, key);
    for (const [args, field, accepted] of cases) {
      const r = await paid("search_companies", args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.structuredContent!.error, JSON.stringify(args)).toMatchObject({ code: "INVALID_INPUT", field });
      expect(r.structuredContent!.error.en, JSON.stringify(args)).toMatch(accepted);
      expect(r.structuredContent!.error.de).toMatch(/^Ungültige Eingabe/);
      expect(r.structuredContent!.spent).toEqual({ credits: 0, requests: 0 });
      // estimate_credits checks the same way.
      const e = await call(s, "estimate_credits", { tool: "search_companies", arguments: args });
      expect(e.structuredContent!.error.code, JSON.stringify(args)).toBe("INVALID_INPUT");
    }
    const after = await charged(world.server, key);
    expect(after.total).toBe(before.total);
    expect(after.balance).toBe(before.balance);
  });

  it('"Bayern", "Bavaria", "BY" and "DE-BY" all search Bavaria (one question: the later ones come from the cache)', async () => {
    const first = await paid("search_companies", { filters: { state: ["Bayern"] }, size: 30 });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent!.spent.credits).toBe(1);
    const ids = first.structuredContent!.companies.map((c: { id: string }) => c.id);
    expect(ids.length).toBeGreaterThan(0);
    for (const c of first.structuredContent!.companies as { state?: string }[]) expect(c.state).toBe("DE-BY");
    for (const spelling of ["Bavaria", "BY", "de-by"]) {
      const r = await paid("search_companies", { filters: { state: [spelling] }, size: 30 });
      expect(r.structuredContent!.companies.map((c: { id: string }) => c.id)).toEqual(ids);
      expect(r.structuredContent!.spent.credits).toBe(0);
    }
    const bw = await paid("search_companies", {
      filters: { state: ["Baden-Wuerttemberg"], legalForm: ["gmbh"] },
      size: 10,
    });
    for (const c of bw.structuredContent!.companies as { state?: string }[]) expect(c.state).toBe("DE-BW");
  });

  it("the tools say what they take: required fields, bounds, enums, defaults, annotations, the price", async () => {
    const { tools } = await s.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const profile = byName.company_profile!;
    expect(profile.inputSchema.oneOf).toEqual([{ required: ["id"] }, { required: ["name"] }]);
    expect(profile.inputSchema.additionalProperties).toBe(false);
    const search = byName.search_companies!.inputSchema as any;
    expect(search.anyOf).toEqual([{ required: ["query"] }, { required: ["filters"] }, { required: ["near"] }]);
    expect(search.properties.size).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 10 });
    expect(search.properties.from).toMatchObject({ type: "integer", minimum: 0, maximum: 10000 });
    expect(search.properties.near.properties.radiusKm).toMatchObject({
      default: 10,
      exclusiveMinimum: 0,
      maximum: 500,
    });
    expect(search.properties.near.required ?? []).not.toContain("radiusKm");
    expect(search.properties.filters.properties.size.items.enum).toEqual(["MICRO", "SMALL", "MEDIUM", "LARGE"]);
    expect(search.properties.filters.properties.state.type).toBe("array");
    expect(search.properties.filters.properties.state.description).toMatch(/DE-BY Bavaria\/Bayern/);
    expect(byName.search_companies!.description).toMatch(/"state": \["Bayern"\]/);
    expect(byName.recent_changes!.inputSchema.required).toEqual(["id", "since"]);
    expect((byName.recent_changes!.inputSchema as any).properties.maxPages).toMatchObject({
      minimum: 1,
      maximum: 20,
      default: 3,
    });
    expect((byName.similar_companies!.inputSchema as any).properties.ids).toMatchObject({ minItems: 1, maxItems: 20 });
    expect((byName.portfolio_risk!.inputSchema as any).properties.companies).toMatchObject({
      minItems: 1,
      maxItems: 100,
    });
    for (const t of tools) {
      expect(t.annotations?.readOnlyHint).toBe(true);
      expect(t.annotations?.openWorldHint).toBe(t.name !== "estimate_credits");
    }
    expect(byName.search_companies!.description).toMatch(/Price: 1 credit per call/);
    expect(byName.similar_companies!.description).toMatch(/Price: 2 credits per call/);
  });

  it("estimate_credits prices a call from the price table, sending nothing", async () => {
    const before = await charged(world.server, key);
    const r = await call(s, "estimate_credits", {
      tool: "company_profile",
      arguments: { id: "DE0000000001", include: ["people", "announcements", "financials"] },
    });
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
    // A wrong type is refused by the input schema before the tool runs: the server's own tool error, not the SDK's -32602.
    const typed = await paid("company_profile", { id: 5 });
    expect(typed.isError).toBe(true);
    expect(typed.structuredContent!.error).toMatchObject({ code: "INVALID_INPUT", field: "id" });
    expect(typed.structuredContent!.error.de).toMatch(
      /^Ungültige Eingabe \(Firmen-ID\): erwartet Text \(erhalten: 5\)/,
    );
    expect(text(typed)).toBe("Invalid input (company ID): expected a string (got 5). Spent: 0 credits.");
    expect(text(typed)).not.toMatch(/-32602|MCP error/);
    const missing = await paid("recent_changes", { id: nth(world.emu.world.companies, 0).id });
    expect(missing.structuredContent!.error).toMatchObject({ code: "INVALID_INPUT", field: "since" });
    expect(text(missing)).toMatch(/^Invalid input \(since date\): required/);
    const bounds = await paid("search_companies", { query: "x", size: 500 });
    expect(bounds.structuredContent!.error.en).toMatch(/an integer from 1 to 100 \(got 500\)/);
    const extra = await paid("similar_companies", { ids: [nth(world.emu.world.companies, 0).id], colour: "red" });
    expect(extra.structuredContent!.error.en).toMatch(/unknown field; allowed: ids, size/);
    const unknownTool = await call(s, "no_such_tool", {});
    expect(unknownTool.isError).toBe(true);
    expect(unknownTool.structuredContent!.error.en).toMatch(/allowed: company_profile, search_companies/);
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
