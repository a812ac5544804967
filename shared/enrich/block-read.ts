/**
 * A sheet block's rows and what an earlier run left beside them, in one
 * read: what a price before a run (the sidebar's preview, the scheduled
 * refresh's estimate) and a progress view decide from. The job itself reads
 * the table as it is now, by row key (table-now.ts); this is the plain read
 * of the block as selected.
 */
import { sheet, type Cell, type Operation } from "../core/index.ts";
import type { FieldDef } from "./fields.ts";
import { outputBlock } from "./job.ts";
import type { SheetBlock } from "./job-types.ts";
import { isOutputHeader, readPrevious, type PreviousRow } from "./rows.ts";

export interface BlockRead {
  /** The input's header row. */
  header: Cell[];
  /** The input's data rows (no header), as many as the block has. */
  rows: Cell[][];
  /** What an earlier run left beside each data row; all null when the columns right of the input hold no output of ours. */
  previous: (PreviousRow | null)[];
}

/** The block (header row first) and its output columns, read at once. */
export function* readBlockWithPrevious(block: SheetBlock, fields: readonly FieldDef[]): Operation<BlockRead> {
  const out = outputBlock(block, fields.length);
  const all = yield* sheet<Cell[][]>({
    op: "read",
    sheet: block.sheet,
    row: block.row,
    col: block.col,
    rows: block.rows,
    cols: block.cols + out.cols,
  });
  const output = all.map((r) => r.slice(block.cols));
  const hasOutput = isOutputHeader(output[0] ?? [], fields);
  return {
    header: (all[0] ?? []).slice(0, block.cols),
    rows: all.slice(1).map((r) => r.slice(0, block.cols)),
    previous: output.slice(1).map((r) => (hasOutput ? readPrevious(r, fields.length) : null)),
  };
}
