/**
 * `company-data enrich` and `company-data estimate enrich`. The estimate pass
 * reads the CSV once and collects the distinct names still to resolve; after
 * the user's yes they are resolved in one phase (full batch calls, so the
 * whole file pays ceil(names/10)), each answer kept compactly in
 * OUT.resolved.jsonl. Then the rows are streamed in chunks of 1,000: each
 * chunk's output rows are appended to OUT.partial, then the checkpoint
 * OUT.checkpoint.json records how many rows and bytes are done; a kill at any
 * point resumes from the last checkpoint (the partial file is cut back to
 * it). Answers paid for in an unfinished chunk are journalled
 * (OUT.journal.jsonl) and read back, so nothing is bought twice. Every paid
 * request is written down before it is sent and its answer when it arrives
 * (the intent journal OUT.spent, ./ledger.ts), so the summary's credits are
 * the whole job's charge across an interrupted run and its resume, with what
 * a crash may have cost named. A resume is recognised by the input's
 * content (a hash), never its mtime: a `touch` or a re-save resumes. A
 * company's profile is bought once per run: the output cells of every
 * company done are kept (RunMemo), rebuilt on resume from the rows already
 * written and from the finished rows of an earlier OUT. When the run
 * completes, OUT.partial replaces OUT. A rerun reads the earlier OUT and
 * pairs its rows with the input's by row key (shared/enrich/row-key.ts), not
 * by position: a row inserted, deleted or moved keeps its own company, an
 * edited row is new work, and an OUT of another list with the same columns
 * is used only for the rows the two lists share. It then only works on rows
 * that are new or failed (or out of credits). OUT.lock keeps a second
 * process off the same output.
 */
import { priceAfterMatching } from "../shared/enrich/index.ts";
import {
  closeSync,
  createReadStream,
  existsSync,
  fsyncSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  readFileSync,
} from "node:fs";
import { createHash } from "node:crypto";
import { resolve as resolvePath } from "node:path";
import { createInterface } from "node:readline";
import { runAsync } from "../shared/core/index.ts";
import { toCompanyDataError } from "../shared/core/index.ts";
import { getAccount } from "../shared/operations/index.ts";
import { readPart, readSaved, savedKind, writeSaved } from "../shared/core/index.ts";
import * as z from "zod/mini";
import type { OpContext } from "../shared/operations/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import type { Cell } from "../shared/core/index.ts";
import { detectColumns, INPUT_ROLES, MATCH_ROLES, type ColumnMapping } from "../shared/enrich/index.ts";
import { fieldNeeds, selectFields, type FieldDef } from "../shared/enrich/index.ts";
import { enrichChunk, keyAnswer, taskFromRow } from "../shared/enrich/index.ts";
import type { RowTask } from "../shared/enrich/index.ts";
import { hash, outOfCreditsResult, selectRows, taskWithPrevious, type Rerun } from "../shared/enrich/index.ts";
import { pairByKey, rowKey } from "../shared/enrich/index.ts";
import {
  isoDay,
  isOutputHeader,
  outputCells,
  outputHeader,
  readPrevious,
  readResult,
  type PreviousRow,
  type RowResult,
} from "../shared/enrich/index.ts";
import { EnrichEstimator, type EnrichEstimate } from "../shared/enrich/index.ts";
import { RunMemo } from "../shared/enrich/index.ts";
import { savedKeyAnswer } from "../shared/enrich/index.ts";
import { coreDeps } from "../shared/enrich/index.ts";
import { normaliseKey } from "../shared/batch/index.ts";
import type { ResolveQuery } from "../shared/api/index.ts";
import { CsvError, formatRow, parseCsvNumber, readCsv, type Delimiter } from "./csv.ts";
import { DEFAULT_PARALLEL, nodeDriver } from "./driver.ts";
import { detectEncoding, encodingFromBom, EncodingError, type Encoding } from "./encoding.ts";
import { SpendLedger } from "./ledger.ts";
import { acquireLock } from "./lock.ts";
import { diskFullIn, written } from "./disk.ts";
import { errnoOf, unreadable } from "./readable.ts";
import { collectGarbage } from "./memory.ts";
import { EXIT, ROLE_LABEL, msg, type Summary } from "./i18n.ts";

export const CHUNK_ROWS = 1000;

export interface EnrichArgs {
  input: string;
  output?: string;
  fields: string[];
  mode: "batch" | "free";
  rerun: Rerun;
  yes: boolean;
  lang: Language;
  /** Requests in flight at once (cli/driver.ts DEFAULT_PARALLEL when absent). */
  parallel?: number;
  /** The input's encoding; detected (./encoding.ts) when absent. */
  encoding?: Encoding;
}

export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** Progress bar updates (only on a terminal). */
  progress?(done: number, total: number): void;
  /** Ask a yes/no question on the terminal; undefined when there is none. */
  ask?(question: string): Promise<boolean>;
  /** Milliseconds between progress lines on stderr (when it is not a terminal: CI, cron); none when absent. */
  progressEveryMs?: number;
}

export class ExitError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface Prepared {
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

async function readHeader(
  path: string,
  lang: Language,
  given?: Encoding,
): Promise<Omit<Prepared, "mapping" | "fields">> {
  const why = unreadable(path);
  if (why) throw new ExitError(EXIT.INPUT, msg.noFile[lang](path, why));
  let delimiter: Delimiter = ",";
  try {
    const encoding = given ?? detectEncoding(path);
    const bom = encoding !== "utf-8" || encodingFromBom(head(path)) !== null;
    for await (const rec of readCsv(path, (d) => (delimiter = d), encoding)) {
      return { header: rec, delimiter, encoding, bom };
    }
  } catch (e) {
    throw csvExit(e, path, lang);
  }
  throw new ExitError(EXIT.INPUT, msg.emptyCsv[lang](path));
}

function csvExit(e: unknown, path: string, lang: Language): unknown {
  if (e instanceof CsvError) return new ExitError(EXIT.INPUT, msg.badCsv[lang](path, e.line, e.text[lang]));
  if (e instanceof EncodingError) return new ExitError(EXIT.INPUT, msg.badEncoding[lang](path, e.encoding));
  const code = errnoOf(e);
  if (code === "ENOENT" || code === "EISDIR" || code === "EACCES" || code === "EPERM")
    return new ExitError(EXIT.INPUT, msg.noFile[lang](path, code));
  return e;
}

async function prepare(args: EnrichArgs): Promise<Prepared> {
  const p = await readHeader(args.input, args.lang, args.encoding);
  const mapping = detectColumns(p.header).mapping;
  if (MATCH_ROLES.every((r) => mapping[r] === undefined)) {
    throw new ExitError(EXIT.INPUT, msg.noNameColumn[args.lang](p.header.join(", ")));
  }
  let fields: FieldDef[];
  try {
    fields = selectFields(args.fields);
  } catch (e) {
    throw new ExitError(EXIT.USAGE, (e as { text?: (l: Language) => string }).text?.(args.lang) ?? String(e));
  }
  return { ...p, mapping, fields };
}

/** "Firmenname=Firma, Ort=Ort": each recognised role in the user's language, then the column it was found in. */
export function describeMapping(p: Prepared, lang: Language): string {
  return INPUT_ROLES.filter((r) => p.mapping[r] !== undefined)
    .map((r) => `${ROLE_LABEL[r][lang]}=${p.header[p.mapping[r]!]}`)
    .join(", ");
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

interface Line {
  index: number;
  row: string[];
  prevCells: Cell[] | null;
  previous: PreviousRow | null;
}

/**
 * An earlier output's rows, paired with the input's rows by row key: for each
 * input row, the output cells the earlier run left for the same input (in
 * order of occurrence among duplicates), or none (a new or edited row).
 * Rows of the earlier output that no input row has any more are not carried
 * over. Kept as one JSON string per earlier row, so that a 100,000-row
 * rerun stays small.
 */
interface Earlier {
  /** Per input data row, the index into `cells`, or null. */
  pairing: (number | null)[];
  cells: string[];
}

/** Earlier outputs, the newest first (among rows with the same key, the first file's pair first). */
async function loadEarlier(outs: readonly string[], input: string, p: Prepared): Promise<Earlier> {
  const width = p.fields.length;
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
      cells.push(JSON.stringify(outputOf(rec, p.header.length, width, delimiter)));
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

/** Input rows (after the header) with what the earlier output left for them, in chunks. */
async function* chunks(
  path: string,
  encoding: Encoding,
  earlier: Earlier | null,
  width: number,
  skip: number,
  size = CHUNK_ROWS,
) {
  const input = readCsv(path, undefined, encoding);
  await input.next(); // header
  let index = 0;
  let batch: Line[] = [];
  for await (const row of input) {
    const at = earlier?.pairing[index];
    const prevText = at != null ? earlier?.cells[at] : undefined;
    const prevCells = prevText !== undefined ? (JSON.parse(prevText) as Cell[]) : null;
    if (index >= skip)
      batch.push({ index, row, prevCells, previous: prevCells ? readPrevious(prevCells, width) : null });
    index++;
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** The rows of a chunk that this run works on, as tasks; the others are handed to `other`. */
function chunkTasks(
  batch: Line[],
  mapping: ColumnMapping,
  rerun: Rerun,
  now: number,
  other?: (base: RowTask, line: Line) => void,
) {
  const pairs = batch.map((line) => ({ line, task: taskFromRow(line.index, line.row, mapping) }));
  const selected = new Set(
    selectRows(
      pairs.map((p) => p.task),
      batch.map((b) => b.previous),
      rerun,
      now,
    ),
  );
  const tasks: RowTask[] = [];
  pairs.forEach(({ line, task }, k) => {
    if (selected.has(k)) tasks.push(taskWithPrevious(task, line.previous, rerun));
    else other?.(task, line);
  });
  return { tasks, selected };
}

interface Checkpoint {
  v: 2;
  input: string;
  /** The input's content (SHA-256): a resume is the same content, whatever its mtime. */
  content: string;
  encoding: Encoding;
  sig: string;
  rowsDone: number;
  bytesDone: number;
  previous: boolean;
  outOfCredits: boolean;
  /** The resolve phase is over: a resume goes straight to the rows (and keeps the journal of the chunk it was in). */
  resolved?: boolean;
}

/** Saved with `v: 2`; a file of another version or shape is not resumed (its run starts again). */
const CHECKPOINT_FILE = savedKind<Checkpoint>(
  2,
  z.object({
    v: z.literal(2),
    input: z.string(),
    content: z.string(),
    encoding: z.enum(["utf-8", "utf-16le", "utf-16be", "windows-1252"]),
    sig: z.string(),
    rowsDone: z.number(),
    bytesDone: z.number(),
    previous: z.boolean(),
    outOfCredits: z.boolean(),
    resolved: z.optional(z.boolean()),
  }),
);

function paths(out: string) {
  return {
    partial: out + ".partial",
    checkpoint: out + ".checkpoint.json",
    journal: out + ".journal.jsonl",
    resolved: out + ".resolved.jsonl",
    spent: out + ".spent",
    lock: out + ".lock",
  };
}

/** The side files of every output end so: a file named so is never an input list. */
const SIDE_SUFFIXES = Object.values(paths("")).concat(".tmp");

/** The file's path with symbolic links resolved (as given when it does not exist). */
function realPath(f: string): string {
  try {
    return realpathSync(f);
  } catch {
    return resolvePath(f);
  }
}

/** The input is not the output, nor a side file of it, nor the unfinished output of another run. */
function checkInputIsNoOutput(input: string, out: string, lang: Language) {
  const real = realPath(input);
  if (real === realPath(out)) throw new ExitError(EXIT.USAGE, msg.sameFile[lang]);
  const own = Object.values(paths(out)).some((f) => realPath(f) === real);
  const other = SIDE_SUFFIXES.some(
    (x) => real.endsWith(x) && existsSync(real.slice(0, -x.length) + ".checkpoint.json"),
  );
  if (own || other) throw new ExitError(EXIT.USAGE, msg.sideFile[lang](input));
}

/** SHA-256 of a file's bytes, read in pieces. */
async function contentHash(path: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) h.update(chunk as Buffer);
  return h.digest("hex");
}

function loadCheckpoint(file: string): Checkpoint | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  return readSaved(CHECKPOINT_FILE, text) ?? null;
}

function saveCheckpoint(file: string, cp: Checkpoint) {
  written(file, () => writeFileSync(file + ".tmp", writeSaved(CHECKPOINT_FILE, cp)));
  renameSync(file + ".tmp", file);
}

/**
 * The earlier output may be reused when it has this input's columns and these
 * fields (its rows are then paired with the input's by key). A header cell
 * with a leading apostrophe is one an earlier version neutralised.
 */
async function usablePrevious(out: string, p: Prepared): Promise<boolean> {
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

interface Pass {
  estimate: EnrichEstimate;
  /** The distinct queries still to resolve, in file order. */
  queries: ResolveQuery[];
  /** Data rows of the input. */
  inputRows: number;
  /** Company ids given in rows still to do (their profiles count in the price after matching). */
  givenIds: Set<string>;
}

/**
 * Read the file once: the estimate, the names to resolve, and (into `memo`)
 * the finished rows of the earlier output that this run does not redo.
 */
async function estimatePass(
  args: EnrichArgs,
  p: Prepared,
  earlier: Earlier | null,
  skip: number,
  now: number,
  memo: RunMemo,
): Promise<Pass> {
  const est = new EnrichEstimator({ mapping: p.mapping, fields: args.fields, mode: args.mode, maxBatch: 100 }, memo);
  const queries: ResolveQuery[] = [];
  const width = p.fields.length;
  const remember = (base: RowTask, line: Line) => {
    const r = line.prevCells ? readResult(line.prevCells, width) : null;
    if (r) memo.rememberRow(base, r);
  };
  let inputRows = skip;
  const givenIds = new Set<string>();
  try {
    for await (const batch of chunks(args.input, p.encoding, earlier, width, skip)) {
      inputRows += batch.length;
      const { tasks } = chunkTasks(batch, p.mapping, args.rerun, now, remember);
      for (const t of tasks) if (t.id) givenIds.add(t.id);
      est.add(tasks, (t) => queries.push(t.query!));
      collectGarbage();
    }
  } catch (e) {
    throw csvExit(e, args.input, args.lang);
  }
  return { estimate: est.result(), queries, inputRows, givenIds };
}

export function printEstimate(e: EnrichEstimate, lang: Language, line: (s: string) => void) {
  line(msg.estimate[lang](e.rows, e.credits, e.requests, e.paidRequests, e.freeRequests, e.seconds));
  for (const b of e.breakdown) line(msg.estimateLine[lang](b.label[lang], b.credits, b.requests));
}

/** `company-data estimate enrich`: spends nothing and needs no key. */
export async function estimateCommand(args: EnrichArgs, io: Io): Promise<number> {
  const p = await prepare(args);
  let earlier: Earlier | null = null;
  try {
    earlier =
      args.output && (await usablePrevious(args.output, p)) ? await loadEarlier([args.output], args.input, p) : null;
  } catch (e) {
    throw csvExit(e, args.input, args.lang);
  }
  io.err(msg.columns[args.lang](describeMapping(p, args.lang)));
  if (p.encoding !== "utf-8") io.err(msg.encodingUsed[args.lang](p.encoding));
  const { estimate: e } = await estimatePass(args, p, earlier, 0, Date.now(), new RunMemo(fieldNeeds(p.fields)));
  printEstimate(e, args.lang, (s) => io.out(s));
  return EXIT.OK;
}

/** No version of its own: the journal lives only until its run finishes. */
const RESOLVED_LINE = z.tuple([z.string(), savedKeyAnswer]);

/** Resolutions of an unfinished run, one `[key, answer]` a line (a torn last line from a kill is skipped). */
function loadResolved(file: string, memo: RunMemo) {
  if (!existsSync(file)) return;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line) continue;
    const entry = readPart(RESOLVED_LINE, line);
    if (entry) memo.rememberKey(...entry);
  }
}

/** The rows this run already wrote (a resume): their resolves and companies are not bought again. */
async function rememberPartial(args: EnrichArgs, p: Prepared, partial: string, rows: number, memo: RunMemo) {
  if (rows <= 0) return;
  const input = readCsv(args.input, undefined, p.encoding);
  let doneDelimiter: Delimiter = ",";
  const done = readCsv(partial, (d) => (doneDelimiter = d));
  await input.next();
  await done.next();
  for (let i = 0; i < rows; i++) {
    const a = await input.next();
    const b = await done.next();
    if (a.done || b.done) break;
    const r = readResult(outputOf(b.value, p.header.length, p.fields.length, doneDelimiter), p.fields.length);
    if (r) memo.rememberRow(taskFromRow(i, a.value, p.mapping), r);
  }
  await input.return?.(undefined);
  await done.return?.(undefined);
}

/** The state of the enrichment running in this process, for the progress line and the Ctrl-C summary. */
interface RunState {
  phase: "resolve" | "rows";
  namesDone: number;
  namesTotal: number;
  rowsDone: number;
  rowsTotal: number;
  ledger: SpendLedger;
}

let running: RunState | null = null;

/**
 * One line on where the running enrichment stands (rows done, credits so
 * far); null when none runs. The credits are counted at the moment of
 * charging: every paid request from the moment it is written down in the
 * intent journal, before it is sent (the service charges it when it arrives,
 * long before its answer is back), so the figure is never below what the
 * service has charged, and above it by at most the credits still in flight,
 * which the line names. `settled`: none is in flight any more (after Ctrl-C),
 * so paid requests without an answer are lost ones, named as such.
 */
export function runStatus(lang: Language, settled = false): string | null {
  const r = running;
  if (!r) return null;
  const c = r.ledger.charge();
  const spent = c.answered + c.unanswered;
  const inFlight = settled ? 0 : c.inFlight;
  const lost = c.unanswered - inFlight;
  return r.phase === "resolve"
    ? msg.progressNames[lang](r.namesDone, r.namesTotal, spent, lost, inFlight)
    : msg.progressRows[lang](r.rowsDone, r.rowsTotal, spent, lost, inFlight);
}

/**
 * The free balance against the estimate, before anything is spent. When it
 * does not cover the estimate, the user reads so, and how far it will get,
 * before the question (at a terminal) or before the spending (`--yes`).
 * Policy with `--yes` (decided, cli/README.md): the run goes ahead as far as
 * the balance goes, as a run that runs out midway always has (rows done kept,
 * the rest marked "not enriched: out of credits", finished after a top-up
 * without paying twice), but never silently: the shortfall is said first.
 * A balance that cannot be read is said too; a rejected key ends the run.
 */
async function checkBalance(ctx: OpContext, e: EnrichEstimate, args: EnrichArgs, io: Io): Promise<void> {
  const lang = args.lang;
  let balance: number;
  try {
    balance = (await runAsync(getAccount(ctx), nodeDriver())).credits;
  } catch (err) {
    const c = toCompanyDataError(err);
    if (c.code === "MISSING_KEY" || c.code === "INVALID_KEY") throw c;
    io.err(msg.balanceUnknown[lang](c.text(lang).replace(/\.$/, "")));
    return;
  }
  if (balance >= e.credits) return;
  // Rows in proportion to the credits: a rough figure ("about"), as rows differ in what they cost.
  const far = Math.min(e.rows, Math.floor((e.rows * Math.max(0, balance)) / e.credits));
  io.err(msg.balanceShort[lang](balance, e.credits, far, e.rows));
  if (args.yes) io.err(msg.balanceShortYes[lang]);
}

/** `company-data enrich`. */
export async function enrichCommand(args: EnrichArgs, ctx: OpContext, io: Io, interactive: boolean): Promise<number> {
  const lang = args.lang;
  const out = args.output!;
  checkInputIsNoOutput(args.input, out, lang);
  const files = paths(out);
  let lock: ReturnType<typeof acquireLock>;
  try {
    lock = acquireLock(files.lock);
  } catch (e) {
    // The output's folder is missing or not writable: said before anything is read or spent.
    const code = (e as NodeJS.ErrnoException)?.code;
    if (code === "ENOENT" || code === "EACCES" || code === "EROFS" || code === "ENOTDIR")
      throw new ExitError(EXIT.USAGE, msg.cannotWrite[lang](out));
    throw e;
  }
  if (!lock.ok) throw new ExitError(EXIT.LOCKED, msg.locked[lang](out, lock.owner?.pid ?? null, files.lock));
  const progress = io.progressEveryMs
    ? setInterval(() => {
        const s = runStatus(lang);
        if (s) io.err(s);
      }, io.progressEveryMs)
    : null;
  progress?.unref();
  try {
    return await enrichLocked(args, ctx, io, interactive, files);
  } catch (e) {
    // A full disk: said with the file; what is on disk (journals, rows, checkpoint) stays for the rerun.
    const full = diskFullIn(e);
    if (full) throw new ExitError(EXIT.DISK_FULL, msg.diskFull[lang](full.file));
    throw e;
  } finally {
    if (progress) clearInterval(progress);
    running = null;
    lock.release();
  }
}

async function enrichLocked(
  args: EnrichArgs,
  ctx: OpContext,
  io: Io,
  interactive: boolean,
  files: ReturnType<typeof paths>,
): Promise<number> {
  const lang = args.lang;
  const out = args.output!;
  const p = await prepare(args);
  const content = await contentHash(args.input);
  const sig = hash(JSON.stringify([p.fields.map((f) => f.id), p.mapping, args.mode, args.rerun]));
  let cp = loadCheckpoint(files.checkpoint);
  const resuming =
    !!cp &&
    cp.input === resolvePath(args.input) &&
    cp.content === content &&
    cp.encoding === p.encoding &&
    cp.sig === sig &&
    existsSync(files.partial) &&
    statSync(files.partial).size >= cp.bytesDone;
  // The input's content changed since an interrupted run of the same job (same input file, output, fields and
  // options: the user fixed a row after Ctrl-C): the job starts over, but nothing it paid for is lost. Its rows
  // written so far are read back as an earlier output (paired by key), its resolutions and answers are kept,
  // and its intent journal goes on.
  const restart =
    !resuming &&
    !!cp &&
    cp.input === resolvePath(args.input) &&
    cp.sig === sig &&
    existsSync(files.partial) &&
    statSync(files.partial).size >= cp.bytesDone;
  if (restart) truncateSync(files.partial, cp!.bytesDone);
  if (!resuming) {
    cp = {
      v: 2,
      input: resolvePath(args.input),
      content,
      encoding: p.encoding,
      sig,
      rowsDone: 0,
      bytesDone: 0,
      previous: await usablePrevious(out, p),
      outOfCredits: false,
    };
  }
  const checkpoint = cp!;
  let earlier: Earlier | null = null;
  try {
    const sources = restart && (await usablePrevious(files.partial, p)) ? [files.partial] : [];
    // (Checked again on a resume: the earlier output may have been moved or edited meanwhile; its rows pair by key either way.)
    if (checkpoint.previous && (resuming ? await usablePrevious(out, p) : true)) sources.push(out);
    earlier = sources.length ? await loadEarlier(sources, args.input, p) : null;
  } catch (e) {
    throw csvExit(e, args.input, lang);
  }
  const width = p.fields.length;
  io.err(msg.columns[lang](describeMapping(p, lang)));
  if (p.encoding !== "utf-8") io.err(msg.encodingUsed[lang](p.encoding));
  // The intent journal of the whole job: continued on a resume, so its summary covers every run.
  const ledger = new SpendLedger(files.spent, resuming || restart);
  const sofar = ledger.charge();
  if (resuming) io.err(msg.resuming[lang](checkpoint.rowsDone, sofar.answered + sofar.unanswered, sofar.unanswered));
  if (restart) io.err(msg.restarting[lang](sofar.answered + sofar.unanswered, sofar.unanswered));

  // What this run already has: resolutions, and the rows written before a kill.
  const memo = new RunMemo(fieldNeeds(p.fields));
  if (restart) loadResolved(files.resolved, memo);
  if (resuming) {
    truncateSync(files.partial, checkpoint.bytesDone);
    loadResolved(files.resolved, memo);
    try {
      await rememberPartial(args, p, files.partial, checkpoint.rowsDone, memo);
    } catch (e) {
      throw csvExit(e, args.input, lang);
    }
  }

  // The estimate comes first (on a resume: of what is left), and nothing is spent before the answer.
  const {
    estimate: e,
    queries,
    inputRows,
    givenIds,
  } = await estimatePass(args, p, earlier, checkpoint.rowsDone, Date.now(), memo);
  printEstimate(e, lang, (s) => io.err(s));
  collectGarbage();
  if (e.credits > 0) await checkBalance(ctx, e, args, io);
  if (e.credits > 0 && !args.yes) {
    const ok = interactive && io.ask ? await io.ask(msg.confirm[lang]) : false;
    if (!ok) throw new ExitError(EXIT.NOT_CONFIRMED, msg.notConfirmed[lang]);
  }

  const parallel = args.parallel ?? DEFAULT_PARALLEL;
  const driver = nodeDriver({
    journal: files.journal,
    parallel,
    beforeSend: ledger.beforeSend,
    onAnswer: ledger.onAnswer,
    onKept: ledger.kept,
  });
  const state: RunState = {
    phase: "resolve",
    namesDone: 0,
    namesTotal: queries.length,
    rowsDone: checkpoint.rowsDone,
    rowsTotal: inputRows,
    ledger,
  };
  running = state;

  if (!resuming) {
    written(files.partial, () =>
      writeFileSync(
        files.partial,
        (p.bom ? "\ufeff" : "") +
          formatRow([...p.header, ...outputHeader(p.fields, lang, p.header)], p.delimiter, p.header.length),
      ),
    );
    // A restart keeps the resolutions and the journalled answers: they answer the same questions again.
    if (!restart) written(files.resolved, () => writeFileSync(files.resolved, ""));
    checkpoint.bytesDone = statSync(files.partial).size;
    saveCheckpoint(files.checkpoint, checkpoint);
    if (!restart) driver.clearJournal(true);
  }

  // Resolve phase: every name still unknown, in full batch calls, before the first row.
  if (!checkpoint.outOfCredits && !checkpoint.resolved) {
    checkpoint.outOfCredits = await resolvePhase(ctx, driver, args, p, memo, queries, files.resolved, parallel, state);
    checkpoint.resolved = true;
    saveCheckpoint(files.checkpoint, checkpoint);
    driver.clearJournal();
    // The names are matched: the profiles' price is now exact (each company once, less what the run holds).
    if (!checkpoint.outOfCredits) {
      const matched = [...givenIds];
      for (const a of memo.keys.values()) if (a.o === "m") matched.push(a.id);
      const after = priceAfterMatching(matched, args.fields, (id) => memo.companies.has(id));
      if (after.perCompany > 0) io.err(after.text[lang]);
    }
  }
  state.phase = "rows";

  const fd = openSync(files.partial, "a");
  let total = e.rows;
  let done = 0;
  try {
    for await (const batch of chunks(args.input, p.encoding, earlier, width, checkpoint.rowsDone)) {
      const { tasks, selected } = chunkTasks(batch, p.mapping, args.rerun, Date.now());
      let results: RowResult[];
      if (checkpoint.outOfCredits) {
        const today = isoDay(Date.now());
        results = tasks.map((t) => outOfCreditsResult(memo, t, today));
      } else {
        const r = await runAsync(enrichChunk(coreDeps, ctx, tasks, p.fields, args.mode, memo), driver);
        results = r.results;
        if (r.outOfCredits) checkpoint.outOfCredits = true;
      }
      const byIndex = new Map(tasks.map((t, k) => [t.index, results[k]]));
      let text = "";
      batch.forEach((b, k) => {
        const r = selected.has(k) ? byIndex.get(b.index) : undefined;
        const cells: Cell[] = r ? outputCells(r, width, lang) : (b.prevCells ?? new Array<Cell>(width + 3).fill(""));
        const inputCells = [...b.row, ...new Array<Cell>(Math.max(0, p.header.length - b.row.length)).fill("")].slice(
          0,
          p.header.length,
        );
        // The user's cells as they were read; only the API's text is neutralised.
        text += formatRow([...inputCells, ...cells], p.delimiter, p.header.length);
      });
      // Output first, then the checkpoint: a kill in between only repeats this chunk, from the journal.
      written(files.partial, () => writeSync(fd, text));
      fsyncSync(fd);
      const last = batch.at(-1); // chunks are never empty
      if (last) checkpoint.rowsDone = last.index + 1;
      checkpoint.bytesDone += Buffer.byteLength(text);
      saveCheckpoint(files.checkpoint, checkpoint);
      driver.clearJournal();
      state.rowsDone = checkpoint.rowsDone;
      done += tasks.length;
      total = Math.max(total, done);
      io.progress?.(done, total);
      collectGarbage();
    }
  } catch (err) {
    throw csvExit(err, args.input, lang);
  } finally {
    closeSync(fd);
  }
  // Counted from the file: rows done before a resume are in it too.
  const counts = await countOutcomes(files.partial, p.header.length, width);
  const charge = ledger.charge();
  ledger.close();
  renameSync(files.partial, out);
  for (const f of [files.checkpoint, files.journal, files.resolved, files.spent]) if (existsSync(f)) unlinkSync(f);
  const summary: Summary = {
    ...counts,
    credits: charge.answered + charge.unanswered,
    unanswered: charge.unanswered,
    out,
  };
  if (counts.outOfCredits > 0) {
    io.err(msg.outOfCredits[lang](summary));
    return EXIT.OUT_OF_CREDITS;
  }
  io.err(msg.done[lang](summary));
  return EXIT.OK;
}

/** Batch calls a resolve group sends at once (a 1,000-row file's names are one group). */
export const RESOLVE_GROUP_CALLS = 10;

/**
 * Resolve the queries not known yet, in groups of whole batch calls sent at
 * once, appending each answer to
 * the resolutions file as its group returns. Returns true when the credits
 * ran out (the rows are then marked, keeping what is known).
 */
async function resolvePhase(
  ctx: OpContext,
  driver: ReturnType<typeof nodeDriver>,
  args: EnrichArgs,
  p: Prepared,
  memo: RunMemo,
  queries: ResolveQuery[],
  file: string,
  parallel: number,
  state: RunState,
): Promise<boolean> {
  const todo = queries.filter((query) => memo.pendingKey({ index: 0, query, id: null, confidence: null }) !== null);
  state.namesTotal = todo.length;
  // Groups of whole batch calls; at most RESOLVE_GROUP_CALLS at a time keeps the answers held at once (and RSS) small.
  const group = ctx.maxBatch * Math.max(1, Math.min(parallel, RESOLVE_GROUP_CALLS));
  const fd = openSync(file, "a");
  try {
    for (let at = 0; at < todo.length; at += group) {
      const part = todo.slice(at, at + group);
      const answers = await runAsync(coreDeps.resolveMany(ctx, part, { mode: args.mode }), driver);
      let lines = "";
      let outOfCredits = false;
      answers.forEach((r, j) => {
        const a = keyAnswer(r, p.fields, memo.needs, args.lang);
        const query = part[j]; // resolveMany answers each query, in order
        if (a && query) {
          const key = normaliseKey(query);
          memo.rememberKey(key, a);
          lines += JSON.stringify([key, a]) + "\n";
        } else if (r.error?.code === "OUT_OF_CREDITS") outOfCredits = true;
        else if (r.error?.code === "MISSING_KEY" || r.error?.code === "INVALID_KEY") throw r.error;
      });
      written(file, () => writeSync(fd, lines));
      fsyncSync(fd);
      state.namesDone = Math.min(todo.length, at + group);
      collectGarbage();
      // Names whose call failed otherwise are asked again with their chunk.
      if (outOfCredits) return true;
    }
  } finally {
    closeSync(fd);
  }
  return false;
}

/** Every data row of the output falls in exactly one of these counts. */
export async function countOutcomes(file: string, inputWidth: number, width: number) {
  const c = { rows: 0, matched: 0, review: 0, notFound: 0, error: 0, outOfCredits: 0, skipped: 0, other: 0 };
  let first = true;
  for await (const rec of readCsv(file)) {
    if (first) {
      first = false;
      continue;
    }
    c.rows++;
    const o = readPrevious(rec.slice(inputWidth), width)?.outcome;
    if (o === "matched") c.matched++;
    else if (o === "review") c.review++;
    else if (o === "not_found") c.notFound++;
    else if (o === "error") c.error++;
    else if (o === "out_of_credits") c.outOfCredits++;
    else if (o === "empty") c.skipped++;
    // A row without a status would be a bug; counted so the summary never hides it.
    else c.other++;
  }
  return c;
}

/** A yes/no question on the terminal. */
export function askOnTerminal() {
  return (question: string) =>
    new Promise<boolean>((res) => {
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      rl.question(question, (answer) => {
        rl.close();
        res(/^(y|yes|j|ja)$/i.test(answer.trim()));
      });
    });
}
