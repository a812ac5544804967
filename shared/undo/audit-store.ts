/**
 * The audit of a document's writes as saved state: an index of its runs
 * (`doc:audit:index`, oldest first) and each run's changed cells in parts
 * (`doc:audit:<run>:<n>`, one part per block a run wrote), so a run appends
 * a small value per write instead of rewriting all it wrote so far. Every
 * host keeps `doc:` keys where the document's state lives: the hidden state
 * sheet in Sheets, the workbook in Excel, a side file beside the CLI's output.
 *
 * Bounded: the last AUDIT_LIMITS.runs runs and AUDIT_LIMITS.cells cells per
 * document, the oldest runs dropped first (a run is never cut in two: a run
 * that alone passes the cells limit stops recording and is marked partial).
 */
import * as z from "zod/mini";
import { readPart, readSaved, savedCell, savedKind, storeGet, writeSaved, type Operation } from "../core/index.ts";
import type { WrittenRow } from "../enrich/index.ts";

/** Defaults: 20 runs, 50,000 cells (about 3–5 MB of text; a Sheets cell holds 50,000 characters, a state row many). */
export const AUDIT_LIMITS: { readonly runs: number; readonly cells: number } = { runs: 20, cells: 50_000 };

export const AUDIT_INDEX_KEY = "doc:audit:index";
export const auditPartKey = (run: string, part: number) => `doc:audit:${run}:${part}`;
/** What an undo found (its kept and deleted lists), for a second undo of the same run that does no work. */
export const undoResultKey = (run: string) => `doc:audit:${run}:result`;

/** Where a run's table is: its rows are found again by key in these input columns. */
export interface AuditTable {
  sheet: string;
  /** 1-based header row and first input column as the run saw them; rows are looked for on the whole sheet. */
  row: number;
  col: number;
  cols: number;
  mapping: Record<string, number>;
  /** A row without input is keyed by this column's text (1-based; the portfolio's ID column). */
  idCol?: number;
  /** A row with neither is keyed by its place (an inserted block). */
  byPlace?: boolean;
}

export interface AuditRun {
  id: string;
  /** refresh, enrich, undo, … */
  kind: string;
  who: string;
  /** ISO start and end. */
  at: string;
  finishedAt: string | null;
  credits: number;
  rows: number;
  cells: number;
  /** Parts written (keys auditPartKey(id, 0 … parts − 1)) and their characters. */
  parts: number;
  chars: number;
  state: "running" | "done";
  table: AuditTable;
  /** More cells changed than the audit may hold: only the first ones are recorded. */
  partial: boolean;
  /** An undo: the run it takes back. */
  undoOf: string | null;
  /** The undo that took this run back (running or done), and how many undos it had. */
  undoneBy: string | null;
  undos: number;
  /** An undo's lists' sizes. */
  kept: number;
  deleted: number;
}

const tableShape = z.object({
  sheet: z.string(),
  row: z.number(),
  col: z.number(),
  cols: z.number(),
  mapping: z.record(z.string(), z.number()),
  idCol: z.optional(z.number()),
  byPlace: z.optional(z.boolean()),
});
const runShape: z.ZodMiniType<AuditRun> = z.object({
  id: z.string(),
  kind: z.string(),
  who: z.string(),
  at: z.string(),
  finishedAt: z.nullable(z.string()),
  credits: z.number(),
  rows: z.number(),
  cells: z.number(),
  parts: z.number(),
  chars: z.number(),
  state: z.enum(["running", "done"]),
  table: tableShape,
  partial: z.boolean(),
  undoOf: z.nullable(z.string()),
  undoneBy: z.nullable(z.string()),
  undos: z.number(),
  kept: z.number(),
  deleted: z.number(),
});
export interface AuditIndex {
  runs: AuditRun[];
}
export const AUDIT_INDEX = savedKind(1, z.object({ runs: z.array(runShape) }));

/** A part: rows as [key, [[col, old, new, old formula?, new formula?], …]]; its version is the index's. */
const partShape = z.array(z.tuple([z.string(), z.array(z.tuple([z.number(), savedCell, savedCell], z.string()))]));

/** A cell as stored: the formulas only where there is one ("" keeps the place of an absent old formula). */
function cellText(c: WrittenRow["cells"][number]): unknown[] {
  const [col, old, next, oldF, nextF] = c;
  if (nextF) return [col, old, next, oldF ?? "", nextF];
  return oldF ? [col, old, next, oldF] : [col, old, next];
}

export const partText = (rows: readonly WrittenRow[]) =>
  JSON.stringify(rows.map((r) => [r.key, r.cells.map(cellText)]));

export function* readIndex(): Operation<AuditIndex> {
  const [raw] = yield* storeGet([AUDIT_INDEX_KEY]);
  return readSaved(AUDIT_INDEX, raw) ?? { runs: [] };
}

export const indexText = (index: AuditIndex) => writeSaved(AUDIT_INDEX, index);

/** A run's recorded rows, in the order they were written (a part that is damaged or gone counts as empty). */
export function* readRows(run: AuditRun): Operation<WrittenRow[]> {
  const keys = Array.from({ length: run.parts }, (_, n) => auditPartKey(run.id, n));
  const raws = yield* storeGet(keys);
  return raws.flatMap((raw) =>
    (readPart(partShape, raw) ?? []).map(([key, cells]) => ({
      key,
      cells: cells.map(([col, old, next, oldF, nextF]): WrittenRow["cells"][number] => {
        if (nextF) return [col, old, next, oldF ?? "", nextF];
        return oldF ? [col, old, next, oldF] : [col, old, next];
      }),
    })),
  );
}

/**
 * Drop the oldest runs (never those in `keep`) until the index fits the
 * limits; answers the store entries that delete their parts.
 */
export function prune(index: AuditIndex, keep: readonly string[], limits = AUDIT_LIMITS): Record<string, null> {
  const gone: Record<string, null> = {};
  const total = () => index.runs.reduce((n, r) => n + r.cells, 0);
  while (index.runs.length > keep.length && (index.runs.length > limits.runs || total() > limits.cells)) {
    const at = index.runs.findIndex((r) => !keep.includes(r.id));
    if (at < 0) break;
    const [old] = index.runs.splice(at, 1);
    if (!old) break;
    for (let n = 0; n < old.parts; n++) gone[auditPartKey(old.id, n)] = null;
    gone[undoResultKey(old.id)] = null;
  }
  return gone;
}

/** The audit's size as the Runs view shows it. */
export function auditSize(index: AuditIndex): { runs: number; cells: number; chars: number } {
  return {
    runs: index.runs.length,
    cells: index.runs.reduce((n, r) => n + r.cells, 0),
    chars: index.runs.reduce((n, r) => n + r.chars, 0) + indexText(index).length,
  };
}
