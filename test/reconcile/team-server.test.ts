/**
 * The reconciliation service mounted on the team server: personal tokens,
 * the server's shared answers, budgets and ledger, against the emulator
 * (PGlite in memory). Every answer validates against the 0.2 schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEAM_SERVER_EXTENSIONS } from "../../server/extensions.ts";
import { createToken } from "../../server/auth/tokens.ts";
import { DEFAULT_CACHE_DAYS } from "../../server/cache.ts";
import { openPglite } from "../../server/db/pglite.ts";
import type { Db } from "../../server/db/db.ts";
import { migrate } from "../../server/db/migrations.ts";
import { startTeamServer, type RunningTeamServer } from "../../server/http.ts";
import { silentLogger } from "../../server/log.ts";
import { createUpstream } from "../../server/upstream.ts";
import { estimateEnrichment } from "../../shared/enrich/estimate.ts";
import { startCliWorld, type CliWorld } from "../helpers/cli.ts";
import { uniqueNames } from "../helpers/names.ts";
import { charged, newKey } from "../mcp/harness.ts";
import type { RunningServer } from "../../emulator/server.ts";
import { batchOf, getJson, postJson, startService } from "./harness.ts";
import { expectValid } from "./schemas.ts";

let world: CliWorld;
let key: string;
let db: Db;
let team: RunningTeamServer;
let alice: string;
let bob: string;
let carol: string;
let url: string;

beforeAll(async () => {
  world = await startCliWorld({ companies: 2000, seed: 32, dirPrefix: "cd-reconcile-team-" });
  key = await newKey(world.server, 10_000);
  db = await openPglite("memory://");
  await migrate(db);
  alice = await createToken(db, "alice");
  bob = await createToken(db, "bob");
  carol = await createToken(db, "carol", 2);
  team = await startTeamServer({
    db,
    log: silentLogger,
    port: 0,
    host: "127.0.0.1",
    allowOrigins: [],
    process: "test",
    cacheDays: DEFAULT_CACHE_DAYS,
    extensions: TEAM_SERVER_EXTENSIONS,
    leaseMs: 60_000,
    upstream: createUpstream({ apiKey: key, baseUrl: world.server.url, timeoutMs: 30_000, maxPaceWaitMs: 30_000 }),
  });
  url = `${team.url}/reconcile`;
});
afterAll(async () => {
  await team?.close(1000);
  await db?.close();
  await world?.server.close();
});

const as = (token: string) => ({ Authorization: `Bearer ${token}` });
const balance = async () => (await charged(world.server, key)).balance;

describe("/reconcile on the team server", () => {
  it("the manifest is open and declares the token; everything else needs a personal token", async () => {
    const m = await getJson(url);
    expect(m.status).toBe(200);
    expectValid("manifest", m.body);
    expect(m.body.authentication).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" });
    // The personal token, and what works for OpenRefine (no headers): the local service with this server and the token.
    const auth = m.body.authentication.description as string;
    expect(auth).toMatch(/^Bearer <persönliches Token> \(cdt_…/);
    expect(auth).toContain(
      `COMPANY_DATA_SERVER=${team.url} COMPANY_DATA_TOKEN=cdt_… company-data reconcile --http 8791`,
    );
    expect(auth).not.toContain("COMPANY_DATA_RECONCILE_TOKEN");
    const en = await fetch(url, { headers: { "Accept-Language": "en" } });
    expect(((await en.json()) as { authentication: { description: string } }).authentication.description).toMatch(
      /^Bearer <personal token> \(cdt_…, from the team server's admin\)\. OpenRefine cannot send headers: run /,
    );
    expect(m.body.documentation).toBe(`${url}/docs`);
    expect(m.body.batchSize).toBe(100);
    expect(m.body.extend.property_settings[0]).toMatchObject({ name: "year", type: "select" });
    // The pages it names are open like the manifest (a browser loads the logo without headers).
    const docs = await fetch(`${url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain("COMPANY_DATA_TOKEN=cdt_…");
    expect((await fetch(`${url}/logo.svg`)).status).toBe(200);
    expect(m.body.preview.url).toBe(`${url}/preview?id={{id}}`);
    const q = JSON.stringify(batchOf(uniqueNames(world.emu, 1, 0)));
    expect((await postJson(url, { queries: q })).status).toBe(401);
    expect((await postJson(url, { queries: q }, { Authorization: "Bearer cdt_" + "x".repeat(43) })).status).toBe(401);
  });

  it("25 names cost the team 3 credits; the same names for a colleague cost nothing (shared answers)", async () => {
    const names = uniqueNames(world.emu, 25, 10);
    const before = await balance();
    const a = await postJson(url, { queries: JSON.stringify(batchOf(names)) }, as(alice));
    expect(a.status).toBe(200);
    expectValid("reconciliation-result-batch", a.body);
    expect(before - (await balance())).toBe(3);
    expect(a.headers.get("x-credits-spent")).toBe("3");
    expect(a.body.q0.result[0].match).toBe(true);
    const b = await postJson(url, { queries: JSON.stringify(batchOf(names)) }, as(bob));
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(before - (await balance())).toBe(3);
    expect(b.headers.get("x-credits-spent")).toBe("0");
  });

  it("a batch with one empty query answers the others, billed to the user", async () => {
    const names = uniqueNames(world.emu, 10, 200);
    const before = await balance();
    const r = await postJson(url, { queries: JSON.stringify({ ...batchOf(names), empty: { query: "" } }) }, as(alice));
    expect(r.status).toBe(200);
    expectValid("reconciliation-result-batch", r.body);
    expect(r.body.empty).toMatchObject({ result: [], error: { code: "INVALID_INPUT" } });
    for (let i = 0; i < names.length; i++) expect(r.body[`q${i}`].result[0]).toMatchObject({ match: true });
    expect(before - (await balance())).toBe(1);
    expect(r.headers.get("x-credits-spent")).toBe("1");
  });

  it("extension costs what the enrichment preview shows, billed to the user through the ledger", async () => {
    const names = uniqueNames(world.emu, 10, 50);
    const m = await postJson(url, { queries: JSON.stringify(batchOf(names)) }, as(alice));
    const ids = names.map((_, i) => m.body[`q${i}`].result[0].id as string);
    const fields = ["legalForm", "address", "url"];
    const before = await balance();
    const e = await postJson(
      url,
      { extend: JSON.stringify({ ids, properties: fields.map((id) => ({ id })) }) },
      as(alice),
    );
    expect(e.status).toBe(200);
    expectValid("data-extension-response", e.body);
    expect(before - (await balance())).toBe(
      estimateEnrichment(
        ids.map((id) => [id]),
        { mapping: { id: 0 }, fields },
      ).credits,
    );
    const s = await getJson(`${url}/suggest/entity?prefix=${encodeURIComponent(names[0]!.slice(0, 5))}`);
    expect(s.status).toBe(401);
  });

  it("OpenRefine's way to the team: a local service with COMPANY_DATA_SERVER and the personal token COMPANY_DATA_TOKEN", async () => {
    // As the manifest says: COMPANY_DATA_SERVER and the personal token COMPANY_DATA_TOKEN (the server's budgets, none of its own).
    const local = await startService({ url: "http://unused.invalid" } as RunningServer, "", ["--lang", "en"], {
      COMPANY_DATA_SERVER: team.url,
      COMPANY_DATA_TOKEN: bob,
    });
    try {
      const names = uniqueNames(world.emu, 10, 150);
      const c = world.emu.world.companies.find((x) => x.name === names[0])!;
      const before = await balance();
      const r = await postJson(local.url, {
        queries: JSON.stringify({
          ...batchOf(names),
          vat: { query: c.name, properties: [{ pid: "vatId", v: world.emu.world.profile(c, "en").vatId }] },
        }),
      });
      expect(r.status).toBe(200);
      expectValid("reconciliation-result-batch", r.body);
      expect(r.body.vat.result[0]).toMatchObject({ id: c.id, match: true });
      expect(before - (await balance())).toBe(1);
    } finally {
      await local.close();
    }
  });

  it("a user over the monthly budget gets the server's refusal (402) with the budget", async () => {
    const names = uniqueNames(world.emu, 30, 100);
    const r = await postJson(url, { queries: JSON.stringify(batchOf(names)) }, as(carol));
    expect(r.status).toBe(402);
    expect(r.body.error).toMatchObject({
      code: "INSUFFICIENT_CREDITS",
      budget: expect.objectContaining({ budget: 2 }),
    });
  });
});
