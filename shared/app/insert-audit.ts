/**
 * The audit of inserted search results (shared/undo/, the one recorder): an
 * insert is a run of kind "insert" whose cells are the block it wrote (old:
 * what the cells held, read right before; usually empty). Its rows are found
 * again by the company id they hold (or, without an ID column, by all they
 * hold), and a row emptied by an undo by its place, so the undo of the undo
 * writes the block back where it was.
 */
import { storePut, type Cell, type Operation } from "../core/index.ts";
import type { WrittenRow } from "../enrich/index.ts";
import { sameCell } from "../sheet/index.ts";
import { auditRun, keyAfter, type AuditTable } from "../undo/index.ts";
import type { AppDeps } from "./protocol.ts";

export interface InsertedBlock {
  sheet: string;
  row: number;
  col: number;
  /** The block's columns (field keys), for the key of a row. */
  columns: readonly string[];
  /** What the block's cells held before, and what was written (same shape, header row included). */
  old: readonly (readonly Cell[])[];
  values: readonly (readonly Cell[])[];
}

function tableOf(b: InsertedBlock): AuditTable {
  const id = b.columns.indexOf("id");
  const mapping = id >= 0 ? { id } : Object.fromEntries(b.columns.map((c, k) => [`c${k}`, k]));
  return { sheet: b.sheet, row: b.row, col: b.col, cols: b.columns.length, mapping, byPlace: true };
}

/** The block's changed cells, keyed by each row as the insert leaves it. */
function insertedRows(table: AuditTable, b: InsertedBlock): WrittenRow[] {
  const rows: WrittenRow[] = [];
  b.values.forEach((line, i) => {
    const before = b.old[i] ?? [];
    const cells: WrittenRow["cells"] = [];
    line.forEach((v, k) => {
      if (!sameCell(before[k], v)) cells.push([b.col + k, before[k] ?? "", v]);
    });
    // The row as the sheet holds it after the write, from column A (the block's columns at their place).
    const after: Cell[] = [];
    before.forEach((v, k) => (after[b.col - 1 + k] = v));
    if (cells.length > 0) rows.push({ key: keyAfter(table, after, b.row + i, cells), cells, row: b.row + i });
  });
  return rows;
}

/** Record an insert as one finished run (before its write: a crash between leaves the run, never a write without it). */
export function* auditInsert(deps: AppDeps, b: InsertedBlock, credits: number): Operation<void> {
  const table = tableOf(b);
  const rec = auditRun({ kind: "insert", who: deps.who ?? "", now: deps.now, table });
  yield* rec.record(b.sheet, insertedRows(table, b));
  yield* storePut(yield* rec.finish(credits));
}
