/**
 * The playground's spreadsheet model: sheets of plain cells, a selection,
 * colours and dropdowns, and the answers to the core's sheet effects
 * (shared/sheet/protocol.ts). No DOM here: the grid renders it, the tests
 * drive it directly.
 */
import { noSuchSheet, type Cell, type SelectionInfo, type SheetRequest } from "../core/index.ts";

export interface Sheet {
  name: string;
  cells: Cell[][];
  colours: Map<string, string>;
  dropdowns: Map<string, string[]>;
}

/** 1-based, inclusive; r1/c1 is where the selection started (the cursor). */
export interface Range {
  r1: number;
  c1: number;
  r2: number;
  c2: number;
}

const key = (r: number, c: number) => `${r}:${c}`;
export const MAX_ROWS = 100_000;
export const MAX_COLS = 500;

export function normalise(r: Range): Range {
  return { r1: Math.min(r.r1, r.r2), c1: Math.min(r.c1, r.c2), r2: Math.max(r.r1, r.r2), c2: Math.max(r.c1, r.c2) };
}

export class Workbook {
  readonly sheets = new Map<string, Sheet>();
  active: string;
  selection: Range = { r1: 1, c1: 1, r2: 1, c2: 1 };
  private listeners = new Set<() => void>();

  constructor(initial: { name: string; cells: Cell[][] }[]) {
    for (const s of initial) this.addSheet(s.name, s.cells);
    this.active = initial[0]?.name ?? this.addSheet("Sheet1", []).name;
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  changed(): void {
    for (const fn of this.listeners) fn();
  }

  addSheet(name: string, cells: Cell[][] = []): Sheet {
    const s: Sheet = { name, cells: cells.map((r) => [...r]), colours: new Map(), dropdowns: new Map() };
    this.sheets.set(name, s);
    return s;
  }

  sheet(name: string = this.active): Sheet {
    const s = this.sheets.get(name);
    if (!s) throw noSuchSheet(name);
    return s;
  }

  get(name: string, r: number, c: number): Cell {
    return this.sheet(name).cells[r - 1]?.[c - 1] ?? "";
  }

  set(name: string, r: number, c: number, v: Cell): void {
    if (r < 1 || c < 1 || r > MAX_ROWS || c > MAX_COLS) throw new Error("outside the sheet");
    const cells = this.sheet(name).cells;
    while (cells.length < r - 1) cells.push([]);
    const row = (cells[r - 1] ??= []);
    while (row.length < c) row.push("");
    row[c - 1] = v;
  }

  /** Rows × cols of the used range from A1. */
  size(name: string = this.active): { rows: number; cols: number } {
    const cells = this.sheet(name).cells;
    let rows = 0;
    let cols = 0;
    cells.forEach((row, i) => {
      row.forEach((v, j) => {
        if (v !== "" && v !== null) {
          rows = Math.max(rows, i + 1);
          cols = Math.max(cols, j + 1);
        }
      });
    });
    return { rows, cols };
  }

  block(name: string, row: number, col: number, rows: number, cols: number): Cell[][] {
    return Array.from({ length: rows }, (_, i) =>
      Array.from({ length: cols }, (_, j) => this.get(name, row + i, col + j)),
    );
  }

  /** The contiguous non-empty region around a cell, as Sheets' and Excel's "current region". */
  region(name: string, r: number, c: number): Range {
    const filled = (rr: number, cc: number) => {
      const v = this.get(name, rr, cc);
      return v !== "" && v !== null;
    };
    let g: Range = { r1: r, c1: c, r2: r, c2: c };
    if (!filled(r, c)) return g;
    for (let grew = true; grew;) {
      grew = false;
      const rowHas = (rr: number) => {
        for (let cc = Math.max(1, g.c1 - 1); cc <= g.c2 + 1; cc++) if (filled(rr, cc)) return true;
        return false;
      };
      const colHas = (cc: number) => {
        for (let rr = Math.max(1, g.r1 - 1); rr <= g.r2 + 1; rr++) if (filled(rr, cc)) return true;
        return false;
      };
      if (g.r1 > 1 && rowHas(g.r1 - 1)) {
        g = { ...g, r1: g.r1 - 1 };
        grew = true;
      }
      if (rowHas(g.r2 + 1)) {
        g = { ...g, r2: g.r2 + 1 };
        grew = true;
      }
      if (g.c1 > 1 && colHas(g.c1 - 1)) {
        g = { ...g, c1: g.c1 - 1 };
        grew = true;
      }
      if (colHas(g.c2 + 1)) {
        g = { ...g, c2: g.c2 + 1 };
        grew = true;
      }
    }
    return g;
  }

  /** Answer one sheet effect. */
  handle(req: SheetRequest): unknown {
    switch (req.op) {
      case "selection": {
        const sel = normalise(this.selection);
        // A single cell stands for its data region, as the protocol allows.
        const r = sel.r1 === sel.r2 && sel.c1 === sel.c2 ? this.region(this.active, sel.r1, sel.c1) : sel;
        const info: SelectionInfo = {
          sheet: this.active,
          row: r.r1,
          col: r.c1,
          values: this.block(this.active, r.r1, r.c1, r.r2 - r.r1 + 1, r.c2 - r.c1 + 1),
        };
        return info;
      }
      case "read":
        check(req.row, req.col, req.rows, req.cols);
        return this.block(req.sheet, req.row, req.col, req.rows, req.cols);
      case "readAll": {
        if (!this.sheets.has(req.sheet)) return null;
        const { rows, cols } = this.size(req.sheet);
        return this.block(req.sheet, 1, 1, rows, cols);
      }
      case "write":
        req.values.forEach((row, i) => row.forEach((v, j) => this.set(req.sheet, req.row + i, req.col + j, v)));
        this.changed();
        return undefined;
      case "ensureSheet":
        if (!this.sheets.has(req.sheet)) {
          this.addSheet(req.sheet, req.headers ? [req.headers] : []);
          this.changed();
        }
        return undefined;
      case "append": {
        const start = this.size(req.sheet).rows + 1;
        req.rows.forEach((row, i) => row.forEach((v, j) => this.set(req.sheet, start + i, 1 + j, v)));
        this.changed();
        return undefined;
      }
      case "colour": {
        const s = this.sheet(req.sheet);
        req.colours.forEach((row, i) =>
          row.forEach((c, j) =>
            c ? s.colours.set(key(req.row + i, req.col + j), c) : s.colours.delete(key(req.row + i, req.col + j)),
          ),
        );
        this.changed();
        return undefined;
      }
      case "dropdowns": {
        const s = this.sheet(req.sheet);
        req.options.forEach((opts, i) =>
          opts.length
            ? s.dropdowns.set(key(req.row + i, req.col), opts)
            : s.dropdowns.delete(key(req.row + i, req.col)),
        );
        this.changed();
        return undefined;
      }
    }
  }

  colourAt(name: string, r: number, c: number): string | undefined {
    return this.sheet(name).colours.get(key(r, c));
  }
  dropdownAt(name: string, r: number, c: number): string[] | undefined {
    return this.sheet(name).dropdowns.get(key(r, c));
  }
}

function check(row: number, col: number, rows: number, cols: number) {
  if (!(row >= 1 && col >= 1 && rows >= 0 && cols >= 0 && rows <= MAX_ROWS && cols <= MAX_COLS))
    throw new Error("range outside the sheet");
}
