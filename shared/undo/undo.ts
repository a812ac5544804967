/**
 * Undo a run: write back the old value of every cell that still holds the
 * run's new value, in the row that holds the run's row now (found by key, as
 * the writes found it: sorted, moved, rows inserted above); a cell changed
 * since is left alone and listed ("kept"), a row gone since is listed. The
 * undo is itself a run in the audit (its cells: the run's new → old), so it
 * can be undone in turn.
 *
 * Safe under the usual faults, by the order of its writes:
 *  1. the undo's entry and cells, and the run's "undone by", are stored first
 *     (state running);
 *  2. the cells are written;
 *  3. the undo is marked done with its lists.
 * Cut off anywhere, the next undo of the same run resumes the same undo id
 * and plans again from the sheet: a cell that holds the run's old value
 * counts as restored (written by the cut-off attempt), so the plan, the
 * undo's recorded cells and the sheet come out the same as an uncut undo.
 * A run undone (done) is not undone twice: the second call answers the
 * first one's result.
 */
import { invalid, sheet, storeGet, storePut, type Cell, type Operation } from "../core/index.ts";
import { readPart } from "../core/index.ts";
import { pairByKey, type WrittenRow } from "../enrich/index.ts";
import { auditKey, keyAfter } from "./audit-key.ts";
import { sameCell } from "../sheet/index.ts";
import * as z from "zod/mini";
import {
  AUDIT_INDEX_KEY,
  auditPartKey,
  indexText,
  partText,
  prune,
  readIndex,
  readRows,
  undoResultKey,
  type AuditIndex,
  type AuditRun,
  type AuditTable,
} from "./audit-store.ts";
import { newRunEntry } from "./audit-run.ts";

/** A cell the undo left alone: where it is now (A1), what it holds, and what the run had written. */
export interface KeptCell {
  cell: string;
  now: Cell;
  run: Cell;
}

export interface UndoResult {
  /** The undo's own run id (undo it to restore the run's values). */
  run: string;
  of: string;
  restored: number;
  rows: number;
  kept: KeptCell[];
  /** Rows of the run not found any more (deleted, or their input edited): their input as text. */
  deleted: string[];
  /** The run was undone already; nothing was written now. */
  already: boolean;
}

const resultShape = z.object({
  kept: z.array(z.object({ cell: z.string(), now: z.any(), run: z.any() })),
  deleted: z.array(z.string()),
});

const UNKNOWN_RUN = (id: string) =>
  invalid("run", {
    de: `Lauf „${id.slice(0, 40)}“ ist nicht (mehr) im Protokoll`,
    en: `run "${id.slice(0, 40)}" is not (or no longer) in the audit`,
  });

/** Rows of a part per stored value when an undo records its cells. */
const ROWS_PER_PART = 500;

/** Undo run `runId` (the three steps above) in one operation: the hosts whose store writes wait for their sheet writes. */
export function* undoRun(runId: string, meta: { who: string; now: () => number }): Operation<UndoResult> {
  const begun = yield* beginUndo(runId, meta);
  yield* begun.finish();
  return begun.result;
}

/**
 * Steps 1 and 2; `finish` is step 3. A host that saves the sheet itself (the
 * CLI replaces its file) runs `finish` only after the sheet is saved.
 */
export function* beginUndo(
  runId: string,
  meta: { who: string; now: () => number },
): Operation<{ result: UndoResult; finish: () => Operation<void> }> {
  const index = yield* readIndex();
  const target = index.runs.find((r) => r.id === runId);
  if (!target) throw UNKNOWN_RUN(runId);
  const earlier = target.undoneBy ? index.runs.find((r) => r.id === target.undoneBy) : undefined;
  if (earlier?.state === "done" && !earlier.undoneBy)
    return { result: yield* earlierResult(earlier, target), finish: function* () {} };
  const id = earlier?.state === "running" ? earlier.id : `${target.id}~u${target.undos + 1}`;
  const rows = yield* readRows(target);
  const plan = yield* planUndo(target.table, rows);
  yield* storePut(startEntries(index, target, id, plan, meta));
  for (const w of plan.writes) yield* sheet({ op: "write", sheet: target.table.sheet, ...w });
  for (const f of plan.formulas) yield* sheet({ op: "writeFormula", sheet: target.table.sheet, ...f });
  const lists = { kept: plan.kept, deleted: plan.deleted };
  const result = { run: id, of: target.id, restored: plan.cells, rows: plan.undoRows.length, ...lists, already: false };
  return { result, finish: () => finishUndo(id, lists, meta) };
}

/** Step 3: the undo is done; its lists are kept for a second undo of the same run. */
function* finishUndo(
  id: string,
  lists: { kept: KeptCell[]; deleted: string[] },
  meta: { now: () => number },
): Operation<void> {
  const index = yield* readIndex();
  const undo = index.runs.find((r) => r.id === id);
  if (undo) {
    undo.state = "done";
    undo.finishedAt = new Date(meta.now()).toISOString();
    undo.kept = lists.kept.length;
    undo.deleted = lists.deleted.length;
  }
  yield* storePut({ [AUDIT_INDEX_KEY]: indexText(index), [undoResultKey(id)]: JSON.stringify(lists) });
}

function* earlierResult(undo: AuditRun, target: AuditRun): Operation<UndoResult> {
  const [raw] = yield* storeGet([undoResultKey(undo.id)]);
  const saved = readPart(resultShape, raw) ?? { kept: [], deleted: [] };
  const kept = saved.kept.map((k) => ({ cell: k.cell, now: k.now as Cell, run: k.run as Cell }));
  return {
    run: undo.id,
    of: target.id,
    restored: undo.cells,
    rows: undo.rows,
    kept,
    deleted: saved.deleted,
    already: true,
  };
}

/** The store entries of step 1: the undo's entry (running) and cells, the run's "undone by". */
function startEntries(
  index: AuditIndex,
  target: AuditRun,
  id: string,
  plan: UndoPlan,
  meta: { who: string; now: () => number },
): Record<string, string | null> {
  const entries: Record<string, string | null> = {};
  let undo = index.runs.find((r) => r.id === id);
  if (!undo) {
    undo = newRunEntry({ kind: "undo", who: meta.who, now: meta.now, table: target.table }, id);
    undo.undoOf = target.id;
    index.runs.push(undo);
    target.undos += 1;
  }
  target.undoneBy = id;
  undo.parts = Math.ceil(plan.undoRows.length / ROWS_PER_PART);
  undo.rows = plan.undoRows.length;
  undo.cells = plan.cells;
  undo.chars = 0;
  for (let n = 0; n < undo.parts; n++) {
    const text = partText(plan.undoRows.slice(n * ROWS_PER_PART, (n + 1) * ROWS_PER_PART));
    entries[auditPartKey(id, n)] = text;
    undo.chars += text.length;
  }
  Object.assign(entries, prune(index, [id, target.id]));
  entries[AUDIT_INDEX_KEY] = indexText(index);
  return entries;
}

interface UndoPlan {
  /** Blocks to write: one per run of adjacent cells in a row (cells between are never touched). */
  writes: { row: number; col: number; values: Cell[][] }[];
  /** Cells whose old content was a formula (the host read it): written back as formulas. */
  formulas: { row: number; col: number; formula: string }[];
  /** The undo's own record: per row, [col, the run's new value, its old value]. */
  undoRows: WrittenRow[];
  cells: number;
  kept: KeptCell[];
  deleted: string[];
}

/** Where each recorded row is now (its sheet row, 1-based), by key over the whole sheet as it is now. */
function* locate(table: AuditTable, rows: readonly WrittenRow[]): Operation<{ grid: Cell[][]; at: (number | null)[] }> {
  const grid = (yield* sheet<Cell[][] | null>({ op: "readAll", sheet: table.sheet, fresh: true })) ?? [];
  const keys = grid.map((r, j) => auditKey(table, r, j + 1));
  const at: (number | null)[] = rows.map(() => null);
  pairByKey(
    rows.map((r) => r.key),
    keys,
  ).forEach((i, j) => {
    if (i !== null) at[i] = j + 1;
  });
  // A row keyed by its place below the used range is empty now (an undone insert at the bottom): still there.
  rows.forEach((r, i) => {
    const place = /^@(\d+)$/.exec(r.key);
    if (at[i] === null && place && Number(place[1]) > grid.length) at[i] = Number(place[1]);
  });
  return { grid, at };
}

function* planUndo(table: AuditTable, rows: readonly WrittenRow[]): Operation<UndoPlan> {
  const { grid, at } = yield* locate(table, rows);
  const plan: UndoPlan = { writes: [], formulas: [], undoRows: [], cells: 0, kept: [], deleted: [] };
  rows.forEach((rec, i) => {
    const row = at[i];
    if (row === null || row === undefined) return void plan.deleted.push(rowLabel(rec.key));
    const line = grid[row - 1] ?? [];
    const back: [number, Cell][] = [];
    const undone: WrittenRow["cells"] = [];
    for (const [col, old, next, oldF, nextF] of rec.cells) {
      const now = line[col - 1] ?? "";
      // A formula goes back as a formula (a write of its own); a value as it was read.
      if (sameCell(now, next)) {
        if (oldF) plan.formulas.push({ row, col, formula: oldF });
        else back.push([col, old]);
      } else if (!sameCell(now, old)) {
        plan.kept.push({ cell: a1(row, col), now, run: next });
        continue;
      }
      undone.push(nextF || oldF ? [col, next, old, nextF ?? "", oldF ?? ""] : [col, next, old]);
    }
    // Keyed as the undo leaves the row (an emptied inserted row is found again by its place).
    if (undone.length > 0) plan.undoRows.push({ key: keyAfter(table, line, row, undone), cells: undone });
    plan.cells += undone.length;
    plan.writes.push(...adjacentRuns(row, back));
  });
  return plan;
}

/** One write per run of adjacent columns, so no cell between two restored ones is written (its formula stays). */
function adjacentRuns(row: number, cells: [number, Cell][]): UndoPlan["writes"] {
  const sorted = [...cells].sort((a, b) => a[0] - b[0]);
  const out: UndoPlan["writes"] = [];
  for (const [col, v] of sorted) {
    const last = out[out.length - 1];
    const first = last?.values[0];
    if (last && first && last.col + first.length === col) first.push(v);
    else out.push({ row, col, values: [[v]] });
  }
  return out;
}

/** A row's input as the user reads it, from its key (role=value parts). */
function rowLabel(key: string): string {
  return key
    .split("\u001f")
    .map((p) => p.slice(p.indexOf("=") + 1).replace(/^~/, ""))
    .filter(Boolean)
    .join(" · ");
}

/** A1 notation of a cell (1-based row and column). */
export function a1(row: number, col: number): string {
  let s = "";
  for (let c = col; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s + row;
}
