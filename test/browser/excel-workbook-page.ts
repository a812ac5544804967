/**
 * The page side of excelWorkbookScript (./excel-page.ts), bundled for the
 * browser: Excel.run over the conformance suite's workbook, whose cells are
 * kept in localStorage (the file saved) after every batch.
 */
import type { Cell } from "../../shared/core/sheet-protocol.ts";
import { ExcelWorkbook } from "../conformance/excel-workbook.ts";

const KEY = "__excelWorkbookCells";
const page = window as unknown as {
  __workbookSeed?: Record<string, Cell[][]>;
  __workbook?: ExcelWorkbook;
  Excel?: { run: ExcelWorkbook["run"] };
};
const wb = new ExcelWorkbook();
const saved = localStorage.getItem(KEY);
const sheets = saved ? (JSON.parse(saved) as Record<string, Cell[][]>) : (page.__workbookSeed ?? {});
for (const [name, cells] of Object.entries(sheets)) wb.addSheet(name, cells);
const save = () =>
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries([...wb.sheets].map(([n, s]) => [n, s.cells]))));
save();
page.__workbook = wb;
page.Excel = {
  run: async (batch) => {
    try {
      return await wb.run(batch);
    } finally {
      save();
    }
  },
};
