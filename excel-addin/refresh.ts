/**
 * The scheduled refresh of an enriched list in Excel. Like the portfolio
 * check (./monitor.ts), nothing runs while the workbook is closed: when it
 * opens (the shared runtime starts with the document once a schedule is on)
 * the refresh runs if its slot has passed since the last one, and while it
 * is open a timer looks again every few minutes. The refresh itself is the
 * shared one (refreshRun through the app service).
 */
import type { RefreshSummary } from "../shared/refresh/index.ts";
import { isRefreshDue, type RefreshSettings } from "../shared/refresh/index.ts";
import { overrideCalls } from "../shared/ui/index.ts";
import { PANE_TIMERS, POLL_MS, todaysSlot, wantStartup, type MonitorCaller, type PaneTimers } from "./monitor.ts";

export function isRefreshDueNow(s: RefreshSettings, lastFinished: string | null | undefined, now: number): boolean {
  return !!s.table && isRefreshDue(s, lastFinished, now, todaysSlot(now, s.hour));
}

/**
 * One refresh at a time per workbook: the timer and the pane's "Refresh now"
 * share this caller. A refreshRun asked for while one is under way gets that
 * run's answer (nothing is refreshed or paid twice); other methods pass.
 */
export function serialiseRefresh<H extends MonitorCaller>(host: H): H & { refreshing(): boolean } {
  let current: Promise<RefreshSummary> | undefined;
  const refreshRun = (): Promise<RefreshSummary> => {
    if (current) return current;
    const answer = host.call("refreshRun", {});
    current = answer;
    void answer
      .catch(() => undefined)
      .then(() => {
        if (current === answer) current = undefined;
      });
    return answer;
  };
  return { ...host, call: overrideCalls(host.call, { refreshRun }), refreshing: () => current !== undefined };
}

export interface RefreshLoop {
  /** The look made at start (on open). */
  first: Promise<RefreshSummary | null>;
  /** Look now; resolves with the run's summary when one ran. */
  tick(): Promise<RefreshSummary | null>;
  stop(): void;
}

/** Look whether a refresh is due now and every POLL_MS; run it to the end (the pane has no time limit) when due. */
export function startRefresh(
  host: MonitorCaller & { refreshing?(): boolean },
  timers: PaneTimers = PANE_TIMERS,
): RefreshLoop {
  let busy = false;
  const tick = async (): Promise<RefreshSummary | null> => {
    if (busy || host.refreshing?.()) return null;
    busy = true;
    try {
      const status = await host.call("refreshStatus", {});
      wantStartup("refresh", status.settings.enabled);
      if (!status.paused && !isRefreshDueNow(status.settings, status.last?.finishedAt, timers.now())) return null;
      if (!status.settings.enabled || !status.settings.table) return null;
      let summary: RefreshSummary;
      let steps = 0;
      do summary = await host.call("refreshRun", {});
      while (summary.status === "paused" && ++steps < 50);
      return summary;
    } catch {
      return null; // no key yet, offline, …: the pane shows errors when the user acts; the timer tries again
    } finally {
      busy = false;
    }
  };
  const first = tick();
  const handle = timers.setInterval(() => void tick(), POLL_MS);
  return { first, tick, stop: () => timers.clearInterval(handle) };
}
