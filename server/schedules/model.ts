/**
 * A portfolio schedule as registered by a user: the companies, when the
 * check runs (hourly, daily or weekly at an hour, UTC: the server's zone),
 * where alerts go (webhook addresses, e-mail recipients), the credits one
 * run may spend. Validated here, once, with DE/EN errors naming the field;
 * and the next slot of a schedule after an instant.
 */
import { validate as V } from "../../shared/api/index.ts";
import { invalid } from "../../shared/core/index.ts";
import { got, rule, type Language } from "../../shared/i18n/index.ts";
import { alertSettings, checkWebhookUrl, maskWebhook } from "../../shared/monitor/index.ts";
import { nextSlot as slotAfter, UTC } from "../../shared/schedule/index.ts";

export type ScheduleFrequency = "hourly" | "daily" | "weekly";

export interface ScheduleInput {
  companies: string[];
  frequency: ScheduleFrequency;
  /** Hour of the day (UTC) of a daily or weekly run. */
  hour: number;
  /** Day of the week of a weekly run, 0 = Sunday … 6 = Saturday. */
  weekday: number;
  /** Credits one run may spend; null = no cap of its own (the user's and the team's monthly budgets still hold). */
  budget: number | null;
  webhooks: string[];
  emails: string[];
  /** The language of the change log and the alerts. */
  language: Language;
}

/** A portfolio of a team's scale; larger lists belong in `company-data monitor` with files. */
export const MAX_COMPANIES = 5_000;
/** Alert channels per schedule (decision, issue 36): 5 webhook addresses; e-mail: MAX_RECIPIENTS (10, shared/monitor). */
export const MAX_WEBHOOKS = 5;
/** Schedules per user unless the administrator says otherwise (--max-schedules, COMPANY_DATA_MAX_SCHEDULES). */
export const DEFAULT_MAX_SCHEDULES = 20;
/** A schedule's name: what the CLI and the add-ins call it (a workbook's portfolio, "default"). */
export const SCHEDULE_NAME = /^[\p{L}\p{N}._-]{1,64}$/u;

const FREQUENCIES: readonly ScheduleFrequency[] = ["hourly", "daily", "weekly"];
const KEYS = ["companies", "frequency", "hour", "weekday", "budget", "webhooks", "emails", "language", "shared"];

/**
 * The registration body, checked; INVALID_INPUT names the field. `shared` (optional): whether the team may
 * read the schedule and its runs (GET /shared-schedules/ID); absent, a new schedule is not shared and a
 * replaced one stays as it was.
 */
export function scheduleInput(value: unknown, lang: Language): ScheduleInput & { shared?: boolean } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalid("body", rule.type("object"));
  const v = value as Record<string, unknown>;
  const unknown = Object.keys(v).find((k) => !KEYS.includes(k));
  if (unknown !== undefined) throw invalid(unknown, rule.unknownKey(KEYS));
  if (!Array.isArray(v.companies) || v.companies.length === 0)
    throw invalid(
      "companies",
      got({ de: "erwartet eine Liste von Firmen-IDs", en: "expected a list of company ids" }, v.companies),
    );
  if (v.companies.length > MAX_COMPANIES) throw invalid("companies", rule.range(1, MAX_COMPANIES));
  const companies = [...new Set(v.companies.map((c, i) => V.companyId(c, `companies[${i}]`)))];
  const frequency = (v.frequency ?? "daily") as ScheduleFrequency;
  if (!FREQUENCIES.includes(frequency)) throw invalid("frequency", got(rule.oneOf(FREQUENCIES), v.frequency));
  const hour = V.integer(v.hour ?? 7, "hour", 0, 23);
  const weekday = V.integer(v.weekday ?? 1, "weekday", 0, 6);
  const budget = v.budget === null || v.budget === undefined ? null : V.integer(v.budget, "budget", 1, 1_000_000);
  const list = (x: unknown, field: string): string[] => {
    if (x === undefined || x === null) return [];
    if (!Array.isArray(x)) throw invalid(field, got(rule.type("array"), x));
    return x.map((s) => String(s).trim()).filter(Boolean);
  };
  // Counted before each address is checked: a long list is refused without looking at any of them.
  const given = [...new Set(list(v.webhooks, "webhooks"))];
  if (given.length > MAX_WEBHOOKS)
    throw invalid("webhooks", {
      de: `höchstens ${MAX_WEBHOOKS} Webhook-Adressen je Zeitplan (angegeben: ${given.length})`,
      en: `at most ${MAX_WEBHOOKS} webhook addresses per schedule (given: ${given.length})`,
    });
  const webhooks = [...new Set(given.map((w) => checkWebhookUrl(w)))];
  // The recipients as everywhere else (at most MAX_RECIPIENTS, each an address).
  const { email: emails } = alertSettings(
    { email: list(v.emails, "emails") },
    { email: [], webhook: null },
    "team-server",
  );
  const language = v.language === undefined ? lang : v.language;
  if (language !== "de" && language !== "en") throw invalid("language", got(rule.oneOf(["de", "en"]), language));
  if (v.shared !== undefined && typeof v.shared !== "boolean")
    throw invalid("shared", got(rule.type("boolean"), v.shared));
  const shared = v.shared === undefined ? {} : { shared: v.shared };
  return { companies, frequency, hour, weekday, budget, webhooks, emails, language, ...shared };
}

/** A schedule's name from a path segment, checked. */
export function scheduleName(value: string): string {
  if (!SCHEDULE_NAME.test(value)) throw invalid("name", rule.pattern("[A-Za-z0-9._-]{1,64}"));
  return value;
}

/**
 * The first slot strictly after `after` (epoch ms): hourly at every full
 * hour; daily at `hour`:00; weekly at `hour`:00 on `weekday`; in UTC, the
 * server's zone. The one slot rule of every scheduled job (shared/schedule/).
 */
export const nextSlot = (s: Pick<ScheduleInput, "frequency" | "hour" | "weekday">, after: number): number =>
  slotAfter(s, after, UTC);

/** Webhook addresses are secrets: what a listing shows of one (its host). */
export const maskedWebhook = maskWebhook;
