/**
 * The sheet job's rows: a row's output read back, whether it still belongs
 * to the row's input (the row ledger), and results written into the rows
 * that hold their input now.
 *
 * Rows are matched to results by key, never by position: before every write
 * the table is read again (a fresh read, right before the write) and each
 * result goes to the row that now holds the input it was computed for
 * (duplicates in order of occurrence); a deleted row's result is dropped,
 * an inserted or edited row is new work, an output that no longer belongs to
 * its row is marked "changed" and redone. Only the table's rows and its
 * output columns are written, as they are at that moment.
 *
 * Row-anchored developer metadata (Sheets: DeveloperMetadata on a row moves
 * with the row when a user sorts or inserts,
 * https://developers.google.com/sheets/api/guides/metadata; the
 * DeveloperMetadata resource says it stays with its row through moves and is
 * deleted with it,
 * https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets.developerMetadata)
 * is not used:
 * Excel and the playground have nothing like it, so it would be a second way
 * of finding rows in one host only; setting it costs a Spreadsheet call per
 * row (the job writes whole blocks); and it follows a row whose input the
 * user then edits, where the key sees the edit. The key finds moved rows in
 * every host by what they are.
 */
import { sheet, type Operation } from "../core/index.ts";
import type { Cell } from "../core/index.ts";
import { pairByKey } from "./row-key.ts";
import { CHANGED_TOKEN, token, type RowLedger } from "./row-ledger.ts";
import { readTableNow, type TableNow } from "./table-now.ts";
import {
  candidateLabel,
  isoDay,
  outputCells,
  readPrevious,
  readResult,
  reviewCandidates,
  type PreviousRow,
  type RowResult,
} from "./rows.ts";
import { changesText, companyName, valueChanges, type RowChanges } from "./value-changes.ts";
import type { SheetJob, WrittenRow } from "./job-types.ts";
import { sameCell } from "../sheet/index.ts";

const STATUS_COLOUR: Record<string, string> = {
  matched: "",
  empty: "",
  review: "#fff2cc",
  not_found: "#eeeeee",
  error: "#f4cccc",
  out_of_credits: "#fce5cd",
  unbought: "#d9ead3",
};

/** The status of a row whose output was computed for other input: shown, and redone. */
const ROW_CHANGED = {
  de: "Zeile seit der Anreicherung geändert (sortiert oder bearbeitet); wird neu angereichert",
  en: "row changed since it was enriched (sorted or edited); will be enriched again",
};

/** A row's output read back; `changed`: it says the row changed since it was enriched (to be redone). */
export type Previous = PreviousRow & { changed?: boolean };

export function previousInCells(cells: readonly Cell[], width: number): Previous | null {
  const p = readPrevious(cells, width);
  if (p?.outcome !== "error") return p;
  const s = String(cells[0] ?? "");
  return s.includes(ROW_CHANGED.de) || s.includes(ROW_CHANGED.en) ? { ...p, changed: true } : p;
}

/** Does this row's output belong to its input as it is now? */
export function belongs(ledger: RowLedger, key: string, p: Previous | null): boolean {
  if (!p) return true;
  // A row without input has no company: only "skipped" belongs to it.
  if (key === "") return p.outcome === "empty";
  // Output written before there was a ledger for this table cannot be checked.
  if (ledger.empty) return true;
  if (p.outcome === "matched")
    return ledger.has(key, token("matched", p.id)) || ledger.has(key, token("matched", p.id, true));
  if (p.outcome === "error") return ledger.has(key, p.changed ? CHANGED_TOKEN : token("error", null));
  // A review row's id cell is the user's to pick in.
  return ledger.has(key, token(p.outcome, p.outcome === "review" ? null : p.id));
}

/** The ledger token a row's output stands for (a matched row keeps its pick mark). */
export function ledgerToken(ledger: RowLedger, key: string, p: Previous): string {
  if (p.outcome === "matched" && ledger.has(key, token("matched", p.id, true))) return token("matched", p.id, true);
  if (p.changed) return CHANGED_TOKEN;
  return token(p.outcome, p.outcome === "review" ? null : p.id);
}

/**
 * Write results (by the index of the pass that computed them, whose keys are `keysThen`)
 * into the rows that hold that input now, and mark rows whose output is not theirs.
 */
export function* guardedWrite(
  job: SheetJob,
  keysThen: readonly string[],
  results: Map<number, RowResult>,
  picks: ReadonlySet<number>,
): Operation<void> {
  const t = yield* readTableNow(job.spec, job.outCols, job.mapping, job.ledger, { fresh: true });
  const writes = new Map<number, RowResult>();
  const recorded: { key: string; tok: string }[] = [];
  pairByKey(keysThen, t.keys).forEach((i, j) => {
    const r = i === null ? undefined : results.get(i);
    if (!r) return;
    writes.set(j, r);
    recorded.push({ key: t.keys[j]!, tok: token(r.outcome, r.outcome === "review" ? null : r.id, picks.has(i!)) }); // j indexes t.keys
  });
  t.output.forEach((cells, j) => {
    if (writes.has(j)) return;
    const p = previousInCells(cells, job.width);
    const key = t.keys[j] ?? "";
    if (p && !belongs(job.ledger, key, p)) {
      writes.set(j, {
        outcome: "error",
        id: null,
        confidence: null,
        asOf: null,
        values: [],
        error: { code: "INVALID_INPUT", text: ROW_CHANGED },
      });
      recorded.push({ key, tok: CHANGED_TOKEN });
    }
  });
  yield* writeRows(job, t, writes, recorded);
}

/** Write these rows' results into the table `t` just read, as one block, and record them. */
export function* writeRows(
  job: SheetJob,
  t: TableNow,
  writes: Map<number, RowResult>,
  recorded: { key: string; tok: string }[],
): Operation<void> {
  if (writes.size === 0) return;
  const rows = [...writes.keys()];
  const lo = Math.min(...rows);
  const hi = Math.max(...rows);
  const span: Cell[][] = [];
  const dropdowns: string[][] = [];
  const colours: string[][] = [];
  const changed: RowChanges[] = [];
  for (let j = lo; j <= hi; j++) {
    const r = writes.get(j);
    // Every row between the first and last written one was read (lo..hi lie within t.output).
    const cells = r ? resultCells(job, t, j, r, changed) : (t.output[j] ?? []);
    span.push(cells);
    dropdowns.push(
      r ? (r.outcome === "review" ? (r.candidates ?? []).map(candidateLabel) : []) : existingDropdown(cells, job.width),
    );
    colours.push([STATUS_COLOUR[r?.outcome ?? readPrevious(cells, job.width)?.outcome ?? "empty"] ?? ""]);
  }
  const { out, spec } = job;
  const firstRow = out.row + 1 + lo;
  // Logged first: a crash before the write repeats the same lines next time, and the log's keys drop them.
  if (spec.changes && changed.length > 0) yield* spec.changes.log(changed);
  if (spec.audit) yield* spec.audit.record(out.sheet, changedCells(t, writes, span, lo, out.col, out.row + 1));
  // Written at once, right after the read that placed them: the window in which a user can move these rows is this call.
  yield* sheet({ op: "write", sheet: out.sheet, row: firstRow, col: out.col, values: span, now: true });
  yield* job.ledger.record(recorded);
  yield* sheet({ op: "dropdowns", sheet: out.sheet, row: firstRow, col: out.col + 2, options: dropdowns });
  yield* sheet({ op: "colour", sheet: out.sheet, row: firstRow, col: out.col, colours });
}

/** The cells of the written rows that this write changes (old: as read just now), for the audit. */
function changedCells(
  t: TableNow,
  writes: Map<number, RowResult>,
  span: Cell[][],
  lo: number,
  firstCol: number,
  firstRow: number,
): WrittenRow[] {
  const rows: WrittenRow[] = [];
  for (const j of [...writes.keys()].sort((a, b) => a - b)) {
    const next = span[j - lo] ?? [];
    const old = t.output[j] ?? [];
    const cells: WrittenRow["cells"] = [];
    next.forEach((v, k) => {
      if (!sameCell(old[k], v)) cells.push([firstCol + k, old[k] ?? "", v ?? ""]);
    });
    if (cells.length > 0) rows.push({ key: t.keys[j] ?? "", cells, row: firstRow + j });
  }
  return rows;
}

/** A result's output cells for row j of `t`; a refresh adds its change column (and collects the row's changes). */
function resultCells(job: SheetJob, t: TableNow, j: number, r: RowResult, changed: RowChanges[]): Cell[] {
  const cells = outputCells(r, job.width, job.lang);
  if (!job.spec.changes) return cells;
  // Old → new against what this row shows right now (read just before this write), for the same company only.
  const before = readResult(t.output[j], job.width);
  const id = r.outcome === "matched" && before?.outcome === "matched" && before.id === r.id ? r.id : null;
  const diff = id ? valueChanges(job.fields, before?.values ?? [], r.values) : [];
  if (id && diff.length > 0)
    changed.push({
      id,
      name: companyName(job.fields, r.values, t.input[j] ?? [], job.mapping),
      asOf: r.asOf ?? isoDay(job.ctx.client.now()),
      changes: diff,
    });
  return [...cells, changesText(diff, job.lang)];
}

/**
 * Rows between a chunk's rows keep their dropdown: a review row's candidates
 * are in its status text, which is where they are read back from.
 */
function existingDropdown(cells: readonly Cell[], width: number): string[] {
  const p = readPrevious(cells, width);
  if (p?.outcome !== "review") return [];
  return reviewCandidates(String(cells[0] ?? "")).map(candidateLabel);
}
