/**
 * `company-data enrich` and `company-data estimate enrich`: a CSV streamed in
 * chunks of 500 rows. Each chunk's output rows are appended to OUT.partial,
 * then the checkpoint OUT.checkpoint.json records how many rows and bytes are
 * done; a kill at any point resumes from the last checkpoint (the partial file
 * is cut back to it). Answers paid for in an unfinished chunk are journalled
 * (OUT.journal.jsonl) and read back as cache hits, so nothing is bought twice.
 * When the run completes, OUT.partial replaces OUT. A rerun reads the earlier
 * OUT and only works on rows that are new or failed (or out of credits).
 */
import { closeSync, existsSync, fsyncSync, openSync, renameSync, statSync, truncateSync, unlinkSync, writeFileSync, writeSync, readFileSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { createInterface } from "node:readline";
import { runAsync } from "../shared/core/drivers.ts";
import type { OpContext } from "../shared/operations/context.ts";
import type { Language } from "../shared/i18n/language.ts";
import type { Cell } from "../shared/sheet/protocol.ts";
import { detectColumns, INPUT_ROLES, type ColumnMapping } from "../shared/enrich/columns.ts";
import { selectFields, type FieldDef } from "../shared/enrich/fields.ts";
import { enrichChunk, taskFromRow, type RowTask } from "../shared/enrich/chunk.ts";
import { hash, selectRows, taskWithPrevious, type Rerun } from "../shared/enrich/job.ts";
import { isOutputHeader, outputCells, outputHeader, readPrevious, type PreviousRow, type RowResult } from "../shared/enrich/rows.ts";
import { EnrichEstimator, type EnrichEstimate } from "../shared/enrich/estimate.ts";
import { coreDeps } from "../shared/enrich/run.ts";
import { CsvError, formatRow, readCsv, type Delimiter } from "./csv.ts";
import { nodeDriver } from "./driver.ts";
import { EXIT, msg, type Summary } from "./i18n.ts";

export const CHUNK_ROWS = 500;

export interface EnrichArgs {
  input: string;
  output?: string;
  fields: string[];
  mode: "batch" | "free";
  rerun: Rerun;
  yes: boolean;
  lang: Language;
}

export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** Progress bar updates (only on a terminal). */
  progress?(done: number, total: number): void;
  /** Ask a yes/no question on the terminal; undefined when there is none. */
  ask?(question: string): Promise<boolean>;
}

export class ExitError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

interface Prepared {
  header: string[];
  delimiter: Delimiter;
  mapping: ColumnMapping;
  fields: FieldDef[];
}

async function readHeader(path: string, lang: Language): Promise<Prepared & { fieldsIds?: string[] }> {
  if (!existsSync(path)) throw new ExitError(EXIT.INPUT, msg.noFile[lang](path));
  let delimiter: Delimiter = ",";
  try {
    for await (const rec of readCsv(path, (d) => (delimiter = d))) {
      return { header: rec, delimiter, mapping: {}, fields: [] };
    }
  } catch (e) {
    throw csvExit(e, path, lang);
  }
  throw new ExitError(EXIT.INPUT, msg.emptyCsv[lang](path));
}

function csvExit(e: unknown, path: string, lang: Language): unknown {
  if (e instanceof CsvError) return new ExitError(EXIT.INPUT, msg.badCsv[lang](path, e.line, e.message));
  if ((e as NodeJS.ErrnoException)?.code === "ENOENT" || (e as NodeJS.ErrnoException)?.code === "EISDIR") return new ExitError(EXIT.INPUT, msg.noFile[lang](path));
  return e;
}

async function prepare(args: EnrichArgs): Promise<Prepared> {
  const p = await readHeader(args.input, args.lang);
  const mapping = detectColumns(p.header).mapping;
  if (mapping.name === undefined && mapping.id === undefined) {
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

export function describeMapping(p: Prepared): string {
  return INPUT_ROLES.filter((r) => p.mapping[r] !== undefined).map((r) => `${r}=${p.header[p.mapping[r]!]}`).join(", ");
}

/** Input rows (after the header) paired with the earlier output's rows, in chunks. */
async function* chunks(path: string, previousPath: string | null, inputWidth: number, width: number, skip: number) {
  const input = readCsv(path);
  await input.next(); // header
  const prev = previousPath ? readCsv(previousPath) : null;
  if (prev) await prev.next();
  let index = 0;
  let batch: { index: number; row: string[]; prevCells: Cell[] | null; previous: PreviousRow | null }[] = [];
  for await (const row of input) {
    const p = prev ? await prev.next() : null;
    const prevCells = p && !p.done ? p.value.slice(inputWidth, inputWidth + width + 3) : null;
    if (index >= skip) batch.push({ index, row, prevCells, previous: prevCells ? readPrevious(prevCells, width - 0) : null });
    index++;
    if (batch.length >= CHUNK_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** The rows of a chunk that this run works on, as tasks. */
function chunkTasks(batch: { index: number; row: string[]; previous: PreviousRow | null }[], mapping: ColumnMapping, rerun: Rerun, now: number) {
  const base = batch.map((b) => taskFromRow(b.index, b.row, mapping));
  const selected = new Set(selectRows(base, batch.map((b) => b.previous), rerun, now));
  const tasks: RowTask[] = [];
  base.forEach((t, k) => { if (selected.has(k)) tasks.push(taskWithPrevious(t, batch[k].previous, rerun)); });
  return { tasks, selected };
}

interface Checkpoint {
  v: 1;
  input: string;
  size: number;
  mtimeMs: number;
  sig: string;
  rowsDone: number;
  bytesDone: number;
  previous: boolean;
  outOfCredits: boolean;
  credits: number;
}

function paths(out: string) {
  return { partial: out + ".partial", checkpoint: out + ".checkpoint.json", journal: out + ".journal.jsonl" };
}

function loadCheckpoint(file: string): Checkpoint | null {
  try {
    const cp = JSON.parse(readFileSync(file, "utf8")) as Checkpoint;
    return cp.v === 1 ? cp : null;
  } catch {
    return null;
  }
}

function saveCheckpoint(file: string, cp: Checkpoint) {
  writeFileSync(file + ".tmp", JSON.stringify(cp));
  renameSync(file + ".tmp", file);
}

/** The earlier output may be reused when it is this input's enrichment with these fields. */
async function usablePrevious(out: string, p: Prepared): Promise<boolean> {
  if (!existsSync(out)) return false;
  try {
    for await (const rec of readCsv(out)) {
      const same = p.header.every((h, i) => rec[i] === h);
      return same && isOutputHeader(rec.slice(p.header.length), p.fields);
    }
  } catch {
    return false;
  }
  return false;
}

async function estimatePass(args: EnrichArgs, p: Prepared, previous: string | null, skip: number, now: number): Promise<EnrichEstimate> {
  const est = new EnrichEstimator({ mapping: p.mapping, fields: args.fields, mode: args.mode, maxBatch: 100, cache: false });
  try {
    for await (const batch of chunks(args.input, previous, p.header.length, p.fields.length, skip)) {
      est.addChunk(chunkTasks(batch, p.mapping, args.rerun, now).tasks);
    }
  } catch (e) {
    throw csvExit(e, args.input, args.lang);
  }
  return est.result();
}

export function printEstimate(e: EnrichEstimate, lang: Language, line: (s: string) => void) {
  line(msg.estimate[lang](e.rows, e.credits, e.requests, e.paidRequests, e.freeRequests, e.seconds));
  for (const b of e.breakdown) line(lang === "de" ? `  ${b.label.de}: ${b.credits} Credits, ${b.requests} Anfragen` : `  ${b.label.en}: ${b.credits} credits, ${b.requests} requests`);
}

/** `company-data estimate enrich`: spends nothing and needs no key. */
export async function estimateCommand(args: EnrichArgs, io: Io): Promise<number> {
  const p = await prepare(args);
  const previous = args.output && (await usablePrevious(args.output, p)) ? args.output : null;
  io.err(msg.columns[args.lang](describeMapping(p)));
  const e = await estimatePass(args, p, previous, 0, Date.now());
  printEstimate(e, args.lang, io.out);
  return EXIT.OK;
}

/** `company-data enrich`. */
export async function enrichCommand(args: EnrichArgs, ctx: OpContext, io: Io, interactive: boolean): Promise<number> {
  const lang = args.lang;
  const out = args.output!;
  if (resolvePath(out) === resolvePath(args.input)) throw new ExitError(EXIT.USAGE, msg.sameFile[lang]);
  const p = await prepare(args);
  const files = paths(out);
  const st = statSync(args.input);
  const sig = hash(JSON.stringify([p.fields.map((f) => f.id), p.mapping, args.mode, args.rerun]));
  let cp = loadCheckpoint(files.checkpoint);
  const resuming = !!cp && cp.input === resolvePath(args.input) && cp.size === st.size && cp.mtimeMs === st.mtimeMs && cp.sig === sig &&
    existsSync(files.partial) && statSync(files.partial).size >= cp.bytesDone;
  if (!resuming) {
    cp = {
      v: 1, input: resolvePath(args.input), size: st.size, mtimeMs: st.mtimeMs, sig, rowsDone: 0, bytesDone: 0,
      previous: await usablePrevious(out, p), outOfCredits: false, credits: 0,
    };
  }
  const checkpoint = cp!;
  const previous = checkpoint.previous ? out : null;
  io.err(msg.columns[lang](describeMapping(p)));
  if (resuming) io.err(msg.resuming[lang](checkpoint.rowsDone));

  // The estimate comes first, and nothing is spent before the answer.
  const e = await estimatePass(args, p, previous, checkpoint.rowsDone, Date.now());
  printEstimate(e, lang, io.err);
  if (e.credits > 0 && !args.yes) {
    const ok = interactive && io.ask ? await io.ask(msg.confirm[lang]) : false;
    if (!ok) throw new ExitError(EXIT.NOT_CONFIRMED, msg.notConfirmed[lang]);
  }

  const driver = nodeDriver({ journal: files.journal });
  let spent = 0;
  const outer = ctx.client.onSpend;
  const runCtx: OpContext = { ...ctx, client: { ...ctx.client, onSpend: (ep, c) => { spent += c; outer?.(ep, c); } } };
  const width = p.fields.length;

  if (resuming) truncateSync(files.partial, checkpoint.bytesDone);
  else {
    writeFileSync(files.partial, formatRow([...p.header, ...outputHeader(p.fields, lang)], p.delimiter));
    checkpoint.bytesDone = statSync(files.partial).size;
    saveCheckpoint(files.checkpoint, checkpoint);
    driver.clearJournal();
  }
  const fd = openSync(files.partial, "a");
  let total = e.rows;
  let done = 0;
  try {
    for await (const batch of chunks(args.input, previous, p.header.length, width, checkpoint.rowsDone)) {
      const { tasks, selected } = chunkTasks(batch, p.mapping, args.rerun, Date.now());
      let results: RowResult[];
      if (checkpoint.outOfCredits) {
        results = tasks.map((t) => ({ outcome: "out_of_credits", id: t.id, confidence: t.confidence, asOf: null, values: [] }));
      } else {
        const r = await runAsync(enrichChunk(coreDeps, runCtx, tasks, p.fields, args.mode), driver);
        results = r.results;
        if (r.outOfCredits) checkpoint.outOfCredits = true;
      }
      const byIndex = new Map(tasks.map((t, k) => [t.index, results[k]]));
      let text = "";
      batch.forEach((b, k) => {
        const r = selected.has(k) ? byIndex.get(b.index) : undefined;
        const cells: Cell[] = r ? outputCells(r, width, lang) : (b.prevCells ?? new Array(width + 3).fill(""));
        const inputCells = [...b.row, ...new Array(Math.max(0, p.header.length - b.row.length)).fill("")].slice(0, Math.max(p.header.length, b.row.length));
        text += formatRow([...inputCells.slice(0, p.header.length), ...cells], p.delimiter);
      });
      // Output first, then the checkpoint: a kill in between only repeats this chunk, from the journal.
      writeSync(fd, text);
      fsyncSync(fd);
      checkpoint.rowsDone = batch[batch.length - 1].index + 1;
      checkpoint.bytesDone += Buffer.byteLength(text);
      checkpoint.credits += spent;
      spent = 0;
      saveCheckpoint(files.checkpoint, checkpoint);
      driver.clearJournal();
      done += tasks.length;
      total = Math.max(total, done);
      io.progress?.(done, total);
    }
  } catch (err) {
    throw csvExit(err, args.input, lang);
  } finally {
    closeSync(fd);
  }
  // Counted from the file: rows done before a resume are in it too.
  const counts = await countOutcomes(files.partial, p.header.length, width);
  renameSync(files.partial, out);
  for (const f of [files.checkpoint, files.journal]) if (existsSync(f)) unlinkSync(f);
  const summary: Summary = { ...counts, credits: checkpoint.credits, out };
  if (counts.outOfCredits > 0) {
    io.err(msg.outOfCredits[lang](summary));
    return EXIT.OUT_OF_CREDITS;
  }
  io.err(msg.done[lang](summary));
  return EXIT.OK;
}

async function countOutcomes(file: string, inputWidth: number, width: number) {
  const c = { matched: 0, review: 0, notFound: 0, error: 0, outOfCredits: 0 };
  let first = true;
  for await (const rec of readCsv(file)) {
    if (first) { first = false; continue; }
    const o = readPrevious(rec.slice(inputWidth), width)?.outcome;
    if (o === "matched") c.matched++;
    else if (o === "review") c.review++;
    else if (o === "not_found") c.notFound++;
    else if (o === "error") c.error++;
    else if (o === "out_of_credits") c.outOfCredits++;
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
