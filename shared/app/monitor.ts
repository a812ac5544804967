/**
 * The portfolio monitor's app methods (their types: AppApi in protocol.ts,
 * their table: dispatch.ts), for the UI's Monitor panel
 * (shared/ui/panels/monitor.ts) and the hosts' triggers and timers.
 *
 *   monitorStatus            schedule, last run, whether a run is paused, host note
 *   monitorPreview {sheet}   the exact price of "Check now" (free calls only)
 *   monitorRun {sheet,budget?} one step of a check; "paused" → call again
 *   monitorEstimate {schedule} next run exact + per run / day / month ceiling
 *   monitorSaveSchedule {schedule} store it (hosts then set their trigger/timer)
 *   monitorSaveAlerts {alerts}   e-mail recipients / webhook of the alert digest
 */
import type { Operation } from "../core/index.ts";
import { storeGet } from "../core/index.ts";
import { checkPortfolio, lastRun, RUN_KEY, type RunSummary } from "../monitor/index.ts";
import { scheduleEstimate } from "../monitor/index.ts";
import { loadSchedule, saveSchedule, scheduleSettings } from "../monitor/index.ts";
import {
  alertSettings,
  alertViews,
  channelsOf,
  deliverConfigured,
  loadAlertSettings,
  saveAlertSettings,
  webhookSender,
} from "../monitor/index.ts";
import { hostNote } from "../schedule/index.ts";
import { record } from "./input.ts";
import type { AppDeps, MonitorEstimateView, MonitorStatusView } from "./protocol.ts";
import { MONITOR_JOB } from "./scheduled-jobs.ts";
import { withSession } from "./session.ts";
import { contextFromSettings, loadSettings } from "./settings.ts";

const NO_ALERTS = { email: [], webhook: null };

function sheetOf(input: Record<string, unknown>, fallback: string): string {
  const v = input.sheet;
  return typeof v === "string" && v.trim() ? v.trim().slice(0, 100) : fallback;
}

function budgetOf(input: Record<string, unknown>, fallback: number | null): number | null {
  if (!("budget" in input)) return fallback;
  // 0 is a real cap here (Check now passes the price it showed, which may be 0); a schedule's budget starts at 1.
  if (input.budget === 0) return 0;
  return scheduleSettings({ budget: input.budget }).budget;
}

export function* monitorStatusMethod(deps: AppDeps, _input: unknown): Operation<MonitorStatusView> {
  const schedule = yield* loadSchedule();
  const settings = yield* loadSettings();
  const ctx = contextFromSettings(settings, deps);
  const last = yield* lastRun(ctx);
  const [run] = yield* storeGet([RUN_KEY(ctx)]);
  const alerts = yield* alertViews(ctx, yield* loadAlertSettings());
  return {
    schedule,
    last,
    paused: run !== null,
    hostNote: hostNote(MONITOR_JOB.hostNotes, deps.host),
    alerts,
    webhookSender: webhookSender(deps.host, settings.connection),
  };
}

export function* monitorPreviewMethod(deps: AppDeps, input: unknown): Operation<RunSummary> {
  const i = record(input);
  const schedule = yield* loadSchedule();
  return yield* withSession(deps, "monitor", function* ({ ctx }) {
    return yield* checkPortfolio(ctx, { sheet: sheetOf(i, schedule.sheet), preview: true });
  });
}

/** One step of a check under the host's deadline; the UI calls again while the status is "paused". */
export function* monitorRunMethod(deps: AppDeps, input: unknown): Operation<RunSummary> {
  const i = record(input);
  const schedule = yield* loadSchedule();
  // With a team server its schedule sends the alerts (monitor-server.ts): a check from here notes none, so none goes out twice.
  const alerts = (yield* loadSettings()).connection === "server" ? NO_ALERTS : yield* loadAlertSettings();
  return yield* withSession(deps, "monitor", function* ({ ctx }) {
    const summary = yield* checkPortfolio(ctx, {
      sheet: sheetOf(i, schedule.sheet),
      budget: budgetOf(i, schedule.budget),
      deadline: deps.deadline,
      alerts: channelsOf(alerts, deps.mailer),
      // Every cell the check changes is in the document's audit (shared/undo/): the Runs view can take it back.
      audit: { who: deps.who ?? "" },
    });
    // One digest per finished check (a paused one delivers when it finishes); what fails waits for the next.
    if (summary.status !== "paused") yield* deliverConfigured(ctx, alerts, deps.mailer);
    return summary;
  });
}

export function* monitorEstimateMethod(deps: AppDeps, input: unknown): Operation<MonitorEstimateView> {
  const i = record(input);
  const current = yield* loadSchedule();
  const s = scheduleSettings({ ...current, ...record(i.schedule, "schedule") });
  return yield* withSession(deps, "monitor", function* ({ ctx }) {
    const preview = yield* checkPortfolio(ctx, { sheet: s.sheet, preview: true });
    return {
      ...scheduleEstimate(
        { companies: preview.companies, withFinancials: preview.withFinancials, nextRun: preview.estimate },
        s,
      ),
      preview,
    };
  });
}

export function* monitorSaveScheduleMethod(deps: AppDeps, input: unknown): Operation<MonitorStatusView> {
  const i = record(input);
  const current = yield* loadSchedule();
  yield* saveSchedule(scheduleSettings({ ...current, ...record(i.schedule, "schedule") }));
  return yield* monitorStatusMethod(deps, {});
}

export function* monitorSaveAlertsMethod(deps: AppDeps, input: unknown): Operation<MonitorStatusView> {
  const i = record(input);
  yield* saveAlertSettings(alertSettings(record(i.alerts, "alerts"), yield* loadAlertSettings(), deps.host));
  return yield* monitorStatusMethod(deps, {});
}
