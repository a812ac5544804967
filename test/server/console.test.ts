/**
 * The team console's API (issue 39), against PGlite and, with
 * TEST_DATABASE_URL, PostgreSQL: a user's token on an admin route gets 403
 * and sees only their own figures; the admin's report is the one of
 * `server report --json`; a soft limit alerts once to a loopback webhook
 * when the spend crosses it; a temporary increase lifts the budget until
 * the server's clock (moved with the emulator's) passes its end; every
 * change is recorded with who; the ledger's CSV follows its filters; a
 * schedule is priced without a credit spent, transferred, paused and run.
 */
import { outboundPolicy } from "../../server/net/outbound.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverNow } from "../../server/clock.ts";
import { monthOf } from "../../server/ledger/budget.ts";
import { checkSoftLimits } from "../../server/ledger/soft-alerts.ts";
import { jsonLogger } from "../../server/log.ts";
import { scheduleConfig } from "../../server/schedules/config.ts";
import { runDue } from "../../server/schedules/scheduler.ts";
import { csvCell } from "../../server/ledger/spend.ts";
import { buyProfile, call, startConsoleWorld, type ConsoleWorld } from "../support/console-world.ts";
import { serverCommand, type TestDatabase } from "../support/team-server.ts";
import { BACKENDS } from "./backends.ts";

const ADMIN = "/console/api/admin";

// The test's webhook receiver is on loopback, allowed as an admin allows an on-premise relay.
const LOOPBACK_HOOKS = outboundPolicy({ allowHosts: ["127.0.0.1"] });

describe("csvCell", () => {
  it("quotes separators and keeps formulas out", () => {
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("-x")).toBe("'-x");
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell(null)).toBe("");
  });
});

describe.each(BACKENDS)("the team console's API ($name)", (backend) => {
  let database: TestDatabase;
  let w: ConsoleWorld;
  let url = "";
  const logs: string[] = [];
  const log = jsonLogger((l) => logs.push(l));

  beforeAll(async () => {
    database = await backend.make();
    w = await startConsoleWorld(database);
    url = w.srv.url;
  }, 90_000);

  afterAll(async () => {
    await w?.close();
    await database?.drop();
  });

  it("a user's token on an admin route gets 403, no token 401; the user's own page shows only their figures", async () => {
    expect((await call(url, null, `${ADMIN}/report`)).status).toBe(401);
    const refused = await call(url, w.anna, `${ADMIN}/report`, undefined, "de");
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("FORBIDDEN");
    for (const path of ["/budgets", "/users", "/schedules", "/runs", "/health", "/ledger.csv"])
      expect((await call(url, w.anna, ADMIN + path)).status).toBe(403);
    expect((await call(url, w.anna, `${ADMIN}/tokens`, { user: "mallory" })).status).toBe(403);

    const a1 = await buyProfile(url, w.anna, w.freshCompany());
    const b1 = await buyProfile(url, w.ben, w.freshCompany());
    const b2 = await buyProfile(url, w.ben, w.freshCompany());
    expect(a1).toBeGreaterThan(0);
    const me = await call(url, w.anna, "/console/api/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: "anna", admin: false, spent: a1, budget: 100 });
    expect(me.body.requests.every((r: { endpoint: string }) => typeof r.endpoint === "string")).toBe(true);
    expect(me.body.requests).toHaveLength(1);
    expect(JSON.stringify(me.body)).not.toContain("ben");
    const admin = await call(url, w.admin, `${ADMIN}/report`);
    expect(admin.status).toBe(200);
    const byUser = Object.fromEntries(
      admin.body.report.byUser.map((u: { user: string; spent: number }) => [u.user, u.spent]),
    );
    expect(byUser).toMatchObject({ anna: a1, ben: b1 + b2 });
    expect(admin.body.perDay.reduce((s: number, d: { credits: number }) => s + d.credits, 0)).toBe(a1 + b1 + b2);
  });

  it("a soft limit alerts once a month to a loopback webhook when the user's spend crosses it", async () => {
    const set = await call(url, w.admin, `${ADMIN}/soft-limit`, {
      user: "anna",
      percent: 5,
      webhooks: `${w.hooks.url}/ok/budget?sig=HOOKSECRET`,
    });
    expect(set.status, set.text).toBe(200);
    const cfg = scheduleConfig();
    // anna has spent a1 of 100 so far; the first purchase crosses 5 % if it did not already.
    const before = w.hooks.posts.length;
    while ((await call(url, w.anna, "/console/api/me")).body.spent < 5) await buyProfile(url, w.anna, w.freshCompany());
    expect(await checkSoftLimits(w.srv.db, cfg, log, LOOPBACK_HOOKS)).toBe(1);
    expect(await checkSoftLimits(w.srv.db, cfg, log, LOOPBACK_HOOKS)).toBe(0);
    await buyProfile(url, w.anna, w.freshCompany());
    expect(await checkSoftLimits(w.srv.db, cfg, log, LOOPBACK_HOOKS)).toBe(0);
    const posts = w.hooks.posts.slice(before);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.path).toBe("/ok/budget?sig=HOOKSECRET");
    expect(JSON.parse(posts[0]!.body).text).toMatch(/of anna.*soft limit of 5 %/);
    const budgets = await call(url, w.admin, `${ADMIN}/budgets`);
    const line = budgets.body.budgets.find((b: { user: string | null }) => b.user === "anna");
    expect(line.alert.status).toBe("sent");
    expect(JSON.stringify(budgets.body)).not.toContain("HOOKSECRET");
    expect(logs.join("\n")).not.toContain("HOOKSECRET");
  });

  it("a temporary increase lifts the budget until the server's clock passes its end, and every change names who", async () => {
    expect((await call(url, w.admin, `${ADMIN}/budgets`, { user: "ben", budget: 0 })).status).toBe(200);
    const refused = await fetch(`${url}/v2/companies/${w.freshCompany()}`, {
      headers: { Authorization: `Bearer ${w.ben}` },
    });
    expect(refused.status).toBe(402);
    const tomorrow = new Date(serverNow() + 86_400_000).toISOString().slice(0, 10);
    const grant = await call(url, w.admin, `${ADMIN}/increases`, { user: "ben", credits: 50, endsAt: tomorrow });
    expect(grant.status, grant.text).toBe(200);
    expect(await buyProfile(url, w.ben, w.freshCompany())).toBeGreaterThan(0);
    let line = (await call(url, w.admin, `${ADMIN}/budgets`)).body.budgets.find(
      (b: { user: string }) => b.user === "ben",
    );
    expect(line).toMatchObject({ budget: 0, effective: 50 });
    w.advance(2);
    line = (await call(url, w.admin, `${ADMIN}/budgets`)).body.budgets.find((b: { user: string }) => b.user === "ben");
    expect(line).toMatchObject({ budget: 0, effective: 0, increases: [] });
    const after = await fetch(`${url}/v2/companies/${w.freshCompany()}`, {
      headers: { Authorization: `Bearer ${w.ben}` },
    });
    expect(after.status).toBe(402);
    const history = (await call(url, w.admin, `${ADMIN}/budgets`)).body.history as { kind: string; by: string }[];
    expect(history.map((h) => h.kind)).toEqual(expect.arrayContaining(["budget", "increase", "soft-limit"]));
    expect(history.every((h) => h.by === "root")).toBe(true);
    expect(
      (await call(url, w.admin, `${ADMIN}/increases`, { user: "ben", credits: 5, endsAt: "2001-01-01" })).status,
    ).toBe(400);
    expect((await call(url, w.admin, `${ADMIN}/budgets`, { user: "ben", budget: 200 })).status).toBe(200);
  });

  it("the ledger's CSV follows its filters", async () => {
    const month = monthOf(serverNow());
    const all = await call(url, w.admin, `${ADMIN}/ledger.csv?month=${month}`);
    expect(all.status).toBe(200);
    const lines = all.text.trim().split("\r\n");
    expect(lines[0]).toBe("id,created_at,month,user,endpoint,company,credits,status,settled_at");
    const anna = await call(url, w.admin, `${ADMIN}/ledger.csv?month=${month}&user=anna`);
    const annaLines = anna.text.trim().split("\r\n").slice(1);
    expect(annaLines.length).toBeGreaterThan(0);
    expect(annaLines.every((l) => l.split(",")[3] === "anna")).toBe(true);
    expect(lines.length - 1).toBeGreaterThan(annaLines.length);
  });

  it("schedules: priced without a credit spent, transferred, paused, run now; the run shows in the history", async () => {
    const companies = [w.freshCompany(), w.freshCompany(), w.freshCompany()];
    const reg = await call(url, w.anna, "/schedules/watch", { companies, frequency: "daily", hour: 6 });
    expect(reg.status, reg.text).toBe(200);
    const list = await call(url, w.admin, `${ADMIN}/schedules`);
    const s = list.body.schedules.find((x: { name: string }) => x.name === "watch");
    expect(s).toMatchObject({ owner: "anna", companies: 3, paused: null, lastRun: null });
    const spentBefore = (await call(url, w.admin, `${ADMIN}/report`)).body.report.totals.spent;
    const price = await call(url, w.admin, `${ADMIN}/schedules/${s.id}/price`);
    expect(price.status, price.text).toBe(200);
    expect(price.body.credits).toBeGreaterThan(0);
    expect(price.body.companies).toBe(3);
    expect((await call(url, w.admin, `${ADMIN}/report`)).body.report.totals.spent).toBe(spentBefore);

    expect((await call(url, w.admin, `${ADMIN}/schedules/${s.id}/transfer`, { to: "nobody" })).status).toBe(404);
    expect((await call(url, w.admin, `${ADMIN}/schedules/${s.id}/transfer`, { to: "ben" })).status).toBe(200);
    expect((await call(url, w.anna, "/schedules")).body.schedules).toEqual([]);
    expect((await call(url, w.ben, "/schedules")).body.schedules.map((x: { name: string }) => x.name)).toEqual([
      "watch",
    ]);

    expect((await call(url, w.admin, `${ADMIN}/schedules/${s.id}/pause`, {})).status).toBe(200);
    expect((await call(url, w.admin, `${ADMIN}/schedules/${s.id}/run`, { price: price.body.credits })).status).toBe(
      202,
    );
    const paused = (await call(url, w.admin, `${ADMIN}/schedules`)).body.schedules.find(
      (x: { id: number }) => x.id === s.id,
    );
    expect(paused.paused.by).toBe("root");
    // Paused: due, but never claimed.
    expect(await runDue(w.service(), scheduleConfig())).toBe(0);
    expect((await call(url, w.admin, `${ADMIN}/schedules/${s.id}/resume`, {})).status).toBe(200);
    expect(await runDue(w.service(), scheduleConfig())).toBe(1);
    const runs = (await call(url, w.admin, `${ADMIN}/runs`)).body.runs;
    expect(runs[0]).toMatchObject({ scheduleId: s.id, schedule: "watch", owner: "ben", status: "done" });
    expect(runs[0].credits).toBeLessThanOrEqual(price.body.credits);
    const listed = (await call(url, w.admin, `${ADMIN}/schedules`)).body.schedules.find(
      (x: { id: number }) => x.id === s.id,
    );
    expect(listed.lastRun).toMatchObject({ id: runs[0].id, status: "done" });
  });

  it("the admin's report is `server report --json`, figure for figure", async () => {
    const month = monthOf(serverNow());
    const api = (await call(url, w.admin, `${ADMIN}/report?month=${month}`)).body.report;
    if (database.name === "pglite") {
      // PGlite serves one process: the CLI reads the directory once the server has let go of it.
      await w.closeServer();
      const cli = await serverCommand(database, ["report", "--json", "--month", month]);
      expect(cli.code, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout)).toEqual(api);
    } else {
      const cli = await serverCommand(database, ["report", "--json", "--month", month]);
      expect(cli.code, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout)).toEqual(api);
    }
  }, 60_000);
});
