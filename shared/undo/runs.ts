/** The Runs view's list: the document's audited runs, newest first, with the audit's size and limits. */
import type { Operation } from "../core/index.ts";
import type { WrittenRow } from "../enrich/index.ts";
import { AUDIT_LIMITS, auditSize, readIndex, readRows, type AuditRun } from "./audit-store.ts";

export interface RunView {
  id: string;
  kind: string;
  /** The sheet (tab) it wrote. */
  sheet: string;
  who: string;
  at: string;
  finishedAt: string | null;
  rows: number;
  cells: number;
  credits: number;
  /** running: the run (or undo) has not finished; an undo of it restores what it wrote so far. */
  state: AuditRun["state"];
  partial: boolean;
  undoOf: string | null;
  /** Taken back by this undo (finished, and not itself undone since). */
  undoneBy: string | null;
  /** An undo's lists: cells kept (changed by the user since) and rows not found. */
  kept: number;
  deleted: number;
}

export interface RunsView {
  runs: RunView[];
  size: { runs: number; cells: number; chars: number };
  limits: { runs: number; cells: number };
}

export function* listRuns(): Operation<RunsView> {
  const index = yield* readIndex();
  const byId = new Map(index.runs.map((r) => [r.id, r]));
  const runs = [...index.runs].reverse().map((r): RunView => {
    const undo = r.undoneBy ? byId.get(r.undoneBy) : undefined;
    const undone = undo && undo.state === "done" && !undo.undoneBy ? undo.id : null;
    return {
      id: r.id,
      kind: r.kind,
      sheet: r.table.sheet,
      who: r.who,
      at: r.at,
      finishedAt: r.finishedAt,
      rows: r.rows,
      cells: r.cells,
      credits: r.credits,
      state: r.state,
      partial: r.partial,
      undoOf: r.undoOf,
      undoneBy: undone,
      kept: r.kept,
      deleted: r.deleted,
    };
  });
  return { runs, size: auditSize(index), limits: { ...AUDIT_LIMITS } };
}

/** A run's recorded cells (rows by key, [col, old, new]); [] for a run not (or no longer) in the audit. */
export function* runCells(runId: string): Operation<WrittenRow[]> {
  const index = yield* readIndex();
  const run = index.runs.find((r) => r.id === runId);
  return run ? yield* readRows(run) : [];
}
