/**
 * Issue 16, deliverable 1, against the in-process emulator with its clock:
 * a list enriched on day 0; a company's address changes on day 5; a refresh
 * on day 8 with N = 7 refreshes the due rows, shows old → new for that
 * company only and logs one line; a second refresh the same day spends
 * nothing; the monthly ceiling stops a run exactly at the ceiling (counted
 * from the emulator's balance), and a new month starts again.
 */
import { describe, expect, it } from "vitest";
import { runSync } from "../../shared/core/drivers.ts";
import { enrichSheet } from "../../shared/enrich/run.ts";
import { refreshStep } from "../../shared/refresh/run.ts";
import { estimateRefresh, readTable } from "../../shared/refresh/estimate.ts";
import { monthSpend } from "../../shared/refresh/month.ts";
import { REFRESH_LOGS } from "../../shared/refresh/log.ts";
import { isDue, UTC } from "../../shared/schedule/slot.ts";
import {
  refreshSlot,
  refreshSettings,
  type RefreshSettings,
  type RefreshTable,
} from "../../shared/refresh/settings.ts";
import { harness, type Harness } from "../monitor/harness.ts";
import portfolio from "../../emulator/data/reference/portfolio.json" with { type: "json" };

const FIELDS = ["name", "city", "address"];
const TABLE: RefreshTable = {
  sheet: "List",
  row: 1,
  col: 1,
  rows: 11,
  cols: 2,
  mapping: { id: 0, name: 1 },
  fields: FIELDS,
  mode: "batch",
};
const settings = (over: Partial<RefreshSettings> = {}): RefreshSettings & { table: RefreshTable } => ({
  ...refreshSettings({
    enabled: true,
    table: TABLE,
    olderThanDays: 7,
    frequency: "daily",
    hour: 6,
    monthCeiling: 1000,
    ...over,
  }),
  table: TABLE,
});

function enrichedList(opts: { language?: "de" | "en" } = {}): Harness {
  const h = harness(opts);
  h.sheets.set("List", [["ID", "Company"], ...portfolio.portfolio.map((c) => [c.id, c.name])]);
  const r = runSync(enrichSheet(h.ctx, { sheet: "List", row: 1, col: 1, rows: 11, cols: 2, fields: FIELDS }), h.driver);
  expect(r.complete).toBe(true);
  return h;
}

const header = (h: Harness) => (h.sheets.get("List")[0] ?? []).map(String);
const rowOf = (h: Harness, id: string) => h.sheets.get("List").find((r) => r[0] === id) ?? [];

describe("scheduled refresh against the emulator", () => {
  it("day 8, N = 7: the due rows are refreshed, old → new for the changed company only, one log line; again the same day spends nothing", () => {
    const h = enrichedList();
    const target = portfolio.portfolio[0]?.id ?? "";
    const addressCol = header(h).indexOf("Address");
    const oldAddress = String(rowOf(h, target)[addressCol]);
    h.emu.scheduleEvent(target, { day: 5, kind: "ADDRESS" });
    h.advance(8);

    const s = settings();
    const { input, previous } = runSync(readTable(TABLE), h.driver);
    const est = estimateRefresh(input, previous, s, runSync(monthSpend(h.ctx, s.monthCeiling), h.driver), h.now());
    expect(est.dueNow).toBe(10);
    expect(est.nextRun).toBe(10); // a profile each (1 credit)

    const before = h.charged();
    const run = runSync(refreshStep(h.ctx, s), h.driver);
    const charged = h.charged() - before;
    expect(run.status).toBe("done");
    expect(run.refreshed).toBe(10);
    expect(charged).toBe(run.credits);
    expect(charged).toBeLessThanOrEqual(est.nextRun);
    expect(run.month.spent).toBe(charged);

    const changesCol = header(h).indexOf("Changes");
    expect(changesCol).toBe(header(h).indexOf("As of") + 1);
    const newAddress = String(rowOf(h, target)[addressCol]);
    expect(newAddress).not.toBe(oldAddress);
    expect(rowOf(h, target)[changesCol]).toBe(`Address: ${oldAddress} → ${newAddress}`);
    const changed = h.sheets
      .get("List")
      .slice(1)
      .filter((r) => String(r[changesCol] ?? "") !== "");
    expect(changed.map((r) => r[0])).toEqual([target]);
    expect(run.changedRows).toBe(1);
    expect(run.changedValues).toBe(1);

    const log = h.sheets.get(REFRESH_LOGS.en);
    expect(log[0]).toEqual(["Date", "Company ID", "Company", "Field", "Old", "New", "Key"]);
    expect(log.slice(1)).toHaveLength(1);
    const line = log[1] ?? [];
    expect([line[1], line[3], line[4], line[5]]).toEqual([target, "Address", oldAddress, newAddress]);
    expect(String(line[2])).not.toBe(""); // the company's name

    // The same day again: nothing is due, nothing is spent, nothing logged twice.
    const again = runSync(refreshStep(h.ctx, s), h.driver);
    expect(h.charged() - before).toBe(charged);
    expect(again.credits).toBe(0);
    expect(again.refreshed).toBe(0);
    expect(h.sheets.get(REFRESH_LOGS.en).slice(1)).toHaveLength(1);
  });

  it("the monthly ceiling stops a run exactly at the ceiling, never above; the next month continues", () => {
    const h = enrichedList({ language: "de" });
    h.advance(8);
    const s = settings({ monthCeiling: 4 });
    const before = h.charged();
    const run = runSync(refreshStep(h.ctx, s), h.driver);
    expect(h.charged() - before).toBe(4);
    expect(run).toMatchObject({ status: "ceiling", credits: 4, refreshed: 4, left: 6 });
    expect(run.month).toMatchObject({ spent: 4, ceiling: 4, left: 0 });
    expect(run.message.de).toMatch(/Monatsgrenze erreicht: 6 fällige Zeilen warten/);
    // German users get the German change column header.
    expect(header(h)).toContain("Änderungen");

    // Later the same month: the ceiling is used up, nothing is spent.
    h.advance(1);
    const blocked = runSync(refreshStep(h.ctx, s), h.driver);
    expect(h.charged() - before).toBe(4);
    expect(blocked).toMatchObject({ status: "ceiling", credits: 0, left: 6 });

    // A new month (March → April): the counter starts at zero; the rows left come first.
    h.advance(25);
    const april = runSync(refreshStep(h.ctx, s), h.driver);
    expect(april.month.month).toBe("2026-04");
    expect(april.credits).toBe(4);
    expect(h.charged() - before).toBe(8);
  });

  it("a step killed mid-run keeps its reservation: the month never overspends", () => {
    const h = enrichedList();
    h.advance(8);
    const s = settings({ monthCeiling: 6 });
    const before = h.charged();
    h.crashOn("write", 2);
    expect(() => runSync(refreshStep(h.ctx, s), h.driver)).toThrow(/host crashed/);
    // What the step was charged before it died counts; the emulator charged no more than the ceiling.
    const charged = h.charged() - before;
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThanOrEqual(6);
    expect(runSync(monthSpend(h.ctx, 6), h.driver).spent).toBeGreaterThanOrEqual(charged);
    // The next step continues within what is left: the month ends at the ceiling, never above.
    runSync(refreshStep(h.ctx, s), h.driver);
    expect(h.charged() - before).toBeLessThanOrEqual(6);
  });

  it("due by the schedule: daily after the hour's slot, weekly after six and a half days", () => {
    const slot = Date.parse("2026-03-10T06:00:00Z");
    const now = slot + 3_600_000;
    // The slot is 06:00 of the user's day (UTC here): the hour of the settings.
    const clock = { now, zone: UTC };
    expect(new Date(slot).getUTCHours()).toBe(6);
    const daily = { frequency: "daily" as const, hour: 6 };
    const weekly = { frequency: "weekly" as const, hour: 6 };
    expect(isDue(daily, null, clock)).toBe(true);
    expect(isDue(daily, "2026-03-09T06:30:00Z", clock)).toBe(true);
    expect(isDue(daily, "2026-03-10T06:30:00Z", clock)).toBe(false);
    expect(isDue(weekly, "2026-03-09T06:30:00Z", clock)).toBe(false);
    expect(isDue(weekly, "2026-03-03T06:30:00Z", clock)).toBe(true);
    // Off: no slot, so never due.
    expect(refreshSlot({ ...refreshSettings({}), enabled: false })).toBeNull();
    expect(() => refreshSettings({ enabled: true })).toThrow(/table/);
    expect(() => refreshSettings({ frequency: "hourly" })).toThrow(/frequency/);
  });
});
