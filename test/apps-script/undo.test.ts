/**
 * The audit and the undo of a run through the built Code.js (the sidebar's
 * uiCall): a refresh ("Refresh now") changes 10 values (the as-of of six due
 * rows, the address and the change cell of two companies that moved); the
 * user sorts the sheet and edits 2 of those cells; "Undo this run" restores
 * exactly the other 8 and lists the 2; undoing the undo restores the run's
 * values; undoing the run twice does the work once. An undo cut off after
 * any number of Spreadsheet calls (the platform stops the script: nothing
 * after runs, its run marker stays until it expires) ends, when run again,
 * in the same sheet cell for cell as an uncut undo. An undo while another
 * run holds the document (its run marker) waits for it, bounded, then runs.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import { createEmulator } from "../../emulator/index.ts";
import { createSheetsFake } from "./harness.ts";

const OUT = mkdtempSync(join(tmpdir(), "apps-script-undo-"));
let code = "";
const DAY = 86_400_000;

beforeAll(async () => {
  await buildWithReport(OUT);
  code = readFileSync(join(OUT, "Code.js"), "utf8");
});

type Grid = (string | number | boolean | Date)[][];
interface Result<T> {
  ok: boolean;
  value: T;
  error?: unknown;
}
interface UndoView {
  run: string;
  restored: number;
  kept: { cell: string; now: unknown }[];
  deleted: string[];
  already: boolean;
}

const TABLE = {
  sheet: "List",
  row: 1,
  col: 1,
  rows: 11,
  cols: 2,
  mapping: { id: 0 },
  fields: ["name", "city", "address"],
  mode: "batch",
};

/** Day 0 enrichment, day 8 refresh of six rows (10 values change), the user's sort and 2 edits. */
function scene() {
  const clock = { t: 0 };
  const emu = createEmulator({ companies: 400, seed: 11, startDate: "2026-01-15", now: () => clock.t });
  clock.t = Date.parse(`${emu.clock.today()}T09:00:00Z`);
  const ids = emu.companies.withStatus("ACTIVE").slice(0, 10);
  const f = createSheetsFake({
    emulator: emu,
    dist: OUT,
    now: () => clock.t,
    sheets: { List: [["ID", "Company"], ...ids.map((id) => [id, ""])] },
    onSleep: (ms) => {
      clock.t += ms;
    },
  });
  f.load(code);
  f.setClock(() => clock.t);
  for (const [k, v] of Object.entries({
    apiKey: emu.createKey(1_000_000),
    baseUrl: "https://api.implisense.com",
    language: "en",
  }))
    f.setUser(k, v);
  const ui = <T>(method: string, input: unknown = {}) =>
    JSON.parse(f.call("uiCall", method, JSON.stringify(input)) as string) as Result<T>;
  const list = () => f.grids.get("List") as Grid;
  const copy = () => list().map((r) => [...r]);
  const refresh = { table: TABLE, olderThanDays: 7, frequency: "daily", hour: 7, monthCeiling: 100 };
  expect(ui("refreshSaveSettings", { refresh }).ok).toBe(true);
  expect(ui("refreshRun").ok).toBe(true);

  // Day 8: two companies moved on day 5; four rows the user refreshed by hand yesterday are not due.
  for (const id of ids.slice(0, 2)) emu.scheduleEvent(id, { day: 5, kind: "ADDRESS" });
  emu.clock.advance(8);
  clock.t += 8 * DAY;
  const header = list()[0]!.map(String);
  const asOf = header.indexOf("As of");
  const address = header.indexOf("Address");
  const [y, m, d] = new Date(clock.t - DAY).toISOString().slice(0, 10).split("-").map(Number);
  for (const r of list().slice(7)) r[asOf] = f.date(y!, m!, d!);
  const before = copy();
  const ran = ui<{ changedValues: number }>("refreshRun");
  expect(ran.ok, JSON.stringify(ran.error)).toBe(true);
  const after = copy();
  const runs = ui<{ runs: { id: string; kind: string; cells: number; rows: number; credits: number }[] }>("auditRuns");
  expect(runs.ok, JSON.stringify(runs.error)).toBe(true);
  expect(runs.value.runs[0]).toMatchObject({ kind: "refresh", cells: 10, rows: 6, credits: 6 });

  // The user sorts (descending by id, whole rows) and edits a moved company's address and a refreshed as-of.
  const [head, ...rows] = list();
  rows.sort((a, b) => String(b[0]).localeCompare(String(a[0])));
  list().splice(0, list().length, head!, ...rows);
  const edited = [
    { id: ids[0]!, col: address, value: "Edited Str. 1, 10115 Berlin" },
    { id: ids[4]!, col: asOf, value: "checked by hand" },
  ];
  for (const e of edited) list().find((r) => r[0] === e.id)![e.col] = e.value;
  return { f, ui, clock, list, copy, before, after, edited, runId: runs.value.runs[0]!.id };
}

/** Every row (by id) as in `want`, but the user's edits. */
function expectRows(now: Grid, want: Grid, edited: { id: string; col: number; value: string }[]): void {
  const byId = new Map(want.slice(1).map((r) => [r[0], r]));
  for (const r of now.slice(1)) {
    const expected = [...(byId.get(r[0]) ?? [])];
    for (const e of edited) if (e.id === r[0]) expected[e.col] = e.value;
    expect(r.slice(0, expected.length), String(r[0])).toEqual(expected);
  }
}

describe("Sheets: the Runs view's undo", () => {
  it("restores the other 8 of 10 values after a sort and 2 edits, lists the 2, undoes the undo, and works once", () => {
    const s = scene();
    const undo = s.ui<UndoView>("undoRun", { run: s.runId });
    expect(undo.ok, JSON.stringify(undo.error)).toBe(true);
    expect(undo.value).toMatchObject({ restored: 8, already: false, deleted: [] });
    expect(undo.value.kept.map((k) => k.now).sort()).toEqual(["Edited Str. 1, 10115 Berlin", "checked by hand"]);
    const undone = s.copy();
    expect(undone.slice(1).map((r) => r[0])).toEqual(
      s.after
        .slice(1)
        .map((r) => r[0])
        .sort()
        .reverse(),
    );
    expectRows(undone, s.before, s.edited);
    // Types as they were: dates are dates, empty cells empty.
    expect(undone.flat().filter((v) => v instanceof Date).length).toBe(
      s.before.flat().filter((v) => v instanceof Date).length,
    );

    const again = s.ui<UndoView>("undoRun", { run: s.runId });
    expect(again.value).toMatchObject({ already: true, run: undo.value.run, restored: 8 });
    expect(s.copy()).toEqual(undone);

    const back = s.ui<UndoView>("undoRun", { run: undo.value.run });
    expect(back.ok, JSON.stringify(back.error)).toBe(true);
    expect(back.value).toMatchObject({ restored: 8, kept: [] });
    expectRows(s.copy(), s.after, s.edited);
    const runs = s.ui<{ runs: { kind: string; undoneBy: string | null }[] }>("auditRuns").value.runs;
    expect(runs.map((r) => r.kind)).toEqual(["undo", "undo", "refresh", "refresh"]);
    expect(runs[1]?.undoneBy).toBe(back.value.run);
  });

  it("an undo cut off after any number of Spreadsheet calls, run again, ends cell for cell as an uncut one", () => {
    const clean = scene();
    const sorted = clean.copy();
    clean.f.resetCounts();
    expect(clean.ui<UndoView>("undoRun", { run: clean.runId }).ok).toBe(true);
    const want = clean.copy();
    expect(want).not.toEqual(sorted);
    const calls = clean.f.calls.length;
    expect(calls).toBeGreaterThan(3);
    for (let k = 1; k < calls; k++) {
      const s = scene();
      s.f.cutAfter(k);
      const cut = s.ui<UndoView>("undoRun", { run: s.runId });
      expect(cut.ok, `cut after ${k} calls`).toBe(false);
      s.f.cutAfter(null);
      // The stopped execution's run marker expires after 6 minutes; then the undo is run again.
      s.clock.t += 6 * 60_000 + 1000;
      const rerun = s.ui<UndoView>("undoRun", { run: s.runId });
      expect(rerun.ok, `${k}: ${JSON.stringify(rerun.error)}`).toBe(true);
      expect(s.copy(), `cut after ${k} calls`).toEqual(want);
    }
  });

  it("an undo while another run holds the document waits for it (bounded), then runs; too long a wait says busy", () => {
    const clean = scene();
    clean.f.resetCounts();
    expect(clean.ui<UndoView>("undoRun", { run: clean.runId }).ok).toBe(true);
    const want = clean.copy();
    const releaseWrite = clean.f.calls.lastIndexOf("state:Range.setValues");
    expect(releaseWrite).toBeGreaterThan(0);
    for (const left of [30_000, 120_000]) {
      const s = scene();
      // A run that holds the run marker: an execution the platform stopped keeps it until it expires
      // (6 minutes); here it has `left` ms to go, as a scheduled step still working would.
      // Cut at the release's write (its last setValues on the state sheet): the marker's release never runs.
      s.f.cutAfter(releaseWrite);
      expect(s.ui<UndoView>("undoRun", { run: s.runId }).ok).toBe(false);
      s.f.cutAfter(null);
      s.clock.t += 6 * 60_000 - left;
      const before = s.copy();
      const start = s.clock.t;
      const undo = s.ui<UndoView>("undoRun", { run: s.runId });
      const waited = s.clock.t - start;
      if (left < 60_000) {
        expect(undo.ok, JSON.stringify(undo.error)).toBe(true);
        expect(waited).toBeGreaterThanOrEqual(left);
        expect(waited).toBeLessThan(left + 10_000);
        expect(s.copy()).toEqual(want);
      } else {
        expect(undo.ok).toBe(false);
        expect(JSON.stringify(undo.error)).toMatch(/Another run/);
        expect(waited).toBeLessThanOrEqual(60_000);
        expect(s.copy()).toEqual(before);
        // Once the other run is over, the undo runs to the same end.
        s.clock.t += left;
        expect(s.ui<UndoView>("undoRun", { run: s.runId }).ok).toBe(true);
        expect(s.copy()).toEqual(want);
      }
    }
  });
});

describe("Sheets: undo restores what was there (issue 40, item 5)", () => {
  it("a formula stays a formula (getFormulas → setFormula), a number a number, an empty cell empty", () => {
    const clock = { t: 0 };
    const emu = createEmulator({ companies: 400, seed: 11, startDate: "2026-01-15", now: () => clock.t });
    clock.t = Date.parse(`${emu.clock.today()}T09:00:00Z`);
    const ids = emu.companies.withStatus("ACTIVE").slice(0, 10);
    const formula = '="Formula Str. "&1';
    const f = createSheetsFake({
      emulator: emu,
      dist: OUT,
      now: () => clock.t,
      sheets: { List: [["ID", "Company"], ...ids.map((id) => [id, ""])] },
      onSleep: (ms) => {
        clock.t += ms;
      },
      calc: (x) => (x === formula ? "Formula Str. 1" : ""),
    });
    f.load(code);
    f.setClock(() => clock.t);
    for (const [k, v] of Object.entries({
      apiKey: emu.createKey(1_000_000),
      baseUrl: "https://api.implisense.com",
      language: "en",
    }))
      f.setUser(k, v);
    const ui = <T>(method: string, input: unknown = {}) =>
      JSON.parse(f.call("uiCall", method, JSON.stringify(input)) as string) as Result<T>;
    const list = () => f.grids.get("List") as Grid;
    const refresh = { table: TABLE, olderThanDays: 7, frequency: "daily", hour: 7, monthCeiling: 100 };
    expect(ui("refreshSaveSettings", { refresh }).ok).toBe(true);
    expect(ui("refreshRun").ok).toBe(true);
    const address = list()[0]!.map(String).indexOf("Address");
    const rowOf = (id: string) => list().findIndex((r) => r[0] === id) + 1;
    const [a, b, c] = [ids[0]!, ids[1]!, ids[2]!];
    // The user's own content in three address cells: a formula (its value in the grid), a number, nothing.
    list()[rowOf(a) - 1]![address] = "Formula Str. 1";
    f.formulaCells.set(`List:${rowOf(a)}:${address + 1}`, formula);
    list()[rowOf(b) - 1]![address] = 42;
    list()[rowOf(c) - 1]![address] = "";
    for (const id of [a, b, c]) emu.scheduleEvent(id, { day: 5, kind: "ADDRESS" });
    emu.clock.advance(8);
    clock.t += 8 * DAY;
    expect(ui("refreshRun").ok).toBe(true);
    expect(f.formulaCells.size).toBe(0);
    const run = ui<{ runs: { id: string }[] }>("auditRuns").value.runs[0]!.id;

    const undo = ui<UndoView>("undoRun", { run });
    expect(undo.ok, JSON.stringify(undo.error)).toBe(true);
    expect(undo.value.kept).toEqual([]);
    expect([...f.formulaCells]).toEqual([[`List:${rowOf(a)}:${address + 1}`, formula]]);
    expect(list()[rowOf(a) - 1]![address]).toBe("Formula Str. 1");
    expect(list()[rowOf(b) - 1]![address]).toBe(42);
    expect(list()[rowOf(c) - 1]![address]).toBe("");

    // The undo of the undo writes the run's text back as text (the harness refuses text taken as a formula).
    const back = ui<UndoView>("undoRun", { run: undo.value.run });
    expect(back.ok, JSON.stringify(back.error)).toBe(true);
    expect(f.formulaCells.size).toBe(0);
    expect(String(list()[rowOf(a) - 1]![address])).not.toBe("Formula Str. 1");
  });
});
