/**
 * A streamed table's I/O as plain data, so that a job over a table too long
 * to hold at once (a CSV file of 100,000 rows: the CLI) stays sans-IO like
 * the sheet jobs (./sheet-protocol.ts). The table is read in order, in
 * chunks; its output is an unfinished file the job appends to (each append
 * kept durably before it answers) and that replaces the finished output when
 * the job is done. Earlier outputs (the unfinished one of a killed run, the
 * finished one of an earlier run) are paired with the input's rows by the
 * host that reads them; the job decides which are used. Hosts: the CLI's
 * file adapter (cli/csv-stream.ts).
 */
import type { Cell } from "./sheet-protocol.ts";

/** An input row with what an earlier output left for it (its output cells), if anything. */
export interface TableLine {
  /** 0-based data row (the header row not counted). */
  index: number;
  row: Cell[];
  earlier: Cell[] | null;
}

/** What the host knows about its files when a job opens its table. */
export interface TableFacts {
  /** The input: where it is, its content's hash (a resume is the same content, whatever its mtime), its encoding. */
  input: string;
  content: string;
  encoding: string;
  /** Size of the unfinished output (its mark unit, e.g. bytes), or null when there is none. */
  unfinishedSize: number | null;
  /** The unfinished and the finished output have this input's columns and this output header (rows can be paired). */
  unfinishedUsable: boolean;
  finishedUsable: boolean;
}

export type EarlierOutput = "unfinished" | "finished";

export type TableRequest =
  /** Answers TableFacts. */
  | { op: "open" }
  /** Cut the unfinished output back to `size` (a resume's last kept mark); answers undefined. */
  | { op: "cut"; size: number }
  /** From now on, rows read carry what these earlier outputs left (newest first); answers undefined. */
  | { op: "pair"; sources: EarlierOutput[] }
  /** The next input rows from data row `from` on, in order; answers TableLine[] ([] past the end). */
  | { op: "rows"; from: number }
  /**
   * Rows the unfinished output already holds, from data row `from` on, with
   * their input rows (a resume reads back what it wrote); answers
   * `{ row, cells }[]` ([] past the end).
   */
  | { op: "written"; from: number }
  /** Start the unfinished output afresh with this header row; answers its mark after it (durably kept). */
  | { op: "begin"; header: Cell[] }
  /** Append output rows; answers the output's mark after them, once they are durably kept. */
  | { op: "append"; rows: Cell[][] }
  /**
   * Everything answered so far is kept (in the output or the store): answers
   * the host holds only to replay them after a kill may go; `all` also those
   * not asked for again yet (a fresh start). Answers undefined.
   */
  | { op: "settled"; all?: boolean }
  /** The job is done: the unfinished output replaces the finished one; answers undefined. */
  | { op: "finish" };
