/**
 * Sheet effects answered with Excel.run: every request is one batch of
 * commands and one or two round trips (`sync`), never a cell-by-cell loop.
 * `Excel` is passed in, so the same code runs against office-addin-mock.
 */
import { noSuchSheet, type Cell, type SelectionInfo, type SheetRequest } from "../../shared/core/index.ts";

export interface ExcelLike {
  run<T>(batch: (context: Excel.RequestContext) => Promise<T>): Promise<T>;
}

/**
 * Strings are written as text: number format "@" on the cell makes Excel
 * take `=…`, `+…`, `-…`, `@…` literally, so API text never becomes a formula.
 * Other cells get "General" back, so a number is a number even where text
 * was written before.
 */
export const TEXT_FORMAT = "@";
export const GENERAL_FORMAT = "General";

export function formatsFor(values: Cell[][]): string[][] {
  return values.map((row) => row.map((v) => (typeof v === "string" ? TEXT_FORMAT : GENERAL_FORMAT)));
}

export function excelValues(values: Cell[][]): (string | number | boolean)[][] {
  return values.map((row) => row.map((v) => (v === null || v === undefined ? "" : v)));
}

/** Pad a ragged block to a rectangle (Excel wants rectangles). */
export function rectangle(values: Cell[][]): Cell[][] {
  const width = Math.max(0, ...values.map((r) => r.length));
  return values.map((r) => (r.length === width ? r : [...r, ...new Array<Cell>(width - r.length).fill("")]));
}

/** Runs of equal colour per row, so one colour costs one command, not one per cell. */
export function colourRuns(colours: string[][]): { row: number; col: number; length: number; colour: string }[] {
  const runs: { row: number; col: number; length: number; colour: string }[] = [];
  colours.forEach((row, r) => {
    let run: { row: number; col: number; length: number; colour: string } | undefined;
    row.forEach((colour, c) => {
      if (run?.colour === colour) run.length++;
      else runs.push((run = { row: r, col: c, length: 1, colour }));
    });
  });
  return runs;
}

/** Excel's list source is comma-separated and at most 255 characters. */
export function listSource(options: string[]): string {
  const parts: string[] = [];
  let length = 0;
  for (const raw of options) {
    const o = raw.replace(/,/g, "\u201A").trim(); // a look-alike comma keeps the option in one piece
    if (!o) continue;
    if (length + o.length + (parts.length ? 1 : 0) > 255) break;
    length += o.length + (parts.length ? 1 : 0);
    parts.push(o);
  }
  return parts.join(",");
}

async function sheetOrNull(context: Excel.RequestContext, name: string) {
  const ws = context.workbook.worksheets.getItemOrNullObject(name);
  ws.load("isNullObject");
  await context.sync();
  return ws.isNullObject ? null : ws;
}

async function mustSheet(context: Excel.RequestContext, name: string) {
  const ws = await sheetOrNull(context, name);
  if (!ws) throw noSuchSheet(name);
  return ws;
}

function writeBlock(ws: Excel.Worksheet, row0: number, col0: number, block: Cell[][]) {
  const values = rectangle(block);
  const width = values[0]?.length ?? 0;
  if (width === 0) return;
  const range = ws.getRangeByIndexes(row0, col0, values.length, width);
  // Formats first: the text format must be in place when the values arrive.
  range.numberFormat = formatsFor(values);
  range.values = excelValues(values);
}

/** The request of one op, for the handlers below. */
type RequestOf<K extends SheetRequest["op"]> = Extract<SheetRequest, { op: K }>;

/** One Excel.run batch per request; each op has its own handler below. */
export async function handleSheetRequest(excel: ExcelLike, request: SheetRequest): Promise<unknown> {
  switch (request.op) {
    case "selection":
      return excel.run((context) => readSelection(context));
    case "read":
      return excel.run((context) => readRange(context, request));
    case "readAll":
      return excel.run((context) => readAll(context, request));
    case "write":
      return excel.run((context) => writeValues(context, request));
    case "ensureSheet":
      return excel.run((context) => ensureSheet(context, request));
    case "append":
      return excel.run((context) => appendRows(context, request));
    case "colour":
      return excel.run((context) => colourCells(context, request));
    case "formulas":
      return excel.run((context) => readFormulas(context, request));
    case "writeFormula":
      return excel.run((context) => writeFormula(context, request));
    case "dropdowns":
      return excel.run((context) => setDropdowns(context, request));
  }
}

async function readSelection(context: Excel.RequestContext): Promise<SelectionInfo> {
  let range = context.workbook.getSelectedRange();
  range.load(["rowCount", "columnCount"]);
  await context.sync();
  // One selected cell: the table around it is what the user means.
  if (range.rowCount * range.columnCount === 1) range = range.getSurroundingRegion();
  range.load(["values", "rowIndex", "columnIndex"]);
  range.worksheet.load("name");
  await context.sync();
  const info: SelectionInfo = {
    sheet: range.worksheet.name,
    row: range.rowIndex + 1,
    col: range.columnIndex + 1,
    values: range.values as Cell[][],
  };
  return info;
}

async function readRange(context: Excel.RequestContext, request: RequestOf<"read">): Promise<Cell[][]> {
  const ws = await mustSheet(context, request.sheet);
  if (request.rows <= 0 || request.cols <= 0) return [];
  const range = ws.getRangeByIndexes(request.row - 1, request.col - 1, request.rows, request.cols);
  range.load("values");
  await context.sync();
  return range.values as Cell[][];
}

/** The whole used part of a sheet, from A1; null when there is no such sheet. */
async function readAll(context: Excel.RequestContext, request: RequestOf<"readAll">): Promise<Cell[][] | null> {
  const ws = await sheetOrNull(context, request.sheet);
  if (!ws) return null;
  const used = ws.getUsedRangeOrNullObject(true);
  used.load(["isNullObject", "values", "rowIndex", "columnIndex"]);
  await context.sync();
  if (used.isNullObject) return [];
  // The protocol counts from A1: pad rows and columns above and left of the used range.
  const width = used.columnIndex + (used.values[0]?.length ?? 0);
  const blank = () => new Array<Cell>(width).fill("");
  const rows: Cell[][] = [];
  for (let r = 0; r < used.rowIndex; r++) rows.push(blank());
  for (const row of used.values as Cell[][]) rows.push([...new Array<Cell>(used.columnIndex).fill(""), ...row]);
  return rows;
}

async function writeValues(context: Excel.RequestContext, request: RequestOf<"write">): Promise<undefined> {
  const ws = await mustSheet(context, request.sheet);
  writeBlock(ws, request.row - 1, request.col - 1, request.values);
  await context.sync();
  return undefined;
}

/** A missing sheet is added with its bold header row; an existing one is left as it is. */
async function ensureSheet(context: Excel.RequestContext, request: RequestOf<"ensureSheet">): Promise<undefined> {
  let ws = await sheetOrNull(context, request.sheet);
  if (!ws) {
    ws = context.workbook.worksheets.add(request.sheet);
    if (request.headers?.length) {
      writeBlock(ws, 0, 0, [request.headers]);
      ws.getRangeByIndexes(0, 0, 1, request.headers.length).format.font.bold = true;
    }
    await context.sync();
  }
  return undefined;
}

/** Rows go below the used range (or at the top of an empty sheet). */
async function appendRows(context: Excel.RequestContext, request: RequestOf<"append">): Promise<undefined> {
  const ws = await mustSheet(context, request.sheet);
  if (request.rows.length === 0) return undefined;
  const used = ws.getUsedRangeOrNullObject(true);
  used.load(["isNullObject", "rowIndex", "rowCount"]);
  await context.sync();
  const next = used.isNullObject ? 0 : used.rowIndex + used.rowCount;
  writeBlock(ws, next, 0, request.rows);
  await context.sync();
  return undefined;
}

/** Fill colours, one command per run of equal colour; an empty colour clears the fill. */
async function colourCells(context: Excel.RequestContext, request: RequestOf<"colour">): Promise<undefined> {
  const ws = await mustSheet(context, request.sheet);
  for (const run of colourRuns(request.colours)) {
    const fill = ws.getRangeByIndexes(request.row - 1 + run.row, request.col - 1 + run.col, 1, run.length).format.fill;
    if (run.colour) fill.color = run.colour;
    else fill.clear();
  }
  await context.sync();
  return undefined;
}

/** The used part of a sheet as formulas ("" where a cell has none) and values, from A1; null without the sheet. */
async function readFormulas(
  context: Excel.RequestContext,
  request: RequestOf<"formulas">,
): Promise<{ formulas: string[][]; values: Cell[][] } | null> {
  const ws = await sheetOrNull(context, request.sheet);
  if (!ws) return null;
  const used = ws.getUsedRangeOrNullObject(true);
  used.load(["isNullObject", "values", "formulas", "rowIndex", "columnIndex"]);
  await context.sync();
  if (used.isNullObject) return { formulas: [], values: [] };
  // range.formulas holds a cell's formula, or its constant value where it has none
  // (https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-formulas-member).
  const pad = <T>(rows: T[][], blank: T): T[][] => [
    ...Array.from({ length: used.rowIndex }, () => []),
    ...rows.map((r) => [...new Array<T>(used.columnIndex).fill(blank), ...r]),
  ];
  const formulas = (used.formulas as unknown[][]).map((r) =>
    r.map((f) => (typeof f === "string" && f.startsWith("=") ? f : "")),
  );
  return { formulas: pad(formulas, ""), values: pad(used.values as Cell[][], "") };
}

async function writeFormula(context: Excel.RequestContext, request: RequestOf<"writeFormula">): Promise<undefined> {
  const ws = await mustSheet(context, request.sheet);
  const range = ws.getRangeByIndexes(request.row - 1, request.col - 1, 1, 1);
  // General, so Excel evaluates it (a cell the add-in wrote text into has the text format).
  range.numberFormat = [[GENERAL_FORMAT]];
  range.formulas = [[request.formula]];
  await context.sync();
  return undefined;
}

/** One in-cell list per row; an empty option list only clears the cell's validation. */
async function setDropdowns(context: Excel.RequestContext, request: RequestOf<"dropdowns">): Promise<undefined> {
  const ws = await mustSheet(context, request.sheet);
  request.options.forEach((options, i) => {
    const validation = ws.getRangeByIndexes(request.row - 1 + i, request.col - 1, 1, 1).dataValidation;
    validation.clear();
    const source = listSource(options);
    if (source) validation.rule = { list: { inCellDropDown: true, source } };
  });
  await context.sync();
  return undefined;
}
