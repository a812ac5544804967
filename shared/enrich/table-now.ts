/**
 * The sheet job's table as it is now, read right before each write.
 *
 * A job's block was selected once; between and during its steps the user
 * sorts, inserts and deletes rows. The header stays where it was (a table
 * whose header moved is refused, nothing written), the rows below it are
 * found by what they are: rows the run started with or wrote for (by key),
 * then any rows that follow them up to the row that was below the table
 * when the run started (a totals row, the user's notes) or an empty row.
 * So a deleted row never pulls the totals row into the job, and a row
 * inserted inside the table is part of it.
 */
import { sheet, type Operation } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import type { Cell } from "../core/index.ts";
import type { ColumnMapping } from "./columns.ts";
import { rowKey } from "./row-key.ts";
import { keyHash, type RowLedger } from "./row-ledger.ts";

export interface Block {
  sheet: string;
  row: number;
  col: number;
  rows: number;
  cols: number;
}

export interface TableNow {
  /** The data rows' input cells, top to bottom, as they stand now. */
  input: Cell[][];
  /** Their output cells (status, confidence, fields, as-of). */
  output: Cell[][];
  /** Their keys (row-key.ts). */
  keys: string[];
  /** Hash of the header row's input cells. */
  header: string;
  /** Hash of the input cells of the row just below the table. */
  below: string;
}

/** The protocol's hosts all hold at least this many rows (the playground's grid is the smallest). */
const MAX_SHEET_ROWS = 100_000;

/** A row's input cells as one hash (cells as text, spacing ignored). */
export function cellsHash(cells: readonly Cell[]): string {
  return keyHash(cells.map((c) => (c === null || c === undefined ? "" : String(c).trim())).join("\u001f"));
}

const emptyRow = (cells: readonly Cell[]) => cells.every((c) => c === "" || c === null || c === undefined);

export function tableMoved(row: number) {
  return invalid("range", {
    de: `die Tabelle wurde verschoben oder ihre Kopfzeile geändert (Zeile ${row}); bitte die Tabelle neu markieren und erneut starten`,
    en: `the table moved or its header row changed (row ${row}); please select the table again and start again`,
  });
}

/**
 * Read the table now: input and output columns in one read; `fresh` right
 * before a write (a host may answer other reads from a snapshot taken at the
 * start of its server call, which is where the step starts anyway).
 * `selected`: a run's first read, the block as selected, except that a
 * selection kept from an earlier run (the sidebar resumes with it) ends at
 * the row that was below the table then, when that row has moved up into it.
 */
export function* readTableNow(
  spec: Block,
  outCols: number,
  mapping: ColumnMapping,
  ledger: RowLedger,
  how: { selected?: boolean; fresh?: boolean } = {},
): Operation<TableNow> {
  const selected = !!how.selected;
  const window = selected ? spec.rows + 1 : spec.rows * 2 + 20;
  const rows = Math.max(2, Math.min(window, MAX_SHEET_ROWS - spec.row + 1));
  const cells = yield* sheet<Cell[][]>({
    op: "read",
    sheet: spec.sheet,
    row: spec.row,
    col: spec.col,
    rows,
    cols: spec.cols + outCols,
    fresh: how.fresh,
  });
  const inputOf = (r: readonly Cell[] | undefined) => Array.from({ length: spec.cols }, (_, j) => r?.[j] ?? "");
  const outputOf = (r: readonly Cell[] | undefined) =>
    Array.from({ length: outCols }, (_, j) => r?.[spec.cols + j] ?? "");
  const header = cellsHash(inputOf(cells[0]));
  if (!selected && ledger.header && ledger.header !== header) throw tableMoved(spec.row);
  const data = cells.slice(1).map(inputOf);
  const keys = data.map((r) => rowKey(r, mapping));
  // The table's own rows reach to the last one it knows …
  let last = -1;
  keys.forEach((k, i) => {
    if (ledger.knows(k) && (!selected || i < spec.rows - 1)) last = i;
  });
  let end: number;
  if (selected) {
    end = spec.rows - 1;
    if (ledger.below)
      for (let i = last + 1; i < end; i++) {
        const row = data[i] ?? [];
        if (!emptyRow(row) && cellsHash(row) === ledger.below) {
          end = i;
          break;
        }
      }
  } else {
    // … and on over rows added or edited after it, up to the row that was below the table, or an empty row.
    end = last + 1;
    for (let row = data[end]; row !== undefined && !emptyRow(row) && cellsHash(row) !== ledger.below; row = data[end])
      end++;
  }
  return {
    input: data.slice(0, end),
    output: cells.slice(1, 1 + end).map(outputOf),
    keys: keys.slice(0, end),
    header,
    below: cellsHash(data[end] ?? inputOf(undefined)),
  };
}
