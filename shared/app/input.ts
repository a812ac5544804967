/**
 * Input checks for the app service. The UI is ours, but the Sheets server
 * function `uiCall` is callable by anything running in the sidebar, so every
 * method validates what it receives and names the field at fault.
 */
import { invalid } from "../core/index.ts";
import { got, rule } from "../i18n/index.ts";

export function record(value: unknown, field = "input"): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalid(field, got(rule.type("object"), value));
  return value as Record<string, unknown>;
}

export function text(o: Record<string, unknown>, field: string, opts: { max?: number; min?: number } = {}): string {
  const v = o[field];
  if (typeof v !== "string") throw invalid(field, v === undefined ? rule.required : got(rule.type("string"), v));
  const t = v.trim();
  if (t.length < (opts.min ?? 0)) throw invalid(field, rule.atLeast(opts.min ?? 0, "string"));
  if (t.length > (opts.max ?? 500)) throw invalid(field, rule.atMost(opts.max ?? 500, "string"));
  return t;
}

export function optText(o: Record<string, unknown>, field: string, opts: { max?: number } = {}): string | undefined {
  const v = o[field];
  if (v === undefined || v === null || v === "") return undefined;
  const t = text(o, field, opts);
  return t === "" ? undefined : t;
}

const incl = (value: number) => ({ value, inclusive: true });

export function num(
  o: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  opts: { integer?: boolean } = {},
): number {
  const raw = o[field];
  const v = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  if (typeof v !== "number" || !Number.isFinite(v))
    throw invalid(field, got(rule.number(incl(min), incl(max), opts.integer === true), raw));
  if (opts.integer && !Number.isInteger(v)) throw invalid(field, got(rule.number(incl(min), incl(max), true), v));
  if (v < min || v > max) throw invalid(field, got(rule.number(incl(min), incl(max), opts.integer === true), v));
  return v;
}

export function optNum(
  o: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  opts: { integer?: boolean } = {},
): number | undefined {
  const v = o[field];
  if (v === undefined || v === null || v === "") return undefined;
  return num(o, field, min, max, opts);
}

export function oneOf<T extends string>(
  o: Record<string, unknown>,
  field: string,
  options: readonly T[],
  fallback?: T,
): T {
  const v = o[field];
  if ((v === undefined || v === null) && fallback !== undefined) return fallback;
  if (typeof v !== "string" || !(options as readonly string[]).includes(v))
    throw invalid(field, got(rule.oneOf(options), v));
  return v as T;
}

export function list<T>(
  o: Record<string, unknown>,
  field: string,
  item: (v: unknown, field: string) => T,
  opts: { min?: number; max: number },
): T[] {
  const v = o[field];
  if (v === undefined || v === null) {
    if ((opts.min ?? 0) > 0) throw invalid(field, rule.notEmpty);
    return [];
  }
  if (!Array.isArray(v)) throw invalid(field, got(rule.type("array"), v));
  if (v.length < (opts.min ?? 0)) throw invalid(field, rule.atLeast(opts.min ?? 0, "array"));
  if (v.length > opts.max) throw invalid(field, rule.atMost(opts.max, "array"));
  return v.map((x, i) => item(x, `${field}[${i}]`));
}

export const anyText =
  (max = 500) =>
  (v: unknown, field: string): string => {
    if (typeof v !== "string") throw invalid(field, got(rule.type("string"), v));
    if (v.length > max) throw invalid(field, rule.atMost(max, "string"));
    return v;
  };
