/**
 * A workbook behind Excel.run that keeps its cells, for the conformance
 * suite: the part of the Office.js object model the task pane's sheet
 * effects (excel-addin/host/sheet.ts) use, with the rules they depend on.
 *
 * - Proxies and batches: commands are queued and only `context.sync()`
 *   carries them out; a property is readable only after `load` and a sync,
 *   otherwise reading it throws (Office's PropertyNotLoaded).
 *   https://learn.microsoft.com/office/dev/add-ins/develop/application-specific-api-model
 *   (load queues a command; call context.sync() before reading the properties)
 * - Text stays text only under the "@" number format: a string written into
 *   a cell with another format that starts with "=" becomes a formula.
 *   https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-numberformat-member
 *   and "Set and get range values, text, or formulas" in the Excel add-in docs.
 * - A sheet looked up with getItemOrNullObject is a null object when absent
 *   (isNullObject), it never throws.
 *   https://learn.microsoft.com/office/dev/add-ins/develop/application-specific-api-model#ornullobject-methods-and-properties
 * The user's own edits (sort, insert, delete, typing) change `cells`
 * directly, between or inside batches, as they do in Excel.
 */
import type { Cell } from "../../shared/core/sheet-protocol.ts";
import type { ExcelLike } from "../../excel-addin/host/sheet.ts";
import { nth } from "../helpers/indexed.ts";

export interface ExcelGridSheet {
  cells: Cell[][];
  formats: string[][];
  /** Cells Excel took as formulas: text written without the text format. */
  formulas: { row: number; col: number; text: string }[];
  fills: Map<string, string>;
  lists: Map<string, string>;
}

export class ExcelWorkbook implements ExcelLike {
  readonly sheets = new Map<string, ExcelGridSheet>();
  /** Sheets' visibility as set (Visible, Hidden, VeryHidden: https://learn.microsoft.com/javascript/api/excel/excel.sheetvisibility). */
  readonly visibility = new Map<string, string>();
  syncs = 0;
  /** What a formula written with range.formulas evaluates to (the fake has no calculation engine). */
  calc: (formula: string) => Cell = () => "";

  addSheet(name: string, cells: Cell[][] = []): ExcelGridSheet {
    const s: ExcelGridSheet = {
      cells: cells.map((r) => [...r]),
      formats: [],
      formulas: [],
      fills: new Map(),
      lists: new Map(),
    };
    this.sheets.set(name, s);
    return s;
  }

  async run<T>(batch: (context: Excel.RequestContext) => Promise<T>): Promise<T> {
    const queue: (() => void)[] = [];
    const loaded = new Set<object>();
    // The fake's proxies and callbacks below count syncs on this workbook.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const wb = this;
    const sync = async () => {
      wb.syncs++;
      for (const q of queue.splice(0)) q();
    };
    // A proxy whose listed properties are readable only once loaded and synced.
    const proxy = <T extends object>(compute: () => Record<string, unknown>, methods: object): T => {
      let values: Record<string, unknown> | null = null;
      const self: Record<string, unknown> = {
        load() {
          queue.push(() => {
            values = compute();
            loaded.add(self);
          });
          return self;
        },
      };
      // Setters must survive (a spread would call them): numberFormat and values are queued commands.
      Object.defineProperties(self, Object.getOwnPropertyDescriptors(methods));
      return new Proxy(self, {
        get(target, prop: string) {
          if (values && prop in values) return values[prop];
          if (prop in target) return target[prop];
          if (typeof prop === "string" && prop !== "then") throw new Error(`PropertyNotLoaded: ${prop}`);
          return undefined;
        },
        set(target, prop: string, v) {
          return Reflect.set(target, prop, v);
        },
      }) as T;
    };
    const range = (name: string, r0: number, c0: number, rows: number, cols: number) => {
      const s = () => wb.sheets.get(name)!;
      const at = (i: number, j: number) => s().cells[r0 + i]?.[c0 + j] ?? "";
      const key = (i: number, j: number) => `${r0 + i}:${c0 + j}`;
      // range.formulas: a cell's formula, else its constant value (Excel's Range.formulas).
      const formulaAt = (i: number, j: number) =>
        s().formulas.find((f) => f.row === r0 + i + 1 && f.col === c0 + j + 1)?.text ?? at(i, j);
      const dropFormula = (i: number, j: number) => {
        s().formulas = s().formulas.filter((f) => !(f.row === r0 + i + 1 && f.col === c0 + j + 1));
      };
      let formats: string[][] | null = null;
      const self = proxy<Record<string, unknown>>(
        () => ({
          values: Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => at(i, j))),
          formulas: Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => formulaAt(i, j))),
          rowIndex: r0,
          columnIndex: c0,
          rowCount: rows,
          columnCount: cols,
        }),
        {
          set numberFormat(f: string[][]) {
            formats = f;
            queue.push(() => f.forEach((row, i) => row.forEach((x, j) => setAt(s().formats, r0 + i, c0 + j, x, ""))));
          },
          set values(v: Cell[][]) {
            queue.push(() =>
              v.forEach((row, i) =>
                row.forEach((x, j) => {
                  const fmt = s().formats[r0 + i]?.[c0 + j] ?? formats?.[i]?.[j] ?? "General";
                  // A value written over a formula replaces it.
                  dropFormula(i, j);
                  if (typeof x === "string" && x.startsWith("=") && fmt !== "@")
                    s().formulas.push({ row: r0 + i + 1, col: c0 + j + 1, text: x });
                  setAt(s().cells, r0 + i, c0 + j, x, "");
                }),
              ),
            );
          },
          set formulas(v: string[][]) {
            queue.push(() =>
              v.forEach((row, i) =>
                row.forEach((f, j) => {
                  dropFormula(i, j);
                  s().formulas.push({ row: r0 + i + 1, col: c0 + j + 1, text: f });
                  setAt(s().cells, r0 + i, c0 + j, wb.calc(f), "");
                }),
              ),
            );
          },
          format: {
            fill: {
              set color(c: string) {
                queue.push(() => {
                  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) s().fills.set(key(i, j), c);
                });
              },
              clear() {
                queue.push(() => {
                  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) s().fills.delete(key(i, j));
                });
              },
            },
            font: { bold: false },
          },
          dataValidation: {
            clear() {
              queue.push(() => s().lists.delete(key(0, 0)));
            },
            set rule(r: { list: { source: string } }) {
              queue.push(() => s().lists.set(key(0, 0), r.list.source));
            },
          },
        },
      );
      return self;
    };
    const worksheet = (name: string | null) =>
      proxy<Record<string, unknown>>(
        () => ({ isNullObject: name === null || !wb.sheets.has(name), name: name ?? "" }),
        {
          set visibility(v: string) {
            queue.push(() => wb.visibility.set(name!, v));
          },
          getRangeByIndexes: (r: number, c: number, rows: number, cols: number) => range(name!, r, c, rows, cols),
          getUsedRangeOrNullObject: () =>
            proxy(() => {
              const cells = wb.sheets.get(name!)!.cells;
              let last = cells.length;
              while (last > 0 && nth(cells, last - 1).every((v) => v === "" || v === null)) last--;
              if (last === 0) return { isNullObject: true };
              const width = Math.max(...cells.slice(0, last).map((r) => r.length));
              return {
                isNullObject: false,
                rowIndex: 0,
                columnIndex: 0,
                rowCount: last,
                values: cells.slice(0, last).map((r) => Array.from({ length: width }, (_, j) => r[j] ?? "")),
                formulas: cells
                  .slice(0, last)
                  .map((r, i) =>
                    Array.from(
                      { length: width },
                      (_, j) =>
                        wb.sheets.get(name!)!.formulas.find((f) => f.row === i + 1 && f.col === j + 1)?.text ??
                        r[j] ??
                        "",
                    ),
                  ),
              };
            }, {}),
        },
      );
    const context = {
      sync,
      workbook: {
        worksheets: {
          getItemOrNullObject: (name: string) => worksheet(wb.sheets.has(name) ? name : null),
          add: (name: string) => {
            queue.push(() => {
              if (!wb.sheets.has(name)) wb.addSheet(name);
            });
            return worksheet(name);
          },
        },
      },
    };
    return batch(context as unknown as Excel.RequestContext);
  }
}

function setAt<T>(grid: T[][], r: number, c: number, v: T, fill: T) {
  while (grid.length <= r) grid.push([]);
  const row = nth(grid, r);
  while (row.length <= c) row.push(fill);
  row[c] = v;
}
