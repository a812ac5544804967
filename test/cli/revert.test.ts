/**
 * `company-data runs` and `company-data revert` spawned as users run them,
 * after a `company-data refresh` against the emulator on 127.0.0.1: the
 * refresh changes 10 values (the as-of of six aged rows, the address and the
 * change column of two companies that moved); the user sorts the list and
 * edits 2 of those cells; revert restores exactly the other 8 and lists the
 * 2; a revert of the revert restores the run's values; a second revert of
 * the run does nothing. A kill -9 during a revert, then the revert again,
 * ends in the same file byte for byte as an uninterrupted revert. A revert
 * waits for a run that holds the list's lock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Emulator } from "../../emulator/index.ts";
import type { RunningServer } from "../../emulator/server.ts";
import { formatRow, parseCsv } from "../../cli/csv.ts";
import { runCli, startCliWorld } from "../helpers/cli.ts";
import { acquireLock } from "../../node/lock.ts";

let emu: Emulator;
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  ({ emu, server, dir } = await startCliWorld({ companies: 3000, seed: 13, dirPrefix: "cd-revert-" }));
});
afterAll(async () => {
  await server?.close();
});

const cli = (args: string[], key: string | null = null, at = dir) =>
  runCli({ server, dir: at }, [...args, "--lang", "en"], { key });

const rowsOf = (path: string) => parseCsv(readFileSync(path, "utf8"));
const writeRows = (path: string, rows: string[][]) => writeFileSync(path, rows.map((r) => formatRow(r, ",")).join(""));

/** The as-of dates of these companies' rows moved `days` back, as if the list were that much older. */
function age(path: string, ids: readonly string[], days: number): void {
  const rows = rowsOf(path);
  const col = rows[0]?.indexOf("As of") ?? -1;
  for (const r of rows.slice(1))
    if (ids.includes(r[0] ?? ""))
      r[col] = new Date(Date.parse(r[col] ?? "") - days * 86_400_000).toISOString().slice(0, 10);
  writeRows(path, rows);
}

/** Rows by company id (the first column). */
const byId = (rows: string[][]) => new Map(rows.slice(1).map((r) => [r[0] ?? "", r]));

interface Scene {
  list: string;
  key: string;
  runId: string;
  /** The list right before the refresh, right after it, and after the user's sort and 2 edits. */
  before: string[][];
  after: string[][];
  edited: { id: string; col: number; value: string }[];
}

/** Day 0 enrichment, day 8 refresh (10 values change), then the user sorts and edits 2 of them. */
let scenes = 0;
async function scene(name: string): Promise<Scene> {
  const key = emu.createKey(10_000);
  // Companies of their own per scene: an address event stays with its company.
  const ids = emu.companies.withStatus("ACTIVE").slice(scenes * 10, ++scenes * 10);
  const list = join(dir, `${name}.csv`);
  writeFileSync(list, ["ID,Company", ...ids.map((id) => `${id},`)].join("\r\n") + "\r\n");
  const common = ["--in", list, "--out", list, "--older-than", "7", "--month-ceiling", "100"];
  const refresh = [...common, "--fields", "name,city,address", "--yes"];
  const day0 = await cli(["refresh", ...refresh], key);
  expect(day0.code, day0.stderr).toBe(0);
  const moved = ids.slice(0, 2);
  for (const id of moved) emu.scheduleEvent(id, { day: emu.clock.day() + 5, kind: "ADDRESS" });
  emu.clock.advance(8);
  // The emulator's as-of dates move with its clock (8 days per scene), the CLI's "older than" with the real one.
  age(list, ids.slice(0, 6), 8 * scenes);
  const before = rowsOf(list);
  const day8 = await cli(["refresh", ...refresh], key);
  expect(day8.code, day8.stderr).toBe(0);
  const after = rowsOf(list);
  const runs = await cli(["runs", "--out", list, "--json"]);
  expect(runs.code, runs.stderr).toBe(0);
  const view = JSON.parse(runs.stdout) as { runs: { id: string; kind: string; cells: number; rows: number }[] };
  expect(view.runs.map((r) => r.kind)).toEqual(["refresh", "refresh"]);
  // Newest first: the day-8 refresh changed 10 values in 6 rows.
  expect(view.runs[0]).toMatchObject({ cells: 10, rows: 6 });
  expect(runs.stderr).toMatch(/Audit: 2 runs, \d+ cells, \d+ characters .*An undo does not refund credits/);
  // The user sorts the list (descending by id) and edits the address of the first mover and an as-of date.
  const header = after[0] ?? [];
  const address = header.indexOf("Address");
  const asOf = header.indexOf("As of");
  const sorted = [header, ...after.slice(1).sort((a, b) => (b[0] ?? "").localeCompare(a[0] ?? ""))];
  const edited = [
    { id: moved[0] ?? "", col: address, value: "Edited Str. 1, 10115 Berlin" },
    { id: ids[4] ?? "", col: asOf, value: "2030-01-01" },
  ];
  const rows = byId(sorted);
  for (const e of edited) rows.get(e.id)![e.col] = e.value;
  writeRows(list, sorted);
  return { list, key, runId: view.runs[0]?.id ?? "", before, after, edited };
}

/** Every row of `now` (by id) equals `want`'s row, except the edited cells, which hold the user's values. */
function expectRows(now: string[][], want: string[][], edited: Scene["edited"]): void {
  const w = byId(want);
  for (const r of now.slice(1)) {
    const expected = [...(w.get(r[0] ?? "") ?? [])];
    for (const e of edited) if (e.id === r[0]) expected[e.col] = e.value;
    expect(r, r[0]).toEqual(expected);
  }
}

describe("company-data runs / revert", () => {
  it("restores the other 8 of 10 values after a sort and 2 edits, lists the 2, and reverts the revert", async () => {
    const s = await scene("list");
    expect(statSync(`${s.list}.runs.jsonl`).mode & 0o777).toBe(0o600);
    const first = await cli(["revert", "--out", s.list, "--run", s.runId, "--json"]);
    expect(first.code, first.stderr).toBe(0);
    const undo = JSON.parse(first.stdout) as {
      run: string;
      restored: number;
      kept: { cell: string }[];
      already: boolean;
    };
    expect(undo).toMatchObject({ restored: 8, already: false });
    expect(undo.kept).toHaveLength(2);
    expect(first.stderr).toMatch(/kept \(you changed it\): [A-Z]+\d+ holds "Edited Str\. 1, 10115 Berlin"/);
    expect(first.stderr).toMatch(/Credits are not refunded/);
    const reverted = rowsOf(s.list);
    // Still sorted as the user left it; values as before the refresh but for the 2 edits.
    expect(reverted.slice(1).map((r) => r[0])).toEqual([...reverted.slice(1).map((r) => r[0] ?? "")].sort().reverse());
    expectRows(reverted, s.before, s.edited);

    // Twice the same revert: the work is done once.
    const again = await cli(["revert", "--out", s.list, "--run", s.runId, "--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ already: true, run: undo.run });
    expect(rowsOf(s.list)).toEqual(reverted);

    // The revert is a run: reverting it restores the refresh's values (the 2 edits stay).
    const back = await cli(["revert", "--out", s.list, "--run", undo.run, "--json"]);
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({ restored: 8, kept: [] });
    expectRows(rowsOf(s.list), s.after, s.edited);
    const runs = await cli(["runs", "--out", s.list, "--json"]);
    const kinds = (JSON.parse(runs.stdout) as { runs: { kind: string }[] }).runs.map((r) => r.kind);
    expect(kinds).toEqual(["undo", "undo", "refresh", "refresh"]);
  }, 120_000);

  it("restores what was there: a number, an empty cell byte for byte; text that looks like a formula as text", async () => {
    const key = emu.createKey(10_000);
    const ids = emu.companies.withStatus("ACTIVE").slice(scenes * 10, ++scenes * 10);
    const list = join(dir, "types.csv");
    writeFileSync(list, ["ID,Company", ...ids.map((id) => `${id},`)].join("\r\n") + "\r\n");
    const refresh = ["--in", list, "--out", list, "--older-than", "7", "--month-ceiling", "100"];
    const args = [...refresh, "--fields", "name,city,address", "--yes"];
    expect((await cli(["refresh", ...args], key)).code).toBe(0);
    for (const id of ids.slice(0, 3)) emu.scheduleEvent(id, { day: emu.clock.day() + 5, kind: "ADDRESS" });
    emu.clock.advance(8);
    age(list, ids, 8 * scenes);
    // The user's own cells where the refresh writes: text a spreadsheet would take as a formula, a number, nothing.
    const rows = rowsOf(list);
    const address = rows[0]!.indexOf("Address");
    const mine = ["=SUM(1;2)", "42", ""];
    ids.slice(0, 3).forEach((id, k) => (rows.find((r) => r[0] === id)![address] = mine[k]!));
    const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
    writeFileSync(list, rows.map((r) => r.map(quote).join(",") + "\r\n").join(""));
    const before = readFileSync(list, "utf8");
    expect(before).toContain(",=SUM(1;2),");
    expect((await cli(["refresh", ...args], key)).code).toBe(0);
    expect(readFileSync(list, "utf8")).not.toBe(before);
    const runs = JSON.parse((await cli(["runs", "--out", list, "--json"])).stdout) as { runs: { id: string }[] };
    const undo = await cli(["revert", "--out", list, "--run", runs.runs[0]!.id, "--json"]);
    expect(undo.code, undo.stderr).toBe(0);
    // The number and the empty cell come back byte for byte; text that would run as a formula in an output
    // column comes back as text: the CLI writes every output cell neutralised (shared/sheet/csv-write.ts),
    // as it cannot tell the user's text there from the API's.
    expect(readFileSync(list, "utf8")).toBe(before.replace(",=SUM(1;2),", `,"'=SUM(1;2)",`));
  }, 120_000);

  it("a kill -9 during a revert, then the revert again: the same file byte for byte as an uninterrupted revert", async () => {
    const s = await scene("killed");
    const files = [s.list, `${s.list}.runs.jsonl`, `${s.list}.refresh.jsonl`];
    const copy = (to: string) => {
      for (const f of files) copyFileSync(f, join(to, f.slice(dir.length + 1)));
      return join(to, "killed.csv");
    };
    const clean = copy(mkdtempSync(join(dir, "clean-")));
    const done = await cli(["revert", "--out", clean, "--run", s.runId]);
    expect(done.code, done.stderr).toBe(0);
    const want = readFileSync(clean);
    expect(want.equals(readFileSync(s.list))).toBe(false);
    // Killed at once, as soon as the undo's cells reach the journal (before the list is replaced), and as soon as
    // the list is replaced (before the undo is marked done); the two later points are watched for every millisecond.
    const points: Record<string, (list: string) => boolean> = {
      start: () => true,
      journal: (list) => statSync(`${list}.runs.jsonl`).size > statSync(join(dir, "killed.csv.runs.jsonl")).size,
      replaced: (list) => statSync(list).ino !== inodes.get(list),
    };
    const inodes = new Map<string, number>();
    const cutMidway: string[] = [];
    for (const [point, reached] of Object.entries(points)) {
      const at = mkdtempSync(join(dir, `kill-${point}-`));
      const list = copy(at);
      inodes.set(list, statSync(list).ino);
      const cut = await runCli({ server, dir: at }, ["revert", "--out", list, "--run", s.runId, "--lang", "en"], {
        onStart: (kill) => {
          const watch = setInterval(() => {
            if (!reached(list)) return;
            clearInterval(watch);
            kill();
          }, 1);
        },
      });
      expect([0, null], point).toContain(cut.code);
      const journal = readFileSync(`${list}.runs.jsonl`, "utf8");
      if (point !== "start" && journal.includes(`${s.runId}~u1:0`) && !journal.includes(`${s.runId}~u1:result`))
        cutMidway.push(point);
      const rerun = await cli(["revert", "--out", list, "--run", s.runId], null, at);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(readFileSync(list).equals(want), `killed at ${point}`).toBe(true);
    }
    // The kill did land inside the revert (its cells journalled, not marked done) at least once.
    expect(cutMidway.length).toBeGreaterThan(0);
  }, 180_000);

  it("waits for the run that holds the list's lock", async () => {
    const s = await scene("locked");
    const sortedBefore = rowsOf(s.list);
    const lock = acquireLock(`${s.list}.lock`);
    expect(lock.ok).toBe(true);
    if (!lock.ok) return;
    let waited = false;
    const fallback = setTimeout(() => lock.release(), 60_000);
    const r = await runCli({ server, dir }, ["revert", "--out", s.list, "--run", s.runId, "--lang", "en"], {
      onStart: (_kill, child) =>
        child.stderr?.on("data", (d: Buffer) => {
          if (waited || !String(d).includes("Waiting for the run")) return;
          waited = true;
          // The revert must not have touched the list while it waited.
          expect(rowsOf(s.list)).toEqual(sortedBefore);
          setTimeout(() => lock.release(), 500);
        }),
    });
    clearTimeout(fallback);
    expect(r.code, r.stderr).toBe(0);
    expect(waited).toBe(true);
    expect(r.stderr).toMatch(/reverted as run/);
  }, 120_000);
});
