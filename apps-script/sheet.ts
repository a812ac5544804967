/**
 * Answers the core's sheet requests with SpreadsheetApp, in whole blocks.
 * Writes, colours and dropdowns are gathered and written at `flush()`, with
 * neighbouring blocks merged: an enrichment that writes fifty chunks costs
 * a handful of Spreadsheet calls, not fifty times three. The first read of a
 * sheet takes its whole data range in one call (sheet-values.ts) and later reads are served from that snapshot, with this execution's own
 * writes applied to it: a job that reads its table, then the columns beside
 * it, then its progress, reads the sheet once.
 * Text is written as text by one mechanism, the quote prefix: every string
 * goes to setValues behind a leading apostrophe, which Sheets keeps hidden
 * and which stops it from reading the text as a formula, number, date or
 * boolean ("+49 30 …", "00123", "1/2"). No number format is ever set, so
 * the user's formats stay; the "@" format plus an apostrophe would show the
 * apostrophe. Where the user formatted a cell as plain text ("@", read
 * with the block's getNumberFormats), the text goes in as it is: Sheets
 * takes it literally there. Numbers and booleans are written as they are;
 * ISO dates (YYYY-MM-DD) as dates in the spreadsheet's time zone (dates.ts).
 */
import { noSuchSheet, type Cell, type SheetRequest, type SelectionInfo } from "../shared/core/index.ts";
import { needsNeutralising } from "../shared/sheet/index.ts";
import { CompanyDataError, invalid } from "../shared/core/index.ts";
import { dateInZone, isDate, isoDateOf, ISO_DATE } from "./dates.ts";
import { sheetValues } from "./sheet-values.ts";

type App = GoogleAppsScript.Spreadsheet.SpreadsheetApp;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Range = GoogleAppsScript.Spreadsheet.Range;

type Kind = "values" | "colours" | "dropdowns";
/** Pending cells of one kind in one sheet: row → col → value. */
type Grid = Map<number, Map<number, unknown>>;

export class SheetHost {
  private ss: GoogleAppsScript.Spreadsheet.Spreadsheet | undefined;
  private readonly sheets = new Map<string, Sheet | null>();
  private readonly pending = new Map<string, Record<Kind, Grid>>();
  /** Whole-sheet snapshots by name, with this execution's writes applied. */
  private readonly snapshots = new Map<string, Cell[][] | null>();

  /** `open`: the spreadsheet to work on when it is not the active one (a time-driven trigger has none). */
  /** The spreadsheet's time zone, read once when a date is read or written. */
  private tz: string | undefined;

  constructor(
    private readonly app: App,
    private readonly open?: () => GoogleAppsScript.Spreadsheet.Spreadsheet | null,
    /** For dates in the spreadsheet's time zone; without it dates are read in the script's zone and written as text. */
    private readonly utilities?: Pick<GoogleAppsScript.Utilities.Utilities, "formatDate">,
  ) {}

  private zone(): string {
    this.tz ??= this.spreadsheet().getSpreadsheetTimeZone();
    return this.tz;
  }

  /** Sheet values as plain cells: date cells become YYYY-MM-DD of the spreadsheet's time zone. */
  private cells(values: unknown[][]): Cell[][] {
    const u = this.utilities;
    return cellsOf(values, u ? (d) => isoDateOf(d, this.zone(), u) : undefined);
  }

  /** What setValues gets for one cell (see the file's comment). */
  private writable(v: Cell | undefined, plainTextCell: boolean): string | number | boolean | Date {
    if (v === null || v === undefined || v === "") return "";
    if (typeof v !== "string") return v;
    const u = this.utilities;
    if (u && !plainTextCell && ISO_DATE.test(v)) {
      const d = dateInZone(v, this.zone(), u);
      if (d) return d;
    }
    // Callers may have neutralised risky text already (asText): that apostrophe is the quote prefix.
    const own = v.startsWith("'") && needsNeutralising(v.slice(1)) ? v.slice(1) : v;
    return plainTextCell ? own : "'" + own;
  }

  hasPending(): boolean {
    return this.pending.size > 0;
  }

  handle(req: SheetRequest): unknown {
    switch (req.op) {
      case "selection":
        this.flush();
        return this.selection();
      case "read": {
        if (req.rows < 1 || req.cols < 1) return [];
        if (req.fresh) return this.readNow(req.sheet, req.row, req.col, req.rows, req.cols);
        const snap = this.snapshot(req.sheet);
        if (snap) return slice(snap, req.row, req.col, req.rows, req.cols);
        this.flush();
        return this.cells(this.need(req.sheet).getRange(req.row, req.col, req.rows, req.cols).getValues());
      }
      case "readAll": {
        if (!this.sheet(req.sheet)) return null;
        if (req.fresh) this.readNow(req.sheet, 1, 1, 0, 0);
        const snap = this.snapshot(req.sheet);
        if (snap) return trimmed(snap).map((r) => [...r]);
        this.flush();
        return this.cells(sheetValues(this.need(req.sheet)));
      }
      case "write":
        this.put(req.sheet, "values", req.row, req.col, req.values);
        if (req.now) this.flush();
        return undefined;
      case "colour":
        this.put(req.sheet, "colours", req.row, req.col, req.colours);
        return undefined;
      case "dropdowns":
        this.put(
          req.sheet,
          "dropdowns",
          req.row,
          req.col,
          req.options.map((o) => [o]),
        );
        return undefined;
      case "ensureSheet": {
        if (!this.sheet(req.sheet)) {
          const created = this.spreadsheet().insertSheet(req.sheet);
          this.sheets.set(req.sheet, created);
          this.snapshots.set(req.sheet, []);
          if (req.headers?.length) this.put(req.sheet, "values", 1, 1, [req.headers]);
        }
        return undefined;
      }
      case "append": {
        if (req.rows.length === 0) return undefined;
        const snap = this.snapshot(req.sheet);
        const last = snap
          ? trimmed(snap).length
          : Math.max(this.need(req.sheet).getLastRow(), this.lastPendingRow(req.sheet));
        this.put(req.sheet, "values", last + 1, 1, req.rows);
        return undefined;
      }
      case "formulas": {
        // Read once per run by the audit: one getFormulas of the data range; the values are the snapshot's.
        if (!this.sheet(req.sheet)) return null;
        const values = trimmed(this.snapshot(req.sheet) ?? []).map((r) => [...r]);
        return { formulas: this.need(req.sheet).getDataRange().getFormulas(), values };
      }
      case "writeFormula":
        // An undo's formula (one the host read with getFormulas): written as a formula, after what is gathered.
        this.flush();
        this.need(req.sheet).getRange(req.row, req.col).setFormula(req.formula);
        this.snapshots.delete(req.sheet);
        return undefined;
    }
    throw new CompanyDataError("INTERNAL");
  }

  /** Write everything gathered: per sheet and kind, one call pair per rectangular block. */
  flush(): void {
    for (const [name, kinds] of this.pending) {
      const sh = this.need(name);
      for (const block of blocks(kinds.values)) {
        const range = sh.getRange(block.row, block.col, block.cells.length, block.width);
        const formats = range.getNumberFormats();
        range.setValues(block.cells.map((r, i) => r.map((v, j) => this.writable(v as Cell, formats[i]?.[j] === "@"))));
      }
      for (const block of blocks(kinds.colours)) {
        sh.getRange(block.row, block.col, block.cells.length, block.width).setBackgrounds(
          block.cells.map((r) => r.map((c) => (c ? String(c) : null))),
        );
      }
      for (const block of blocks(kinds.dropdowns)) {
        const rules = block.cells.map((r) =>
          r.map((o) => {
            const options = (o as string[] | undefined) ?? [];
            // A builder, not a service call: it runs in the script.
            return options.length
              ? this.app
                  .newDataValidation()
                  .requireValueInList(options.slice(0, 500), true)
                  .setAllowInvalid(true)
                  .build()
              : null;
          }),
        );
        sh.getRange(block.row, block.col, block.cells.length, 1).setDataValidations(rules);
      }
    }
    this.pending.clear();
  }

  private selection(): SelectionInfo {
    let range: Range | null = this.app.getActiveRange();
    if (!range) throw invalid("selection", { de: "keine Zellen markiert", en: "no cells selected" });
    if (range.getNumRows() === 1 && range.getNumColumns() === 1) range = range.getDataRegion();
    const sheet = range.getSheet();
    const name = sheet.getName();
    this.sheets.set(name, sheet);
    return { sheet: name, row: range.getRow(), col: range.getColumn(), values: this.cells(range.getValues()) };
  }

  private spreadsheet() {
    this.ss ??= (this.open ? this.open() : null) ?? this.app.getActiveSpreadsheet() ?? undefined;
    if (!this.ss) throw invalid("spreadsheet", { de: "keine Tabelle geöffnet", en: "no spreadsheet open" });
    return this.ss;
  }

  private sheet(name: string): Sheet | null {
    if (!this.sheets.has(name)) this.sheets.set(name, this.spreadsheet().getSheetByName(name));
    return this.sheets.get(name) ?? null;
  }

  private need(name: string): Sheet {
    const sh = this.sheet(name);
    if (!sh) throw noSuchSheet(name);
    return sh;
  }

  /**
   * The guard read before a row-keyed write: the live sheet, not the
   * snapshot (a user may have sorted since it was taken). The snapshot is
   * taken again (the data range in one call) with this execution's
   * pending writes laid over it, as they will be written; they stay pending,
   * so a header written before joins the next block write.
   */
  private readNow(name: string, row: number, col: number, rows: number, cols: number): Cell[][] {
    this.need(name);
    this.snapshots.delete(name);
    const snap = this.snapshot(name) ?? [];
    for (const [r, line] of this.pending.get(name)?.values ?? []) {
      const target = rowAt(snap, r);
      for (const [c, v] of line) {
        while (target.length < c) target.push("");
        target[c - 1] = (v ?? "") as Cell;
      }
    }
    return slice(snap, row, col, rows, cols);
  }

  /**
   * The sheet's data range, read once per execution. Jobs read their whole
   * table anyway; reading the used range costs one call (sheet-values.ts)
   * where each later read would cost two more.
   */
  private snapshot(name: string): Cell[][] | null {
    if (!this.snapshots.has(name)) this.snapshots.set(name, this.cells(sheetValues(this.need(name))));
    return this.snapshots.get(name) ?? null;
  }

  private put(sheet: string, kind: Kind, row: number, col: number, cells: unknown[][]): void {
    if (!(row >= 1 && col >= 1))
      throw invalid("range", { de: "Zeilen und Spalten beginnen bei 1", en: "rows and columns start at 1" });
    const snap = kind === "values" ? this.snapshots.get(sheet) : null;
    if (snap) {
      cells.forEach((r, i) => {
        const line = rowAt(snap, row + i);
        r.forEach((v, j) => {
          while (line.length < col + j) line.push("");
          line[col + j - 1] = (v ?? "") as Cell;
        });
      });
    }
    let kinds = this.pending.get(sheet);
    if (!kinds) this.pending.set(sheet, (kinds = { values: new Map(), colours: new Map(), dropdowns: new Map() }));
    const grid = kinds[kind];
    cells.forEach((r, i) => {
      let line = grid.get(row + i);
      if (!line) grid.set(row + i, (line = new Map<number, unknown>()));
      r.forEach((v, j) => line.set(col + j, v));
    });
  }

  private lastPendingRow(sheet: string): number {
    const kinds = this.pending.get(sheet);
    return kinds ? Math.max(0, ...kinds.values.keys()) : 0;
  }
}

function slice(snap: Cell[][], row: number, col: number, rows: number, cols: number): Cell[][] {
  return Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => snap[row - 1 + i]?.[col - 1 + j] ?? ""),
  );
}

/** Row `r` (1-based) of a grid, added (with empty rows before it) when the grid is shorter. */
function rowAt(grid: Cell[][], r: number): Cell[] {
  while (grid.length < r - 1) grid.push([]);
  return (grid[r - 1] ??= []);
}

/** Without trailing empty rows. */
function trimmed(snap: Cell[][]): Cell[][] {
  let n = snap.length;
  while (n > 0 && snap[n - 1]?.every((v) => v === "" || v === null)) n--;
  return snap.slice(0, n);
}

/**
 * Cut a grid into rectangles: consecutive rows covering the same columns
 * without gaps go into one block. Gaps are never filled, so cells the core
 * did not write keep their content.
 */
function blocks(grid: Grid): { row: number; col: number; width: number; cells: unknown[][] }[] {
  const rows = [...grid.keys()].sort((a, b) => a - b);
  const out: { row: number; col: number; width: number; cells: unknown[][]; lo: number; hi: number }[] = [];
  for (const r of rows) {
    const line = grid.get(r)!;
    const cols = [...line.keys()].sort((a, b) => a - b);
    // Split the row into runs of adjacent columns.
    const runs: [number, number][] = [];
    for (const c of cols) {
      const last = runs[runs.length - 1];
      if (last && c === last[1] + 1) last[1] = c;
      else runs.push([c, c]);
    }
    for (const [lo, hi] of runs) {
      const cells = [];
      for (let c = lo; c <= hi; c++) cells.push(line.get(c));
      const prev = out.find((b) => b.lo === lo && b.hi === hi && b.row + b.cells.length === r);
      if (prev) prev.cells.push(cells);
      else out.push({ row: r, col: lo, width: hi - lo + 1, cells: [cells], lo, hi });
    }
  }
  return out;
}

/** Sheet values as plain cells: dates become YYYY-MM-DD (`dateText`, else in the script's time zone). */
function cellsOf(values: unknown[][], dateText?: (d: Date) => string): Cell[][] {
  return values.map((r) =>
    r.map((v) => {
      if (v === null || v === undefined) return "";
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
      if (isDate(v)) {
        if (dateText) return dateText(v);
        const p = (n: number) => String(n).padStart(2, "0");
        return `${v.getFullYear()}-${p(v.getMonth() + 1)}-${p(v.getDate())}`;
      }
      return String(v);
    }),
  );
}
