/**
 * The one CSV writer (RFC 4180 lines with CRLF), for every host that writes
 * CSV: the CLI's output files and the playground's export. Text that a
 * spreadsheet would run as a formula gets a leading apostrophe, except the
 * user's own cells, which are written back as they were read.
 */
import { needsNeutralising } from "./text.ts";
import type { Cell } from "../core/index.ts";

export type Delimiter = "," | ";" | "\t";

/**
 * A number as the spreadsheet that reads this delimiter expects it: `;` is
 * what German Excel writes and reads, and it reads 0,3366 as a number but
 * 0.3366 as a date or text; with `,` (English Excel, Sheets) the decimal
 * point. No thousands separators: they would be read as decimals the other way.
 */
export function formatCsvNumber(n: number, delimiter: Delimiter): string {
  if (!Number.isFinite(n)) return "";
  const s = String(n);
  return delimiter === ";" ? s.replace(".", ",") : s;
}

/**
 * One CSV line (with CRLF). Text that would run as a formula gets a leading
 * apostrophe, except in the first `userCells` cells: those are the user's
 * own input, written back as they were read (a `-5` or a header `+/- Umsatz`
 * is the user's, and a rerun must find it unchanged).
 */
export function formatRow(cells: readonly Cell[], delimiter: Delimiter, userCells = 0): string {
  return (
    cells
      .map((c, i) => (i < userCells ? quoteCell(String(c ?? ""), delimiter) : formatCell(c, delimiter)))
      .join(delimiter) + "\r\n"
  );
}

/** A cell of API text (or a number): neutralised, then quoted where needed. */
export function formatCell(c: Cell, delimiter: Delimiter): string {
  if (c === null || c === undefined) return "";
  if (typeof c === "number") return formatCsvNumber(c, delimiter);
  if (typeof c === "boolean") return c ? "TRUE" : "FALSE";
  return quoteCell(needsNeutralising(c) ? "'" + c : c, delimiter);
}

/** Text as one CSV field, unchanged: quoted when it holds a delimiter, a quote or a line break. */
function quoteCell(s: string, delimiter: Delimiter): string {
  return /[",;\t\r\n]/.test(s) || s.includes(delimiter) ? `"${s.replace(/"/g, '""')}"` : s;
}
