/**
 * Starting with the workbook only where it cannot hurt (issue 42, item 3):
 * the workbook's choice (shared/app/monitor-startup.ts, kept in the file),
 * its defaults (on for a check in the workbook, off with a team server), the
 * Monitor panel's switch, and Excel's setStartupBehavior following it
 * (excel-addin/schedule.ts withStartupChoice): `load` is never asked against
 * the workbook's choice, `none` as soon as it is switched off.
 */
import { afterEach, describe, expect, it } from "vitest";
import { asyncStores, memoryStores, runAsync, type AsyncDriver } from "../../shared/core/drivers.ts";
import { settle } from "../../shared/app/dispatch.ts";
import type { AppDeps, AppMethodName, MonitorStatusView } from "../../shared/app/protocol.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { Workbook } from "../../shared/sheet/index.ts";
import { startScheduledJobs, withStartupChoice } from "../../excel-addin/schedule.ts";
import type { AppCall } from "../../shared/ui/index.ts";

/** Office.addin.setStartupBehavior, recording what it was asked. */
function fakeOffice(): string[] {
  const asked: string[] = [];
  (globalThis as { Office?: unknown }).Office = {
    addin: { setStartupBehavior: (b: string) => (asked.push(b), Promise.resolve()) },
    StartupBehavior: { load: "load", none: "none" },
  };
  return asked;
}
afterEach(() => {
  delete (globalThis as { Office?: unknown }).Office;
});

/** The app service over memory stores (direct mode, no network needed for the status). */
function app(host: AppDeps["host"]) {
  const stores = memoryStores(Date.now);
  const workbook = new Workbook([{ name: "Portfolio", cells: [["ID"]] }]);
  const driver: AsyncDriver = {
    http: async () => {
      throw new Error("no network in this test");
    },
    sleep: async () => {},
    ...asyncStores(stores),
    sheet: async (req) => workbook.handle(req),
  };
  const deps: AppDeps = { host, now: Date.now, random: Math.random, documentId: "wb", pacer: new Pacer() };
  return async <T>(method: AppMethodName, input: unknown = {}): Promise<T> => {
    const r = await runAsync(settle(deps, method, input as never), driver);
    if (!r.ok) throw new Error(`${method}: ${r.error.message.en}`);
    return r.value as T;
  };
}

describe("starting the add-in with the workbook", () => {
  it("is the workbook's choice in Excel: on by default for a check in the workbook, switched off for everyone", async () => {
    const call = app("excel");
    const status = await call<MonitorStatusView>("monitorStatus");
    expect(status.startup).toEqual({ on: true, chosen: false });
    const off = await call<MonitorStatusView>("monitorStartup", { on: false });
    expect(off.startup).toEqual({ on: false, chosen: true });
    expect((await call<MonitorStatusView>("monitorStatus")).startup).toEqual({ on: false, chosen: true });
    await expect(call("monitorStartup", { on: "yes" })).rejects.toThrow(/on or off/);
    // Other hosts have no such setting.
    expect((await app("sheets")<MonitorStatusView>("monitorStatus")).startup).toBeUndefined();
  });

  it("Excel asks for `load` only while a schedule is on and the workbook allows it; the switch asks `none` at once", async () => {
    const asked = fakeOffice();
    let startup = { on: false, chosen: false };
    const schedule = { enabled: true, frequency: "daily" as const, hour: 7, budget: null, sheet: "Portfolio" };
    const view = () => ({ schedule, last: null, paused: false, hostNote: { de: "", en: "" }, alerts: [], startup });
    const service = (async (method: string, input: { on?: boolean }): Promise<unknown> => {
      if (method === "monitorStartup") startup = { on: input.on === true, chosen: true };
      if (method.startsWith("monitor") && method !== "monitorRun") return view();
      if (method === "refreshStatus") return { settings: { enabled: false }, last: null, paused: false };
      return { status: "done", message: { de: "", en: "" } };
    }) as AppCall;
    const host = withStartupChoice({ call: service });
    const timers = { setInterval: () => 1, clearInterval: () => {}, now: () => Date.now() };
    const loop = startScheduledJobs(host, timers);
    await loop.first;
    // The schedule is on, but the workbook does not start the add-in (a team server's default): never `load`.
    expect(asked.length).toBeGreaterThan(0);
    expect(asked).not.toContain("load");
    // The panel's switch: on, then `load`; off again, then `none` at once.
    await host.call("monitorStartup", { on: true });
    expect(asked.at(-1)).toBe("load");
    await host.call("monitorStartup", { on: false });
    expect(asked.at(-1)).toBe("none");
    await loop.tick();
    expect(asked.at(-1)).toBe("none");
    loop.stop();
  });
});
