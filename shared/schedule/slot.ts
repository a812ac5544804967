/**
 * When a scheduled job is due: one rule for every job (the portfolio check,
 * the scheduled refresh, the team server's schedules) and every host.
 *
 * A schedule is hourly, or daily / weekly at an hour of the user's day. The
 * host knows the user's time zone (Excel: the workbook user's clock; Sheets:
 * the spreadsheet's zone; the team server: UTC) and passes it as a
 * `ZoneOffset`; shared code never reads a clock or a zone itself.
 */

export type Frequency = "hourly" | "daily" | "weekly";

export interface Slot {
  frequency: Frequency;
  /** Hour of the user's day (0–23) of a daily or weekly run. */
  hour: number;
  /**
   * Day of the week of a weekly run (0 = Sunday … 6 = Saturday, the user's
   * day). Absent: every seven days at the hour, counted from the last run.
   */
  weekday?: number;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

/** The user's offset from UTC (ms, east positive) at an instant: daylight saving counts. */
export type ZoneOffset = (at: number) => number;
/** The team server's zone, and the fallback of a host that cannot tell its zone. */
export const UTC: ZoneOffset = () => 0;

export const intervalMs = (s: Pick<Slot, "frequency">) =>
  s.frequency === "hourly" ? HOUR_MS : s.frequency === "daily" ? DAY_MS : WEEK_MS;
export const runsPerDay = (s: Pick<Slot, "frequency">) => DAY_MS / intervalMs(s);

/** How early a timer may fire without a run drifting later every interval. */
const SLACK_MS = 5 * 60_000;

/** The slot at `hour` on the user's day that contains `at` (epoch ms). */
function slotOfDay(at: number, hour: number, zone: ZoneOffset): { at: number; weekday: number } {
  const offset = zone(at);
  const localMidnight = Math.floor((at + offset) / DAY_MS) * DAY_MS;
  return { at: localMidnight + hour * HOUR_MS - offset, weekday: new Date(localMidnight).getUTCDay() };
}

/** The latest slot at or before `now`: the full hour, or the day's (weekday's) hour. */
export function latestSlot(s: Slot, now: number, zone: ZoneOffset): number {
  if (s.frequency === "hourly") return Math.floor(now / HOUR_MS) * HOUR_MS;
  for (let d = 0; d <= 7; d++) {
    const slot = slotOfDay(now - d * DAY_MS, s.hour, zone);
    if (slot.at > now) continue;
    if (s.frequency === "weekly" && s.weekday !== undefined && slot.weekday !== s.weekday) continue;
    return slot.at;
  }
  throw new Error("unreachable: eight days hold every weekday");
}

/** The first slot strictly after `after` (the team server stores it as a schedule's next run). */
export function nextSlot(s: Slot, after: number, zone: ZoneOffset): number {
  if (s.frequency === "hourly") return Math.floor(after / HOUR_MS) * HOUR_MS + HOUR_MS;
  for (let d = 0; d <= 8; d++) {
    const slot = slotOfDay(after + d * DAY_MS, s.hour, zone);
    if (slot.at <= after) continue;
    if (s.frequency === "weekly" && s.weekday !== undefined && slot.weekday !== s.weekday) continue;
    return slot.at;
  }
  throw new Error("unreachable: nine days hold every weekday");
}

export interface DueClock {
  now: number;
  zone: ZoneOffset;
  /**
   * The host's ticks fire at a random minute of their hour (Apps Script's
   * time-driven triggers): a run closer than half an interval to the last one
   * belongs to the same slot, so two ticks around a full hour never both run.
   */
  jittery?: boolean;
}

/** The least time between two runs of a schedule. */
function leastGap(s: Slot, jittery: boolean): number {
  // Every seven days at an hour: a trigger fires at a random minute of it, so half a day of tolerance.
  if (s.frequency === "weekly" && s.weekday === undefined) return 6.5 * DAY_MS;
  const interval = intervalMs(s);
  if (jittery) return interval / 2 - Math.min(SLACK_MS, interval / 20);
  return s.frequency === "hourly" ? interval - Math.min(SLACK_MS, interval / 10) : 0;
}

/**
 * Is a run due? When there was none; hourly, when the last is an hour old
 * (less a few minutes of slack, so a timer firing early never drifts a run
 * later every hour); daily and weekly, when the last run is older than the
 * latest slot at the user's hour. `lastRun` is when the last run finished (ISO).
 */
export function isDue(s: Slot, lastRun: string | null | undefined, clock: DueClock): boolean {
  if (!lastRun) return true;
  const t = Date.parse(lastRun);
  if (Number.isNaN(t)) return true;
  if (clock.now - t < leastGap(s, clock.jittery === true)) return false;
  return s.frequency === "hourly" || t < latestSlot(s, clock.now, clock.zone);
}
