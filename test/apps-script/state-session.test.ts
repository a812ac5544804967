/**
 * The state sheet's session (apps-script/state-session.ts) on a small fake
 * sheet: one read, writes kept until a flush, a flush that keeps what another
 * execution wrote since the read, and the run marker's conditional release.
 * Every call on the sheet is counted, as the harness counts them.
 */
import { describe, expect, it } from "vitest";
import { StateSession } from "../../apps-script/state-session.ts";
import { STATE_SHEET } from "../../apps-script/doc-state.ts";

function fakeSpreadsheet(rows: string[][] = []) {
  const calls: string[] = [];
  let grid: string[][] | null = rows.length ? rows.map((r) => [...r]) : null;
  const width = () => Math.max(0, ...(grid ?? []).map((r) => r.length));
  const range = (row: number, col: number, n: number, w: number) => ({
    getValues: () => {
      calls.push("getValues");
      return Array.from({ length: n }, (_, i) =>
        Array.from({ length: w }, (_, j) => grid?.[row - 1 + i]?.[col - 1 + j] ?? ""),
      );
    },
    setValues: (values: string[][]) => {
      calls.push("setValues");
      values.forEach((r, i) =>
        r.forEach((v, j) => {
          const g = grid!;
          while (g.length < row + i) g.push([]);
          const line = g[row - 1 + i]!;
          while (line.length < col + j) line.push("");
          line[col - 1 + j] = v;
        }),
      );
    },
  });
  const sheet = {
    getDataRange: () => (calls.push("getDataRange"), range(1, 1, grid?.length ?? 0, width())),
    getRange: (r: number, c: number, n: number, w: number) => (calls.push("getRange"), range(r, c, n, w)),
    hideSheet: () => calls.push("hideSheet"),
    protect: () => (calls.push("protect"), { setWarningOnly: () => undefined }),
  };
  const ss = {
    getSheetByName: (name: string) => (calls.push("getSheetByName"), name === STATE_SHEET && grid ? sheet : null),
    insertSheet: () => (calls.push("insertSheet"), (grid = []), sheet),
  };
  const lock = { held: false, tryLock: () => !lock.held && (lock.held = true), releaseLock: () => (lock.held = false) };
  return {
    calls,
    lock,
    grid: () => grid,
    /** Another execution's writes: straight into the sheet. */
    poke: (r: number, cells: string[]) => {
      while (grid!.length < r) grid!.push([]);
      grid![r - 1] = cells;
    },
    session: () =>
      new StateSession(ss as unknown as GoogleAppsScript.Spreadsheet.Spreadsheet, () => lock as never, STATE_SHEET),
  };
}

const row = (k: string, v: string) => [`~${k}`, `~${v}`];

describe("state session", () => {
  it("reads the sheet once, keeps writes until the flush, writes them in one block under the lock", () => {
    const f = fakeSpreadsheet([row("a", "1"), row("b", "2"), row("c", "3")]);
    const s = f.session();
    expect(s.read(["a", "c"])).toEqual(["1", "3"]);
    s.write({ a: "10" });
    s.write({ c: "30", d: "40" });
    expect(s.read(["a", "b", "c", "d"])).toEqual(["10", "2", "30", "40"]);
    expect(f.calls).toEqual(["getSheetByName", "getDataRange", "getValues"]);
    s.flush();
    // One block: getRange, its rows read back, setValues; the lock is released again.
    expect(f.calls.slice(3)).toEqual(["getRange", "getValues", "setValues"]);
    expect(f.lock.held).toBe(false);
    expect(f.grid()).toEqual([row("a", "10"), row("b", "2"), row("c", "30"), row("d", "40")]);
    s.flush();
    expect(f.calls).toHaveLength(6);
  });

  it("keeps what another execution wrote since the read inside the block it writes", () => {
    const f = fakeSpreadsheet([row("a", "1"), row("b", "2"), row("c", "3")]);
    const s = f.session();
    s.read(["a"]);
    f.poke(2, row("b", "saved meanwhile"));
    s.write({ a: "10", c: "30" });
    s.flush();
    expect(f.grid()).toEqual([row("a", "10"), row("b", "saved meanwhile"), row("c", "30")]);
  });

  it("places its keys anew when another execution took the row it meant to use", () => {
    const f = fakeSpreadsheet([row("a", "1"), ["", ""], row("c", "3")]);
    const s = f.session();
    s.read(["a"]);
    f.poke(2, row("x", "theirs"));
    s.write({ new: "mine" });
    s.flush();
    expect(f.grid()).toEqual([row("a", "1"), row("x", "theirs"), row("c", "3"), row("new", "mine")]);
  });

  it("deletes the run marker only if the sheet still holds this run's", () => {
    const mine = '{"v":1,"token":"t1"}';
    const f = fakeSpreadsheet([row("m", mine), row("b", "2")]);
    const s = f.session();
    s.deleteIfStill("m", s.read(["m"])[0]!);
    s.write({ b: "20" });
    s.flush();
    expect(f.grid()).toEqual([[], row("b", "20")].map((r) => (r.length ? r : ["", ""])));

    const g = fakeSpreadsheet([row("m", mine), row("b", "2")]);
    const t = g.session();
    const raw = t.read(["m"])[0]!;
    g.poke(1, row("m", '{"v":1,"token":"t2"}'));
    t.deleteIfStill("m", raw);
    t.write({ b: "20" });
    t.flush();
    expect(g.grid()).toEqual([row("m", '{"v":1,"token":"t2"}'), row("b", "20")]);
  });

  it("creates the hidden sheet on its first write, without reading it", () => {
    const f = fakeSpreadsheet();
    const s = f.session();
    expect(s.read(["a"])).toEqual([null]);
    s.write({ a: "1" });
    s.flush();
    expect(f.calls).toEqual(["getSheetByName", "insertSheet", "hideSheet", "protect", "getRange", "setValues"]);
    expect(f.grid()).toEqual([row("a", "1")]);
  });
});
