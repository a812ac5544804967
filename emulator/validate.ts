/**
 * Request checks shared by every route: path ids, query parameters and JSON
 * bodies against the shared request schemas. Each failure names the field.
 */
import type * as z from "zod/mini";
import { COMPANY_ID_PATTERN, MAX_SIZE, PERSON_ID_PATTERN } from "../shared/api/index.ts";
import { INCLUDES, type Include } from "../shared/api/index.ts";
import { ApiError, invalid } from "./respond.ts";
import { formatPath, rule, ruleOfIssue, type IssueLike } from "./rules.ts";

/**
 * The longest text any one field of a request may hold: a JSON string of a
 * body, a query parameter's value (decision: the specification names no
 * limit; a company name, a register number or a search query is far shorter,
 * and a bound keeps every parser and matcher behind it cheap: a 1 MiB body
 * of one field must not hold the server). Longer is a 400 naming the field.
 */
export const MAX_FIELD_CHARS = 1000;

/** The first string in `value` longer than MAX_FIELD_CHARS, as its path; null when none. Iterative: a deep body cannot exhaust the stack. */
function tooLongField(value: unknown): string | null {
  const todo: { v: unknown; path: (string | number)[] }[] = [{ v: value, path: [] }];
  for (let item = todo.pop(); item; item = todo.pop()) {
    const { v, path } = item;
    if (typeof v === "string") {
      if (v.length > MAX_FIELD_CHARS) return formatPath(path) || "body";
    } else if (Array.isArray(v)) v.forEach((x, i) => todo.push({ v: x, path: [...path, i] }));
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) todo.push({ v: x, path: [...path, k] });
  }
  return null;
}

/** Query parameters that may repeat (their values are merged); any other repeat is a 400. */
const MULTI_VALUED: readonly string[] = ["include"];

export function checkCompanyId(id: string, field = "id"): void {
  if (!COMPANY_ID_PATTERN.test(id)) throw badId(field, COMPANY_ID_PATTERN);
}
export function checkPersonId(id: string, field = "personId"): void {
  if (!PERSON_ID_PATTERN.test(id)) throw badId(field, PERSON_ID_PATTERN);
}
const badId = (field: string, pattern: RegExp) =>
  new ApiError("INVALID_INPUT", "invalidIdRule", { what: field, rule: rule.pattern(String(pattern)) }, field);

export function parseBody<T>(schema: z.ZodMiniType<T>, text: string | undefined): T {
  if (text === undefined || text.trim() === "") throw new ApiError("INVALID_INPUT", "bodyRequired", {}, "body");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_INPUT", "malformedJson", {}, "body");
  }
  const long = tooLongField(raw);
  if (long !== null) throw invalid(long, rule.atMost(MAX_FIELD_CHARS, "string"));
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0] as IssueLike;
  const path = formatPath(issue.path);
  const why = ruleOfIssue(issue, schema, raw);
  if (issue.code === "unrecognized_keys") {
    const f = (path ? path + "." : "") + (issue.keys ?? [])[0];
    throw why
      ? new ApiError("INVALID_INPUT", "unknownFieldRule", { what: f, rule: why }, f)
      : new ApiError("INVALID_INPUT", "unknownField", { what: f }, f);
  }
  throw invalid(path || "body", why);
}

export function checkQuery(q: URLSearchParams, allowed: readonly string[]): void {
  const seen = new Set<string>();
  for (const k of q.keys()) {
    if (!allowed.includes(k)) throw new ApiError("INVALID_INPUT", "unknownParam", { what: k }, k);
    // q.get() reads only the first value, so a silent repeat would be ignored.
    if (seen.has(k) && !MULTI_VALUED.includes(k)) throw new ApiError("INVALID_INPUT", "repeatedParam", { what: k }, k);
    seen.add(k);
  }
  for (const [k, v] of q) if (v.length > MAX_FIELD_CHARS) throw invalid(k, rule.atMost(MAX_FIELD_CHARS, "string"));
}

export function intParam(q: URLSearchParams, name: string, def: number, min = 1, max = MAX_SIZE): number {
  const v = q.get(name);
  if (v === null) return def;
  const n = Number(v);
  if (!/^-?\d+$/.test(v) || n < min || n > max)
    throw invalid(name, rule.number({ value: min, inclusive: true }, { value: max, inclusive: true }, true));
  return n;
}

export function numParam(q: URLSearchParams, name: string, def: number, minExclusive: number, max: number): number {
  const v = q.get(name);
  if (v === null) return def;
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n <= minExclusive || n > max)
    throw invalid(name, rule.number({ value: minExclusive, inclusive: false }, { value: max, inclusive: true }, false));
  return n;
}

/** Every value of `include`, as a comma list and/or repeated (`?include=people&include=financials`), merged. */
export function includeParam(q: URLSearchParams): Include[] {
  const parts = q
    .getAll("include")
    .flatMap((v) => v.split(","))
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of parts) if (!INCLUDES.includes(p as Include)) throw invalid("include", rule.oneOf(INCLUDES));
  return [...new Set(parts as Include[])];
}

/** An ISO date or date-time; a date means the start of that day (UTC). Returns epoch ms. */
export function sinceParam(q: URLSearchParams, def: number): number {
  const v = q.get("since");
  if (v === null) return def;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v))
    throw invalid("since", rule.isoDate);
  const ms = Date.parse(v.length === 10 ? v + "T00:00:00Z" : /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v) ? v + "Z" : v);
  if (!Number.isFinite(ms)) throw invalid("since", rule.isoDate);
  return ms;
}

export function boolParam(q: URLSearchParams, name: string, def: boolean): boolean {
  const v = q.get(name);
  if (v === null) return def;
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw invalid(name, rule.boolean);
}
