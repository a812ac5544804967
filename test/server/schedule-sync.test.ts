/**
 * The add-ins' side of a portfolio schedule on the team server (issue 24,
 * shared/app/monitor-server.ts), through the app service as the task pane
 * calls it, against a team server in this process whose own scheduler loop
 * runs the check (a short tick; the server's clock follows the emulator's
 * days):
 *  - switching the schedule on registers the portfolio sheet's ids, the
 *    hour in UTC, the budget and the alert channels under the workbook's own
 *    name; the status says the schedule lives on the server;
 *  - after the user sorted the portfolio sheet and inserted a row, the sync
 *    writes each company's result into its own row and the change into the
 *    change log; a second sync writes nothing twice;
 *  - a write that fails leaves the cursor where it was, so the next sync
 *    writes the same runs;
 *  - switching it off removes it from the server;
 *  - a colleague (a token of their own) in the same workbook, whose
 *    document keys are the owner's (one document: Sheets' state sheet, Excel's
 *    file settings) and whose settings are their own, syncs the owner's
 *    shared runs by the share id; each change is written once, whoever syncs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asyncStores, memoryStores, runAsync, type AsyncDriver } from "../../shared/core/drivers.ts";
import type { Cell } from "../../shared/core/sheet-protocol.ts";
import { settle } from "../../shared/app/dispatch.ts";
import type { AppDeps, AppMethodName, MonitorStatusView, MonitorSyncView } from "../../shared/app/protocol.ts";
import { SERVER_LINK_KEY } from "../../shared/app/monitor-server.ts";
import { fetchHttp } from "../../shared/web/index.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { Workbook } from "../../shared/sheet/workbook.ts";
import { uniqueCompanies } from "../support/lists.ts";
import type { EmulatorWorld, InProcessServer } from "../support/team-server.ts";
import { runsDone as waitForRuns, startScheduleWorld, type ScheduleWorld } from "../support/schedule-world.ts";

const KEY = "cd_live_SYNCKEY_4b7d2e9a1c";

describe("a portfolio schedule on the team server, from the add-in's app service", () => {
  let world: EmulatorWorld;
  let srv: InProcessServer;
  let token = "";
  let sw: ScheduleWorld;
  const advance = (days: number) => sw.days.advance(days);

  beforeAll(async () => {
    // The server's own loop, ticking often; its clock is the emulator's day at 08:00.
    sw = await startScheduleWorld({ seed: 5, key: KEY, user: "wb-user" });
    ({ world, srv, token } = sw);
  }, 90_000);

  afterAll(() => sw?.close());

  async function serverApi(path: string, method = "GET") {
    const res = await fetch(srv.url + path, { method, headers: { Authorization: `Bearer ${token}` } });
    return { status: res.status, body: await res.json() };
  }

  /** Wait until the server's loop has finished `n` runs of the schedule. */
  const runsDone = (name: string, n: number) => waitForRuns(srv, token, name, n);

  /**
   * The app service of one workbook: the playground's workbook model, its own document store, fetch to the team
   * server. With `same`: another user in that workbook (its sheets and its `doc:` keys; settings of their own).
   */
  function workbookApp(cells: Cell[][], same?: { workbook: Workbook; doc: Map<string, string> }) {
    const workbook = same?.workbook ?? new Workbook([{ name: "Portfolio", cells }]);
    const stores = memoryStores(Date.now);
    if (same) {
      const own = stores.store;
      const route = (k: string) => (k.startsWith("doc:") ? same.doc : own);
      stores.storeGet = (keys) => keys.map((k) => route(k).get(k) ?? null);
      stores.storePut = (entries) => {
        for (const [k, v] of Object.entries(entries)) v === null ? route(k).delete(k) : route(k).set(k, v);
      };
    }
    let failWrites = false;
    const driver: AsyncDriver = {
      http: (reqs) => Promise.all(reqs.map((r) => fetchHttp(fetch, r, 10_000))),
      sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 200))),
      ...asyncStores(stores),
      sheet: async (req) => {
        if (failWrites && req.op === "write") throw new Error("the workbook refused the write");
        return workbook.handle(req);
      },
    };
    const pacer = new Pacer();
    const deps = (): AppDeps => ({ host: "excel", now: Date.now, random: Math.random, documentId: "wb", pacer });
    async function call<T>(method: AppMethodName, input: unknown = {}): Promise<T> {
      const r = await runAsync(settle(deps(), method, input as never), driver);
      if (!r.ok) throw Object.assign(new Error(`${method}: ${r.error.message.en}`), { appError: r.error });
      return r.value as T;
    }
    return {
      workbook,
      stores,
      call,
      failWrites: (on: boolean) => (failWrites = on),
      rows: () => workbook.sheet("Portfolio").cells,
    };
  }

  it("registers, syncs into the sorted sheet and the change log once, keeps the cursor on a failed write, and switches off", async () => {
    const companies = uniqueCompanies(world.emu, 5, 17);
    const active = new Set(world.emu.companies.withStatus("ACTIVE"));
    const target = companies.find((c) => active.has(c.id)) ?? companies[0]!;
    world.emu.scheduleEvent(target.id, { day: world.emu.clock.day() + 3, kind: "INSOLVENCY" });
    const app = workbookApp([["ID", "Firma"], ...companies.map((c) => [c.id, c.name])]);
    await app.call("saveSettings", { connection: "server", serverUrl: srv.url, serverToken: token, language: "en" });

    // Switching on: registered under the workbook's name, 9:00 in UTC+2 is 7:00 UTC.
    const on = await app.call<MonitorStatusView>("monitorSaveSchedule", {
      schedule: { enabled: true, frequency: "daily", hour: 9, sheet: "Portfolio" },
      utcOffsetMinutes: 120,
    });
    expect(on.schedule.enabled).toBe(true);
    const name = on.server!.name;
    expect(name).toMatch(/^wb-[a-z0-9]{12}$/);
    expect(on.server!.registered).toBe(true);
    expect(on.hostNote.en).toMatch(/runs on the team server, also while the workbook is closed/);
    expect(on.webhookSender).toBe("team-server");
    const registered = (await serverApi(`/schedules/${name}`)).body;
    expect(registered.companies.sort()).toEqual(companies.map((c) => c.id).sort());
    expect(registered.hour).toBe(7);
    expect(registered.language).toBe("en");

    // Day 0 "run now" (the baseline), then three days with no workbook open: one run per day at 07:00.
    await serverApi(`/schedules/${name}/run`, "POST");
    await runsDone(name, 1);
    for (let d = 1; d <= 3; d++) {
      advance(1);
      await runsDone(name, d + 1);
    }

    // The user sorted the sheet (descending by name) and inserted a row of their own at the top.
    const [header, ...body] = app.rows();
    body.sort((a, b) => String(b[1]).localeCompare(String(a[1])));
    app.workbook.sheet("Portfolio").cells = [header!, ["", "My own note"], ...body];

    // A write that fails: the sync fails and its cursor stays.
    app.failWrites(true);
    await expect(app.call("monitorSync")).rejects.toThrow();
    expect(JSON.parse(app.stores.store.get(SERVER_LINK_KEY)!).cursor).toBe(0);
    app.failWrites(false);

    const synced = await app.call<MonitorSyncView>("monitorSync");
    expect(synced.runs).toBe(4);
    expect(synced.companies).toBe(5);
    expect(synced.rows).toBe(5);
    expect(synced.lines).toBeGreaterThanOrEqual(1);
    const sheet = app.rows();
    const head = sheet[0]!.map(String);
    const group = head.findIndex((h) => h.startsWith("Risk"));
    const flag = head.indexOf("Flag");
    expect(group).toBeGreaterThan(1);
    // Every row its own company's result: the target's row says insolvent, the others do not; the user's row is untouched.
    for (const row of sheet.slice(1)) {
      if (row[0] === "") {
        expect(row.slice(2).every((c) => c === "" || c === undefined || c === null)).toBe(true);
        continue;
      }
      if (row[0] === target.id) {
        expect(row[group]).toBe("Risk");
        expect(String(row[flag])).toMatch(/[Ii]nsolven/);
      } else expect(String(row[flag])).not.toMatch(/[Ii]nsolven/);
    }
    const log = app.workbook.sheet("Changes").cells;
    const lines = log.slice(1).filter((l) => l[1] === target.id);
    expect(lines.length).toBeGreaterThanOrEqual(1);

    // Synced twice: nothing new, nothing written twice.
    const again = await app.call<MonitorSyncView>("monitorSync");
    expect(again).toMatchObject({ runs: 0, lines: 0 });
    expect(app.workbook.sheet("Changes").cells).toEqual(log);

    // The status shows the server's last run.
    const status = await app.call<MonitorStatusView>("monitorStatus");
    expect(status.server?.lastRun?.id).toBe(synced.lastRun!.id);
    expect(status.server?.nextRun).toMatch(/T07:00:00/);
    expect(status.server?.mail).toBe(false);

    // Switched off: removed from the server.
    const off = await app.call<MonitorStatusView>("monitorSaveSchedule", { schedule: { enabled: false } });
    expect(off.server?.registered).toBe(false);
    expect((await serverApi(`/schedules/${name}`)).status).toBe(404);
  }, 120_000);

  it("e-mail recipients need a server with SMTP; a Slack webhook is taken (the server sends it)", async () => {
    const app = workbookApp([["ID"], [uniqueCompanies(world.emu, 1, 3)[0]!.id]]);
    await app.call("saveSettings", { connection: "server", serverUrl: srv.url, serverToken: token });
    const refused: any = await app.call("monitorSaveAlerts", { alerts: { email: "risk@team.test" } }).catch((e) => e);
    expect(refused.appError.field).toBe("email");
    expect(refused.appError.message.de).toMatch(/versendet keine E-Mails/);
    const ok = await app.call<MonitorStatusView>("monitorSaveAlerts", {
      alerts: { webhook: "https://hooks.slack.com/services/T000/B000/XXXX" },
    });
    expect(ok.alerts.map((a) => a.target)).toEqual(["hooks.slack.com/…"]);
  });

  it("a colleague in the same workbook syncs the owner's shared schedule by its id; each change once", async () => {
    const companies = uniqueCompanies(world.emu, 3, 29);
    const active = new Set(world.emu.companies.withStatus("ACTIVE"));
    const target = companies.find((c) => active.has(c.id)) ?? companies[0]!;
    world.emu.scheduleEvent(target.id, { day: world.emu.clock.day() + 1, kind: "INSOLVENCY" });
    const owner = workbookApp([["ID", "Firma"], ...companies.map((c) => [c.id, c.name])]);
    const colleague = workbookApp([], { workbook: owner.workbook, doc: owner.stores.store });
    const settings = { connection: "server", serverUrl: srv.url, language: "en" } as const;
    await owner.call("saveSettings", { ...settings, serverToken: token });
    const colleagueToken = await srv.token("wb-colleague");
    await colleague.call("saveSettings", { ...settings, serverToken: colleagueToken });
    const on = await owner.call<MonitorStatusView>("monitorSaveSchedule", {
      schedule: { enabled: true, frequency: "daily", hour: 7, sheet: "Portfolio" },
      utcOffsetMinutes: 0,
    });
    expect(on.server).toMatchObject({ registered: true, shared: true });
    const link = JSON.parse(owner.stores.store.get(SERVER_LINK_KEY)!);
    expect(link.shareId).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(link)).not.toContain(token);
    expect((await colleague.call<MonitorStatusView>("monitorStatus")).server?.owner).toBe("wb-user");

    await serverApi(`/schedules/${on.server!.name}/run`, "POST");
    await runsDone(on.server!.name, 1);
    advance(1);
    await runsDone(on.server!.name, 2);
    expect(await colleague.call<MonitorSyncView>("monitorSync")).toMatchObject({ runs: 2, rows: 3 });
    expect(await owner.call<MonitorSyncView>("monitorSync")).toMatchObject({ runs: 0, lines: 0 });
    const keys = owner.workbook
      .sheet("Changes")
      .cells.slice(1)
      .map((l) => l[6]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(owner.workbook.sheet("Changes").cells.filter((l) => l[1] === target.id).length).toBeGreaterThanOrEqual(1);
    // The colleague's look and sync left the owner's settings alone: the owner's token is only in the owner's store.
    expect([...colleague.stores.store.values()].join()).not.toContain(token);
    await owner.call("monitorSaveSchedule", { schedule: { enabled: false } });
  }, 120_000);
});
