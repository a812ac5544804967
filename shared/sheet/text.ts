/**
 * Values from the API are data, never formulas. A spreadsheet (and Excel
 * opening a CSV) treats a leading = + - @ as the start of a formula, and a
 * leading tab, CR or LF as a field break in some importers (OWASP CSV
 * injection). Such text gets a leading apostrophe, which both Sheets and
 * Excel show as "this is text" without displaying it.
 */
import type { Cell } from "../core/index.ts";

const DANGEROUS_START = /^[=+\-@\t\r\n]/;

/** True when `s` would be read as a formula or a field break if written as is. */
export function needsNeutralising(s: string): boolean {
  return DANGEROUS_START.test(s);
}

/** A value safe to write: numbers, booleans and null stay as they are; risky text gets a leading apostrophe. */
export function asText(v: Cell | undefined): Cell {
  if (v === undefined) return null;
  if (typeof v !== "string") return v;
  return needsNeutralising(v) ? "'" + v : v;
}
