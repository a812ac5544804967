/**
 * The public surface of shared/refresh/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { estimateRefresh, readTable } from "./estimate.ts";
export type { RefreshEstimate } from "./estimate.ts";
export { REFRESH_LOGS } from "./log.ts";
export { monthSpend } from "./month.ts";
export type { MonthSpend } from "./month.ts";
export { lastRefresh, refreshStep } from "./run.ts";
export type { RefreshSummary } from "./run.ts";
export { loadRefreshSettings, refreshSettings, refreshSlot, saveRefreshSettings } from "./settings.ts";
export type { RefreshSettings, RefreshTable } from "./settings.ts";
