/**
 * One workbook, two devices (issue 42, item 1, "Done when"): the task pane's
 * app service on each device over its own OfficeRuntime.storage and its own
 * in-memory copy of the workbook's settings (excel-addin/sim/file-settings.ts:
 * Office.Settings as documented, the whole bag saved by saveAsync, last
 * writer wins), both over one file (its settings and its sheets: the
 * playground's workbook model), against a team server in this process whose
 * own loop runs the portfolio schedule. The same user on both devices (a
 * team server keeps schedules per user).
 *  - device A switches the schedule on and saves a search; device B, opening
 *    the file, sees the same schedule (same name on the server) and the same
 *    saved search, and nothing of A's token is in the file;
 *  - both sync at the same moment: the lease in the file lets one run, the
 *    other says another copy is at it; every server run is taken over once
 *    and every change is in the change log once;
 *  - a later run is synced by whichever device looks first; the other finds
 *    nothing new (the cursor is in the file).
 * Two users, one file (issue 42, item 1: "by any user with access"): the
 * owner's copy shares the schedule with the team read-only (the default when
 * the workbook links it); a colleague's copy, with the colleague's own
 * token, sees whose it is, syncs its runs by the share id in the file, and
 * every change lands once whoever syncs; the colleague's copy can switch,
 * change or unshare nothing; unshared, the colleague's fetch says why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAsync } from "../../shared/core/drivers.ts";
import type { Cell } from "../../shared/core/sheet-protocol.ts";
import { settle } from "../../shared/app/dispatch.ts";
import type { AppDeps, MonitorStatusView, MonitorSyncView, SavedSearch } from "../../shared/app/protocol.ts";
import { hostFromEnvelopes, UiCallError } from "../../shared/ui/index.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { Workbook } from "../../shared/sheet/index.ts";
import { createExcelDriver } from "../../excel-addin/host/driver.ts";
import { memoryStorage } from "../../excel-addin/host/storage.ts";
import { documentState } from "../../excel-addin/host/document-state.ts";
import { giveBackLease, renewLease, takeLease, withDocumentState } from "../../excel-addin/host/file-store.ts";
import { withWorkbookLeases } from "../../excel-addin/workbook-lease.ts";
import { explainForeignSchedule } from "../../excel-addin/server-sync.ts";
import { fakeSettings, sharedFile, type SharedFile } from "../../excel-addin/sim/file-settings.ts";
import { uniqueCompanies } from "../support/lists.ts";
import type { EmulatorWorld, InProcessServer } from "../support/team-server.ts";
import { runsDone as waitForRuns, startScheduleWorld, type ScheduleWorld } from "../support/schedule-world.ts";

const KEY = "cd_live_TWODEVICES_7c1e3b5a9d";

describe("one workbook on two devices", () => {
  let world: EmulatorWorld;
  let srv: InProcessServer;
  let token = "";
  let sw: ScheduleWorld;
  const advance = (days: number) => sw.days.advance(days);

  beforeAll(async () => {
    sw = await startScheduleWorld({ seed: 11, key: KEY, user: "two-devices" });
    ({ world, srv, token } = sw);
  }, 90_000);

  afterAll(() => sw?.close());

  /** Wait until the server's loop has finished `n` runs of the schedule. */
  const runsDone = (name: string, n: number, as = token) => waitForRuns(srv, as, name, n);

  /** A device with the file open: its own storage and settings copy; the file's sheets shared. */
  function deviceApp(file: SharedFile, workbook: Workbook, owner: string) {
    const storage = memoryStorage();
    const state = documentState(fakeSettings(file));
    const device = createExcelDriver({ fetch, storage, docId: async () => "wb-file", timeoutMs: 10_000 });
    const driver = { ...withDocumentState(device, state), sheet: async (req: never) => workbook.handle(req) };
    const pacer = new Pacer();
    const deps: AppDeps = { host: "excel", now: Date.now, random: Math.random, documentId: "wb-file", pacer };
    const direct = hostFromEnvelopes("excel", (method, input) => runAsync(settle(deps, method, input), driver));
    const leased = withWorkbookLeases(direct, {
      take: (job) => takeLease(state, job, { owner, settleMs: 60 }),
      renew: (job) => renewLease(state, job, { owner }),
      giveBack: (job) => giveBackLease(state, job, owner),
      renewEveryMs: 1_000,
    });
    const host = explainForeignSchedule(leased);
    return { storage, call: host.call };
  }

  it("both see the schedule and the saved searches, and sync each server run once", async () => {
    const companies = uniqueCompanies(world.emu, 4, 23);
    const active = new Set(world.emu.companies.withStatus("ACTIVE"));
    const target = companies.find((c) => active.has(c.id)) ?? companies[0]!;
    world.emu.scheduleEvent(target.id, { day: world.emu.clock.day() + 1, kind: "INSOLVENCY" });
    const file = sharedFile();
    const cells: Cell[][] = [["ID", "Firma"], ...companies.map((c) => [c.id, c.name])];
    const workbook = new Workbook([{ name: "Portfolio", cells }]);
    const settings = { connection: "server", serverUrl: srv.url, serverToken: token, language: "en" } as const;

    const a = deviceApp(file, workbook, "device-A");
    await a.call("saveSettings", settings);
    const on = await a.call("monitorSaveSchedule", {
      schedule: { enabled: true, frequency: "daily", hour: 9, sheet: "Portfolio" },
      utcOffsetMinutes: 60,
    });
    const name = on.server!.name;
    await a.call("saveSearch", { name: "Bakeries", query: "Bäckerei" });

    // Device B opens the file afterwards: the same schedule, the same name on the server, the same saved search.
    const b = deviceApp(file, workbook, "device-B");
    await b.call("saveSettings", settings);
    const seen: MonitorStatusView = await b.call("monitorStatus", {});
    expect(seen.schedule).toMatchObject({ enabled: true, frequency: "daily", hour: 9, sheet: "Portfolio" });
    expect(seen.server).toMatchObject({ name, registered: true });
    const searches: SavedSearch[] = await b.call("listSavedSearches", {});
    expect(searches.map((s) => s.name)).toEqual(["Bakeries"]);
    // The file holds the workbook's state, never a secret.
    const fileText = JSON.stringify(Object.fromEntries(file.bag));
    expect(fileText).toContain(name);
    expect(fileText).not.toContain(token);

    // The server runs while no copy syncs: a baseline today, then a day with the insolvency.
    await fetch(`${srv.url}/schedules/${name}/run`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
    await runsDone(name, 1);
    advance(1);
    await runsDone(name, 2);

    // Both devices sync at the same moment: one takes the runs over, the other stands aside.
    const both = await Promise.allSettled([a.call("monitorSync", {}), b.call("monitorSync", {})]);
    const done = both.filter((r): r is PromiseFulfilledResult<MonitorSyncView> => r.status === "fulfilled");
    const refused = both.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(done.map((r) => r.value.runs).reduce((x, y) => x + y, 0)).toBe(2);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(UiCallError);
      expect((r.reason as UiCallError).error.message.en).toMatch(/Another open copy of this workbook/);
    }
    const log = () => workbook.sheet("Changes").cells;
    const keys = log()
      .slice(1)
      .map((l) => l[6]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(log().filter((l) => l[1] === target.id).length).toBeGreaterThanOrEqual(1);
    const logged = structuredClone(log());

    // Each syncs again: nothing left for either (the cursor is in the file).
    expect(await a.call("monitorSync", {})).toMatchObject({ runs: 0, lines: 0 });
    expect(await b.call("monitorSync", {})).toMatchObject({ runs: 0, lines: 0 });

    // A later run: the first to look takes it over, the other finds nothing new.
    advance(1);
    await runsDone(name, 3);
    expect(await b.call("monitorSync", {})).toMatchObject({ runs: 1 });
    expect(await a.call("monitorSync", {})).toMatchObject({ runs: 0, lines: 0 });
    expect(log().slice(0, logged.length)).toEqual(logged);
    const all = log()
      .slice(1)
      .map((l) => l[6]);
    expect(new Set(all).size).toBe(all.length);
  }, 120_000);

  it("two users, one file: the colleague syncs the owner's shared schedule, each change once, and changes nothing", async () => {
    const companies = uniqueCompanies(world.emu, 4, 41);
    const active = new Set(world.emu.companies.withStatus("ACTIVE"));
    const target = companies.find((c) => active.has(c.id)) ?? companies[0]!;
    world.emu.scheduleEvent(target.id, { day: world.emu.clock.day() + 1, kind: "INSOLVENCY" });
    const file = sharedFile();
    const workbook = new Workbook([
      { name: "Portfolio", cells: [["ID", "Firma"], ...companies.map((c) => [c.id, c.name])] },
    ]);
    const ownerToken = await srv.token("owner-user");
    const colleagueToken = await srv.token("colleague-user");
    const settings = { connection: "server", serverUrl: srv.url, language: "en" } as const;

    const a = deviceApp(file, workbook, "owner-device");
    await a.call("saveSettings", { ...settings, serverToken: ownerToken });
    const on: MonitorStatusView = await a.call("monitorSaveSchedule", {
      schedule: { enabled: true, frequency: "daily", hour: 9, sheet: "Portfolio" },
      utcOffsetMinutes: 0,
    });
    expect(on.server).toMatchObject({ registered: true, shared: true });
    expect(on.server!.owner).toBeUndefined();
    const name = on.server!.name;

    // The colleague opens the same file with a token of their own: whose it is, read-only.
    const c = deviceApp(file, workbook, "colleague-device");
    await c.call("saveSettings", { ...settings, serverToken: colleagueToken });
    const seen: MonitorStatusView = await c.call("monitorStatus", {});
    expect(seen.schedule.enabled).toBe(true);
    expect(seen.server).toMatchObject({ name, registered: true, owner: "owner-user" });
    for (const [method, input] of [
      ["monitorSaveSchedule", { schedule: { enabled: false } }],
      ["monitorSaveSchedule", { schedule: { enabled: true, hour: 5 } }],
      ["monitorShare", { shared: false }],
      ["monitorSaveAlerts", { alerts: { webhook: "https://hooks.slack.com/services/T0/B0/X" } }],
    ] as const) {
      const refused = await c.call(method, input as never).catch((e: unknown) => e);
      expect(refused, method).toBeInstanceOf(UiCallError);
      expect((refused as UiCallError).error.message.en).toMatch(/belongs to owner-user.*read-only/);
    }
    // Nothing of it changed: still on in the file and on the server, the colleague has no schedule of their own.
    expect((await a.call("monitorStatus", {})).server).toMatchObject({ registered: true, shared: true });
    const colleagueList = await fetch(`${srv.url}/schedules`, {
      headers: { Authorization: `Bearer ${colleagueToken}` },
    });
    expect(((await colleagueList.json()) as { schedules: unknown[] }).schedules).toEqual([]);
    const fileText = JSON.stringify(Object.fromEntries(file.bag));
    expect(fileText).not.toContain(ownerToken);
    expect(fileText).not.toContain(colleagueToken);

    // Two runs while nobody syncs; both users sync at once: every run taken over once, every change once.
    await fetch(`${srv.url}/schedules/${name}/run`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ownerToken}` },
    });
    await runsDone(name, 1, ownerToken);
    advance(1);
    await runsDone(name, 2, ownerToken);
    const both = await Promise.allSettled([a.call("monitorSync", {}), c.call("monitorSync", {})]);
    const done = both.filter((r): r is PromiseFulfilledResult<MonitorSyncView> => r.status === "fulfilled");
    expect(done.map((r) => r.value.runs).reduce((x, y) => x + y, 0)).toBe(2);
    const keys = () =>
      workbook
        .sheet("Changes")
        .cells.slice(1)
        .map((l) => l[6]);
    expect(new Set(keys()).size).toBe(keys().length);
    expect(workbook.sheet("Changes").cells.filter((l) => l[1] === target.id).length).toBeGreaterThanOrEqual(1);

    // A later run: the colleague looks first and takes it over; the owner finds nothing new (one cursor, in the file).
    const logged = keys().length;
    advance(1);
    await runsDone(name, 3, ownerToken);
    expect(await c.call("monitorSync", {})).toMatchObject({ runs: 1 });
    expect(await a.call("monitorSync", {})).toMatchObject({ runs: 0, lines: 0 });
    expect(keys().length).toBeGreaterThanOrEqual(logged);
    expect(new Set(keys()).size).toBe(keys().length);

    // The owner stops sharing: the colleague's fetch says why (and not to switch it on again); the owner's syncs.
    const off: MonitorStatusView = await a.call("monitorShare", { shared: false });
    expect(off.server).toMatchObject({ registered: true, shared: false });
    const refusal = await c.call("monitorSync", {}).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(UiCallError);
    expect((refusal as UiCallError).error.message.en).toMatch(/does not share it with the team.*run twice/);
    expect(await a.call("monitorSync", {})).toMatchObject({ runs: 0 });
  }, 120_000);
});
