/**
 * Portfolio schedules on the team server (issue 24), against PGlite and,
 * with TEST_DATABASE_URL, PostgreSQL: registration over HTTP with a personal
 * token, the core check run by the server on the emulator's days (an
 * insolvency on day 3 is in the run's result and the change log), the
 * results fetched after a cursor, the run's budget, a due schedule claimed
 * by exactly one of two server instances, alerts to a loopback webhook and
 * a loopback SMTP sink (no key and no token in either), and a failing
 * webhook recorded on the run while the loop goes on.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDb } from "../../server/cli.ts";
import type { Db } from "../../server/db/db.ts";
import { jsonLogger } from "../../server/log.ts";
import type { ServiceContext } from "../../server/routes.ts";
import { outboundPolicy } from "../../server/net/outbound.ts";
import type { ScheduleConfig } from "../../server/schedules/config.ts";
import { smtpMailer } from "../../server/schedules/mail.ts";
import { nextSlot } from "../../server/schedules/model.ts";
import type { RunResult } from "../../server/schedules/run.ts";
import { runDue } from "../../server/schedules/scheduler.ts";
import { uniqueCompanies } from "../support/lists.ts";
import { smtpSink, webhookSink, type SmtpSink, type WebhookSink } from "../support/schedule-sinks.ts";
import { companyDataCommand, type EmulatorWorld, type InProcessServer } from "../support/team-server.ts";
import { SCHEDULE_START, schedulerService, startScheduleWorld, type ScheduleWorld } from "../support/schedule-world.ts";
import { BACKENDS } from "./backends.ts";

const KEY = "cd_live_SCHEDULEKEY_7f3a9c1e5b";
/** The loopback receivers are this machine: allowed as an admin allows an on-premise relay (--allow-webhook-host). */
const LOOPBACK_SINKS = outboundPolicy({ allowHosts: ["127.0.0.1"] });
const START = SCHEDULE_START;

async function api(url: string, token: string, path: string, method = "GET", body?: unknown, lang = "en") {
  const res = await fetch(url + path, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      "Accept-Language": lang,
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe("nextSlot", () => {
  const t = Date.parse("2026-03-04T10:30:00Z"); // a Wednesday
  it("hourly, daily and weekly slots are the first after the instant (UTC)", () => {
    expect(new Date(nextSlot({ frequency: "hourly", hour: 0, weekday: 1 }, t)).toISOString()).toBe(
      "2026-03-04T11:00:00.000Z",
    );
    expect(new Date(nextSlot({ frequency: "daily", hour: 7, weekday: 1 }, t)).toISOString()).toBe(
      "2026-03-05T07:00:00.000Z",
    );
    expect(new Date(nextSlot({ frequency: "daily", hour: 11, weekday: 1 }, t)).toISOString()).toBe(
      "2026-03-04T11:00:00.000Z",
    );
    expect(new Date(nextSlot({ frequency: "weekly", hour: 7, weekday: 1 }, t)).toISOString()).toBe(
      "2026-03-09T07:00:00.000Z",
    );
  });
});

describe.each(BACKENDS)("schedules on the team server ($name)", (backend) => {
  let world: EmulatorWorld;
  let srv: InProcessServer;
  let hooks: WebhookSink;
  let smtp: SmtpSink;
  let token: string;
  const extraDbs: { db: Db; close: () => Promise<void> }[] = [];
  let sw: ScheduleWorld;
  // The server's clock: the emulator's day at 08:00 UTC, moving with real time within the day.
  const advance = (days: number) => sw.days.advance(days);
  let cfg: ScheduleConfig;

  /** A server instance's services as its scheduler sees them, on `db` (another connection for PostgreSQL). */
  const instance = (db: Db, name: string, logs: string[] = []): ServiceContext =>
    schedulerService(world, db, name, { log: jsonLogger((l) => logs.push(l)), outbound: LOOPBACK_SINKS });

  const latestRun = async (name: string, after = 0) =>
    (await api(srv.url, token, `/schedules/${name}/runs?after=${after}`)).body as {
      runs: { id: number; status: string; credits: number; result: RunResult }[];
      cursor: number;
    };

  beforeAll(async () => {
    hooks = await webhookSink();
    smtp = await smtpSink();
    sw = await startScheduleWorld({
      seed: 21,
      key: KEY,
      user: "sched-anna",
      makeDatabase: backend.make,
      schedule: {
        tickMs: 3_600_000, // the loop of the in-process server stays idle; the tests call runDue
        mailer: smtpMailer({ COMPANY_DATA_SMTP_URL: smtp.url, COMPANY_DATA_SMTP_FROM: "alerts@team.test" }, 5_000),
      },
      outbound: LOOPBACK_SINKS,
    });
    ({ world, srv, token, config: cfg } = sw);
  }, 90_000);

  afterAll(async () => {
    for (const d of extraDbs) await d.close();
    await sw?.close();
    await hooks?.close();
    await smtp?.close();
  });

  it("registration: validated in the user's language, listed for its user only, webhooks shown by host only", async () => {
    const bad = await api(srv.url, token, "/schedules/p1", "PUT", { companies: ["nope"], frequency: "daily" }, "de");
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe("companies[0]");
    expect(bad.body.error.message).toMatch(/keine Firmen-ID/);
    const badFreq = await api(srv.url, token, "/schedules/p1", "PUT", {
      companies: [uniqueCompanies(world.emu, 1)[0]!.id],
      frequency: "monthly",
    });
    expect(badFreq.status).toBe(400);
    expect(badFreq.body.error.field).toBe("frequency");
    const ids = uniqueCompanies(world.emu, 3, 4).map((c) => c.id);
    const ok = await api(srv.url, token, "/schedules/p1", "PUT", {
      companies: ids,
      frequency: "weekly",
      hour: 6,
      weekday: 1,
      webhooks: [`${hooks.url}/ok?sig=SECRET123`],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.webhooks).toEqual([hooks.url.replace("http://", "") + "/…"]);
    expect(new Date(ok.body.nextRun).getUTCDay()).toBe(1);
    const other = await srv.token("sched-ben");
    expect((await api(srv.url, other, "/schedules")).body.schedules).toEqual([]);
    expect((await api(srv.url, other, "/schedules/p1")).status).toBe(404);
    const mine = (await api(srv.url, token, "/schedules")).body.schedules;
    expect(mine.map((s: { name: string }) => s.name)).toEqual(["p1"]);
    expect(JSON.stringify(mine)).not.toContain("SECRET123");
    expect((await api(srv.url, "cdt_" + "x".repeat(43), "/schedules")).status).toBe(401);
    expect((await api(srv.url, token, "/schedules/p1", "DELETE")).status).toBe(200);
  });

  it("the server checks on day 3 with no client open: the insolvency and its change are in the run's result, alerted by webhook and e-mail", async () => {
    const companies = uniqueCompanies(world.emu, 6, 8).map((c) => c.id);
    const active = new Set(world.emu.companies.withStatus("ACTIVE"));
    const target = companies.find((id) => active.has(id)) ?? companies[0]!;
    world.emu.scheduleEvent(target, { day: 3, kind: "INSOLVENCY" });
    const reg = await api(srv.url, token, "/schedules/watch", "PUT", {
      companies,
      frequency: "daily",
      hour: 7,
      webhooks: [`${hooks.url}/ok/slack`],
      emails: ["risk@team.test"],
    });
    expect(reg.status).toBe(200);
    const server = instance(srv.db, "loop-a");

    // Day 0: nothing is due before its hour; "run now" makes it due. The first check prices and buys the profiles.
    expect(await runDue(server, cfg)).toBe(0);
    expect((await api(srv.url, token, "/schedules/watch/run", "POST")).status).toBe(202);
    expect(await runDue(server, cfg)).toBe(1);
    const first = await latestRun("watch");
    expect(first.runs).toHaveLength(1);
    const r0 = first.runs[0]!;
    expect(r0.status).toBe("done");
    expect(r0.result.companies.map((c) => c.id).sort()).toEqual([...companies].sort());
    expect(r0.result.estimate).toBeGreaterThan(0);
    expect(r0.credits).toBe(r0.result.estimate);
    expect(r0.result.changes).toEqual([]);

    // Days 1–3 pass with no workbook open; the loop runs at 07:00 each day (the clock says 08:00).
    let cursor = first.cursor;
    let day3: RunResult | undefined;
    for (let d = 1; d <= 3; d++) {
      advance(1);
      expect(await runDue(server, cfg)).toBe(1);
      const page = await latestRun("watch", cursor);
      expect(page.runs).toHaveLength(1);
      cursor = page.cursor;
      if (d === 3) day3 = page.runs[0]!.result;
      // Once a day: a second look the same day finds nothing due.
      expect(await runDue(server, cfg)).toBe(0);
    }
    const row = day3!.companies.find((c) => c.id === target);
    expect(row?.code).toBe("INSOLVENT");
    expect(row?.group).toBe("risk");
    const line = day3!.changes.find((l) => l[1] === target);
    expect(line).toBeDefined();
    expect(String(line![0]).slice(0, 10)).toBe(addDays(START, 3));
    // Nothing new after the cursor.
    expect((await latestRun("watch", cursor)).runs).toEqual([]);

    // The alerts went out from the server: the webhook's JSON and an e-mail, neither with the key or a token.
    const alerts = day3!.alerts;
    expect(alerts.find((a) => a.channel === "webhook")?.status).toBe("sent");
    expect(alerts.find((a) => a.channel === "email")?.status).toBe("sent");
    const post = hooks.posts.filter((p) => p.path === "/ok/slack").at(-1)!;
    const payload = JSON.parse(post.body);
    expect(payload.companies.map((c: { id: string }) => c.id)).toContain(target);
    const mail = smtp.messages.at(-1)!;
    expect(mail.to).toEqual(["risk@team.test"]);
    expect(mail.from).toBe("alerts@team.test");
    expect(mail.data).toContain(target);
    for (const text of [post.body, mail.data, JSON.stringify(day3)]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(token);
    }
    await api(srv.url, token, "/schedules/watch", "DELETE");
  });

  it("company-data monitor --server registers the CSV's ids and prints what the server found since the last time", async () => {
    const companies = uniqueCompanies(world.emu, 4, 60).map((c) => c.id);
    const target = companies[1]!;
    const dir = mkdtempSync(join(tmpdir(), "sched-cli-"));
    const input = join(dir, "portfolio.csv");
    writeFileSync(input, ["ID,Firma", ...companies.map((id) => `${id},x`), ",Nameless GmbH"].join("\n") + "\n");
    const env = { COMPANY_DATA_SERVER: srv.url, COMPANY_DATA_TOKEN: token };
    const args = [
      "monitor",
      "--server",
      "--in",
      input,
      "--name",
      "cli",
      "--schedule",
      "daily",
      "--hour",
      "7",
      "--lang",
      "en",
    ];
    const first = await cli(args, env);
    expect(first.stderr).toMatch(/1 row without a company id is not checked/);
    expect(first.stderr).toMatch(/Schedule "cli" on the server: 4 companies, next run/);
    expect(first.stdout).toMatch(/No new runs since the last fetch/);
    expect(first.code).toBe(0);
    const server = instance(srv.db, "loop-a");
    await api(srv.url, token, "/schedules/cli/run", "POST");
    expect(await runDue(server, cfg)).toBe(1);
    world.emu.scheduleEvent(target, { day: world.emu.clock.day() + 1, kind: "INSOLVENCY" });
    advance(1);
    expect(await runDue(server, cfg)).toBe(1);
    const second = await cli(args, env);
    expect(second.code).toBe(0);
    const runLines = second.stdout.split("\n").filter((l) => l.startsWith("Run "));
    expect(runLines).toHaveLength(2);
    expect(second.stdout).toMatch(new RegExp(`Risk: .*\\(${target}\\) – Risk: Insolvent`));
    expect(second.stdout).toContain(target);
    expect(JSON.parse(readFileSync(`${input}.server.json`, "utf8")).v).toBe(1);
    // Asked again: nothing new.
    expect((await cli(args, env)).stdout).toMatch(/No new runs since the last fetch/);
    // Without a team server the option says what it needs.
    const none = await cli(args, { COMPANY_DATA_API_KEY: "cd_live_x", COMPANY_DATA_SERVER: "" });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--server needs a team server/);
    await api(srv.url, token, "/schedules/cli", "DELETE");
  });

  it("a run's budget: priced first, companies past it wait for the next run", async () => {
    const companies = uniqueCompanies(world.emu, 8, 12).map((c) => c.id);
    expect(
      (await api(srv.url, token, "/schedules/capped", "PUT", { companies, frequency: "hourly", budget: 3 })).status,
    ).toBe(200);
    await api(srv.url, token, "/schedules/capped/run", "POST");
    const before = world.emu.balance(KEY);
    expect(await runDue(instance(srv.db, "loop-a"), cfg)).toBe(1);
    const run = (await latestRun("capped")).runs.at(-1)!;
    expect(run.status).toBe("budget");
    expect(run.result.spent).toBeLessThanOrEqual(3);
    expect(run.result.left.companies).toBeGreaterThan(0);
    expect(before - world.emu.balance(KEY)).toBeLessThanOrEqual(3);
    await api(srv.url, token, "/schedules/capped", "DELETE");
  });

  it("two server instances on one database: each due schedule is run by exactly one of them", async () => {
    const names = ["c1", "c2", "c3", "c4"];
    for (const [i, n] of names.entries()) {
      const companies = uniqueCompanies(world.emu, 2, 30 + i).map((c) => c.id);
      expect(
        (await api(srv.url, token, `/schedules/${n}`, "PUT", { companies, frequency: "daily", hour: 7 })).status,
      ).toBe(200);
      await api(srv.url, token, `/schedules/${n}/run`, "POST");
    }
    let other: Db = srv.db;
    if (sw.database.name === "postgres") {
      const second = await openServerDb(sw.database.target);
      extraDbs.push(second);
      other = second.db;
    }
    const [a, b] = await Promise.all([runDue(instance(srv.db, "proc-a"), cfg), runDue(instance(other, "proc-b"), cfg)]);
    expect(a + b).toBe(names.length);
    const rows = await srv.db.query<{ name: string; runs: number }>(
      `select s.name, count(r.id)::int as runs from schedules s join schedule_runs r on r.schedule_id = s.id
       where s.name = any($1::text[]) group by s.name order by s.name`,
      [names],
    );
    expect(rows).toEqual(names.map((name) => ({ name, runs: 1 })));
    const unclaimed = await srv.db.query("select id from schedules where running_by is not null");
    expect(unclaimed).toEqual([]);
    for (const n of names) await api(srv.url, token, `/schedules/${n}`, "DELETE");
  });

  it("a webhook that fails is recorded on the run (its address nowhere in it); the loop goes on", async () => {
    const companies = uniqueCompanies(world.emu, 3, 50).map((c) => c.id);
    const target = companies[0]!;
    await api(srv.url, token, "/schedules/hooked", "PUT", {
      companies,
      frequency: "hourly",
      webhooks: [`${hooks.url}/fail`],
    });
    await api(srv.url, token, "/schedules/hooked/run", "POST");
    const server = instance(srv.db, "loop-a");
    expect(await runDue(server, cfg)).toBe(1);
    world.emu.scheduleEvent(target, { day: world.emu.clock.day() + 1, kind: "ADDRESS" });
    advance(1);
    expect(await runDue(server, cfg)).toBe(1);
    const run = (await latestRun("hooked")).runs.at(-1)!;
    expect(run.status).toBe("done");
    expect(run.result.changes.some((l) => l[1] === target)).toBe(true);
    const alert = run.result.alerts[0]!;
    expect(alert.status).toBe("failed");
    expect(alert.error?.en).toMatch(/HTTP 500/);
    expect(JSON.stringify(run.result)).not.toContain("/fail");
  });
});

/** The CLI with no key of its own: only the team server's variables given. */
const cli = (args: string[], env: Record<string, string>) =>
  companyDataCommand(args, { COMPANY_DATA_API_KEY: "", ...env });

function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
