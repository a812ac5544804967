/**
 * Extension point for the portfolio monitor. The monitoring module adds its
 * methods here (names start with "monitor", e.g. monitorStatus, monitorRun);
 * dispatch picks them up without further wiring, and the UI's Monitor panel
 * (shared/ui/panels/monitor.ts) calls them.
 */
import type { AppMethod } from "./protocol.ts";

export const MONITOR_METHODS: Record<`monitor${string}`, AppMethod> = {};
