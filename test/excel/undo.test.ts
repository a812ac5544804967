/**
 * Excel: the audit and the undo of a run through the app service with the
 * task pane's own sheet code (excel-addin/host/sheet.ts) on the workbook fake
 * of the conformance suite, and the audit in the workbook's very hidden sheet
 * (excel-addin/host/audit-sheet.ts), so it travels with the file. A refresh
 * changes 10 values; the user sorts and edits 2 of them; undo restores the
 * other 8 and lists the 2; the undo of the undo restores the run's values.
 */
import { describe, expect, it } from "vitest";
import { runAsync, type AsyncDriver } from "../../shared/core/index.ts";
import { dispatch } from "../../shared/app/dispatch.ts";
import type { AppDeps, AppInput, AppMethodName, AppOutput } from "../../shared/app/protocol.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { handleSheetRequest } from "../../excel-addin/host/sheet.ts";
import { AUDIT_SHEET, withWorkbookAudit, workbookStore } from "../../excel-addin/host/audit-sheet.ts";
import { ExcelWorkbook } from "../conformance/excel-workbook.ts";
import { harness } from "../monitor/harness.ts";
import type { Cell } from "../../shared/core/sheet-protocol.ts";

const DAY = 86_400_000;

function excel() {
  const h = harness();
  const ids = h.emu.companies.withStatus("ACTIVE").slice(0, 10);
  const wb = new ExcelWorkbook();
  wb.addSheet("List", [["ID", "Company"], ...ids.map((id) => [id, ""])]);
  const base: AsyncDriver = {
    http: async (reqs) =>
      h.driver.http(reqs.map((r) => ({ ...r, url: r.url.replace(/^https?:\/\/[^/]+/, "http://emulator.test") }))),
    sleep: async (ms) => h.driver.sleep(ms),
    cacheGet: async (k) => h.driver.cacheGet(k),
    cachePut: async (e, t) => h.driver.cachePut(e, t),
    storeGet: async (k) => h.driver.storeGet(k),
    storePut: async (e) => h.driver.storePut(e),
    sheet: (req) => handleSheetRequest(wb, req),
  };
  const driver = withWorkbookAudit(
    base,
    workbookStore(() => wb),
  );
  const deps = (): AppDeps => ({
    host: "excel",
    now: h.now,
    random: () => 0.5,
    documentId: "wb",
    pacer: new Pacer(),
    who: "ana",
  });
  const call = <M extends AppMethodName>(method: M, input: AppInput<M>): Promise<AppOutput<M>> =>
    runAsync<AppOutput<M>>(dispatch(deps(), method, input), driver);
  const list = () => wb.sheets.get("List")!;
  return { h, ids, wb, call, list, copy: () => list().cells.map((r) => [...r]) };
}

const TABLE = {
  sheet: "List",
  row: 1,
  col: 1,
  rows: 11,
  cols: 2,
  mapping: { id: 0 },
  fields: ["name", "city", "address"],
  mode: "batch" as const,
};

function expectRows(now: Cell[][], want: Cell[][], edited: { id: string; col: number; value: string }[]): void {
  const byId = new Map(want.slice(1).map((r) => [r[0], r]));
  for (const r of now.slice(1)) {
    const expected = [...(byId.get(r[0]) ?? [])];
    for (const e of edited) if (e.id === r[0]) expected[e.col] = e.value;
    expect(r.slice(0, expected.length), String(r[0])).toEqual(expected);
  }
}

describe("Excel: the Runs view's undo, the audit in the workbook", () => {
  it("restores the other 8 of 10 values after a sort and 2 edits, lists the 2, and undoes the undo", async () => {
    const x = excel();
    await x.call("saveSettings", { apiKey: x.h.key, baseUrl: "https://emulator.test", language: "en" });
    const refresh = { table: TABLE, olderThanDays: 7, frequency: "daily" as const, hour: 6, monthCeiling: 100 };
    await x.call("refreshSaveSettings", { refresh });
    expect(await x.call("refreshRun", {})).toMatchObject({ status: "done", refreshed: 10 });

    // Day 8: two companies moved on day 5; four rows were refreshed by hand yesterday (not due).
    for (const id of x.ids.slice(0, 2)) x.h.emu.scheduleEvent(id, { day: 5, kind: "ADDRESS" });
    x.h.advance(8);
    const header = x.list().cells[0]!.map(String);
    const asOf = header.indexOf("As of");
    const address = header.indexOf("Address");
    for (const r of x.list().cells.slice(7)) r[asOf] = new Date(x.h.now() - DAY).toISOString().slice(0, 10);
    const before = x.copy();
    expect(await x.call("refreshRun", {})).toMatchObject({ status: "done", refreshed: 6 });
    const after = x.copy();
    const runs = await x.call("auditRuns", {});
    expect(runs.runs[0]).toMatchObject({ kind: "refresh", who: "ana", cells: 10, rows: 6, credits: 6 });
    // The audit is in the workbook: a very hidden sheet of its own.
    expect(x.wb.sheets.has(AUDIT_SHEET)).toBe(true);
    expect(x.wb.visibility.get(AUDIT_SHEET)).toBe("VeryHidden");

    // The user sorts (rows and their formats move together) and edits 2 of the changed cells.
    const sheet = x.list();
    const order = sheet.cells
      .slice(1)
      .map((r, i) => ({ id: String(r[0]), i: i + 1 }))
      .sort((a, b) => b.id.localeCompare(a.id));
    sheet.cells = [sheet.cells[0]!, ...order.map((o) => sheet.cells[o.i]!)];
    sheet.formats = [sheet.formats[0] ?? [], ...order.map((o) => sheet.formats[o.i] ?? [])];
    const edited = [
      { id: x.ids[0]!, col: address, value: "Edited Str. 1, 10115 Berlin" },
      { id: x.ids[4]!, col: asOf, value: "checked by hand" },
    ];
    for (const e of edited) sheet.cells.find((r) => r[0] === e.id)![e.col] = e.value;

    const undo = await x.call("undoRun", { run: runs.runs[0]!.id });
    expect(undo).toMatchObject({ restored: 8, already: false, deleted: [] });
    expect(undo.kept.map((k) => k.now).sort()).toEqual(["Edited Str. 1, 10115 Berlin", "checked by hand"]);
    expectRows(x.copy(), before, edited);
    expect((await x.call("undoRun", { run: runs.runs[0]!.id })).already).toBe(true);

    const back = await x.call("undoRun", { run: undo.run });
    expect(back).toMatchObject({ restored: 8, kept: [] });
    expectRows(x.copy(), after, edited);
    // Text stayed text: no cell became a formula.
    expect(x.list().formulas).toEqual([]);
  });
});

describe("Excel: undo restores what was there (issue 40, item 5)", () => {
  it("a formula stays a formula, a number a number, an empty cell empty; API text never becomes a formula", async () => {
    const x = excel();
    await x.call("saveSettings", { apiKey: x.h.key, baseUrl: "https://emulator.test", language: "en" });
    const refresh = { table: TABLE, olderThanDays: 7, frequency: "daily" as const, hour: 6, monthCeiling: 100 };
    await x.call("refreshSaveSettings", { refresh });
    expect(await x.call("refreshRun", {})).toMatchObject({ status: "done", refreshed: 10 });
    const address = x.list().cells[0]!.map(String).indexOf("Address");
    const rowOf = (id: string) => x.list().cells.findIndex((r) => r[0] === id);
    // The user's own content in three address cells: a formula (its value beside it), a number, nothing.
    const formula = '="Formula Str. "&1';
    x.wb.calc = (f) => (f === formula ? "Formula Str. 1" : "");
    const [a, b, c] = [x.ids[0]!, x.ids[1]!, x.ids[2]!];
    x.list().cells[rowOf(a)]![address] = "Formula Str. 1";
    x.list().formulas.push({ row: rowOf(a) + 1, col: address + 1, text: formula });
    x.list().cells[rowOf(b)]![address] = 42;
    x.list().cells[rowOf(c)]![address] = "";
    for (const id of [a, b, c]) x.h.emu.scheduleEvent(id, { day: 5, kind: "ADDRESS" });
    x.h.advance(8);
    await x.call("refreshRun", {});
    expect(x.list().formulas).toEqual([]);
    const run = (await x.call("auditRuns", {})).runs[0]!;
    expect(run.kind).toBe("refresh");

    const undo = await x.call("undoRun", { run: run.id });
    expect(undo.kept).toEqual([]);
    expect(x.list().formulas).toEqual([{ row: rowOf(a) + 1, col: address + 1, text: formula }]);
    expect(x.list().cells[rowOf(a)]![address]).toBe("Formula Str. 1");
    expect(x.list().cells[rowOf(b)]![address]).toBe(42);
    expect(x.list().cells[rowOf(c)]![address]).toBe("");

    // The undo of the undo writes the run's text back as text: the formula is gone, nothing became one.
    const back = await x.call("undoRun", { run: undo.run });
    expect(back.kept).toEqual([]);
    expect(x.list().formulas).toEqual([]);
    expect(String(x.list().cells[rowOf(a)]![address])).not.toBe("Formula Str. 1");
  });
});
