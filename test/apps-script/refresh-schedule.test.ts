/**
 * The scheduled refresh through the built Code.js: the Enrich sidebar's
 * uiCall stores the settings (after the estimate) and sets the document's
 * one time-driven trigger (shared with the portfolio check); the trigger's
 * handler runs outside the document (no active spreadsheet: the harness's
 * fire()), opens it by id and refreshes the rows older than N days against
 * the in-process emulator whose clock moves with the script's.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import { createEmulator } from "../../emulator/index.ts";
import { createSheetsFake, DOCUMENT_ID } from "./harness.ts";
import { wantedTrigger } from "../../apps-script/monitor.ts";

const OUT = mkdtempSync(join(tmpdir(), "apps-script-refresh-"));
let code = "";
const HOUR = 3_600_000;

beforeAll(async () => {
  await buildWithReport(OUT);
  code = readFileSync(join(OUT, "Code.js"), "utf8");
});

function world() {
  const clock = { t: 0 };
  const emu = createEmulator({ companies: 400, seed: 11, startDate: "2026-01-15", now: () => clock.t });
  const at = (hour: number) => Date.parse(`${emu.clock.today()}T00:00:00Z`) + hour * HOUR;
  clock.t = at(5);
  const ids = emu.companies.withStatus("ACTIVE").slice(0, 10);
  const f = createSheetsFake({
    emulator: emu,
    dist: OUT,
    now: () => clock.t,
    sheets: { List: [["ID", "Company"], ...ids.map((id) => [id, ""])] },
    onSleep: (ms) => {
      clock.t += ms;
    },
  });
  f.load(code);
  f.setClock(() => clock.t);
  const credits = 1_000_000;
  const key = emu.createKey(credits);
  for (const [k, v] of Object.entries({ apiKey: key, baseUrl: "https://api.implisense.com", language: "en" }))
    f.setUser(k, v);
  const ui = <T = unknown>(method: string, input: unknown) =>
    JSON.parse(f.call("uiCall", method, JSON.stringify(input)) as string) as { ok: boolean; value: T; error?: unknown };
  return { emu, f, clock, at, ids, ui, charged: () => credits - emu.balance(key) };
}

const TABLE = {
  sheet: "List",
  row: 1,
  col: 1,
  rows: 11,
  cols: 2,
  mapping: { id: 0 },
  fields: ["name", "city", "address"],
  mode: "batch",
};

describe("Sheets: the scheduled refresh's trigger", () => {
  it("one trigger for check and refresh: daily at the same hour, else hourly", () => {
    expect(wantedTrigger([null, null])).toBeNull();
    expect(wantedTrigger([null, { frequency: "daily", hour: 7 }])).toEqual({ frequency: "daily", hour: 7 });
    expect(
      wantedTrigger([
        { frequency: "daily", hour: 7 },
        { frequency: "daily", hour: 7 },
      ]),
    ).toEqual({ frequency: "daily", hour: 7 });
    expect(
      wantedTrigger([
        { frequency: "daily", hour: 7 },
        { frequency: "daily", hour: 9 },
      ])?.frequency,
    ).toBe("hourly");
    expect(wantedTrigger([{ frequency: "hourly", hour: 7 }, null])?.frequency).toBe("hourly");
  });

  it("the trigger (outside the document) enriches on day 0, refreshes on day 8 with N = 7, shows old → new and logs it once", () => {
    const w = world();
    const setNow = (ms: number) => {
      w.clock.t = ms;
    };
    const refresh = { table: TABLE, olderThanDays: 7, frequency: "daily", hour: 7, monthCeiling: 100 };
    const est = w.ui<{ nextRun: number; dueNow: number }>("refreshEstimate", { refresh });
    expect(est.ok, JSON.stringify(est.error)).toBe(true);
    expect(est.value).toMatchObject({ dueNow: 10, nextRun: 10 });
    const saved = w.ui<{ settings: { enabled: boolean } }>("refreshSaveSettings", {
      refresh: { ...refresh, enabled: true },
    });
    expect(saved.ok, JSON.stringify(saved.error)).toBe(true);
    const mine = () => w.f.triggers.filter((t) => t.documentId === DOCUMENT_ID);
    expect(mine()).toHaveLength(1);
    expect(mine()[0]).toMatchObject({ handler: "monitorTick", kind: "daily", hour: 7 });
    expect(w.charged()).toBe(0);

    // Day 0: the daily tick (no active spreadsheet) opens the document by id and enriches the new rows.
    const day0 = w.f.runSchedule(w.clock.t, w.at(23), setNow);
    expect(day0.filter((r) => r.error)).toEqual([]);
    expect(day0).toHaveLength(1);
    expect(w.charged()).toBe(est.value.nextRun);
    const grid = () => w.f.grids.get("List") ?? [];
    const header = () => (grid()[0] ?? []).map(String);
    expect(header()).toContain("Changes");

    const target = w.ids[0] ?? "";
    w.emu.scheduleEvent(target, { day: 5, kind: "ADDRESS" });
    for (let day = 1; day <= 8; day++) {
      w.emu.clock.advance(1);
      setNow(w.at(5));
      const before = w.charged();
      const runs = w.f.runSchedule(w.at(5), w.at(23), setNow);
      expect(runs.filter((r) => r.error)).toEqual([]);
      // Nothing is due before day 8 (as of day 0, older than 7 days only from day 8).
      if (day < 8) expect(w.charged() - before, `day ${day}`).toBe(0);
      else expect(w.charged() - before).toBe(10);
    }
    const changes = header().indexOf("Changes");
    const changed = grid()
      .slice(1)
      .filter((r) => String(r[changes] ?? "") !== "");
    expect(changed.map((r) => r[0])).toEqual([target]);
    expect(String(changed[0]?.[changes])).toMatch(/^Address: .+ → .+$/);
    const log = (w.f.grids.get("Refresh log") ?? []).slice(1);
    expect(log).toHaveLength(1);
    expect(log[0]?.[1]).toBe(target);
    const status = w.ui<{ last: { status: string; changedRows: number }; month: { spent: number } }>(
      "refreshStatus",
      {},
    );
    expect(status.value.last).toMatchObject({ status: "done", changedRows: 1 });
    expect(status.value.month.spent).toBe(20);
    expect(mine()).toHaveLength(1);

    // Switched off: the trigger goes (the portfolio check is off too).
    expect(w.ui("refreshSaveSettings", { refresh: { enabled: false } }).ok).toBe(true);
    expect(mine()).toHaveLength(0);
  });
});
