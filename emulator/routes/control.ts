/**
 * /_emulator/…: the control surface for tests, demos and the self-service
 * signup stand-in. No credits and no key, but not open to any web page:
 * over the network (server.ts) every control request must name a loopback
 * Host, and a POST must say `Content-Type: application/json` (controlGuard).
 */
import * as z from "zod/mini";
import { COMPANY_ID_PATTERN } from "../../shared/api/index.ts";
import { SCHEDULABLE, type ScheduledKind } from "../clock.ts";
import { ApiError, invalid, json, notFound, type EmulatorResponse } from "../respond.ts";
import { parseBody } from "../validate.ts";
import { rule } from "../rules.ts";
import type { Emulator } from "../emulator.ts";

const KeysBody = z.strictObject({ credits: z.optional(z.int().check(z.minimum(0), z.maximum(1e12))) });
const BalanceBody = z.strictObject({ key: z.string(), credits: z.int().check(z.minimum(0), z.maximum(1e12)) });
const ClockBody = z.strictObject({
  days: z.optional(z.int().check(z.minimum(0), z.maximum(3650))),
  date: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))),
});
const FaultsBody = z.strictObject({
  latencyMs: z.optional(z.int().check(z.minimum(0), z.maximum(60_000))),
  jitterMs: z.optional(z.int().check(z.minimum(0), z.maximum(60_000))),
  failRate: z.optional(z.number().check(z.gte(0), z.lte(1))),
  dropRate: z.optional(z.number().check(z.gte(0), z.lte(1))),
  rateLimitBurst: z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000))),
  burstEvery: z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000))),
  burstLength: z.optional(z.int().check(z.minimum(1), z.maximum(1_000_000))),
  burstRetryAfterSeconds: z.optional(z.int().check(z.minimum(0), z.maximum(3600))),
  creditsRunOutAfter: z.optional(z.nullable(z.int().check(z.minimum(0)))),
});
const ScheduleBody = z.strictObject({
  id: z.string().check(z.regex(COMPANY_ID_PATTERN)),
  kind: z.enum(SCHEDULABLE as unknown as [ScheduledKind, ...ScheduledKind[]]),
  day: z.optional(z.int().check(z.minimum(1))),
  date: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))),
});
const ResetBody = z.strictObject({ key: z.optional(z.string()) });

/** The Host header's name without its port: "localhost", "127.0.0.1", "[::1]". */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  return h.startsWith("[") ? h.slice(0, h.indexOf("]") + 1) : h.replace(/:\d*$/, "");
}
const LOOPBACK_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/**
 * Why a control request that came over the network is refused, or null.
 *
 * - Host must be a loopback name: a page on another site that makes its own
 *   name resolve to 127.0.0.1 (DNS rebinding) sends its own name as Host.
 * - A POST must carry `Content-Type: application/json`: a cross-site page can
 *   send a "simple" request (a form, or fetch with text/plain) without asking
 *   first, but a JSON content type makes the browser send a CORS preflight
 *   (https://fetch.spec.whatwg.org/#cors-safelisted-request-header: only
 *   application/x-www-form-urlencoded, multipart/form-data and text/plain are
 *   safelisted), which server.ts answers only for local origins.
 * Reads (GET) need only the Host check: without CORS a foreign page cannot read the answer.
 */
export function controlGuard(method: string, headers: Record<string, string>): ApiError | null {
  const host = headers["host"] ?? "";
  if (!LOOPBACK_NAMES.includes(hostName(host)))
    return new ApiError("FORBIDDEN", "controlHost", { what: host.slice(0, 100) || "-" }, "host");
  const type = (headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (method.toUpperCase() === "POST" && type !== "application/json")
    return new ApiError("FORBIDDEN", "controlJson", {}, "content-type");
  return null;
}

/** A calendar date that exists (the schema checks only the form YYYY-MM-DD). */
function checkDate(field: string, iso: string): void {
  const d = new Date(iso + "T00:00:00Z");
  if (!Number.isFinite(d.getTime()) || d.toISOString().slice(0, 10) !== iso) throw invalid(field, rule.validDate);
}

/** POST /_emulator/schedule: an event for one company on a day or date after today. */
function schedule(emu: Emulator, body: string | undefined): EmulatorResponse {
  const b = parseBody(ScheduleBody, body);
  if ((b.day === undefined) === (b.date === undefined))
    throw invalid(b.day === undefined ? "day" : "date", rule.exactlyOneOf(["day", "date"]));
  if (b.date !== undefined) checkDate("date", b.date);
  if (!emu.world.byId(b.id)) throw notFound(b.id, "id");
  try {
    const day = emu.scheduleEvent(b.id, { day: b.day, date: b.date, kind: b.kind });
    return json(200, { id: b.id, kind: b.kind, day });
  } catch (e) {
    if (e instanceof RangeError)
      throw invalid(
        b.day !== undefined ? "day" : "date",
        rule.afterToday(b.day !== undefined ? emu.clock.day() : emu.clock.today()),
      );
    throw e;
  }
}

export function control(
  emu: Emulator,
  method: string,
  path: string,
  query: URLSearchParams,
  body: string | undefined,
): EmulatorResponse {
  const route = `${method} ${path.replace(/\/+$/, "")}`;
  const opt = (text: string | undefined) => (text && text.trim() ? text : "{}");
  switch (route) {
    case "GET /_emulator":
    case "GET /_emulator/health":
      return json(200, {
        ok: true,
        companies: emu.world.companies.length,
        today: emu.clock.today(),
        seed: emu.world.seed,
      });
    case "POST /_emulator/keys": {
      const b = parseBody(KeysBody, opt(body));
      const key = emu.createKey(b.credits);
      return json(201, { key, credits: emu.balance(key) });
    }
    case "POST /_emulator/balance": {
      const b = parseBody(BalanceBody, body);
      if (!emu.accounts.has(b.key)) throw notFound("key", "key");
      emu.setBalance(b.key, b.credits);
      return json(200, { key: b.key, credits: b.credits });
    }
    case "GET /_emulator/usage": {
      const key = query.get("key") ?? "";
      if (!emu.accounts.has(key)) throw notFound("key", "key");
      return json(200, { key, credits: emu.balance(key), usage: emu.ledger(key) });
    }
    case "GET /_emulator/clock":
      return json(200, { startDate: emu.clock.startDate, today: emu.clock.today(), day: emu.clock.day() });
    case "POST /_emulator/clock": {
      const b = parseBody(ClockBody, body);
      if ((b.days === undefined) === (b.date === undefined))
        throw invalid(b.days === undefined ? "days" : "date", rule.exactlyOneOf(["days", "date"]));
      if (b.date !== undefined) checkDate("date", b.date);
      // The clock moves back only by replaying from its start, so the start date is the floor.
      if (b.date !== undefined && b.date < emu.clock.startDate)
        throw invalid("date", rule.notBefore(emu.clock.startDate));
      const events = b.days !== undefined ? emu.clock.advance(b.days) : emu.clock.setDate(b.date!);
      return json(200, { today: emu.clock.today(), day: emu.clock.day(), events });
    }
    case "GET /_emulator/clock/preview": {
      const days = Number(query.get("days") ?? "1");
      if (!Number.isInteger(days) || days < 1 || days > 366)
        throw invalid("days", rule.number({ value: 1, inclusive: true }, { value: 366, inclusive: true }, true));
      return json(200, { events: emu.clock.preview(days) });
    }
    case "POST /_emulator/schedule":
      return schedule(emu, body);
    case "GET /_emulator/faults":
      return json(200, emu.faults.get());
    case "POST /_emulator/faults":
      return json(200, emu.faults.set(parseBody(FaultsBody, body)));
    case "POST /_emulator/faults/reset":
      return json(200, emu.faults.reset());
    case "POST /_emulator/ratelimits/reset": {
      const b = parseBody(ResetBody, opt(body));
      emu.resetRateLimits(b.key);
      return json(200, { ok: true });
    }
    default:
      throw new ApiError("NOT_FOUND", "noRoute", { what: path }, "path");
  }
}
