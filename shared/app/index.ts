/**
 * The public surface of shared/app/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { APP_METHODS, dispatch, dispatchFromWire, isAppMethod, settle, uiCall } from "./dispatch.ts";
export { refreshTableOf } from "./enrich-config.ts";
export { errorView } from "./errors.ts";
export { estimate } from "./estimate.ts";
export type { PlannedOperation } from "./estimate.ts";
export type { MonitorStatusView } from "./protocol.ts";
export { SEARCH_DEFAULTS } from "./protocol.ts";
export type {
  AccountView,
  AppDeps,
  AlertsInput,
  AppApi,
  AppError,
  AppInput,
  AppMethodName,
  AppOutput,
  AppResult,
  ColumnRole,
  CompanyRow,
  ConnectionInput,
  ConnectionResult,
  CostView,
  EnrichConfig,
  EnrichPreviewView,
  EnrichProgressView,
  FieldGroupView,
  MonitorEstimateView,
  MonitorSyncView,
  RerunMode,
  ServerRunView,
  ServerScheduleStatus,
  SaveSettingsInput,
  SavedSearch,
  SearchAllPriceView,
  SearchFilterInput,
  SearchInput,
  SearchOutput,
  SelectionView,
  SimilarOutput,
} from "./protocol.ts";
export type { RefreshStatusView } from "./protocol.ts";
export { ROW_COLUMNS, companyRow } from "./rows.ts";
export { spendingContext } from "./session.ts";
export { SETTINGS_KEYS, loadSettings, maskKey } from "./settings.ts";
export { withStartLanguage } from "./start-language.ts";
export type { ConnectionMode, ContextInputs, HostKind, SettingsView } from "./settings.ts";
export { appCallOf, jobSavedBy, MONITOR_JOB, REFRESH_JOB, SCHEDULED_JOBS } from "./scheduled-jobs.ts";
export type { AnyAppJob, AppJob, JobMethod, JobsRan } from "./scheduled-jobs.ts";
