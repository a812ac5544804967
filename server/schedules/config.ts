/**
 * How this process runs schedules: its clock, how often it looks for due
 * runs, timeouts, the mailer. From the environment by default; a test
 * replaces them (setScheduleConfig) before it starts a server, so it can
 * move the server's days with the emulator's.
 */
import { serverNow } from "../clock.ts";
import { smtpMailer, type ScheduleMailer } from "./mail.ts";
import { DEFAULT_MAX_SCHEDULES } from "./model.ts";

export interface ScheduleConfig {
  /** The server's clock (epoch ms): when a schedule is due, the check's watermarks and run times. */
  now: () => number;
  /** How often the loop looks for due schedules. */
  tickMs: number;
  /** How long a claim holds before another process may take the schedule over (renewed while the run lives). */
  leaseMs: number;
  webhookTimeoutMs: number;
  mailer: ScheduleMailer | undefined;
  /** Schedules one user may have (a replaced schedule does not count twice); DEFAULT_MAX_SCHEDULES when not set. */
  maxSchedules?: number;
}

const seconds = (v: string | undefined, fallback: number) => {
  const n = Number(v);
  return v !== undefined && v.trim() !== "" && Number.isFinite(n) && n > 0 ? n * 1000 : fallback;
};

const count = (v: string | undefined, fallback: number) => {
  const n = Number(v);
  return v !== undefined && v.trim() !== "" && Number.isInteger(n) && n >= 0 ? n : fallback;
};

export function envScheduleConfig(env: NodeJS.ProcessEnv): ScheduleConfig {
  return {
    now: () => serverNow(),
    tickMs: seconds(env.COMPANY_DATA_SCHEDULE_TICK_SECONDS, 60_000),
    leaseMs: 10 * 60_000,
    webhookTimeoutMs: seconds(env.COMPANY_DATA_WEBHOOK_TIMEOUT_SECONDS, 10_000),
    mailer: smtpMailer(env),
    maxSchedules: count(env.COMPANY_DATA_MAX_SCHEDULES, DEFAULT_MAX_SCHEDULES),
  };
}

let current: ScheduleConfig | undefined;

export const scheduleConfig = (): ScheduleConfig => (current ??= envScheduleConfig(process.env));

/** Replace the configuration (tests); `undefined` goes back to the environment's. */
export function setScheduleConfig(c: Partial<ScheduleConfig> | undefined): void {
  current = c === undefined ? undefined : { ...envScheduleConfig(process.env), ...c };
}
