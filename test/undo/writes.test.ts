/**
 * The writes audited beside the refresh and the enrichment (issue 40, item
 * 1), through the app service over the playground's workbook and the
 * emulator: the portfolio check, inserted search results and a host's sync
 * of a team server's runs (with a server undo's restored rows). Each is a
 * run in the Runs view that can be undone after the user sorted the sheet
 * and edited a cell (kept and listed), and whose undo can be undone.
 */
import { describe, expect, it } from "vitest";
import { runSync, type SyncDriver } from "../../shared/core/drivers.ts";
import type { Cell } from "../../shared/core/sheet-protocol.ts";
import { dispatch } from "../../shared/app/dispatch.ts";
import type { AppDeps, AppInput, AppMethodName, AppOutput } from "../../shared/app/protocol.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { writeServerRuns, type ServerRun } from "../../shared/monitor/index.ts";
import { Workbook } from "../../shared/sheet/index.ts";
import { harness } from "../monitor/harness.ts";

function world(sheet: string, cells: Cell[][]) {
  const h = harness({ companies: 300 });
  const wb = new Workbook([{ name: sheet, cells }]);
  const driver: SyncDriver = {
    ...h.driver,
    http: (reqs) =>
      h.driver.http(reqs.map((r) => ({ ...r, url: r.url.replace(/^https?:\/\/[^/]+/, "http://emulator.test") }))),
    sheet: (req) => wb.handle(req),
  };
  const deps = (): AppDeps => ({
    host: "excel",
    now: h.now,
    random: () => 0.5,
    documentId: "wb",
    pacer: new Pacer(),
    who: "ana",
  });
  const call = <M extends AppMethodName>(method: M, input: AppInput<M>): AppOutput<M> =>
    runSync<AppOutput<M>>(dispatch(deps(), method, input), driver);
  const grid = () => wb.sheet(sheet).cells.map((r) => [...r]);
  const trimmed = () => grid().map((r) => r.map((c) => c ?? ""));
  return { h, wb, driver, call, grid, trimmed };
}

/** Reverse the rows below the header (a sort), in place. */
function sortDescending(wb: Workbook, sheet: string): void {
  const s = wb.sheet(sheet);
  s.cells = [s.cells[0]!, ...s.cells.slice(1).reverse()];
}

const row = (g: Cell[][], id: string) => g.find((r) => r[0] === id)!;

describe("the portfolio check is audited and undone by key", () => {
  it("a check writes 10 rows; after a sort and 2 edits the undo restores the rest, lists the 2, and is undone", () => {
    const ids = ["DELTU2WDWS05", "DEFZ4MICZY78"];
    const w0 = world("Portfolio", [["ID"]]);
    const more = w0.h.emu.companies.withStatus("ACTIVE").slice(0, 8);
    const all = [...ids, ...more];
    const w = world("Portfolio", [["ID"], ...all.map((id) => [id])]);
    w.call("saveSettings", { apiKey: w.h.key, baseUrl: "https://emulator.test", language: "en" });
    const before = w.trimmed();
    const summary = w.call("monitorRun", {});
    expect(summary.status).toBe("done");
    const after = w.grid();
    const runs = w.call("auditRuns", {});
    expect(runs.runs[0]).toMatchObject({ kind: "check", who: "ana", sheet: "Portfolio", rows: 11 });
    expect(runs.runs[0]!.credits).toBe(summary.spent);

    sortDescending(w.wb, "Portfolio");
    const header = after[0]!.map(String);
    const group = header.indexOf("Risk group") >= 0 ? header.indexOf("Risk group") : 1;
    w.wb.sheet("Portfolio").cells.find((r) => r[0] === all[0])![group] = "mine";
    w.wb.sheet("Portfolio").cells.find((r) => r[0] === all[5])![group + 1] = "mine too";

    const undo = w.call("undoRun", { run: runs.runs[0]!.id });
    expect(undo.kept.map((k) => k.now).sort()).toEqual(["mine", "mine too"]);
    expect(undo.deleted).toEqual([]);
    const now = w.trimmed();
    // Every result cell is empty again, except the two the user wrote; the header row is as it was.
    expect(now[0]!.filter((c) => c !== "")).toEqual(before[0]);
    for (const id of all) {
      const r = row(now, id).filter((c) => c !== "");
      const mine = id === all[0] ? ["mine"] : id === all[5] ? ["mine too"] : [];
      expect(r, id).toEqual([id, ...mine]);
    }

    const back = w.call("undoRun", { run: undo.run });
    expect(back.kept).toEqual([]);
    const again = w.grid();
    for (const id of all) {
      const want = [...row(after, id)];
      if (id === all[0]) want[group] = "mine";
      if (id === all[5]) want[group + 1] = "mine too";
      expect(row(again, id), id).toEqual(want);
    }
  });
});

describe("inserted search results are audited and undone", () => {
  it("an insert is a run; its undo empties the block, the undo of the undo writes it back where it was", () => {
    const w = world("Sheet1", [["keep"], [""], [""]]);
    w.call("saveSettings", { apiKey: w.h.key, baseUrl: "https://emulator.test", language: "en" });
    w.wb.selection = { r1: 3, c1: 2, r2: 3, c2: 2 };
    const companies = [
      { id: "DELTU2WDWS05", name: '=HYPERLINK("x")', city: "Berlin" },
      { id: "DEFZ4MICZY78", name: "Zwei GmbH", city: "Köln" },
    ];
    const out = w.call("insertSearchResults", { companies, columns: ["id", "name", "city"] } as never);
    expect(out).toMatchObject({ row: 3, col: 2, rows: 3 });
    const inserted = w.grid();
    const runs = w.call("auditRuns", {});
    expect(runs.runs[0]).toMatchObject({ kind: "insert", who: "ana", rows: 3, cells: 9, credits: 0 });

    const undo = w.call("undoRun", { run: runs.runs[0]!.id });
    expect(undo).toMatchObject({ restored: 9, kept: [], deleted: [] });
    expect(
      w
        .trimmed()
        .flat()
        .filter((c) => c !== ""),
    ).toEqual(["keep"]);

    const back = w.call("undoRun", { run: undo.run });
    expect(back).toMatchObject({ restored: 9, kept: [], deleted: [] });
    expect(w.grid()).toEqual(inserted);
    // API text stays text: the name that looks like a formula was written as text, and written back as text.
    expect(
      String(
        row(
          w.grid().map((r) => r.slice(1)),
          "DELTU2WDWS05",
        )[1],
      ),
    ).not.toMatch(/^=/);
  });
});

describe("a host's sync of the team server's runs is audited", () => {
  const company = (id: string, group: "risk" | "none", text: string) => ({
    id,
    name: null,
    group,
    code: group === "risk" ? "INSOLVENT" : "NO_FLAGS",
    flag: { de: text, en: text },
    keyFigure: null,
    lastChange: null,
    checkedAt: "2026-03-02T08:00:00.000Z",
    newChanges: 0,
  });
  const serverRun = (id: number, result: Partial<ServerRun["result"]> & { restored?: unknown[] }): ServerRun =>
    ({
      id,
      startedAt: "2026-03-02T08:00:00.000Z",
      finishedAt: "2026-03-02T08:01:00.000Z",
      status: "done",
      credits: 4,
      result: { companies: [], changes: [], ...result },
    }) as ServerRun;

  it("a sync is a run of kind sync; a server undo's restored cells are written; the sync can be undone", () => {
    const w = world("Portfolio", [["ID"], ["DELTU2WDWS05"], ["DEFZ4MICZY78"]]);
    const sync = (runs: ServerRun[]) =>
      runSync(writeServerRuns("en", "Portfolio", runs, { who: "ana", now: w.h.now }), w.driver);
    sync([
      serverRun(1, {
        companies: [company("DELTU2WDWS05", "none", "No flags"), company("DEFZ4MICZY78", "risk", "Insolvent")],
      }),
    ]);
    const first = w.grid();
    const runs = w.call("auditRuns", {});
    expect(runs.runs[0]).toMatchObject({ kind: "sync", who: "ana", credits: 4 });

    // The server undid its run: company B's cells are back to empty; the sync writes that.
    const restored = { group: "", flag: "", netIncome: "", year: "", lastChange: "", newChanges: "", checked: "" };
    sync([serverRun(2, { restored: [{ id: "DEFZ4MICZY78", cells: restored }, { id: "bad" }] })]);
    expect(row(w.trimmed(), "DEFZ4MICZY78").filter((c) => c !== "")).toEqual(["DEFZ4MICZY78"]);
    expect(row(w.grid(), "DELTU2WDWS05")).toEqual(row(first, "DELTU2WDWS05"));

    const latest = w.call("auditRuns", {}).runs[0]!;
    expect(latest).toMatchObject({ kind: "sync", rows: 1 });
    w.call("undoRun", { run: latest.id });
    expect(row(w.grid(), "DEFZ4MICZY78")).toEqual(row(first, "DEFZ4MICZY78"));
  });
});
