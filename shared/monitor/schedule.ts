/**
 * Host-neutral schedule settings for the portfolio check: daily at an hour,
 * or hourly, with an optional per-run credit budget. Sheets turns them into
 * an installable time-driven trigger; Excel (which cannot run while the
 * workbook is closed) checks `isDue` when the workbook opens and on a timer.
 */
import { storeGet, storePut, type Operation } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import { readSaved, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import { got, rule } from "../i18n/index.ts";
import { validate as V } from "../api/index.ts";

export type Frequency = "hourly" | "daily";

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

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** Per-document: the schedule belongs to the workbook, not to the user. */
export const SCHEDULE_KEY = "doc:mon:schedule";

export const runsPerDay = (s: Pick<ScheduleSettings, "frequency">) => (s.frequency === "hourly" ? 24 : 1);
export const intervalMs = (s: Pick<ScheduleSettings, "frequency">) => (s.frequency === "hourly" ? HOUR_MS : DAY_MS);

/** Validate settings from the UI; INVALID_INPUT names the field. */
export function scheduleSettings(value: unknown): ScheduleSettings {
  if (typeof value !== "object" || value === null)
    throw invalid("schedule", { de: "erwartet Einstellungen für den Zeitplan", en: "expected schedule settings" });
  const v = value as Record<string, unknown>;
  const frequency = v.frequency ?? DEFAULT_SCHEDULE.frequency;
  if (frequency !== "hourly" && frequency !== "daily")
    throw invalid(
      "frequency",
      got({ de: "erwartet stündlich (hourly) oder täglich (daily)", en: "expected hourly or daily" }, frequency),
    );
  // Form fields arrive as text.
  const n = (x: unknown) => (typeof x === "string" && x.trim() !== "" && Number.isFinite(Number(x)) ? Number(x) : x);
  const hour = V.integer(n(v.hour ?? DEFAULT_SCHEDULE.hour), "hour", 0, 23);
  const budget =
    v.budget === null || v.budget === undefined || v.budget === ""
      ? null
      : V.integer(n(v.budget), "budget", 1, 1_000_000);
  const sheet = V.nonEmpty(v.sheet ?? DEFAULT_SCHEDULE.sheet, "sheet", 100);
  if (typeof v.enabled !== "boolean" && v.enabled !== undefined) throw invalid("enabled", rule.type("boolean"));
  return { enabled: v.enabled === true, frequency, hour, budget, sheet };
}

/** The saved form: what scheduleSettings returns, checked again the same way on reading. */
const scheduleShape: z.ZodMiniType<ScheduleSettings> = z.pipe(
  z.object({
    enabled: z.boolean(),
    frequency: z.enum(["hourly", "daily"]),
    hour: z.number(),
    budget: z.nullable(z.number()),
    sheet: z.string(),
  }),
  z.transform((v, ctx) => {
    try {
      return scheduleSettings(v);
    } catch {
      ctx.issues.push({ code: "custom", message: "schedule", input: v });
      return z.NEVER;
    }
  }),
);
/** Written without a version before v1: still read, or an update would silently stop the user's schedule. */
export const SAVED_SCHEDULE = savedKind(1, scheduleShape, scheduleShape);

export function* loadSchedule(): Operation<ScheduleSettings> {
  const [raw] = yield* storeGet([SCHEDULE_KEY]);
  return readSaved(SAVED_SCHEDULE, raw) ?? { ...DEFAULT_SCHEDULE };
}

export function* saveSchedule(s: ScheduleSettings): Operation<void> {
  yield* storePut({ [SCHEDULE_KEY]: writeSaved(SAVED_SCHEDULE, scheduleSettings(s)) });
}

/**
 * Is a check due? True when there was none, or the last one is at least one
 * interval old. A few minutes of slack keep a daily check from drifting later
 * every day when a host's timer fires slightly early.
 */
export function isDue(
  lastCheck: string | null | undefined,
  interval: number,
  now: number,
  slackMs = 5 * 60_000,
): boolean {
  if (!lastCheck) return true;
  const t = Date.parse(lastCheck);
  if (Number.isNaN(t)) return true;
  return now - t >= interval - Math.min(slackMs, interval / 10);
}

/**
 * Due by the schedule itself: hourly = an hour since the last check; daily =
 * the last check is older than the latest slot at the chosen hour.
 * `todaysSlot` is the epoch ms of today's slot in the host's time zone (the
 * host knows its zone; shared code does not).
 */
export function isDueForSchedule(
  s: Pick<ScheduleSettings, "frequency">,
  lastCheck: string | null | undefined,
  now: number,
  todaysSlot?: number,
): boolean {
  if (s.frequency === "hourly" || todaysSlot === undefined) return isDue(lastCheck, intervalMs(s), now);
  if (!lastCheck) return true;
  const t = Date.parse(lastCheck);
  if (Number.isNaN(t)) return true;
  const latestSlot = now >= todaysSlot ? todaysSlot : todaysSlot - DAY_MS;
  return t < latestSlot;
}
