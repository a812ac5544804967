/**
 * Excel with a team server: the scheduled-job loop (excel-addin/schedule.ts)
 * fetches the server's runs into the workbook on open and on the timer
 * (SERVER_SYNC_JOB) instead of a local check; in direct mode there is no
 * sync and the local check runs when due. A sync and a check of one workbook
 * never run at once (excel-addin/server-sync.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { serialiseJobs, startScheduledJobs } from "../../excel-addin/schedule.ts";
import { serialiseSyncs } from "../../excel-addin/server-sync.ts";
import type { AppCall } from "../../shared/ui/index.ts";

const SCHEDULE = { enabled: true, frequency: "hourly" as const, hour: 7, budget: null, sheet: "Portfolio" };
const timers = { setInterval: () => 1, clearInterval: () => {}, now: () => Date.now() };
const REFRESH_OFF = {
  settings: { enabled: false, table: null, frequency: "daily", hour: 6 },
  last: null,
  paused: false,
};

/** Office.addin.setStartupBehavior as the loop calls it, recording what it was asked. */
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

/** An app service answering what the loop reads, with or without a registered server schedule. */
function service(server: boolean) {
  const calls: string[] = [];
  const call = (async (method: string): Promise<unknown> => {
    calls.push(method);
    if (method === "monitorStatus")
      return {
        schedule: SCHEDULE,
        last: null,
        paused: false,
        hostNote: { de: "", en: "" },
        ...(server ? { server: { name: "wb-x", registered: true, syncedAt: new Date().toISOString() } } : {}),
      };
    if (method === "refreshStatus") return REFRESH_OFF;
    if (method === "monitorSync") return { runs: 1, companies: 1, rows: 1, lines: 1, lastRun: null };
    return { status: "done", message: { de: "", en: "" } };
  }) as AppCall;
  return { call, calls };
}

describe("Excel with a team server", () => {
  it("server mode: the open syncs the server's runs (just synced or not), the local check stands aside, the add-in starts with the document", async () => {
    const asked = fakeOffice();
    const svc = service(true);
    const loop = startScheduledJobs(serialiseJobs(serialiseSyncs({ call: svc.call })), timers);
    expect(await loop.first).toEqual({ "server-sync": { runs: 1, companies: 1, rows: 1, lines: 1, lastRun: null } });
    expect(svc.calls).toContain("monitorSync");
    expect(svc.calls).not.toContain("monitorRun");
    expect(asked.at(-1)).toBe("load");
    // The timer's next look syncs again: a look cannot know when the server's run ended.
    expect(await loop.tick()).toHaveProperty("server-sync");
    loop.stop();
  });

  it("direct mode: no sync; the local check runs when due", async () => {
    fakeOffice();
    const svc = service(false);
    const loop = startScheduledJobs(serialiseJobs(serialiseSyncs({ call: svc.call })), timers);
    expect(await loop.first).toEqual({ monitor: { status: "done", message: { de: "", en: "" } } });
    expect(svc.calls).not.toContain("monitorSync");
    loop.stop();
  });

  it("one sync at a time: a second joins the first; a check waits for the sync, a sync for a check", async () => {
    const order: string[] = [];
    const release: (() => void)[] = [];
    const call = (async (method: string): Promise<unknown> => {
      order.push(`${method}:start`);
      await new Promise<void>((r) => release.push(r));
      order.push(`${method}:end`);
      return method === "monitorSync" ? { runs: 1 } : { status: "done" };
    }) as AppCall;
    const host = serialiseJobs(serialiseSyncs({ call }));
    const a = host.call("monitorSync", {});
    const b = host.call("monitorSync", {});
    const check = host.call("monitorRun", { sheet: "Portfolio" });
    const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
    await tick();
    expect(order).toEqual(["monitorSync:start"]);
    release.shift()!();
    expect(await a).toBe(await b);
    await tick();
    expect(order).toEqual(["monitorSync:start", "monitorSync:end", "monitorRun:start"]);
    const again = host.call("monitorSync", {});
    await tick();
    expect(order.at(-1)).toBe("monitorRun:start"); // the sync waits for the running check
    release.shift()!();
    await check;
    await tick();
    release.shift()!();
    await again;
    expect(order.slice(3)).toEqual(["monitorRun:end", "monitorSync:start", "monitorSync:end"]);
  });
});
