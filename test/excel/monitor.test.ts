/** Excel monitoring: the timer's check and the task pane's "Check now" never run at the same time. */
import { describe, expect, it } from "vitest";
import { serialiseJobs, startScheduledJobs } from "../../excel-addin/schedule.ts";
import type { AppCall } from "../../shared/ui/index.ts";

const SCHEDULE = { enabled: true, frequency: "hourly" as const, hour: 7, budget: null, sheet: "Portfolio" };

/** An app service whose monitorRun takes until the test lets it finish, counting runs and overlap. */
function fakeService() {
  const runs: unknown[] = [];
  const finish: (() => void)[] = [];
  let active = 0;
  let maxActive = 0;
  let lastFinished: string | null = null;
  // Answers only what the loop reads of each method; typed as the app service for the code under test.
  const call = (async (method: string, input: unknown): Promise<unknown> => {
    if (method === "monitorStatus")
      return {
        schedule: SCHEDULE,
        last: lastFinished ? { finishedAt: lastFinished } : null,
        paused: false,
        hostNote: { de: "", en: "" },
      };
    if (method !== "monitorRun") return { method };
    runs.push(input);
    active++;
    maxActive = Math.max(maxActive, active);
    await new Promise<void>((r) => finish.push(r));
    active--;
    lastFinished = new Date().toISOString();
    return { status: "done", message: { de: "", en: `run ${runs.length}` } };
  }) as AppCall;
  return {
    call,
    runs,
    finish,
    get maxActive() {
      return maxActive;
    },
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const timers = { setInterval: () => 1, clearInterval: () => {}, now: () => Date.now() };

describe("serialised checks", () => {
  it('a "Check now" while the timer\'s check runs joins it: one run, one answer for both', async () => {
    const svc = fakeService();
    const host = serialiseJobs({ call: svc.call });
    const loop = startScheduledJobs(host, timers); // on open: due (never ran) → the timer's run starts
    await flush();
    expect(svc.runs).toHaveLength(1);
    expect(host.running("monitor")).toBe(true);
    const manual = host.call("monitorRun", { sheet: "Portfolio", budget: null });
    // Another timer look while it runs does not start a second check.
    expect(await loop.tick()).toBeNull();
    await flush();
    expect(svc.runs).toHaveLength(1);
    svc.finish.shift()!();
    const [timerRan, manualAnswer] = await Promise.all([loop.first, manual]);
    const timerAnswer = timerRan?.monitor;
    expect(manualAnswer).toBe(timerAnswer);
    expect(svc.runs).toHaveLength(1);
    expect(host.running("monitor")).toBe(false);
    loop.stop();
  });

  it("a check of another sheet waits for the running one; two never overlap", async () => {
    const svc = fakeService();
    const host = serialiseJobs({ call: svc.call });
    const a = host.call("monitorRun", { sheet: "Portfolio", budget: null });
    const b = host.call("monitorRun", { sheet: "Watchlist", budget: 50 });
    const c = host.call("monitorRun", { sheet: "Watchlist", budget: 50 }); // joins b
    await flush();
    expect(svc.runs).toEqual([{ sheet: "Portfolio", budget: null }]);
    svc.finish.shift()!();
    await a;
    await flush();
    expect(svc.runs).toHaveLength(2);
    svc.finish.shift()!();
    expect(await c).toBe(await b);
    expect(svc.runs).toHaveLength(2);
    expect(svc.maxActive).toBe(1);
  });

  it("a failed check does not block the next; other methods pass straight through", async () => {
    let n = 0;
    const host = serialiseJobs({
      call: (async (method: string, _input: unknown) => {
        if (method !== "monitorRun") return method;
        if (++n === 1) throw new Error("offline");
        return "ok";
      }) as AppCall,
    });
    await expect(host.call("monitorRun", {})).rejects.toThrow("offline");
    expect(await host.call("monitorRun", {})).toBe("ok");
    expect(await host.call("monitorStatus", {})).toBe("monitorStatus");
    expect(host.running("monitor")).toBe(false);
  });

  it("without the lock the same two requests would both run (the test can fail)", async () => {
    const svc = fakeService();
    void svc.call("monitorRun", {});
    void svc.call("monitorRun", {});
    await flush();
    expect(svc.maxActive).toBe(2);
    svc.finish.forEach((f) => f());
  });
});
