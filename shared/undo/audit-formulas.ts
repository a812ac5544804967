/**
 * The old formulas of the cells a run overwrites (issue 40, item 5: undo
 * restores what was there, a formula as a formula). The recorder asks the
 * host once per run and sheet for the used range's formulas and values
 * (Sheets: one getFormulas; Excel: range.formulas; hosts without formulas
 * answer null), and keeps a cell's formula only where the value read beside
 * it is the value the write found there (a row sorted elsewhere meanwhile
 * keeps none) and the formula is not just the cell's own text (Excel answers
 * a text constant that starts with "=" as its formula). A formula showing
 * nothing ("") counts as an empty cell: runs that write only into empty
 * cells (a first enrichment) cost no extra call.
 */
import { sheet, type Operation, type SheetFormulas } from "../core/index.ts";
import type { WrittenRow } from "../enrich/index.ts";
import { sameCell } from "../sheet/index.ts";

/** The host's formulas per sheet, read at most once per run (undefined: not asked yet). */
export type FormulaCache = Map<string, SheetFormulas | null>;

/** `rows` with each cell's old formula added where the host has one. */
export function* withOldFormulas(cache: FormulaCache, name: string, rows: WrittenRow[]): Operation<WrittenRow[]> {
  // Only a cell that held something can have held a formula worth keeping (one showing "" is taken as
  // empty): a run writing into empty cells, a first enrichment, asks nothing (no Spreadsheet call).
  if (!rows.some((r) => r.row !== undefined && r.cells.some(([, old]) => !sameCell(old, "")))) return rows;
  if (!cache.has(name)) {
    const answer = yield* sheet<SheetFormulas | null | undefined>({ op: "formulas", sheet: name });
    cache.set(name, answer && Array.isArray(answer.formulas) ? answer : null);
  }
  const found = cache.get(name);
  if (!found) return rows;
  return rows.map((r) => {
    if (r.row === undefined) return r;
    const at = r.row - 1;
    const cells = r.cells.map((cell): WrittenRow["cells"][number] => {
      const [col, old, next] = cell;
      const f = found.formulas[at]?.[col - 1];
      const v = found.values[at]?.[col - 1];
      if (typeof f !== "string" || !f.startsWith("=") || !sameCell(v, old) || sameCell(v, f)) return cell;
      return [col, old, next, f];
    });
    return { ...r, cells };
  });
}
