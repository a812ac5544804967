/**
 * The public surface of shared/schedule/: scheduled jobs (when one is due,
 * its settings' common fields, the one tick every host's loop runs). Import
 * from here, never from a module inside (eslint-rules/layers.js); modules of
 * this folder import each other directly.
 */
export { DAY_MS, HOUR_MS, intervalMs, isDue, latestSlot, nextSlot, runsPerDay, UTC, WEEK_MS } from "./slot.ts";
export type { DueClock, Frequency, Slot, ZoneOffset } from "./slot.ts";
export { formNumber, settingsStore, slotFields, slotShape } from "./settings.ts";
export type { SettingsStore, SlotFields } from "./settings.ts";
export { hostNote, jobStates, runTickAsync, runTickSync, runToEnd, tickJobs, tickWant } from "./job.ts";
export type {
  HostNotes,
  JobCall,
  JobOutcome,
  JobState,
  ScheduledJob,
  StepSummary,
  TickOptions,
  TickWant,
} from "./job.ts";
