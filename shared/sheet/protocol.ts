/**
 * Sheet I/O as plain data, so the jobs that read and write a sheet
 * (enrichment, search insert, portfolio check) stay sans-IO like every other
 * operation. Hosts answer these with SpreadsheetApp (Sheets), Excel.run
 * (Excel) or the playground's grid. Always whole blocks: never a cell loop.
 * Rows and columns are 1-based, as both spreadsheet APIs count.
 */
export type Cell = string | number | boolean | null;

export type SheetRequest =
  /** The active sheet's selection; answers SelectionInfo. */
  | { op: "selection" }
  /** A rectangle of values; answers Cell[][] (rows × cols, padded with ""). */
  | { op: "read"; sheet: string; row: number; col: number; rows: number; cols: number }
  /** The used range of a sheet from A1; answers Cell[][], or null when the sheet does not exist. */
  | { op: "readAll"; sheet: string }
  /**
   * Write a block. Strings are written as text, never as formulas (hosts use
   * a text number format and/or a leading apostrophe for = + - @ tab CR LF).
   * Answers undefined.
   */
  | { op: "write"; sheet: string; row: number; col: number; values: Cell[][] }
  /** Create the sheet if missing (with a header row when given); answers undefined. */
  | { op: "ensureSheet"; sheet: string; headers?: string[] }
  /** Append rows below the last used row; answers undefined. */
  | { op: "append"; sheet: string; rows: Cell[][] }
  /** Background colours for a block ("" = none), same shape as the block; answers undefined. */
  | { op: "colour"; sheet: string; row: number; col: number; colours: string[][] }
  /** One dropdown per row (options per row; [] = remove); answers undefined. */
  | { op: "dropdowns"; sheet: string; row: number; col: number; options: string[][] };

export interface SelectionInfo {
  sheet: string;
  row: number;
  col: number;
  /** The selected values; for a single cell selection the sheet's data region around it may be given instead. */
  values: Cell[][];
}
