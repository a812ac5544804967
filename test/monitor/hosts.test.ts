import { describe, expect, it } from "vitest";
import { runSync } from "../../shared/core/drivers.ts";
import { scheduleSettings } from "../../shared/monitor/schedule.ts";
import { DAY_MS, HOUR_MS, isDue, UTC } from "../../shared/schedule/slot.ts";
import { startScheduledJobs } from "../../excel-addin/schedule.ts";
import { MONITOR_JOB } from "../../shared/app/scheduled-jobs.ts";
import type { MonitorStatusView } from "../../shared/app/protocol.ts";
import { dispatch } from "../../shared/app/dispatch.ts";
import type { AppDeps, AppInput, AppMethodName } from "../../shared/app/protocol.ts";
import { harness } from "./harness.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { nth } from "../helpers/indexed.ts";

describe("schedule", () => {
  const t0 = Date.parse("2026-03-02T12:00:00Z");
  it("isDue: none yet, or one interval old", () => {
    const hourly = { frequency: "hourly" as const, hour: 0 };
    expect(isDue(hourly, null, { now: t0, zone: UTC })).toBe(true);
    expect(isDue(hourly, new Date(t0 - 30 * 60_000).toISOString(), { now: t0, zone: UTC })).toBe(false);
    expect(isDue(hourly, new Date(t0 - HOUR_MS).toISOString(), { now: t0, zone: UTC })).toBe(true);
  });
  it("daily: due once the last check is older than the latest slot", () => {
    const slot = Date.parse("2026-03-02T07:00:00Z");
    const daily = { frequency: "daily" as const, hour: 7 };
    expect(isDue(daily, "2026-03-02T06:59:00Z", { now: t0, zone: UTC })).toBe(true);
    expect(isDue(daily, "2026-03-02T07:10:00Z", { now: t0, zone: UTC })).toBe(false);
    // Before today's slot, yesterday's slot counts.
    expect(isDue(daily, "2026-03-01T08:00:00Z", { now: slot - HOUR_MS, zone: UTC })).toBe(false);
    expect(isDue(daily, "2026-02-28T08:00:00Z", { now: slot - HOUR_MS, zone: UTC })).toBe(true);
    expect(slot + DAY_MS).toBeGreaterThan(t0);
  });
  it("settings are validated", () => {
    expect(() => scheduleSettings({ frequency: "weekly" })).toThrow(/frequency/);
    expect(() => scheduleSettings({ hour: 24 })).toThrow(/hour/);
    expect(scheduleSettings({ enabled: true, frequency: "hourly", budget: "50" as unknown as number })).toMatchObject({
      enabled: true,
      budget: 50,
    });
  });
});

describe("Excel: refresh on open when the last check is older than the interval, and on a timer", () => {
  it("runs on open when due, not again until the next slot, and again when the clock passes it", async () => {
    const h = harness();
    h.sheets.set("Portfolio", [["ID"], ["DELTU2WDWS05"], ["DEFZ4MICZY78"]]);
    // The app service over the harness: settings (key, base URL) are stored first.
    const pacer = new Pacer();
    const deps = (): AppDeps => ({ host: "excel", now: h.now, random: () => 0.5, documentId: "wb", pacer });
    const call = async <M extends AppMethodName>(method: M, input: AppInput<M>) =>
      runSync(dispatch(deps(), method, input), h.driver);
    h.driver.http = (
      (orig) => (reqs) =>
        orig(reqs.map((r) => ({ ...r, url: r.url.replace(/^https?:\/\/[^/]+/, "http://emulator.test") })))
    )(h.driver.http);
    await call("saveSettings", { apiKey: h.key, baseUrl: "https://emulator.test", language: "en" });
    await call("monitorSaveSchedule", { schedule: { enabled: true, frequency: "daily", hour: 6 } });
    let intervalFn: (() => void) | null = null;
    const loop = startScheduledJobs(
      { call },
      {
        setInterval: (f) => {
          intervalFn = f;
          return 1;
        },
        clearInterval: () => {},
        now: h.now,
      },
    );
    const first = (await loop.first)?.monitor;
    expect(first?.status).toBe("done");
    expect(nth(h.sheets.get("Portfolio"), 1)[1]).toBe("No flags");
    expect(intervalFn).not.toBeNull();
    expect(await loop.tick()).toBeNull(); // same day: not due
    h.advance(1);
    const next = (await loop.tick())?.monitor;
    expect(next?.status).toBe("done");
    const status = (await call("monitorStatus", {})) as { hostNote: { en: string } };
    expect(status.hostNote.en).toMatch(/Nothing is refreshed while the workbook is closed/);
    // Off: no slot, so never due.
    const off = {
      ...status,
      schedule: { enabled: false, frequency: "hourly", hour: 0, budget: null, sheet: "Portfolio" },
    };
    expect(MONITOR_JOB.state(off as MonitorStatusView).slot).toBeNull();
    loop.stop();
  });
});
