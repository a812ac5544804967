/**
 * With a team server the portfolio schedule runs on the server, also while
 * the workbook is closed (shared/app/monitor-server.ts); Excel's part is to
 * write what the server's runs found into the workbook. This does it when
 * the workbook opens and on the pane's timer, instead of the local check of
 * ./monitor.ts (which stands aside in server mode):
 *  - on open: the shared runtime starts with the document while a schedule
 *    is on (./monitor.ts wantStartup → Office.addin.setStartupBehavior(load)),
 *    so this runs without the user opening the task pane. Microsoft, "Run
 *    code in your Office Add-in when the document opens"
 *    (https://learn.microsoft.com/office/dev/add-ins/develop/run-code-on-document-open):
 *    the setting is made at run time, so the add-in must have been opened
 *    once on the document; from then on "whenever the document is reopened,
 *    the add-in loads immediately" and Office.onReady's code runs (here:
 *    taskpane/main.ts). It needs SharedRuntime 1.1 ("Shared runtime
 *    requirement sets",
 *    https://learn.microsoft.com/javascript/api/requirement-sets/common/shared-runtime-requirement-sets:
 *    Excel on the web; Windows from Version 2002; Mac from 16.35); an older
 *    Excel syncs when the task pane is opened;
 *  - then every POLL_MS while the workbook is open.
 * A sync never runs beside a check of the same workbook (both write the
 * portfolio sheet): the timer skips a look while a check runs.
 */
import type { AppInput, MonitorSyncView } from "../shared/app/index.ts";
import type { RunSummary } from "../shared/monitor/index.ts";
import { HOUR_MS } from "../shared/monitor/index.ts";
import { overrideCalls } from "../shared/ui/index.ts";
import { PANE_TIMERS, POLL_MS, type MonitorCaller, type PaneTimers, type SerialisedChecks } from "./monitor.ts";

/**
 * One sync at a time per workbook, never beside a check: the loop's sync
 * and the Monitor panel's (on opening, "Fetch results now") both read the
 * change log's keys and then append, so two at once could log a line twice.
 * A sync asked for while one runs gets that one's answer; a check asked for
 * while a sync runs starts after it.
 */
export function serialiseSyncs<H extends MonitorCaller>(host: H): H {
  let syncing: Promise<MonitorSyncView> | null = null;
  const monitorSync = (input: AppInput<"monitorSync">): Promise<MonitorSyncView> => {
    if (syncing) return syncing;
    const answer = host.call("monitorSync", input);
    syncing = answer;
    void answer.catch(() => undefined).then(() => (syncing = null));
    return answer;
  };
  const monitorRun = async (input: AppInput<"monitorRun">): Promise<RunSummary> => {
    await syncing?.catch(() => undefined);
    return host.call("monitorRun", input);
  };
  return { ...host, call: overrideCalls(host.call, { monitorSync, monitorRun }) };
}

export interface ServerSyncLoop {
  /** The look made at start (on open). */
  first: Promise<MonitorSyncView | null>;
  /** Look now; resolves with what the sync wrote, or null when there was nothing to do. */
  tick(): Promise<MonitorSyncView | null>;
  stop(): void;
}

export function startServerSync(
  host: MonitorCaller & Partial<SerialisedChecks>,
  timers: PaneTimers = PANE_TIMERS,
): ServerSyncLoop {
  let busy = false;
  const tick = async (): Promise<MonitorSyncView | null> => {
    if (busy || host.checking?.()) return null;
    busy = true;
    try {
      const status = await host.call("monitorStatus", {});
      if (!status.server?.registered) return null;
      return await host.call("monitorSync", {});
    } catch {
      return null; // offline, a token revoked, the sheet renamed: the Monitor panel says why when opened; the timer tries again
    } finally {
      busy = false;
    }
  };
  const first = tick();
  const handle = timers.setInterval(() => void tick(), Math.min(POLL_MS, HOUR_MS));
  return { first, tick, stop: () => timers.clearInterval(handle) };
}
