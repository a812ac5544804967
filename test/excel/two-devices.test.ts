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
  const runsDone = (name: string, n: number) => waitForRuns(srv, token, name, n);

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

    // A colleague with a token of their own sees the workbook's schedule, but the server keeps it under its owner:
    // their fetch says so (and that switching it on again would run it twice) instead of "not found".
    const colleague = deviceApp(file, workbook, "device-C");
    await colleague.call("saveSettings", { ...settings, serverToken: await srv.token("colleague") });
    expect((await colleague.call("monitorStatus", {})).schedule.enabled).toBe(true);
    const refusal = await colleague.call("monitorSync", {}).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(UiCallError);
    expect((refusal as UiCallError).error.message.en).toMatch(/a colleague switched it on.*run twice/);
    expect(log()).toHaveLength(all.length + 1);
  }, 120_000);
});
