/**
 * Recording one run's writes: the job calls `record` right before each block
 * it writes (shared/enrich/job-sheet-write.ts) with the cells that block
 * changes; the run's entry in the index is made by its first changed cell (a
 * run that changes nothing leaves no entry) and closed by `finish`, whose
 * entries the caller stores together with its own last write (one store
 * write, not two: in Sheets each is a block of Spreadsheet calls).
 */
import { storePut, type Operation } from "../core/index.ts";
import type { WriteAudit, WrittenRow } from "../enrich/index.ts";
import {
  AUDIT_INDEX_KEY,
  AUDIT_LIMITS,
  auditPartKey,
  indexText,
  partText,
  prune,
  readIndex,
  type AuditRun,
  type AuditTable,
} from "./audit-store.ts";
import { withOldFormulas, type FormulaCache } from "./audit-formulas.ts";

export interface RunMeta {
  kind: string;
  who: string;
  now: () => number;
  table: AuditTable;
  /** Default: a new id from the time and `random`. */
  id?: string;
  random?: () => number;
  limits?: { runs: number; cells: number };
}

export interface RunAudit extends WriteAudit {
  readonly id: string;
  /**
   * The store entries that add a step's charged credits to the run and, when
   * `done`, close it; {} when the run changed nothing (a run of several steps,
   * an enrichment in the sidebar, is one run: one id, parts appended).
   */
  finish(credits: number, done?: boolean): Operation<Record<string, string>>;
}

export function newRunId(now: number, random: () => number = Math.random): string {
  return `${now.toString(36)}-${Math.floor(random() * 36 ** 4)
    .toString(36)
    .padStart(4, "0")}`;
}

export function newRunEntry(meta: RunMeta, id: string): AuditRun {
  return {
    id,
    kind: meta.kind,
    who: meta.who,
    at: new Date(meta.now()).toISOString(),
    finishedAt: null,
    credits: 0,
    rows: 0,
    cells: 0,
    parts: 0,
    chars: 0,
    state: "running",
    table: meta.table,
    partial: false,
    undoOf: null,
    undoneBy: null,
    undos: 0,
    kept: 0,
    deleted: 0,
  };
}

export function auditRun(meta: RunMeta): RunAudit {
  const id = meta.id ?? newRunId(meta.now(), meta.random);
  const limits = meta.limits ?? AUDIT_LIMITS;
  const formulas: FormulaCache = new Map();
  return {
    id,
    *record(sheetName: string, written: WrittenRow[]): Operation<void> {
      const cells = written.reduce((n, r) => n + r.cells.length, 0);
      if (cells === 0) return;
      const rows = yield* withOldFormulas(formulas, sheetName, written);
      const index = yield* readIndex();
      let run = index.runs.find((r) => r.id === id);
      if (!run) index.runs.push((run = newRunEntry(meta, id)));
      if (run.partial) return;
      const entries: Record<string, string | null> = {};
      if (run.cells + cells > limits.cells) run.partial = true;
      else {
        const text = partText(rows);
        entries[auditPartKey(id, run.parts)] = text;
        run.parts += 1;
        run.rows += rows.length;
        run.cells += cells;
        run.chars += text.length;
      }
      Object.assign(entries, prune(index, [id], limits));
      entries[AUDIT_INDEX_KEY] = indexText(index);
      yield* storePut(entries);
    },
    *finish(credits: number, done = true): Operation<Record<string, string>> {
      const index = yield* readIndex();
      const run = index.runs.find((r) => r.id === id);
      if (!run) return {};
      run.credits += credits;
      if (!done) return { [AUDIT_INDEX_KEY]: indexText(index) };
      run.state = "done";
      run.finishedAt = new Date(meta.now()).toISOString();
      return { [AUDIT_INDEX_KEY]: indexText(index) };
    },
  };
}
