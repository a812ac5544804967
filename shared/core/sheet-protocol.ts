/**
 * Sheet I/O as plain data, so the jobs that read and write a sheet
 * (enrichment, search insert, portfolio check) stay sans-IO like every other
 * operation. Hosts answer these with SpreadsheetApp (Sheets), Excel.run
 * (Excel) or the playground's grid. Always whole blocks: never a cell loop.
 * Rows and columns are 1-based, as both spreadsheet APIs count.
 */
import { invalid, type CompanyDataError } from "./errors.ts";

export type Cell = string | number | boolean | null;

export type SheetRequest =
  /** The active sheet's selection; answers SelectionInfo. */
  | { op: "selection" }
  /**
   * A rectangle of values; answers Cell[][] (rows × cols, padded with "",
   * also past the sheet's last row). `fresh`: the sheet as it is now, never
   * a snapshot taken earlier in the execution (the guard read before a
   * row-keyed write: the user may have sorted since).
   */
  | { op: "read"; sheet: string; row: number; col: number; rows: number; cols: number; fresh?: boolean }
  /** The used range of a sheet from A1; answers Cell[][], or null when the sheet does not exist. `fresh` as for read. */
  | { op: "readAll"; sheet: string; fresh?: boolean }
  /**
   * Write a block. Strings are written as text, never as formulas (hosts use
   * a text number format and/or a leading apostrophe for = + - @ tab CR LF).
   * Answers undefined. `now`: written before the answer, not gathered for a
   * later batch (the rows were just verified by a fresh read; a host that
   * batches writes would otherwise widen the window in which the user can
   * move them).
   */
  | { op: "write"; sheet: string; row: number; col: number; values: Cell[][]; now?: boolean }
  /** Create the sheet if missing (with a header row when given); answers undefined. */
  | { op: "ensureSheet"; sheet: string; headers?: string[] }
  /** Append rows below the last used row; answers undefined. */
  | { op: "append"; sheet: string; rows: Cell[][] }
  /** Background colours for a block ("" = none), same shape as the block; answers undefined. */
  | { op: "colour"; sheet: string; row: number; col: number; colours: string[][] }
  /** One dropdown per row (options per row; [] = remove); answers undefined. */
  | { op: "dropdowns"; sheet: string; row: number; col: number; options: string[][] }
  /**
   * The formulas of a sheet's used range from A1 ("" for a cell without one)
   * and its values, as SheetFormulas; null where the host keeps no formulas
   * (CSV files, the playground) or the sheet does not exist. Read once per
   * run by the audit (shared/undo/): the old formula of a cell a run overwrites.
   */
  | { op: "formulas"; sheet: string }
  /**
   * Write one cell's formula: only a formula the host itself answered to
   * `formulas` (an undo writing back what a run overwrote), never text from
   * the API, which `write` always writes as text. Answers undefined.
   */
  | { op: "writeFormula"; sheet: string; row: number; col: number; formula: string };

export interface SheetFormulas {
  formulas: string[][];
  values: Cell[][];
}

export interface SelectionInfo {
  sheet: string;
  row: number;
  col: number;
  /** The selected values; for a single cell selection the sheet's data region around it may be given instead. */
  values: Cell[][];
}

/**
 * The one error every host answers for a sheet that does not exist (renamed
 * or deleted while a job ran): the same words in Sheets, Excel and the
 * playground.
 */
export function noSuchSheet(name: string): CompanyDataError {
  const n = String(name).slice(0, 60);
  return invalid("sheet", {
    de: `kein Tabellenblatt „${n}“ (umbenannt oder gelöscht?)`,
    en: `no sheet named "${n}" (renamed or deleted?)`,
  });
}
