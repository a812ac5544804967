/**
 * The audit of writes (shared/undo/, the `doc:audit:` store keys) kept in
 * the workbook itself, so it travels with the file as the issue asks (the
 * task pane's other `doc:` keys stay in OfficeRuntime.storage, per device).
 *
 * A very hidden worksheet, one key per row: the key in column A, the value in
 * the cells beside it, cut at EXCEL_CELL_CHARS; every cell is text ("@"
 * number format, so nothing is read as a formula or number).
 *  - "veryHidden": the sheet is hidden and the user cannot unhide it from
 *    Excel's menu; it is saved with the workbook
 *    (https://learn.microsoft.com/javascript/api/excel/excel.sheetvisibility).
 *  - A cell holds at most 32,767 characters ("Excel specifications and
 *    limits", https://support.microsoft.com/office/excel-specifications-and-limits-1672b34d-7043-467e-8e27-269d656771c3,
 *    "Total number of characters that a cell can contain"); a sheet
 *    1,048,576 rows by 16,384 columns. The audit's own bounds (20 runs,
 *    50,000 cells, shared/undo/audit-store.ts) keep it to a few MB.
 * Custom XML parts were the other place that travels with the file; a part
 * is rewritten whole on every change (Office.js CustomXmlPart.setXml), where
 * a worksheet writes only the rows that changed.
 */
import type { Cell } from "../../shared/core/index.ts";
import type { ExcelLike } from "./sheet.ts";

export const AUDIT_SHEET = "Company data (audit)";
/** Characters of a value per cell, below Excel's 32,767. */
export const EXCEL_CELL_CHARS = 32_000;
const SAFE = "~";
const strip = (v: unknown) => (typeof v === "string" && v.startsWith(SAFE) ? v.slice(1) : "");

export interface WorkbookStore {
  storeGet(keys: string[]): Promise<(string | null)[]>;
  storePut(entries: Record<string, string | null>): Promise<void>;
}

async function readGrid(context: Excel.RequestContext): Promise<{ grid: string[][]; exists: boolean }> {
  const ws = context.workbook.worksheets.getItemOrNullObject(AUDIT_SHEET);
  ws.load("isNullObject");
  await context.sync();
  if (ws.isNullObject) return { grid: [], exists: false };
  const used = ws.getUsedRangeOrNullObject();
  used.load("values");
  await context.sync();
  if (used.isNullObject) return { grid: [], exists: true };
  return {
    grid: (used.values as unknown[][]).map((r) => r.map((v) => (typeof v === "string" ? v : ""))),
    exists: true,
  };
}

function parse(grid: string[][]): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of grid) {
    const key = strip(row[0]);
    if (key) out.set(key, row.slice(1).map(strip).join(""));
  }
  return out;
}

/** The rows after `entries` are applied (a deleted key's row is emptied and reused), and the rows touched. */
function apply(grid: string[][], entries: Record<string, string | null>): number[] {
  const rowOf = new Map<string, number>();
  const free: number[] = [];
  grid.forEach((r, i) => (strip(r[0]) ? rowOf.set(strip(r[0]), i) : free.push(i)));
  const touched: number[] = [];
  for (const [k, v] of Object.entries(entries)) {
    let i = rowOf.get(k);
    if (v === null) {
      if (i === undefined) continue;
      grid[i] = [];
      rowOf.delete(k);
    } else {
      i ??= free.shift() ?? grid.push([]) - 1;
      const cells = [SAFE + k];
      for (let p = 0; p === 0 || p < v.length; p += EXCEL_CELL_CHARS)
        cells.push(SAFE + v.slice(p, p + EXCEL_CELL_CHARS));
      grid[i] = cells;
      rowOf.set(k, i);
    }
    touched.push(i);
  }
  return touched;
}

/** `excel`: asked for at the first use (the custom functions' runtime may have no `Excel` and never uses the audit). */
export function workbookStore(excel: () => ExcelLike): WorkbookStore {
  return {
    storeGet: (keys) =>
      excel().run(async (context) => {
        const map = parse((await readGrid(context)).grid);
        return keys.map((k) => map.get(k) ?? null);
      }),
    storePut: (entries) =>
      excel().run(async (context) => {
        const { grid, exists } = await readGrid(context);
        const before = grid.map((r) => r.length);
        const touched = apply(grid, entries);
        if (!touched.length) return;
        const from = Math.min(...touched);
        const to = Math.max(...touched);
        // As wide as the widest row written or emptied here, so a shorter value clears the old value's tail.
        const width = Math.max(2, ...touched.map((i) => Math.max(grid[i]?.length ?? 0, before[i] ?? 0)));
        const block: Cell[][] = grid
          .slice(from, to + 1)
          .map((r) => Array.from({ length: width }, (_, j) => r[j] ?? ""));
        const ws = exists
          ? context.workbook.worksheets.getItemOrNullObject(AUDIT_SHEET)
          : context.workbook.worksheets.add(AUDIT_SHEET);
        if (!exists) ws.visibility = "VeryHidden";
        const range = ws.getRangeByIndexes(from, 0, block.length, width);
        range.numberFormat = block.map((r) => r.map(() => "@"));
        range.values = block as (string | number | boolean)[][];
        await context.sync();
      }),
  };
}

/** The driver's store with the audit's keys in the workbook (the rest where they were). */
export function withWorkbookAudit<D extends WorkbookStore>(driver: D, audit: WorkbookStore): D {
  const mine = (k: string) => k.startsWith("doc:audit:");
  return {
    ...driver,
    storeGet: async (keys: string[]) => {
      const a = keys.filter(mine);
      const rest = keys.filter((k) => !mine(k));
      const [av, rv] = await Promise.all([a.length ? audit.storeGet(a) : [], rest.length ? driver.storeGet(rest) : []]);
      return keys.map((k) => (mine(k) ? (av[a.indexOf(k)] ?? null) : (rv[rest.indexOf(k)] ?? null)));
    },
    storePut: async (entries: Record<string, string | null>) => {
      const a: Record<string, string | null> = {};
      const rest: Record<string, string | null> = {};
      for (const [k, v] of Object.entries(entries)) (mine(k) ? a : rest)[k] = v;
      if (Object.keys(rest).length) await driver.storePut(rest);
      if (Object.keys(a).length) await audit.storePut(a);
    },
  };
}
