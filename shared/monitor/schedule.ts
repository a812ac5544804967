/**
 * Host-neutral schedule settings for the portfolio check: daily at an hour,
 * or hourly, with an optional per-run credit budget. When it is due, and how
 * each host runs it, is the one scheduled-job rule of shared/schedule/
 * (the job itself: shared/app/scheduled-jobs.ts).
 */
import * as z from "zod/mini";
import { invalid } from "../core/index.ts";
import { validate as V } from "../api/index.ts";
import { formNumber, settingsStore, slotFields, slotShape } from "../schedule/index.ts";

export type Frequency = "hourly" | "daily";
const FREQUENCIES = ["hourly", "daily"] as const;

export interface ScheduleSettings {
  enabled: boolean;
  frequency: Frequency;
  /** Hour of day (0–23, the spreadsheet's time zone) for daily runs. */
  hour: number;
  /** Credits one run may spend at most; null = no cap. */
  budget: number | null;
  /** The portfolio sheet's name. */
  sheet: string;
}

export const DEFAULT_SCHEDULE: ScheduleSettings = {
  enabled: false,
  frequency: "daily",
  hour: 7,
  budget: null,
  sheet: "Portfolio",
};

/** Per-document: the schedule belongs to the workbook, not to the user. */
export const SCHEDULE_KEY = "doc:mon:schedule";

/** Validate settings from the UI; INVALID_INPUT names the field. */
export function scheduleSettings(value: unknown): ScheduleSettings {
  if (typeof value !== "object" || value === null)
    throw invalid("schedule", { de: "erwartet Einstellungen für den Zeitplan", en: "expected schedule settings" });
  const v = value as Record<string, unknown>;
  const slot = slotFields(v, FREQUENCIES, DEFAULT_SCHEDULE);
  const budget =
    v.budget === null || v.budget === undefined || v.budget === ""
      ? null
      : V.integer(formNumber(v.budget), "budget", 1, 1_000_000);
  const sheet = V.nonEmpty(v.sheet ?? DEFAULT_SCHEDULE.sheet, "sheet", 100);
  return { ...slot, budget, sheet };
}

const store = settingsStore<ScheduleSettings>({
  key: SCHEDULE_KEY,
  shape: z.object({ ...slotShape(FREQUENCIES), budget: z.nullable(z.number()), sheet: z.string() }),
  validate: scheduleSettings,
  defaults: DEFAULT_SCHEDULE,
});
export const SAVED_SCHEDULE = store.kind;
export const loadSchedule = store.load;
export const saveSchedule = store.save;
