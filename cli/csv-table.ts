/**
 * The CSV files of an enrichment, read: the input's header, delimiter and
 * encoding, its rows in order in chunks of CHUNK_ROWS with what an earlier
 * output left for each (paired by row key, shared/enrich/row-key.ts, not by
 * position), and the rows a killed run already wrote. ./csv-stream.ts hands
 * them to the core's streamed job as its table. Input errors become exit 3
 * with the file, the line and why (DE/EN).
 */
import { closeSync, existsSync, openSync, readSync } from "node:fs";
import type { Cell, TableLine } from "../shared/core/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { detectColumns, isOutputHeader, MATCH_ROLES, pairByKey, rowKey } from "../shared/enrich/index.ts";
import { selectFields, type ColumnMapping, type FieldDef } from "../shared/enrich/index.ts";
import { CsvError, parseCsvNumber, readCsv, type Delimiter } from "./csv.ts";
import { detectEncoding, encodingFromBom, EncodingError, type Encoding } from "./encoding.ts";
import { ExitError } from "./io.ts";
import { errnoOf, unreadable } from "./readable.ts";
import { EXIT, msg } from "./i18n.ts";

/** Rows per chunk: each chunk's output rows are appended and synced before the checkpoint moves. */
export const CHUNK_ROWS = 1000;

export interface Prepared {
  header: string[];
  delimiter: Delimiter;
  mapping: ColumnMapping;
  fields: FieldDef[];
  encoding: Encoding;
  /**
   * The output starts with a UTF-8 byte-order mark when the input had a mark
   * or was not UTF-8: the output is always UTF-8 (Windows-1252 cannot hold
   * every company name), and the mark makes Excel read it as such.
   */
  bom: boolean;
}

/** The first bytes of a file (for its byte-order mark). */
function head(path: string): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const b = Buffer.alloc(3);
    return b.subarray(0, readSync(fd, b, 0, 3, 0));
  } finally {
    closeSync(fd);
  }
}

export function csvExit(e: unknown, path: string, lang: Language): unknown {
  if (e instanceof CsvError) return new ExitError(EXIT.INPUT, msg.badCsv[lang](path, e.line, e.text[lang]));
  if (e instanceof EncodingError) return new ExitError(EXIT.INPUT, msg.badEncoding[lang](path, e.encoding));
  const code = errnoOf(e);
  if (code === "ENOENT" || code === "EISDIR" || code === "EACCES" || code === "EPERM")
    return new ExitError(EXIT.INPUT, msg.noFile[lang](path, code));
  return e;
}

/** The input's header, delimiter and encoding, its columns' roles and the fields asked for. */
export async function prepare(input: string, fieldIds: string[], lang: Language, given?: Encoding): Promise<Prepared> {
  const why = unreadable(input);
  if (why) throw new ExitError(EXIT.INPUT, msg.noFile[lang](input, why));
  let delimiter: Delimiter = ",";
  let first: { header: string[]; encoding: Encoding; bom: boolean } | null = null;
  try {
    const encoding = given ?? detectEncoding(input);
    const bom = encoding !== "utf-8" || encodingFromBom(head(input)) !== null;
    for await (const rec of readCsv(input, (d) => (delimiter = d), encoding)) {
      first = { header: rec, encoding, bom };
      break;
    }
  } catch (e) {
    throw csvExit(e, input, lang);
  }
  if (!first) throw new ExitError(EXIT.INPUT, msg.emptyCsv[lang](input));
  const mapping = detectColumns(first.header).mapping;
  if (MATCH_ROLES.every((r) => mapping[r] === undefined))
    throw new ExitError(EXIT.INPUT, msg.noNameColumn[lang](first.header.join(", ")));
  let fields: FieldDef[];
  try {
    fields = selectFields(fieldIds);
  } catch (e) {
    throw new ExitError(EXIT.USAGE, (e as { text?: (l: Language) => string }).text?.(lang) ?? String(e));
  }
  return { ...first, delimiter, mapping, fields };
}

/**
 * A cell read back from a CSV this CLI wrote: numbers it wrote as numbers
 * become numbers again, so that writing the cell again gives the same text
 * (a negative number must not come back as text needing an apostrophe).
 */
export function fromCsvCell(s: string, delimiter: Delimiter = ","): Cell {
  const n = parseCsvNumber(s, delimiter);
  return n === null ? s : n;
}

/** Output cells read back from a CSV row (status, confidence, fields, as-of). */
const outputOf = (rec: readonly string[], inputWidth: number, width: number, delimiter: Delimiter): Cell[] =>
  rec.slice(inputWidth, inputWidth + width + 3).map((c) => fromCsvCell(c, delimiter));

/**
 * Earlier outputs' rows, paired with the input's rows by row key: for each
 * input row, the output cells an earlier run left for the same input (in
 * order of occurrence among duplicates), or none (a new or edited row).
 * Rows of an earlier output that no input row has any more are not carried
 * over. Kept as one JSON string per earlier row, so that a 100,000-row
 * rerun stays small.
 */
export interface Earlier {
  /** Per input data row, the index into `cells`, or null. */
  pairing: (number | null)[];
  cells: string[];
}

/** Earlier outputs, the newest first (among rows with the same key, the first file's pair first). */
export async function loadEarlier(outs: readonly string[], input: string, p: Prepared): Promise<Earlier> {
  const keys: string[] = [];
  const cells: string[] = [];
  for (const out of outs) {
    let delimiter: Delimiter = ",";
    let first = true;
    for await (const rec of readCsv(out, (d) => (delimiter = d))) {
      if (first) {
        first = false;
        continue;
      }
      keys.push(rowKey(rec.slice(0, p.header.length), p.mapping));
      cells.push(JSON.stringify(outputOf(rec, p.header.length, p.fields.length, delimiter)));
    }
  }
  const current: string[] = [];
  let first = true;
  for await (const row of readCsv(input, undefined, p.encoding)) {
    if (first) {
      first = false;
      continue;
    }
    current.push(rowKey(row, p.mapping));
  }
  return { pairing: pairByKey(keys, current), cells };
}

/** The input's data rows from `skip` on, with what an earlier output left for each, in chunks. */
export async function* readLines(input: string, p: Prepared, earlier: Earlier | null, skip: number) {
  const rows = readCsv(input, undefined, p.encoding);
  await rows.next(); // header
  let index = 0;
  let batch: TableLine[] = [];
  for await (const row of rows) {
    const at = earlier?.pairing[index];
    const text = at != null ? earlier?.cells[at] : undefined;
    if (index >= skip) batch.push({ index, row, earlier: text !== undefined ? (JSON.parse(text) as Cell[]) : null });
    index++;
    if (batch.length >= CHUNK_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/**
 * An earlier output may be reused when it has this input's columns and these
 * fields (its rows are then paired with the input's by key). A header cell
 * with a leading apostrophe is one an earlier version neutralised.
 */
export async function usablePrevious(out: string, p: Prepared): Promise<boolean> {
  if (!existsSync(out)) return false;
  try {
    for await (const rec of readCsv(out)) {
      const same = p.header.every((h, i) => rec[i] === h || rec[i] === "'" + h);
      return same && isOutputHeader(rec.slice(p.header.length), p.fields);
    }
  } catch {
    return false;
  }
  return false;
}

/** A resume: the rows the unfinished output holds from data row `skip` on, each with its input row, in chunks. */
export async function* readWritten(input: string, p: Prepared, partial: string, skip: number) {
  const inputRows = readCsv(input, undefined, p.encoding);
  let delimiter: Delimiter = ",";
  const done = readCsv(partial, (d) => (delimiter = d));
  try {
    await inputRows.next();
    await done.next();
    let batch: { row: Cell[]; cells: Cell[] }[] = [];
    for (let i = 0; ; i++) {
      const a = await inputRows.next();
      const b = await done.next();
      if (a.done || b.done) break;
      if (i >= skip)
        batch.push({ row: a.value, cells: outputOf(b.value, p.header.length, p.fields.length, delimiter) });
      if (batch.length >= CHUNK_ROWS) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  } finally {
    await inputRows.return?.(undefined);
    await done.return?.(undefined);
  }
}
