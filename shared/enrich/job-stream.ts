/**
 * The streamed form of the enrichment job: a table too long to hold at once
 * (a CSV file of 100,000 rows: the CLI) is read in order, in chunks, and its
 * output rows are appended. The host hands the job its I/O, as the Sheets
 * host hands `sheetRun` its sheet and document store: the store (effects
 * storeGet/storePut) holds the checkpoint and the resolve phase's answers,
 * each group's kept as it returns; the host reads the table's lines and
 * appends the rows this job gives it. What the files mean is decided here:
 * whether a run resumes, starts over (same job, the input's content changed)
 * or starts afresh; which earlier outputs it reuses; which names are
 * resolved ahead (full batch calls, so the whole file pays ceil(names/10));
 * which rows are worked on; and that the checkpoint moves only after the host
 * says a chunk's rows are kept (`kept`), never before.
 */
import { readSaved, storeGet, storePut, writeSaved, savedKind, readPart, type Operation } from "../core/index.ts";
import type { Cell } from "../core/index.ts";
import { normaliseKey } from "../batch/index.ts";
import type { ResolveQuery } from "../api/index.ts";
import type { OpContext } from "../operations/index.ts";
import type { Language } from "../i18n/index.ts";
import * as z from "zod/mini";
import { priceAfterMatching, type PriceAfterMatching } from "./after-matching.ts";
import { keyAnswer, taskFromRow, type EnrichDeps } from "./chunk.ts";
import { enrichChunk } from "./chunk-run.ts";
import type { ColumnMapping } from "./columns.ts";
import { EnrichEstimator, type EnrichEstimate } from "./estimate.ts";
import { fieldNeeds, type FieldDef } from "./fields.ts";
import { hash } from "./job-checkpoint.ts";
import { outOfCreditsResult } from "./job-price.ts";
import { selectRows, taskWithPrevious } from "./job-select.ts";
import type { Rerun } from "./job-types.ts";
import { RunMemo, type KeyAnswer } from "./memo.ts";
import { savedKeyAnswer } from "./row-result-schema.ts";
import { isoDay, outputCells, outputHeader, readPrevious, readResult, type RowResult } from "./rows.ts";
import type { RowTask } from "./task.ts";

/** Batch calls a resolve group sends at once (a 1,000-row file's names are one group). */
export const RESOLVE_GROUP_CALLS = 10;

export interface StreamSpec {
  /** The input's header row. */
  header: string[];
  mapping: ColumnMapping;
  /** The field ids as the user gave them, and the fields they select. */
  fieldIds: string[];
  fields: FieldDef[];
  mode: "batch" | "free";
  rerun: Rerun;
  lang: Language;
}

/** An input row with what an earlier output left for it (its output cells, paired by row key), if anything. */
export interface StreamLine {
  index: number;
  row: string[];
  earlier: Cell[] | null;
}

/** What the host knows about its files when the job opens. */
export interface StreamFacts {
  /** The input: where it is, its content's hash (a resume is the same content, whatever its mtime), its encoding. */
  input: string;
  content: string;
  encoding: string;
  /** Size of the unfinished output (its mark unit, e.g. bytes), or null when there is none. */
  unfinishedSize: number | null;
  /** The unfinished and the finished output have this input's columns and these fields (their rows can be paired). */
  unfinishedUsable: boolean;
  finishedUsable: boolean;
}

interface StreamCheckpoint {
  v: 2;
  input: string;
  content: string;
  encoding: string;
  sig: string;
  rowsDone: number;
  /** The unfinished output's size after the rows done: a resume cuts it back to this. */
  bytesDone: number;
  /** An earlier finished output is paired with the input. */
  previous: boolean;
  outOfCredits: boolean;
  /** The resolve phase is over: a resume goes straight to the rows. */
  resolved?: boolean;
}

/** Saved with `v: 2`; a checkpoint of another version or shape is not resumed (its run starts again). */
const CHECKPOINT = savedKind<StreamCheckpoint>(
  2,
  z.object({
    v: z.literal(2),
    input: z.string(),
    content: z.string(),
    encoding: z.string(),
    sig: z.string(),
    rowsDone: z.number(),
    bytesDone: z.number(),
    previous: z.boolean(),
    outOfCredits: z.boolean(),
    resolved: z.optional(z.boolean()),
  }),
);

/** Store keys: the checkpoint, and the resolve phase's answers, one part per group. */
export const STREAM_CHECKPOINT_KEY = "enrich:stream:checkpoint";
export const STREAM_RESOLVED_PREFIX = "enrich:stream:resolved:";
const partKey = (n: number) => `${STREAM_RESOLVED_PREFIX}${n}`;
/** A part: the group's `[key, answer]` pairs. No version of its own: it lives only until its run finishes. */
const RESOLVED_PART = z.array(z.tuple([z.string(), savedKeyAnswer]));

export type StreamStart = "resume" | "restart" | "fresh";

export class StreamJob {
  readonly memo: RunMemo;
  private cp: StreamCheckpoint | null = null;
  private readonly sig: string;
  private parts = 0;
  private start: StreamStart = "fresh";
  /** A restart: the unfinished output's size its checkpoint kept (cut back to it before it is read as an earlier output). */
  private restartFrom = 0;
  private earlierSources: ("unfinished" | "finished")[] = [];
  private estimator: EnrichEstimator | null = null;
  private pass = { inputRows: 0, queries: [] as ResolveQuery[], givenIds: new Set<string>() };
  /** The last row of the chunk handed out and not yet kept. */
  private unkept: number | null = null;

  constructor(readonly spec: StreamSpec) {
    this.memo = new RunMemo(fieldNeeds(spec.fields));
    this.sig = hash(JSON.stringify([spec.fields.map((f) => f.id), spec.mapping, spec.mode, spec.rerun]));
  }

  /**
   * Read the checkpoint and decide: the same job on the same content resumes
   * after its last kept chunk; the same job on changed content (the user fixed
   * a row after Ctrl-C) starts over, keeping what it paid for (its rows written
   * are paired by key, its resolutions are kept); anything else starts afresh.
   */
  *open(facts: StreamFacts): Operation<StreamStart> {
    const [raw] = yield* storeGet([STREAM_CHECKPOINT_KEY]);
    const old = readSaved(CHECKPOINT, raw) ?? null;
    const sameJob =
      !!old &&
      old.input === facts.input &&
      old.sig === this.sig &&
      facts.unfinishedSize !== null &&
      facts.unfinishedSize >= old.bytesDone;
    const same = sameJob && old.content === facts.content && old.encoding === facts.encoding;
    this.start = same ? "resume" : sameJob ? "restart" : "fresh";
    this.cp =
      same && old
        ? old
        : {
            v: 2,
            input: facts.input,
            content: facts.content,
            encoding: facts.encoding,
            sig: this.sig,
            rowsDone: 0,
            bytesDone: 0,
            previous: facts.finishedUsable,
            outOfCredits: false,
          };
    if (this.start === "restart") this.restartFrom = old?.bytesDone ?? 0;
    // The resolutions paid for: kept on a resume or restart; on a fresh start dropped when the run begins.
    const kept = yield* this.readParts();
    this.parts = kept.length;
    if (this.start !== "fresh") for (const part of kept) for (const [key, a] of part) this.memo.rememberKey(key, a);
    this.earlierSources = [
      ...(this.start === "restart" && facts.unfinishedUsable ? (["unfinished"] as const) : []),
      ...(this.cp.previous && facts.finishedUsable ? (["finished"] as const) : []),
    ];
    return this.start;
  }

  private *readParts(): Operation<(readonly [string, KeyAnswer][])[]> {
    const parts: (readonly [string, KeyAnswer][])[] = [];
    for (let n = 0; ; n += 64) {
      const raws = yield* storeGet(Array.from({ length: 64 }, (_, k) => partKey(n + k)));
      for (const raw of raws) {
        if (raw === null) return parts;
        // A part torn by a kill is read as none: its answers are replayed from the answer journal.
        parts.push(readPart(RESOLVED_PART, raw) ?? []);
      }
    }
  }

  private get checkpoint(): StreamCheckpoint {
    if (!this.cp) throw new Error("StreamJob: open() first");
    return this.cp;
  }

  /** Rows already kept: the table is read from here on. */
  get rowsDone(): number {
    return this.cp?.rowsDone ?? 0;
  }
  /** Where the unfinished output is cut back to before anything else (a resume or restart), or null. */
  get cut(): number | null {
    return this.start === "resume" ? this.checkpoint.bytesDone : this.start === "restart" ? this.restartFrom : null;
  }
  /** Earlier outputs whose rows are paired with the input's by key, newest first (read after the cut). */
  get earlier(): readonly ("unfinished" | "finished")[] {
    return this.earlierSources;
  }
  get outOfCredits(): boolean {
    return this.checkpoint.outOfCredits;
  }

  /** A resume: a row written before the kill (its input, its output cells); its resolve and company are not bought again. */
  rememberWritten(index: number, row: readonly Cell[], cells: readonly Cell[]): void {
    const r = readResult(cells, this.spec.fields.length);
    if (r) this.memo.rememberRow(taskFromRow(index, row, this.spec.mapping), r);
  }

  /** The rows of a chunk this run works on, as tasks; the others are handed to `other`. */
  private tasksOf(lines: readonly StreamLine[], now: number, other?: (base: RowTask, line: StreamLine) => void) {
    const width = this.spec.fields.length;
    const previous = lines.map((l) => (l.earlier ? readPrevious(l.earlier, width) : null));
    const bases = lines.map((l) => taskFromRow(l.index, l.row, this.spec.mapping));
    const selected = new Set(selectRows(bases, previous, this.spec.rerun, now));
    const tasks: RowTask[] = [];
    bases.forEach((base, k) => {
      if (selected.has(k)) tasks.push(taskWithPrevious(base, previous[k] ?? null, this.spec.rerun));
      else other?.(base, lines[k]!); // k indexes lines
    });
    return { tasks, selected };
  }

  /**
   * The estimate pass, one chunk of lines at a time (from `rowsDone` on): the
   * price of what is left, the names to resolve, and (into the memo) the
   * finished rows of an earlier output that this run does not redo.
   */
  estimateLines(lines: readonly StreamLine[], now: number): void {
    const s = this.spec;
    this.estimator ??= new EnrichEstimator(
      { mapping: s.mapping, fields: s.fieldIds, mode: s.mode, maxBatch: 100 },
      this.memo,
    );
    const width = s.fields.length;
    this.pass.inputRows += lines.length;
    const { tasks } = this.tasksOf(lines, now, (base, line) => {
      const r = line.earlier ? readResult(line.earlier, width) : null;
      if (r) this.memo.rememberRow(base, r);
    });
    for (const t of tasks) if (t.id) this.pass.givenIds.add(t.id);
    this.estimator.add(tasks, (t) => this.pass.queries.push(t.query!));
  }

  /** The estimate of what is left, and the input's data rows (those kept before included). */
  estimate(): { estimate: EnrichEstimate; inputRows: number } {
    this.estimator ??= new EnrichEstimator(
      { mapping: this.spec.mapping, fields: this.spec.fieldIds, mode: this.spec.mode, maxBatch: 100 },
      this.memo,
    );
    return { estimate: this.estimator.result(), inputRows: this.rowsDone + this.pass.inputRows };
  }

  /** The output's header row: the input's header, then the output columns. */
  headerRow(): Cell[] {
    return [...this.spec.header, ...outputHeader(this.spec.fields, this.spec.lang, this.spec.header)];
  }

  /**
   * A run that does not resume begins (after the user's yes): the host wrote the output's header row (`size`
   * its mark). A fresh start drops the resolutions of another job; then the checkpoint is saved.
   */
  *begun(size: number): Operation<void> {
    if (this.start === "fresh" && this.parts > 0) {
      yield* storePut(Object.fromEntries(Array.from({ length: this.parts }, (_, n) => [partKey(n), null])));
      this.parts = 0;
    }
    this.checkpoint.bytesDone = size;
    yield* this.save();
  }

  /** Whether the resolve phase is still to run (not yet over, credits not out). */
  get resolvePending(): boolean {
    return !this.checkpoint.outOfCredits && !this.checkpoint.resolved;
  }

  /**
   * The resolve phase: every name still unknown, in groups of whole batch
   * calls sent at once (at most RESOLVE_GROUP_CALLS, which keeps the answers
   * held at once small), each group's answers kept in the store as it
   * returns. Names whose call failed otherwise are asked again with their
   * chunk. Returns the price of the profiles, now exact, when credits are left.
   */
  *resolveAhead(
    deps: EnrichDeps,
    ctx: OpContext,
    parallel: number,
    progress?: (done: number, total: number) => void,
  ): Operation<PriceAfterMatching | null> {
    const cp = this.checkpoint;
    const memo = this.memo;
    const todo = this.pass.queries.filter(
      (query) => memo.pendingKey({ index: 0, query, id: null, confidence: null }) !== null,
    );
    progress?.(0, todo.length);
    const group = ctx.maxBatch * Math.max(1, Math.min(parallel, RESOLVE_GROUP_CALLS));
    for (let at = 0; at < todo.length && !cp.outOfCredits; at += group) {
      const part = todo.slice(at, at + group);
      const answers = yield* deps.resolveMany(ctx, part, { mode: this.spec.mode });
      const kept: [string, KeyAnswer][] = [];
      answers.forEach((r, j) => {
        const a = keyAnswer(r, this.spec.fields, memo.needs, this.spec.lang);
        const query = part[j]; // resolveMany answers each query, in order
        if (a && query) {
          const key = normaliseKey(query);
          memo.rememberKey(key, a);
          kept.push([key, a]);
        } else if (r.error?.code === "OUT_OF_CREDITS") cp.outOfCredits = true;
        else if (r.error?.code === "MISSING_KEY" || r.error?.code === "INVALID_KEY") throw r.error;
      });
      if (kept.length) yield* storePut({ [partKey(this.parts++)]: JSON.stringify(kept) });
      progress?.(Math.min(todo.length, at + group), todo.length);
    }
    cp.resolved = true;
    yield* this.save();
    if (cp.outOfCredits) return null;
    const matched = [...this.pass.givenIds];
    for (const a of memo.keys.values()) if (a.o === "m") matched.push(a.id);
    const after = priceAfterMatching(matched, this.spec.fieldIds, (id) => memo.companies.has(id));
    return after.perCompany > 0 ? after : null;
  }

  /**
   * One chunk of lines: the output row of each (the user's cells as they were
   * read, then the output cells: this run's result, or what the earlier output
   * left, or blanks). The host appends them, then calls `kept`.
   */
  *chunk(
    deps: EnrichDeps,
    ctx: OpContext,
    lines: readonly StreamLine[],
  ): Operation<{ rows: Cell[][]; worked: number }> {
    if (this.unkept !== null) throw new Error("StreamJob: the previous chunk is not kept yet");
    const cp = this.checkpoint;
    const { header, fields, mode, lang } = this.spec;
    const now = ctx.client.now();
    const { tasks, selected } = this.tasksOf(lines, now);
    let results: RowResult[];
    if (cp.outOfCredits) results = tasks.map((t) => outOfCreditsResult(this.memo, t, isoDay(now)));
    else {
      const r = yield* enrichChunk(deps, ctx, tasks, fields, mode, this.memo);
      results = r.results;
      if (r.outOfCredits) cp.outOfCredits = true;
    }
    const byIndex = new Map(tasks.map((t, k) => [t.index, results[k]]));
    const width = fields.length;
    const rows = lines.map((line, k) => {
      const r = selected.has(k) ? byIndex.get(line.index) : undefined;
      const cells = r ? outputCells(r, width, lang) : (line.earlier ?? new Array<Cell>(width + 3).fill(""));
      const input = Array.from({ length: header.length }, (_, i): Cell => line.row[i] ?? "");
      return [...input, ...cells];
    });
    this.unkept = lines.at(-1)?.index ?? null;
    return { rows, worked: tasks.length };
  }

  /** The host kept the chunk's rows (appended, synced; `size` the output's mark now): the checkpoint moves on. */
  *kept(size: number): Operation<void> {
    if (this.unkept !== null) this.checkpoint.rowsDone = this.unkept + 1;
    this.unkept = null;
    this.checkpoint.bytesDone = size;
    yield* this.save();
  }

  private *save(): Operation<void> {
    yield* storePut({ [STREAM_CHECKPOINT_KEY]: writeSaved(CHECKPOINT, this.checkpoint) });
  }
}
