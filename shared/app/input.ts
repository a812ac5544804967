/**
 * Input checks for the app service. The UI is ours, but the Sheets server
 * function `uiCall` is callable by anything running in the sidebar, so every
 * method validates what it receives and names the field at fault.
 */
import { invalid } from "../core/errors.ts";

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const show = (v: unknown) => (v === null ? "null" : v === undefined ? "missing" : typeof v === "string" ? `"${v.slice(0, 40)}"` : typeof v);

export function record(value: unknown, field = "input"): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalid(field, `expected an object, got ${show(value)}`);
  return value as Record<string, unknown>;
}

export function text(o: Record<string, unknown>, field: string, opts: { max?: number; min?: number } = {}): string {
  const v = o[field];
  if (typeof v !== "string") throw invalid(field, `expected text, got ${show(v)}`);
  const t = v.trim();
  if (t.length < (opts.min ?? 0)) throw invalid(field, opts.min === 1 ? "must not be empty" : `at least ${opts.min} characters`);
  if (t.length > (opts.max ?? 500)) throw invalid(field, `at most ${opts.max ?? 500} characters`);
  return t;
}

export function optText(o: Record<string, unknown>, field: string, opts: { max?: number } = {}): string | undefined {
  const v = o[field];
  if (v === undefined || v === null || v === "") return undefined;
  const t = text(o, field, opts);
  return t === "" ? undefined : t;
}

export function num(o: Record<string, unknown>, field: string, min: number, max: number, opts: { integer?: boolean } = {}): number {
  const raw = o[field];
  const v = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  if (typeof v !== "number" || !Number.isFinite(v)) throw invalid(field, `expected a number, got ${show(raw)}`);
  if (opts.integer && !Number.isInteger(v)) throw invalid(field, `expected a whole number, got ${v}`);
  if (v < min || v > max) throw invalid(field, `must be between ${min} and ${max}, got ${v}`);
  return v;
}

export function optNum(o: Record<string, unknown>, field: string, min: number, max: number, opts: { integer?: boolean } = {}): number | undefined {
  const v = o[field];
  if (v === undefined || v === null || v === "") return undefined;
  return num(o, field, min, max, opts);
}

export function optBool(o: Record<string, unknown>, field: string): boolean | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw invalid(field, `expected true or false, got ${show(v)}`);
  return v;
}

export function oneOf<T extends string>(o: Record<string, unknown>, field: string, options: readonly T[], fallback?: T): T {
  const v = o[field];
  if ((v === undefined || v === null) && fallback !== undefined) return fallback;
  if (typeof v !== "string" || !(options as readonly string[]).includes(v)) throw invalid(field, `expected one of ${options.join(", ")}, got ${show(v)}`);
  return v as T;
}

export function list<T>(o: Record<string, unknown>, field: string, item: (v: unknown, field: string) => T, opts: { min?: number; max: number }): T[] {
  const v = o[field];
  if (v === undefined || v === null) {
    if ((opts.min ?? 0) > 0) throw invalid(field, "must not be empty");
    return [];
  }
  if (!Array.isArray(v)) throw invalid(field, `expected a list, got ${show(v)}`);
  if (v.length < (opts.min ?? 0)) throw invalid(field, `at least ${opts.min} entries`);
  if (v.length > opts.max) throw invalid(field, `at most ${opts.max} entries`);
  return v.map((x, i) => item(x, `${field}[${i}]`));
}

export const anyText = (max = 500) => (v: unknown, field: string): string => {
  if (typeof v !== "string") throw invalid(field, `expected text, got ${show(v)}`);
  if (v.length > max) throw invalid(field, `at most ${max} characters`);
  return v;
};
