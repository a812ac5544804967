/**
 * Input checks shared by every public core function. Each throws
 * INVALID_INPUT naming the field, so a bad cell never becomes a request and
 * never surfaces as an exception from deep inside.
 */
import { invalid } from "../core/index.ts";
import { COMPANY_ID_PATTERN, MAX_BATCH, MAX_SIZE, PERSON_ID_PATTERN, type ResolveQuery } from "./schemas.ts";
import { INCLUDES, type Include } from "./endpoints.ts";
import { got, notAnId, rule } from "../i18n/index.ts";
import { FIELD_LABELS } from "../i18n/index.ts";

const KM = rule.number({ value: 0, inclusive: false }, { value: 500, inclusive: true }, false, "km");
const QUERY = { de: "erwartet eine Anfrage mit Firmenname", en: "expected a query with a company name" };

/** A company id: DE + 10 letters or digits. Surrounding space and lower case are forgiven. */
export function companyId(value: unknown, field = "id"): string {
  if (typeof value !== "string") throw invalid(field, notAnId("company", value));
  const id = value.trim().toUpperCase();
  if (!COMPANY_ID_PATTERN.test(id)) throw invalid(field, notAnId("company", value));
  return id;
}

/** A person id: P + 10 letters or digits. */
export function personId(value: unknown, field = "personId"): string {
  if (typeof value !== "string") throw invalid(field, notAnId("person", value));
  const id = value.trim().toUpperCase();
  if (!PERSON_ID_PATTERN.test(id)) throw invalid(field, notAnId("person", value));
  return id;
}

/** A whole number in [min, max]. */
export function integer(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isFinite(value) || !Number.isInteger(value))
    throw invalid(field, got(rule.range(min, max), value));
  if (value < min || value > max) throw invalid(field, got(rule.range(min, max), value));
  return value;
}

/** A list size: 1..MAX_SIZE; undefined stays undefined (the API's default). */
export function size(value: unknown, field = "size"): number | undefined {
  if (value === undefined || value === null) return undefined;
  return integer(value, field, 1, MAX_SIZE);
}

/** A radius in km: above 0, at most 500 (the Near schema's bound). */
export function radiusKm(value: unknown, field = "radiusKm"): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) throw invalid(field, got(KM, value));
  if (value <= 0 || value > 500) throw invalid(field, got(KM, value));
  return value;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * An ISO date (YYYY-MM-DD) or date-time with a zone, e.g. for "since".
 * Calendar-checked: 2024-02-30 is not a date.
 */
export function isoDate(value: unknown, field = "since"): string {
  if (typeof value !== "string") throw invalid(field, got(rule.isoDate, value));
  const v = value.trim();
  const m = DATE.exec(v) ?? DATE_TIME.exec(v);
  if (!m) throw invalid(field, got(rule.isoDate, value));
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (
    probe.getUTCFullYear() !== y ||
    probe.getUTCMonth() !== mo - 1 ||
    probe.getUTCDate() !== d ||
    Number.isNaN(Date.parse(v))
  )
    throw invalid(field, got(rule.validDate, value));
  return v;
}

/** A non-empty text (after trimming), at most `max` characters. */
export function nonEmpty(value: unknown, field = "name", max = 500): string {
  if (typeof value !== "string") throw invalid(field, got(rule.type("string"), value));
  const v = value.trim();
  if (v === "") throw invalid(field, rule.notEmpty);
  if (v.length > max) throw invalid(field, rule.atMost(max, "string"));
  return v;
}

/** Optional text: undefined/null/blank become undefined. */
export function optionalText(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number") value = String(value); // a postcode typed into a cell arrives as a number
  if (typeof value !== "string") throw invalid(field, got(rule.type("string"), value));
  const v = value.trim();
  if (v === "") return undefined;
  if (v.length > max) throw invalid(field, rule.atMost(max, "string"));
  return v;
}

/** A list of at most `max` entries (and at least `min`). */
export function batch<T>(value: unknown, field: string, max = MAX_BATCH, min = 0): T[] {
  if (!Array.isArray(value)) throw invalid(field, got(rule.type("array"), value));
  if (value.length > max) throw invalid(field, got(rule.atMost(max, "array"), value.length));
  if (value.length < min) throw invalid(field, got(rule.atLeast(min, "array"), value.length));
  return value as T[];
}

/** The batch-resolve chunk size: a multiple of ten, 10..MAX_BATCH. */
export function maxBatch(value: unknown, field = "maxBatch"): number {
  const n = integer(value, field, 10, MAX_BATCH);
  if (n % 10 !== 0) throw invalid(field, got(rule.multipleOf(10), n));
  return n;
}

/** Profile includes: known names only, de-duplicated, in catalogue order. */
export function includes(value: unknown, field = "include"): Include[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(field, got(rule.oneOf(INCLUDES), value));
  for (const v of value) if (!INCLUDES.includes(v as Include)) throw invalid(field, got(rule.oneOf(INCLUDES), v));
  return INCLUDES.filter((i) => value.includes(i));
}

/**
 * A resolve query: a non-empty name plus optional hints, trimmed; unknown
 * keys are dropped. `prefix` (e.g. "rows[3]") goes before the field names.
 */
export function resolveQuery(value: unknown, prefix?: string): ResolveQuery {
  const f = (name: string) => (prefix ? `${prefix}.${name}` : name);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalid(prefix ?? "query", got(QUERY, value), prefix ? undefined : FIELD_LABELS.resolveQuery);
  const q = value as Record<string, unknown>;
  const out: ResolveQuery = { name: nonEmpty(q.name, f("name"), 500) };
  const city = optionalText(q.city, f("city"), 200);
  const zip = optionalText(q.zip, f("zip"), 10);
  const register = optionalText(q.register, f("register"), 200);
  if (city !== undefined) out.city = city;
  if (zip !== undefined) out.zip = zip;
  if (register !== undefined) out.register = register;
  return out;
}
