/**
 * The Excel.run paths of the task pane's sheet effects, against
 * office-addin-mock: what is loaded before it is read, what is written,
 * and with which number format.
 */
import { describe, expect, it } from "vitest";
import { OfficeMockObject } from "office-addin-mock";
import { colourRuns, handleSheetRequest, listSource, type ExcelLike } from "../../excel-addin/host/sheet.ts";
import { nth } from "../helpers/indexed.ts";

interface Written {
  at: [number, number, number, number];
  range: any;
}

/** A workbook mock: sheets by name; every getRangeByIndexes records a fresh range. */
function workbook(opts: {
  sheets: Record<string, { used?: { rowIndex: number; columnIndex: number; values: unknown[][] } }>;
  selection?: any;
}) {
  const written: Written[] = [];
  const added: string[] = [];
  // context.sync() must sync every proxy the code created, as Office.js does.
  const created: any[] = [];
  const mock = (data: object) => {
    const m = new OfficeMockObject(data);
    created.push(m);
    return m;
  };
  if (opts.selection) created.push(opts.selection, ...(opts.selection.__related ?? []));
  const sheetMock = (name: string | null) => {
    const s = name === null ? undefined : opts.sheets[name];
    return {
      isNullObject: name === null,
      name: name ?? "",
      getRangeByIndexes(r: number, c: number, rows: number, cols: number) {
        const range = mock({
          values: Array.from({ length: rows }, (_, i) =>
            Array.from({ length: cols }, (_, j) => `R${r + i + 1}C${c + j + 1}`),
          ),
          numberFormat: [],
          format: {
            fill: {
              color: "",
              clear() {
                (this as any).cleared = true;
              },
            },
            font: { bold: false },
          },
          dataValidation: {
            rule: undefined,
            clear() {
              (this as any).cleared = true;
            },
          },
        }) as any;
        written.push({ at: [r, c, rows, cols], range });
        return range;
      },
      getUsedRangeOrNullObject() {
        const u = s?.used;
        return mock(
          u
            ? {
                isNullObject: false,
                rowIndex: u.rowIndex,
                columnIndex: u.columnIndex,
                rowCount: u.values.length,
                values: u.values,
              }
            : { isNullObject: true, rowIndex: 0, columnIndex: 0, rowCount: 0, values: [] },
        );
      },
    };
  };
  const data = {
    context: {
      workbook: {
        worksheets: {
          getItemOrNullObject: (name: string) => mock(sheetMock(name in opts.sheets ? name : null)),
          add: (name: string) => {
            added.push(name);
            opts.sheets[name] = {};
            return mock(sheetMock(name));
          },
        },
        getSelectedRange: () => opts.selection,
      },
      sync: async () => {
        for (const m of created) await m.sync();
        await new Promise((r) => setTimeout(r, 0));
      },
    },
    run: async function (cb: (c: unknown) => Promise<unknown>) {
      return cb(this.context);
    },
  };
  const excel = new OfficeMockObject(data) as unknown as ExcelLike & { context: any };
  return { excel, written, added };
}

describe("Excel sheet host (office-addin-mock)", () => {
  it("reads a rectangle after loading it", async () => {
    const { excel, written } = workbook({ sheets: { Data: {} } });
    const values = await handleSheetRequest(excel, { op: "read", sheet: "Data", row: 2, col: 3, rows: 2, cols: 2 });
    expect(nth(written, 0).at).toEqual([1, 2, 2, 2]);
    expect(values).toEqual([
      ["R2C3", "R2C4"],
      ["R3C3", "R3C4"],
    ]);
  });

  it("reads the selection; a single cell means the table around it", async () => {
    const region = new OfficeMockObject({
      values: [
        ["Firma", "Ort"],
        ["Siemens AG", "München"],
      ],
      rowIndex: 4,
      columnIndex: 1,
      worksheet: { name: "Leads" },
    });
    const selected: any = new OfficeMockObject({
      rowCount: 1,
      columnCount: 1,
      values: [["x"]],
      rowIndex: 5,
      columnIndex: 1,
      worksheet: { name: "Leads" },
      getSurroundingRegion: () => region,
    });
    selected.__related = [region];
    const { excel } = workbook({ sheets: {}, selection: selected });
    const info = await handleSheetRequest(excel, { op: "selection" });
    expect(info).toEqual({
      sheet: "Leads",
      row: 5,
      col: 2,
      values: [
        ["Firma", "Ort"],
        ["Siemens AG", "München"],
      ],
    });
  });

  it("a multi-cell selection is taken as it is", async () => {
    const selected = new OfficeMockObject({
      rowCount: 2,
      columnCount: 1,
      values: [["a"], ["b"]],
      rowIndex: 0,
      columnIndex: 0,
      worksheet: { name: "S" },
      getSurroundingRegion: () => {
        throw new Error("not for a block");
      },
    });
    const { excel } = workbook({ sheets: {}, selection: selected });
    expect(await handleSheetRequest(excel, { op: "selection" })).toEqual({
      sheet: "S",
      row: 1,
      col: 1,
      values: [["a"], ["b"]],
    });
  });

  it("writes one block: strings as text (@), numbers and booleans as General, null as empty", async () => {
    const { excel, written } = workbook({ sheets: { Out: {} } });
    await handleSheetRequest(excel, {
      op: "write",
      sheet: "Out",
      row: 3,
      col: 2,
      values: [
        ['=HYPERLINK("x")', 42, null],
        ["+49 89 1", true],
      ],
    });
    expect(written).toHaveLength(1);
    expect(nth(written, 0).at).toEqual([2, 1, 2, 3]);
    expect(nth(written, 0).range.numberFormat).toEqual([
      ["@", "General", "General"],
      ["@", "General", "@"],
    ]);
    expect(nth(written, 0).range.values).toEqual([
      ['=HYPERLINK("x")', 42, ""],
      ["+49 89 1", true, ""],
    ]);
  });

  it("appends below the used range", async () => {
    const { excel, written } = workbook({
      sheets: { Log: { used: { rowIndex: 0, columnIndex: 0, values: [["h"], ["1"], ["2"]] } } },
    });
    await handleSheetRequest(excel, { op: "append", sheet: "Log", rows: [["3"], ["4"]] });
    expect(nth(written, 0).at).toEqual([3, 0, 2, 1]);
    expect(nth(written, 0).range.values).toEqual([["3"], ["4"]]);
  });

  it("appends to an empty sheet at A1", async () => {
    const { excel, written } = workbook({ sheets: { Log: {} } });
    await handleSheetRequest(excel, { op: "append", sheet: "Log", rows: [["a", 1]] });
    expect(nth(written, 0).at).toEqual([0, 0, 1, 2]);
  });

  it("readAll pads from A1; a missing sheet answers null", async () => {
    const { excel } = workbook({ sheets: { T: { used: { rowIndex: 1, columnIndex: 1, values: [["a", "b"]] } } } });
    expect(await handleSheetRequest(excel, { op: "readAll", sheet: "T" })).toEqual([
      ["", "", ""],
      ["", "a", "b"],
    ]);
    expect(await handleSheetRequest(excel, { op: "readAll", sheet: "Nope" })).toBeNull();
  });

  it("ensureSheet adds a missing sheet with a bold text header, and leaves an existing one", async () => {
    const { excel, written, added } = workbook({ sheets: { Have: {} } });
    await handleSheetRequest(excel, { op: "ensureSheet", sheet: "Have", headers: ["x"] });
    expect(added).toEqual([]);
    await handleSheetRequest(excel, { op: "ensureSheet", sheet: "Monitor", headers: ["Firma", "Status"] });
    expect(added).toEqual(["Monitor"]);
    expect(nth(written, 0).range.values).toEqual([["Firma", "Status"]]);
    expect(nth(written, 0).range.numberFormat).toEqual([["@", "@"]]);
    expect(nth(written, 1).range.format.font.bold).toBe(true);
  });

  it('colours runs of equal colour with one command each; "" clears', async () => {
    const { excel, written } = workbook({ sheets: { S: {} } });
    await handleSheetRequest(excel, {
      op: "colour",
      sheet: "S",
      row: 2,
      col: 1,
      colours: [
        ["#ff0000", "#ff0000", ""],
        ["#00ff00", "#00ff00", "#00ff00"],
      ],
    });
    expect(written.map((w) => w.at)).toEqual([
      [1, 0, 1, 2],
      [1, 2, 1, 1],
      [2, 0, 1, 3],
    ]);
    expect(nth(written, 0).range.format.fill.color).toBe("#ff0000");
    expect(nth(written, 1).range.format.fill.cleared).toBe(true);
    expect(nth(written, 2).range.format.fill.color).toBe("#00ff00");
  });

  it("sets one list validation per row; [] removes it", async () => {
    const { excel, written } = workbook({ sheets: { S: {} } });
    await handleSheetRequest(excel, {
      op: "dropdowns",
      sheet: "S",
      row: 2,
      col: 4,
      options: [["A GmbH", "B, C AG"], []],
    });
    expect(nth(written, 0).range.dataValidation.rule).toEqual({
      list: { inCellDropDown: true, source: "A GmbH,B\u201A C AG" },
    });
    expect(nth(written, 1).range.dataValidation.cleared).toBe(true);
    expect(nth(written, 1).range.dataValidation.rule).not.toHaveProperty("list");
  });

  it("fails clearly on a missing sheet", async () => {
    const { excel } = workbook({ sheets: {} });
    await expect(
      handleSheetRequest(excel, { op: "write", sheet: "Gone", row: 1, col: 1, values: [["x"]] }),
    ).rejects.toThrow(/no sheet named "Gone"/);
  });

  it("helpers: colour runs and the 255-character list limit", () => {
    expect(colourRuns([["a", "a", "b"]])).toEqual([
      { row: 0, col: 0, length: 2, colour: "a" },
      { row: 0, col: 2, length: 1, colour: "b" },
    ]);
    const long = listSource(Array.from({ length: 100 }, (_, i) => `Option number ${i}`));
    expect(long.length).toBeLessThanOrEqual(255);
    expect(long.startsWith("Option number 0,Option number 1")).toBe(true);
  });
});
