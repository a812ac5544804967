/**
 * Excel with a team server (excel-addin/server-sync.ts): on open and on the
 * timer the server's runs are fetched into the workbook instead of a local
 * check; in direct mode the sync does nothing and the local check runs.
 */
import { describe, expect, it } from "vitest";
import { startMonitor } from "../../excel-addin/monitor.ts";
import { serialiseSyncs, startServerSync } from "../../excel-addin/server-sync.ts";
import type { AppCall } from "../../shared/ui/index.ts";

const SCHEDULE = { enabled: true, frequency: "hourly" as const, hour: 7, budget: null, sheet: "Portfolio" };
const timers = { setInterval: () => 1, clearInterval: () => {}, now: () => Date.now() };

/** An app service answering what the loops read, with or without a registered server schedule. */
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
        ...(server ? { server: { name: "wb-x", registered: true } } : {}),
      };
    if (method === "monitorSync") return { runs: 1, companies: 1, rows: 1, lines: 1, lastRun: null };
    return { status: "done", message: { de: "", en: "" } };
  }) as AppCall;
  return { call, calls };
}

describe("Excel with a team server", () => {
  it("server mode: the open syncs the server's runs and the local check stands aside", async () => {
    const svc = service(true);
    const sync = startServerSync({ call: svc.call }, timers);
    const local = startMonitor({ call: svc.call }, timers);
    expect(await sync.first).toMatchObject({ runs: 1 });
    expect(await local.first).toBeNull();
    expect(svc.calls).toContain("monitorSync");
    expect(svc.calls).not.toContain("monitorRun");
  });

  it("direct mode: no sync; the local check runs when due", async () => {
    const svc = service(false);
    const sync = startServerSync({ call: svc.call }, timers);
    const local = startMonitor({ call: svc.call }, timers);
    expect(await sync.first).toBeNull();
    expect(await local.first).toMatchObject({ status: "done" });
    expect(svc.calls).not.toContain("monitorSync");
  });

  it("a sync waits while a check of the workbook runs (both write the portfolio sheet)", async () => {
    const svc = service(true);
    const sync = startServerSync({ call: svc.call, checking: () => true }, timers);
    expect(await sync.first).toBeNull();
    expect(svc.calls).toEqual([]);
  });

  it("one sync at a time: a second joins the first; a check waits for the sync to end", async () => {
    const order: string[] = [];
    let release!: () => void;
    const call = (async (method: string): Promise<unknown> => {
      order.push(`${method}:start`);
      if (method === "monitorSync") await new Promise<void>((r) => (release = r));
      order.push(`${method}:end`);
      return method === "monitorSync" ? { runs: 1 } : { status: "done" };
    }) as AppCall;
    const host = serialiseSyncs({ call });
    const a = host.call("monitorSync", {});
    const b = host.call("monitorSync", {});
    const check = host.call("monitorRun", { sheet: "Portfolio" });
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(["monitorSync:start"]);
    release();
    expect(await a).toBe(await b);
    await check;
    expect(order).toEqual(["monitorSync:start", "monitorSync:end", "monitorRun:start", "monitorRun:end"]);
  });
});
