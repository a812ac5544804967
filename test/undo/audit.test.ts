/**
 * The audit's bounds and the undo's edge cases in the core (shared/undo/),
 * over memory stores and a sheet held in memory: the oldest runs go first
 * when the document holds more runs or cells than the limits; a run larger
 * than the cells limit is kept partial; a deleted row is listed; an undo of
 * a run no longer audited says so; numbers stay numbers and empty cells empty.
 */
import { describe, expect, it } from "vitest";
import { memoryStores, runSync, type SyncDriver } from "../../shared/core/drivers.ts";
import type { Cell, SheetRequest } from "../../shared/core/sheet-protocol.ts";
import type { Operation } from "../../shared/core/effects.ts";
import { auditRun, listRuns, undoRun } from "../../shared/undo/index.ts";
import { AUDIT_INDEX_KEY } from "../../shared/undo/audit-store.ts";

const TABLE = { sheet: "S", row: 1, col: 1, cols: 1, mapping: { name: 0 } };

function world(rows: Cell[][]) {
  const grid: Cell[][] = rows.map((r) => [...r]);
  const stores = memoryStores();
  const driver: SyncDriver = {
    http: () => [],
    sleep: () => undefined,
    ...stores,
    sheet(req: SheetRequest) {
      if (req.op === "readAll") return grid.map((r) => [...r]);
      if (req.op === "write")
        req.values.forEach((line, i) => line.forEach((v, j) => ((grid[req.row - 1 + i] ??= [])[req.col - 1 + j] = v)));
      return undefined;
    },
  };
  const run = <T>(op: Operation<T>): T => runSync(op, driver);
  let t = 1_000;
  const record = (
    rowsChanged: { key: string; cells: [number, Cell, Cell][] }[],
    limits?: { runs: number; cells: number },
  ) => {
    const a = auditRun({
      kind: "refresh",
      who: "t",
      now: () => (t += 1000),
      table: TABLE,
      ...(limits ? { limits } : {}),
    });
    run(a.record("S", rowsChanged));
    stores.storePut(run(a.finish(3)));
    return a.id;
  };
  return { grid, stores, run, record };
}

const key = (name: string) => `name=${name}`;

describe("the audit of writes", () => {
  it("keeps the last N runs and at most M cells, the oldest dropped first with their parts", () => {
    const w = world([["Name", "Out"]]);
    const ids = Array.from({ length: 5 }, (_, i) =>
      w.record(
        [
          {
            key: key(`a${i}`),
            cells: [
              [2, "", i],
              [3, "", i],
            ],
          },
        ],
        { runs: 3, cells: 100 },
      ),
    );
    let view = w.run(listRuns());
    expect(view.runs.map((r) => r.id)).toEqual(ids.slice(2).reverse());
    expect([...w.stores.store.keys()].some((k) => k.includes(ids[0]!))).toBe(false);
    // The cells limit: 5 cells at most, each run has 2 → two runs stay.
    w.record(
      [
        {
          key: key("b"),
          cells: [
            [2, "", 1],
            [3, "", 1],
          ],
        },
      ],
      { runs: 20, cells: 5 },
    );
    view = w.run(listRuns());
    expect(view.runs).toHaveLength(2);
    expect(view.size.cells).toBe(4);
    expect(view.size.chars).toBeGreaterThan(0);
    // A run alone over the limit stops recording and says so.
    w.record([{ key: key("c"), cells: Array.from({ length: 9 }, (_, i) => [2 + i, "", i] as [number, Cell, Cell]) }], {
      runs: 20,
      cells: 5,
    });
    expect(w.run(listRuns()).runs[0]).toMatchObject({ partial: true, cells: 0 });
  });

  it("undo: numbers stay numbers, empty cells empty, a deleted row is listed, an unknown run is refused", () => {
    const w = world([
      ["Name", "Count", "Note"],
      ["Alpha", 12, ""],
      ["Beta", 7, "x"],
    ]);
    const id = w.record([
      {
        key: key("alpha"),
        cells: [
          [2, 10, 12],
          [3, "old note", ""],
        ],
      },
      { key: key("gamma"), cells: [[2, 1, 2]] },
    ]);
    const r = w.run(undoRun(id, { who: "t", now: () => 5 }));
    expect(r).toMatchObject({ restored: 2, kept: [], deleted: ["gamma"] });
    expect(w.grid[1]).toEqual(["Alpha", 10, "old note"]);
    const back = w.run(undoRun(r.run, { who: "t", now: () => 6 }));
    expect(back.restored).toBe(2);
    expect(w.grid[1]).toEqual(["Alpha", 12, ""]);
    expect(typeof w.grid[1]![1]).toBe("number");
    expect(() => w.run(undoRun("nope", { who: "t", now: () => 7 }))).toThrow(/not \(or no longer\) in the audit/);
    expect(w.stores.store.has(AUDIT_INDEX_KEY)).toBe(true);
  });
});
