/**
 * A recorded row's identity, as the audit finds it again: the row key of the
 * run's input columns (shared/enrich/row-key.ts, as the writes find rows);
 * for a table that says so, a row without input is its ID cell's text (the
 * portfolio: a row of only an id), or its place (an inserted block: rows
 * whose only content is what the run wrote; an undo that emptied them leaves
 * them nothing else to be found by).
 *
 * A write records a row by its key as the write leaves it (the new values
 * applied), so a run that writes the key's own cells (an ID cell, an
 * inserted row) is found again by what it wrote.
 */
import type { Cell } from "../core/index.ts";
import { rowKey, type WrittenRow } from "../enrich/index.ts";
import type { AuditTable } from "./audit-store.ts";

/** The key of sheet row `row` (1-based) holding `line` (the whole row from column A). */
export function auditKey(table: AuditTable, line: readonly Cell[], row: number): string {
  const k = rowKey(line.slice(table.col - 1, table.col - 1 + table.cols), table.mapping);
  if (k) return k;
  if (table.idCol !== undefined) {
    const id = String(line[table.idCol - 1] ?? "")
      .trim()
      .toUpperCase();
    if (id) return "id=" + id;
  }
  return table.byPlace ? `@${row}` : "";
}

/** The key of a row once `cells` ([col, old, new]) are written into `line`. */
export function keyAfter(table: AuditTable, line: readonly Cell[], row: number, cells: WrittenRow["cells"]): string {
  const after = [...line];
  for (const [col, , next] of cells) after[col - 1] = next;
  return auditKey(table, after, row);
}
