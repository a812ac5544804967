/**
 * The team server's database suite (issue 23), run against PGlite and, with
 * TEST_DATABASE_URL, against PostgreSQL: migrations, hashed tokens, shared
 * answers (two users enriching overlapping lists pay each company once, and
 * the ledger adds up to the emulator's balance change), budgets refused
 * before anything is bought and exact under concurrency, revocation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_CACHE_MS } from "../../server/auth/token-cache.ts";
import { runAsync, type AsyncDriver } from "../../shared/core/drivers.ts";
import { enrichRows } from "../support/enrich-rows.ts";
import { DEFAULT_FIELDS } from "../../shared/enrich/fields.ts";
import { nodeDriver } from "../../node/driver.ts";
import { migrate, NewerDatabaseError } from "../../server/db/migrations.ts";
import { authenticate } from "../../server/auth/tokens.ts";
import { monthReport } from "../../server/ledger/report.ts";
import { monthOf } from "../../server/ledger/budget.ts";
import { cliContext } from "../support/cli-context.ts";
import { uniqueCompanies } from "../support/lists.ts";
import { type EmulatorWorld, type InProcessServer, startTeamWorld, type TeamWorld } from "../support/team-server.ts";
import { BACKENDS, requirePostgresUnderCi } from "./backends.ts";

describe("PostgreSQL in CI", () => {
  requirePostgresUnderCi();
  it("PGlite is always tested", () => expect(BACKENDS.map((b) => b.name)).toContain("pglite"));
});

interface Res {
  status: number;
  body: any;
  headers: Headers;
}
async function call(
  url: string,
  token: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Res> {
  const res = await fetch(url + path, {
    method: init.method ?? (init.body !== undefined ? "POST" : "GET"),
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

describe.each(BACKENDS)("team server database suite on $name", (backend) => {
  let world: EmulatorWorld;
  let srv: InProcessServer;
  let team: TeamWorld;
  const balance = () => world.emu.balance(world.key);

  beforeAll(async () => {
    team = await startTeamWorld(backend.make, { companies: 2000, seed: 11 });
    ({ world, srv } = team);
  }, 60_000);

  afterAll(() => team?.close());

  it("migrations are versioned and applied once; a database from a newer version is refused", async () => {
    expect(await migrate(srv.db)).toEqual([]);
    const rows = await srv.db.query<{ id: number }>("select id from schema_migrations order by id");
    expect(rows.map((r) => r.id)).toContain(1);
    await srv.db.query("insert into schema_migrations (id, name) values (99999, 'from the future')");
    try {
      await expect(migrate(srv.db)).rejects.toBeInstanceOf(NewerDatabaseError);
    } finally {
      await srv.db.query("delete from schema_migrations where id = 99999");
    }
  });

  it("tokens are stored only as hashes; a revoked token is refused within a second (issue 43: a token's user is kept 1 s)", async () => {
    const token = await srv.token("hash-check");
    const dump =
      JSON.stringify(await srv.db.query("select * from tokens")) +
      JSON.stringify(await srv.db.query("select * from users"));
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(token.slice(4, 20));
    expect((await authenticate(srv.db, `Bearer ${token}`))?.name).toBe("hash-check");
    expect((await call(srv.url, token, "/v2/account")).status).toBe(200);
    await srv.db.query(
      "update tokens set revoked_at = now() where user_id = (select id from users where name = 'hash-check')",
    );
    await new Promise((r) => setTimeout(r, TOKEN_CACHE_MS));
    const refused = await call(srv.url, token, "/v2/account", { headers: { "Accept-Language": "en" } });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("UNAUTHORIZED");
    expect(refused.body.error.message).toMatch(/personal token/);
    expect((await call(srv.url, "cdt_" + "x".repeat(43), "/v2/account")).status).toBe(401);
  });

  it("two users enriching lists that share 40 % of their companies: each company bought once, the report adds up to the API's bill", async () => {
    const companies = uniqueCompanies(world.emu, 160, 3);
    const listA = companies.slice(0, 100);
    const listB = companies.slice(60, 160); // 40 of its 100 are in A's list
    const [ta, tb] = [await srv.token("anna"), await srv.token("ben")];
    const before = balance();
    const usageBefore = world.emu.ledger(world.key);
    const enrich = (token: string, list: typeof listA) =>
      runAsync(
        enrichRows(cliContext(srv.url, token), "job", {
          rows: list.map((c) => [c.name]),
          mapping: { name: 0 },
          fields: [...DEFAULT_FIELDS],
        }),
        nodeDriver() as AsyncDriver,
      );
    const [ra, rb] = await Promise.all([enrich(ta, listA), enrich(tb, listB)]);
    expect(ra.results.every((r, i) => r?.outcome === "matched" && r.id === listA[i]!.id)).toBe(true);
    expect(rb.results.every((r, i) => r?.outcome === "matched" && r.id === listB[i]!.id)).toBe(true);

    const spent = before - balance();
    const usage = world.emu.ledger(world.key);
    // Every company's profile bought once for the team.
    expect((usage.requests.profile ?? 0) - (usageBefore.requests.profile ?? 0)).toBe(160);
    // Batch resolve: a credit per started ten names per purchase; two concurrent purchases may each round up once.
    const resolveCredits = (usage.credits.batchResolve ?? 0) - (usageBefore.credits.batchResolve ?? 0);
    expect(resolveCredits).toBeGreaterThanOrEqual(16);
    expect(resolveCredits).toBeLessThanOrEqual(18);

    const report = await monthReport(srv.db, monthOf(Date.now()));
    const of = (u: string) => report.byUser.find((x) => x.user === u)!;
    expect(of("anna").spent + of("ben").spent).toBe(spent);
    expect(report.totals.pending).toBe(0);
    // Answers the other had bought were served from the team's cache.
    expect(of("anna").saved + of("ben").saved).toBeGreaterThan(0);

    // Each user's balance view shows their own spend only.
    const accA = await call(srv.url, ta, "/v2/account");
    const accB = await call(srv.url, tb, "/v2/account");
    expect(accA.body.usage.month).toBe(of("anna").spent);
    expect(accB.body.usage.month).toBe(of("ben").spent);
    expect(accA.body.usage.month + accB.body.usage.month).toBe(spent);
    // And names whose token it is (the playground's header shows it).
    expect([accA.body.user, accB.body.user]).toEqual(["anna", "ben"]);

    // The same list again: nothing bought.
    const again = balance();
    await enrich(tb, listB);
    expect(balance()).toBe(again);
  });

  it("a user over the monthly budget is refused before anything is bought, in their language, with the budget and what is left", async () => {
    const t = await srv.token("carla", 3);
    const [id1, id2] = uniqueCompanies(world.emu, 2, 17).map((c) => c.id);
    const before = balance();
    const rows = async () =>
      (
        await srv.db.query<{ n: number }>(
          "select count(*)::int as n from ledger l join users u on u.id = l.user_id where u.name = 'carla'",
        )
      )[0]!.n;
    const en = await call(srv.url, t, `/v2/companies/${id1}?include=financials&lang=en`);
    expect(en.status).toBe(402);
    expect(en.body.error.code).toBe("INSUFFICIENT_CREDITS");
    expect(en.body.error.message).toContain("Your monthly budget");
    expect(en.body.error.budget).toMatchObject({ scope: "user", budget: 3, remaining: 3, price: 5 });
    const de = await call(srv.url, t, `/v2/companies/${id1}?include=financials`, {
      headers: { "Accept-Language": "de-DE,de;q=0.9" },
    });
    expect(de.body.error.message).toContain("Ihr Monatsbudget");
    expect(balance()).toBe(before);
    expect(await rows()).toBe(0);
    // Within the budget: bought; then what is left is named.
    expect((await call(srv.url, t, `/v2/companies/${id1}?include=people`)).status).toBe(200);
    const left = await call(srv.url, t, `/v2/companies/${id2}?include=people`, {
      headers: { "Accept-Language": "en" },
    });
    expect(left.status).toBe(402);
    expect(left.body.error.budget).toMatchObject({ remaining: 1, price: 2 });
    expect(before - balance()).toBe(2);
    // A cached answer costs nothing, so it is served whatever the budget says.
    expect((await call(srv.url, t, `/v2/companies/${id1}?include=people`)).status).toBe(200);
    expect(before - balance()).toBe(2);
  });

  it("the team budget is checked too", async () => {
    const t = await srv.token("dora");
    const r0 = await monthReport(srv.db, monthOf(Date.now()));
    await srv.db.query("update team set month_budget = $1 where id = 1", [r0.totals.spent + 1]);
    try {
      const [a, b] = uniqueCompanies(world.emu, 2, 23).map((c) => c.id);
      expect((await call(srv.url, t, `/v2/companies/${a}`)).status).toBe(200);
      const r = await call(srv.url, t, `/v2/companies/${b}?lang=en`);
      expect(r.status).toBe(402);
      expect(r.body.error.budget.scope).toBe("team");
      expect(r.body.error.message).toContain("team's monthly budget");
    } finally {
      await srv.db.query("update team set month_budget = null where id = 1");
    }
  });

  it("budgets are exact under concurrency: 60 requests at once against a budget of 25 buy exactly 25", async () => {
    const t = await srv.token("emil", 25);
    const ids = uniqueCompanies(world.emu, 60, 29).map((c) => c.id);
    const before = balance();
    const answers = await Promise.all(ids.map((id) => call(srv.url, t, `/v2/companies/${id}/people`)));
    const ok = answers.filter((a) => a.status === 200).length;
    // Some of these may already be in the team's cache (free); what was bought is exactly the budget.
    const r = await monthReport(srv.db, monthOf(Date.now()));
    expect(r.byUser.find((u) => u.user === "emil")!.spent).toBe(25);
    expect(before - balance()).toBe(25);
    expect(answers.filter((a) => a.status === 402).length).toBe(60 - ok);
  });

  it("ten users asking for one company at once: bought once, served to all", async () => {
    const tokens = await Promise.all(Array.from({ length: 10 }, (_, i) => srv.token(`same${i}`)));
    const [id] = uniqueCompanies(world.emu, 1, 31).map((c) => c.id);
    const before = world.emu.ledger(world.key).requests.financials ?? 0;
    const answers = await Promise.all(tokens.map((t) => call(srv.url, t, `/v2/companies/${id}/financials`)));
    expect(answers.map((a) => a.status)).toEqual(tokens.map(() => 200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect((world.emu.ledger(world.key).requests.financials ?? 0) - before).toBe(1);
  });

  it("the report adds up to the API's balance change exactly", async () => {
    const r = await monthReport(srv.db, monthOf(Date.now()));
    expect(r.totals.spent).toBe(1_000_000 - balance());
    expect(r.totals.settled + r.totals.pending).toBe(r.totals.spent);
  });
});
