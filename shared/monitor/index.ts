/**
 * The public surface of shared/monitor/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export {
  alertSettings,
  alertViews,
  channelsOf,
  deliverConfigured,
  loadAlertSettings,
  maskWebhook,
  saveAlertSettings,
  underPrefix,
  webhookSender,
} from "./alert-settings.ts";
export type { AlertChannelView, Mailer, WebhookSender } from "./alert-settings.ts";
export { deliverAlerts, DeliveryError } from "./alerts.ts";
export type { DeliveryOutcome } from "./alerts.ts";
export { CHANGES_HEADERS, CHANGES_SHEETS, appendNew } from "./changelog.ts";
export type { LogLine } from "./changelog.ts";
export { MAX_STALLED_CALLS, PORTFOLIO_SHEET, RUN_KEY } from "./check-types.ts";
export type { RunSummary } from "./check-types.ts";
export { checkPortfolio, lastRun } from "./check.ts";
export { portfolioParts, scheduleEstimate } from "./estimate.ts";
export type { PortfolioPlanned, ScheduleEstimate } from "./estimate.ts";
export { GROUP_LABEL, SCREENING_NOTE } from "./risk.ts";
export type { RiskFlag, RiskGroup } from "./risk.ts";
export { loadSchedule, saveSchedule, scheduleSettings } from "./schedule.ts";
export type { Frequency, ScheduleSettings } from "./schedule.ts";
export { screenIds } from "./screen-ids.ts";
export type { ScreenedCompany } from "./screen-ids.ts";
export { changedSince, loadStates } from "./watermark.ts";
export type { CompanyState } from "./watermark.ts";
export { checkWebhookUrl, postWebhook } from "./webhook.ts";
export {
  deleteServerSchedule,
  portfolioIds,
  registerServerSchedule,
  serverRunsSince,
  serverRunsText,
  serverSchedules,
  shareServerSchedule,
  sharedServerSchedule,
} from "./server-schedule.ts";
export { outputCellsOf, writeServerRuns } from "./server-sync.ts";
export type { RestoredCells, ServerRunsWritten, SyncAudit } from "./server-sync.ts";
export type {
  ServerFrequency,
  ServerRun,
  ServerRuns,
  ServerScheduleInput,
  ServerScheduleView,
  SharedScheduleView,
} from "./server-schedule.ts";
