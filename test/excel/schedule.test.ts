/**
 * Excel's one loop over the scheduled jobs (excel-addin/schedule.ts): both
 * jobs in one look, a failing job never stops the other, a paused run is
 * taken to its end in the same look (the pane has no deadline), and the
 * add-in starts with the document while any job's schedule is on.
 */
import { afterEach, describe, expect, it } from "vitest";
import { serialiseJobs, startScheduledJobs } from "../../excel-addin/schedule.ts";
import type { AppCall } from "../../shared/ui/index.ts";

const SCHEDULE = { enabled: true, frequency: "hourly" as const, hour: 7, budget: null, sheet: "Portfolio" };
const timers = { setInterval: () => 1, clearInterval: () => {}, now: () => Date.now() };

/** Office.addin.setStartupBehavior as the loop calls it (SharedRuntime 1.1), recording what it was asked. */
function fakeOffice(): string[] {
  const asked: string[] = [];
  (globalThis as { Office?: unknown }).Office = {
    addin: {
      setStartupBehavior: (b: string) => {
        asked.push(b);
        return Promise.resolve();
      },
    },
    StartupBehavior: { load: "load", none: "none" },
  };
  return asked;
}
afterEach(() => {
  delete (globalThis as { Office?: unknown }).Office;
});

describe("Excel: one loop over the scheduled jobs", () => {
  it("the check runs though the refresh's status fails; the add-in starts with the document while the check's schedule is on", async () => {
    const asked = fakeOffice();
    const calls: string[] = [];
    const call = (async (method: string) => {
      calls.push(method);
      if (method === "monitorStatus") return { schedule: SCHEDULE, last: null, paused: false };
      if (method === "refreshStatus") throw new Error("offline");
      return { status: "done" };
    }) as AppCall;
    const loop = startScheduledJobs(serialiseJobs({ call }), timers);
    expect(await loop.first).toEqual({ monitor: { status: "done" } });
    // The third job (a team server's sync) reads the check's status again and finds no server: nothing to fetch.
    expect(calls).toEqual(["monitorStatus", "monitorRun", "refreshStatus", "monitorStatus"]);
    expect(asked).toEqual(["load", "load"]);
    loop.stop();
  });

  it("a paused run is taken to its end in the same look; nothing due and both off: no run, no start with the document", async () => {
    fakeOffice();
    let steps = 0;
    const call = (async (method: string) => {
      if (method === "monitorStatus") return { schedule: SCHEDULE, last: null, paused: false };
      if (method === "refreshStatus")
        return { settings: { enabled: false, table: null, frequency: "daily", hour: 6 }, last: null, paused: false };
      return { status: ++steps < 3 ? "paused" : "done" };
    }) as AppCall;
    const loop = startScheduledJobs(serialiseJobs({ call }), timers);
    expect(await loop.first).toEqual({ monitor: { status: "done" } });
    expect(steps).toBe(3);
    loop.stop();

    const asked = fakeOffice();
    const off = (async (method: string) => {
      if (method === "monitorStatus") return { schedule: { ...SCHEDULE, enabled: false }, last: null, paused: true };
      if (method === "refreshStatus")
        return { settings: { enabled: false, table: null, frequency: "daily", hour: 6 }, last: null, paused: false };
      throw new Error(`not expected: ${method}`);
    }) as AppCall;
    const idle = startScheduledJobs(serialiseJobs({ call: off }), timers);
    expect(await idle.first).toBeNull();
    expect(asked).toEqual(["none", "none", "none"]);
    idle.stop();
  });
});
