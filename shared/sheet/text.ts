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

/**
 * Do two cells hold the same thing for the user? Empty and null are one; a
 * number and its text are one (a sheet reads back what was written as either);
 * text neutralised with its apostrophe is the text the sheet shows. The audit
 * of writes (shared/undo/) decides "changed" and "still the run's value" by it.
 */
export function sameCell(a: Cell | undefined, b: Cell | undefined): boolean {
  return shown(a) === shown(b);
}

function shown(v: Cell | undefined): string {
  if (v === null || v === undefined) return "";
  const s = String(v);
  return s.startsWith("'") && needsNeutralising(s.slice(1)) ? s.slice(1) : s;
}
