/**
 * The audit of the portfolio check's writes (shared/undo/, the one
 * recorder): per row it writes, the cells it changes (old: as read fresh
 * right before the write) with the row's key as the write leaves it; a row
 * of the portfolio is its input (name, city, zip, register), or its ID cell
 * when it has no other input. The local check, the team server's check and
 * a host's sync of the server's runs all write through check-write.ts, so
 * all three are recorded here.
 */
import type { Cell } from "../core/index.ts";
import type { WriteAudit, WrittenRow } from "../enrich/index.ts";
import { sameCell } from "../sheet/index.ts";
import { keyAfter, type AuditTable } from "../undo/index.ts";
import type { Layout } from "./layout.ts";

/** A check's recorder and the table it keys rows by. */
export interface CheckAudit {
  rec: WriteAudit;
  table: AuditTable;
}

/** The portfolio as the audit finds its rows: the input roles (never the ID), else the ID cell's text. */
export function checkAuditTable(sheetName: string, layout: Layout): AuditTable {
  const mapping: Record<string, number> = {};
  for (const [role, col] of Object.entries(layout.input))
    if (role !== "id" && typeof col === "number") mapping[role] = col;
  return { sheet: sheetName, row: 1, col: 1, cols: layout.width, mapping, idCol: layout.idCol + 1 };
}

/**
 * The changed cells of the rows a window writes: `pos` the sheet rows
 * (1-based; null: gone), `now` the sheet as read right before, `cols` the
 * result columns (0-based) with `values` per row, and the ID column's value
 * per row when it is written.
 */
export function windowAuditRows(
  table: AuditTable,
  pos: readonly (number | null)[],
  now: readonly Cell[][],
  cols: readonly number[],
  values: readonly Cell[][],
  id: { col: number; values: readonly Cell[][] } | null,
): WrittenRow[] {
  const rows: WrittenRow[] = [];
  pos.forEach((p, k) => {
    if (p === null) return;
    const current = now[p - 1] ?? [];
    const next: [number, Cell][] = cols.map((c, i) => [c, values[k]?.[i] ?? ""]);
    if (id) next.push([id.col, id.values[k]?.[0] ?? ""]);
    const cells: WrittenRow["cells"] = [];
    for (const [c, v] of next) if (!sameCell(current[c], v)) cells.push([c + 1, current[c] ?? "", v]);
    if (cells.length > 0) rows.push({ key: keyAfter(table, current, p, cells), cells, row: p });
  });
  return rows;
}

/** The header cells a check adds (the columns were missing: empty before). */
export function headerAuditRows(table: AuditTable, header: readonly Cell[], added: Map<number, string>): WrittenRow[] {
  const cells: WrittenRow["cells"] = [...added]
    .filter(([c, text]) => !sameCell(header[c], text))
    .map(([c, text]) => [c + 1, header[c] ?? "", text]);
  return cells.length ? [{ key: keyAfter(table, header, 1, cells), cells, row: 1 }] : [];
}
