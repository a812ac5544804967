/**
 * The state sheet's session (apps-script/state-session.ts) on a small fake
 * sheet: one read, writes kept until a flush, a flush that keeps what another
 * execution wrote since the read, and the run marker's conditional release.
 * Every call on the sheet is counted, as the harness counts them.
 */
import { describe, expect, it } from "vitest";
import { StateSession } from "../../apps-script/state-session.ts";
import { STATE_SHEET } from "../../apps-script/doc-state.ts";
import { claimRun, releaseRun, RUN_MARKER, RUN_MARKER_KEY } from "../../apps-script/run-marker.ts";
import { writeSaved } from "../../shared/core/index.ts";
import { HostError } from "../../apps-script/quota.ts";

/** `beforeRead`/`afterRead`: another execution's write just before or after the n-th getSheetValues. */
function fakeSpreadsheet(
  rows: string[][] = [],
  hooks: { beforeRead?: (reads: number) => void; afterRead?: (reads: number) => void } = {},
) {
  const calls: string[] = [];
  let reads = 0;
  let grid: string[][] | null = rows.length ? rows.map((r) => [...r]) : null;
  const width = () => Math.max(0, ...(grid ?? []).map((r) => r.length));
  const cells = (row: number, col: number, n: number, w: number) =>
    Array.from({ length: n }, (_, i) => Array.from({ length: w }, (_, j) => grid?.[row - 1 + i]?.[col - 1 + j] ?? ""));
  const range = (row: number, col: number, n: number, w: number) => ({
    getValues: () => {
      calls.push("getValues");
      return cells(row, col, n, w);
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
  const lastRow = () => {
    const g = grid ?? [];
    let n = g.length;
    while (n > 0 && !(g[n - 1] ?? []).some((v) => v !== "")) n--;
    return n;
  };
  const sheet = {
    getDataRange: () => (calls.push("getDataRange"), range(1, 1, grid?.length ?? 0, width())),
    getRange: (r: number, c: number, n: number, w: number) => (calls.push("getRange"), range(r, c, n, w)),
    // As the harness models it (test/apps-script/harness.ts): -1 is the last row or column with data; none throws.
    getSheetValues: (r: number, c: number, n: number, w: number) => {
      calls.push("getSheetValues");
      reads++;
      hooks.beforeRead?.(reads);
      const rows = n === -1 ? lastRow() - r + 1 : n;
      if (rows < 1) throw new Error("The number of rows in the range must be at least 1.");
      const out = cells(r, c, rows, w === -1 ? width() - c + 1 : w);
      hooks.afterRead?.(reads);
      return out;
    },
    // Below the last row with content, never over a row.
    appendRow: (cells: string[]) => {
      calls.push("appendRow");
      const g = grid!;
      g.length = lastRow();
      g.push([...cells]);
    },
    hideSheet: () => calls.push("hideSheet"),
    protect: () => (calls.push("protect"), { setWarningOnly: () => undefined }),
  };
  const ss = {
    getSheetByName: (name: string) => (calls.push("getSheetByName"), name === STATE_SHEET && grid ? sheet : null),
    insertSheet: () => (calls.push("insertSheet"), (grid = []), sheet),
  };
  const lock = {
    held: false,
    tryLock: () => !lock.held && (lock.held = true),
    releaseLock: () => {
      calls.push("releaseLock");
      lock.held = false;
    },
  };
  return {
    calls,
    lock,
    grid: () => grid,
    /** Another execution's writes: straight into the sheet. */
    poke: (r: number, cells: string[]) => {
      while (grid!.length < r) grid!.push([]);
      grid![r - 1] = cells;
    },
    /** An execution's session; `withLock` false: a time-driven trigger's, whose document lock is null. */
    session: (withLock = true) =>
      new StateSession(
        ss as unknown as GoogleAppsScript.Spreadsheet.Spreadsheet,
        () => (withLock ? (lock as never) : null),
        () => calls.push("SpreadsheetApp.flush"),
        STATE_SHEET,
      ),
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
    // The whole sheet in one call (getSheetValues(1, 1, -1, -1)).
    expect(f.calls).toEqual(["getSheetByName", "getSheetValues"]);
    s.flush();
    // One block: getRange, its rows read back, setValues, committed before the lock is released.
    expect(f.calls.slice(2)).toEqual(["getRange", "getValues", "setValues", "SpreadsheetApp.flush", "releaseLock"]);
    expect(f.lock.held).toBe(false);
    expect(f.grid()).toEqual([row("a", "10"), row("b", "2"), row("c", "30"), row("d", "40")]);
    s.flush();
    expect(f.calls).toHaveLength(7);
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
    expect(f.calls).toEqual([
      "getSheetByName",
      "insertSheet",
      "hideSheet",
      "protect",
      "getRange",
      "setValues",
      "SpreadsheetApp.flush",
      "releaseLock",
    ]);
    expect(f.grid()).toEqual([row("a", "1")]);
  });

  it("reads a state sheet without data the two-call way (getSheetValues of no rows throws)", () => {
    const f = fakeSpreadsheet([["", ""]]);
    const s = f.session();
    expect(s.read(["a"])).toEqual([null]);
    expect(f.calls).toEqual(["getSheetByName", "getSheetValues", "getDataRange", "getValues"]);
  });
});

const NOW = Date.UTC(2026, 0, 15, 10);
const markerRow = (token: string) => row(RUN_MARKER_KEY, writeSaved(RUN_MARKER, { token, until: NOW + 6 * 60_000 }));
const blank = (r: string[]) => (r.every((v) => v === "") ? [] : r);

describe("the run marker's claim on the state session", () => {
  it("under the lock appends a new marker in one call and commits it before the lock is released", () => {
    const f = fakeSpreadsheet([row("job", "1")]);
    const s = f.session();
    const token = claimRun(s, f.lock as never, NOW);
    expect(f.calls).toEqual(["getSheetByName", "getSheetValues", "appendRow", "SpreadsheetApp.flush", "releaseLock"]);
    expect(f.grid()!.map(keyOfRow)).toEqual(["job", RUN_MARKER_KEY]);
    releaseRun(s, f.lock as never, token);
    expect(f.grid()!.map(blank)).toEqual([row("job", "1"), []]);
    expect(f.calls.at(-2)).toBe("SpreadsheetApp.flush");
    expect(f.calls.at(-1)).toBe("releaseLock");
  });

  it("keeps a row another execution wrote without the lock between the claim's read and its append; the release removes only its own marker", () => {
    // A trigger has no document lock: its write may land between this claim's read and its append.
    const f: ReturnType<typeof fakeSpreadsheet> = fakeSpreadsheet([row("job", "1")], {
      afterRead: (n) => n === 1 && f.poke(2, row("theirs", "saved meanwhile")),
    });
    const s = f.session();
    const token = claimRun(s, f.lock as never, NOW);
    expect(f.grid()!.map(keyOfRow)).toEqual(["job", "theirs", RUN_MARKER_KEY]);
    s.write({ job: "2" });
    releaseRun(s, f.lock as never, token);
    expect(f.grid()!.map(blank)).toEqual([row("job", "2"), row("theirs", "saved meanwhile"), []]);
  });

  it("a trigger's claim without the lock that lost to an appended claim takes its own row away and says busy", () => {
    // The trigger wrote its marker in the first free row; a sidebar's claim under the lock, which had read the
    // sheet before, appended its own below before the trigger read back: two rows hold the key, the last wins.
    const f: ReturnType<typeof fakeSpreadsheet> = fakeSpreadsheet([row("job", "1")], {
      beforeRead: (n) => n === 2 && f.poke(3, markerRow("sidebar")),
    });
    const trigger = f.session(false);
    expect(busy(() => claimRun(trigger, null, NOW))).toMatch(/Another run/);
    expect(f.grid()!.map(blank)).toEqual([row("job", "1"), [], markerRow("sidebar")]);
    expect(f.session().read([RUN_MARKER_KEY])[0]).toContain('"token":"sidebar"');
  });
});

/** The English text of what `body` threw (HostError says it in the user's language). */
function busy(body: () => unknown): string {
  try {
    body();
  } catch (e) {
    return e instanceof HostError ? e.text("en") : String(e);
  }
  return "nothing thrown";
}

function keyOfRow(r: string[]): string {
  return (r[0] ?? "").replace(/^~/, "");
}
