/**
 * The three sheet adapters under one interface, so every conformance test
 * runs against each: the Apps Script SheetHost on the harness's fake
 * SpreadsheetApp (snapshots and gathered writes, flushed at the end of a
 * server call as apps-script/driver.ts does), the Excel host's sheet effects
 * on a workbook behind Excel.run (excel-workbook.ts), and the playground's
 * workbook. The user's edits change each host's cells directly.
 */
import type { Emulator } from "../../emulator/index.ts";
import { SheetHost } from "../../apps-script/sheet.ts";
import { handleSheetRequest } from "../../excel-addin/host/sheet.ts";
import { Workbook } from "../../shared/sheet/workbook.ts";
import type { Cell, SheetRequest } from "../../shared/core/sheet-protocol.ts";
import { createSheetsFake } from "../apps-script/harness.ts";
import { ExcelWorkbook } from "./excel-workbook.ts";

export interface OpenWorkbook {
  /** Answer one sheet effect. */
  handle(req: SheetRequest): Promise<unknown>;
  /** The end of one server call (Apps Script writes what it gathered). */
  endStep(): void;
  /** A sheet's values as the user sees them (a copy; "" for empty). */
  grid(sheet: string): Cell[][];
  /** The user changes the sheet: the new values of every cell (sort, insert, delete, typing). */
  setGrid(sheet: string, cells: Cell[][]): void;
  /** Text the host took as a formula. */
  formulas(): string[];
}

export interface Adapter {
  name: string;
  open(sheets: Record<string, Cell[][]>): OpenWorkbook;
}

const norm = (v: unknown): Cell => (v === null || v === undefined ? "" : (v as Cell));

const appsScript: Adapter = {
  name: "Apps Script",
  open(sheets) {
    // Only SpreadsheetApp is used here; the emulator answers no fetch.
    const fake = createSheetsFake({
      emulator: {} as Emulator,
      sheets: sheets as Record<string, (string | number | boolean)[][]>,
    });
    // One SheetHost per server call, as apps-script/driver.ts makes one per execution: its snapshot lives that long.
    const app = fake.context.SpreadsheetApp as GoogleAppsScript.Spreadsheet.SpreadsheetApp;
    let host = new SheetHost(app);
    return {
      handle: async (req) => host.handle(req),
      endStep: () => {
        host.flush();
        host = new SheetHost(app);
      },
      grid: (name) => (fake.grids.get(name) ?? []).map((r) => r.map(norm)),
      setGrid: (name, cells) => fake.grids.set(name, cells.map((r) => [...r]) as (string | number | boolean)[][]),
      // The fake throws on text written as a formula (it would be one in Sheets): none can be kept.
      formulas: () => [],
    };
  },
};

const excel: Adapter = {
  name: "Excel",
  open(sheets) {
    const wb = new ExcelWorkbook();
    for (const [name, cells] of Object.entries(sheets)) wb.addSheet(name, cells);
    return {
      handle: (req) => handleSheetRequest(wb, req),
      endStep: () => undefined,
      grid: (name) => (wb.sheets.get(name)?.cells ?? []).map((r) => r.map(norm)),
      setGrid: (name, cells) => {
        wb.sheets.get(name)!.cells = cells.map((r) => [...r]);
      },
      formulas: () => [...wb.sheets.values()].flatMap((s) => s.formulas.map((f) => f.text)),
    };
  },
};

const playground: Adapter = {
  name: "playground",
  open(sheets) {
    const wb = new Workbook(Object.entries(sheets).map(([name, cells]) => ({ name, cells })));
    return {
      handle: async (req) => wb.handle(req),
      endStep: () => undefined,
      grid: (name) => wb.sheet(name).cells.map((r) => r.map(norm)),
      setGrid: (name, cells) => {
        wb.sheet(name).cells = cells.map((r) => [...r]);
      },
      // The playground's grid has no formula engine and shows cells with textContent.
      formulas: () => [],
    };
  },
};

export const ADAPTERS: Adapter[] = [appsScript, excel, playground];
