/**
 * Excel: the scheduled refresh runs when the workbook opens (its slot has
 * passed since the last run) and on the timer while it is open, through the
 * app service over the emulator harness; a refresh asked for twice at once
 * runs once.
 */
import { describe, expect, it } from "vitest";
import { runSync } from "../../shared/core/drivers.ts";
import { dispatch } from "../../shared/app/dispatch.ts";
import type { AppDeps, AppInput, AppMethodName } from "../../shared/app/protocol.ts";
import type { AppCall } from "../../shared/ui/index.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { serialiseJobs, startScheduledJobs } from "../../excel-addin/schedule.ts";
import { DEFAULT_REFRESH, refreshSlot } from "../../shared/refresh/settings.ts";
import { harness } from "../monitor/harness.ts";
import portfolio from "../../emulator/data/reference/portfolio.json" with { type: "json" };

const TABLE = {
  sheet: "List",
  row: 1,
  col: 1,
  rows: 11,
  cols: 2,
  mapping: { id: 0, name: 1 },
  fields: ["name", "city", "address"],
  mode: "batch" as const,
};

function excel() {
  const h = harness();
  h.sheets.set("List", [["ID", "Company"], ...portfolio.portfolio.map((c) => [c.id, c.name])]);
  const pacer = new Pacer();
  const deps = (): AppDeps => ({ host: "excel", now: h.now, random: () => 0.5, documentId: "wb", pacer });
  let calls = 0;
  const call = async <M extends AppMethodName>(method: M, input: AppInput<M>) => {
    if (method === "refreshRun") calls++;
    return runSync(dispatch(deps(), method, input), h.driver);
  };
  h.driver.http = (
    (orig) => (reqs) =>
      orig(reqs.map((r) => ({ ...r, url: r.url.replace(/^https?:\/\/[^/]+/, "http://emulator.test") })))
  )(h.driver.http);
  return { h, call, runs: () => calls };
}

describe("Excel: the scheduled refresh on open and on a timer", () => {
  it("runs on open, not again the same day, and on the timer once rows are older than N days", async () => {
    const { h, call } = excel();
    await call("saveSettings", { apiKey: h.key, baseUrl: "https://emulator.test", language: "en" });
    const est = (await call("refreshEstimate", {
      refresh: { table: TABLE, olderThanDays: 7, frequency: "daily", hour: 6, monthCeiling: 100 },
    })) as { nextRun: number };
    expect(est.nextRun).toBe(10);
    await call("refreshSaveSettings", {
      refresh: { table: TABLE, olderThanDays: 7, frequency: "daily", hour: 6, monthCeiling: 100, enabled: true },
    });

    let timer: (() => void) | null = null;
    const loop = startScheduledJobs(serialiseJobs({ call }), {
      setInterval: (f) => {
        timer = f;
        return 1;
      },
      clearInterval: () => {},
      now: h.now,
    });
    const first = (await loop.first)?.refresh;
    expect(first).toMatchObject({ status: "done", refreshed: 10, credits: 10 });
    expect(timer).not.toBeNull();
    expect(await loop.tick()).toBeNull(); // the same day: not due

    const target = portfolio.portfolio[0]?.id ?? "";
    h.emu.scheduleEvent(target, { day: 3, kind: "ADDRESS" });
    for (let day = 1; day <= 7; day++) {
      h.advance(1);
      const r = (await loop.tick())?.refresh;
      // Due daily, but nothing is older than 7 days before day 8: a run that spends nothing.
      expect(r?.credits ?? 0, `day ${day}`).toBe(0);
    }
    h.advance(1);
    const day8 = (await loop.tick())?.refresh;
    expect(day8).toMatchObject({ status: "done", refreshed: 10, credits: 10, changedRows: 1 });
    const status = (await call("refreshStatus", {})) as { hostNote: { en: string }; month: { spent: number } };
    expect(status.hostNote.en).toMatch(/Nothing is refreshed while the workbook is closed/);
    expect(status.month.spent).toBe(20);
    loop.stop();
  });

  it("a refresh asked for while one runs gets that run's answer; off or without a table nothing is due", async () => {
    let release: (v: unknown) => void = () => {};
    let calls = 0;
    const slow = {
      call: ((method: string, _input: unknown) =>
        method === "refreshRun"
          ? (calls++, new Promise<unknown>((r) => (release = r)))
          : Promise.resolve(null)) as AppCall,
    };
    const host = serialiseJobs(slow);
    const a = host.call("refreshRun", {});
    const b = host.call("refreshRun", {});
    expect(host.running("refresh")).toBe(true);
    release({ status: "done" });
    expect(await a).toEqual(await b);
    expect(calls).toBe(1);
    // Off, or on without a table: no slot, so never due.
    expect(refreshSlot({ ...DEFAULT_REFRESH, enabled: false })).toBeNull();
    expect(refreshSlot({ ...DEFAULT_REFRESH, enabled: true, table: null })).toBeNull();
  });
});
