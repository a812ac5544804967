/**
 * The streamed form of the enrichment job: a table too long to hold at once
 * (a CSV file of 100,000 rows: the CLI) is read in order, in chunks, and its
 * output rows are appended. The host hands the job its I/O as effects, as
 * the Sheets host hands the sheet job its sheet and document store: the
 * store (storeGet/storePut) holds the checkpoint and the resolve phase's
 * answers (./job-stream-state.ts), the table effect (core/table-protocol.ts)
 * reads the input's rows and appends the output's. Everything the run
 * decides is decided here: whether it resumes, starts over or starts afresh;
 * which earlier outputs it reuses; what the rest costs (the estimate, before
 * anything is spent: `plan`); which names are resolved ahead (full batch
 * calls, so the whole file pays ceil(names/10)); which rows are worked on;
 * that the checkpoint moves only after the host kept a chunk's rows, and the
 * answers held for replay go only after that; how the rows came out; and
 * that the output replaces the finished one at the end (`run`). The chunks
 * themselves go through the one chunk loop (./job-loop.ts) the sheet job
 * uses too.
 */
import { table, type Operation } from "../core/index.ts";
import type { Cell, EarlierOutput, TableFacts, TableLine } from "../core/index.ts";
import type { OpContext } from "../operations/index.ts";
import type { Language } from "../i18n/index.ts";
import type { PriceAfterMatching } from "./after-matching.ts";
import { isEmptyTask, taskFromRow, type EnrichDeps } from "./chunk.ts";
import type { ColumnMapping } from "./columns.ts";
import { EnrichEstimator, type EnrichEstimate } from "./estimate.ts";
import { fieldNeeds, type FieldDef } from "./fields.ts";
import { hash } from "./job-checkpoint.ts";
import { workChunks, type ChunkSource } from "./job-loop.ts";
import { selectRows, taskWithPrevious } from "./job-select.ts";
import { noOutcomes, tally } from "./job-summary.ts";
import type { OutcomeCounts, Rerun } from "./job-types.ts";
import { RunMemo } from "./memo.ts";
import { outputCells, outputHeader, readPrevious, readResult, type RowResult } from "./rows.ts";
import type { RowTask } from "./task.ts";
import { TEAM_ESTIMATE_MAX_ROWS } from "./team-estimate.ts";
import { resolveAhead, type ResolvePass } from "./job-stream-resolve.ts";
import {
  dropResolvedParts,
  dropStreamState,
  loadStreamCheckpoint,
  readResolvedParts,
  saveStreamCheckpoint,
  streamStart,
  type StreamCheckpoint,
  type StreamStart,
} from "./job-stream-state.ts";

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

/** What `plan` found: how the run starts, what is kept already, and the price of the rest. */
export interface StreamPlan {
  start: StreamStart;
  /** Rows already kept (a resume goes on after them). */
  rowsDone: number;
  estimate: EnrichEstimate;
  /** The input's data rows (those kept before included). */
  inputRows: number;
}

/** Where a run stands, for the host's progress line. */
export interface StreamEvents {
  /** The resolve phase: names resolved of all it resolves. */
  names?(done: number, total: number): void;
  /** The names are matched: the profiles' price, now exact, when credits are left. */
  matched?(price: PriceAfterMatching): void;
  /** The rows phase began (worked 0), or a chunk was kept: rows kept so far, rows of the chunk this run worked on. */
  rows?(rowsDone: number, worked: number): void;
}

export class StreamJob {
  readonly memo: RunMemo;
  private readonly sig: string;
  private cp: StreamCheckpoint | null = null;
  private start: StreamStart = "fresh";
  /** Resolve parts in the store (another job's on a fresh start, until it begins). */
  private parts = 0;
  private readonly pass: ResolvePass = { queries: [], givenIds: new Set() };
  /** The output's rows by outcome, those kept before a resume included. */
  private readonly counts: OutcomeCounts = noOutcomes();
  /** The input's data rows, as the estimate pass counted them. */
  private inputRows = 0;

  constructor(readonly spec: StreamSpec) {
    this.memo = new RunMemo(fieldNeeds(spec.fields));
    this.sig = hash(JSON.stringify([spec.fields.map((f) => f.id), spec.mapping, spec.mode, spec.rerun]));
  }

  private get checkpoint(): StreamCheckpoint {
    if (!this.cp) throw new Error("StreamJob: plan() first");
    return this.cp;
  }

  /**
   * Open the table, decide how the run starts (./job-stream-state.ts), cut
   * the unfinished output back to its last kept chunk, pair the earlier
   * outputs this run reuses, take back what a resumed run wrote (its resolves
   * and companies are not bought again), and price the rest. Spends nothing.
   */
  *plan(now: number): Operation<StreamPlan> {
    const facts = yield* table<TableFacts>({ op: "open" });
    const { start, cp, cut } = streamStart(yield* loadStreamCheckpoint(), facts, this.sig);
    this.start = start;
    this.cp = cp;
    if (cut !== null) yield* table({ op: "cut", size: cut });
    // The resolutions paid for: kept on a resume or restart; on a fresh start dropped when the run begins.
    const kept = yield* readResolvedParts();
    this.parts = kept.length;
    if (start !== "fresh") for (const part of kept) for (const [key, a] of part) this.memo.rememberKey(key, a);
    const sources: EarlierOutput[] = [
      ...(start === "restart" && facts.unfinishedUsable ? (["unfinished"] as const) : []),
      ...(cp.previous && facts.finishedUsable ? (["finished"] as const) : []),
    ];
    if (sources.length) yield* table({ op: "pair", sources });
    if (start === "resume") yield* this.takeBackWritten();
    this.inputRows = yield* this.estimatePass(now);
    return { start, rowsDone: cp.rowsDone, estimate: this.estimator().result(), inputRows: this.inputRows };
  }

  /** A resume: the rows written before the kill, counted, and remembered so that nothing is bought twice. */
  private *takeBackWritten(): Operation<void> {
    const width = this.spec.fields.length;
    for (let i = 0; i < this.checkpoint.rowsDone;) {
      const rows = yield* table<{ row: Cell[]; cells: Cell[] }[]>({ op: "written", from: i });
      if (rows.length === 0) break;
      for (const { row, cells } of rows.slice(0, this.checkpoint.rowsDone - i)) {
        tally(this.counts, readPrevious(cells, width)?.outcome);
        const r = readResult(cells, width);
        if (r) this.memo.rememberRow(taskFromRow(i, row, this.spec.mapping), r);
        i++;
      }
    }
  }

  private estimatorOf: EnrichEstimator | null = null;
  private estimator(): EnrichEstimator {
    const s = this.spec;
    this.estimatorOf ??= new EnrichEstimator(
      { mapping: s.mapping, fields: s.fieldIds, mode: s.mode, maxBatch: 100 },
      this.memo,
    );
    return this.estimatorOf;
  }

  /**
   * The estimate pass over the rows not kept yet: the price of what is left,
   * the names to resolve, and (into the memo) the finished rows of an earlier
   * output that this run does not redo. Returns the input's data rows.
   */
  private *estimatePass(now: number): Operation<number> {
    const width = this.spec.fields.length;
    let from = this.checkpoint.rowsDone;
    for (;;) {
      const lines = yield* table<TableLine[]>({ op: "rows", from });
      if (lines.length === 0) return from;
      from += lines.length;
      const { tasks } = this.tasksOf(lines, now, (base, line) => {
        const r = line.earlier ? readResult(line.earlier, width) : null;
        if (r) this.memo.rememberRow(base, r);
      });
      for (const t of tasks) if (t.id) this.pass.givenIds.add(t.id);
      this.collectPriced(tasks);
      this.estimator().add(tasks, (t) => this.pass.queries.push(t.query!));
    }
  }

  /** The rows the estimate priced that the run's memo does not answer, while few enough to send (./team-estimate.ts); null past that. */
  private priced: RowTask[] | null = [];
  private collectPriced(tasks: readonly RowTask[]): void {
    if (!this.priced) return;
    for (const t of tasks) if (!isEmptyTask(t) && !this.memo.answer(t, "")) this.priced.push(t);
    if (this.priced.length > TEAM_ESTIMATE_MAX_ROWS) this.priced = null;
  }

  /** What `plan` priced, for a team server's price of the same rows against its shared answers; null when too many. */
  pricedTasks(): readonly RowTask[] | null {
    return this.priced;
  }

  /** The rows of a chunk this run works on, as tasks; the others are handed to `other`. */
  private tasksOf(lines: readonly TableLine[], now: number, other?: (base: RowTask, line: TableLine) => void) {
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

  /** The output's header row: the input's header, then the output columns. */
  headerRow(): Cell[] {
    return [...this.spec.header, ...outputHeader(this.spec.fields, this.spec.lang, this.spec.header)];
  }

  /**
   * The run, after the user's yes to the plan's price: the output begun (unless
   * resumed), the names resolved ahead, the rows worked chunk by chunk, and
   * the output in place of the finished one. Returns the output's rows by outcome.
   */
  *run(deps: EnrichDeps, ctx: OpContext, parallel: number, events: StreamEvents = {}): Operation<OutcomeCounts> {
    const cp = this.checkpoint;
    if (this.start !== "resume") yield* this.begin();
    if (!cp.outOfCredits && !cp.resolved) {
      const { spec, memo, pass, parts } = this;
      const price = yield* resolveAhead(deps, ctx, { spec, memo, cp, pass, parts, parallel, events });
      this.parts = price.parts;
      yield* saveStreamCheckpoint(cp);
      yield* table({ op: "settled" });
      if (price.after) events.matched?.(price.after);
    }
    events.rows?.(cp.rowsDone, 0);
    const loop = { fields: this.spec.fields, mode: this.spec.mode, memo: this.memo, outOfCredits: cp.outOfCredits };
    yield* workChunks(deps, ctx, loop, this.rows(ctx, events));
    yield* table({ op: "finish" });
    yield* dropStreamState(this.parts);
    return this.counts;
  }

  /** A run that does not resume begins: the output's header row; a fresh start drops another job's resolutions and replays. */
  private *begin(): Operation<void> {
    const cp = this.checkpoint;
    cp.bytesDone = yield* table<number>({ op: "begin", header: this.headerRow() });
    if (this.start === "fresh") {
      yield* dropResolvedParts(this.parts);
      this.parts = 0;
    }
    yield* saveStreamCheckpoint(cp);
    // A restart keeps the journalled answers: they answer the same questions again.
    if (this.start === "fresh") yield* table({ op: "settled", all: true });
  }

  /** The table as the chunk loop's source (the chunk read last: `lines`). */
  private lines: TableLine[] = [];
  private rows(ctx: OpContext, events: StreamEvents): ChunkSource {
    const cp = this.checkpoint;
    return {
      left: () => Math.max(0, this.inputRows - cp.rowsDone),
      next: () => this.nextChunk(ctx.client.now()),
      keep: (tasks, results, outOfCredits) => this.keepChunk(tasks, results, outOfCredits, events),
    };
  }

  /** The next chunk of rows, read in order from the first row not kept; the tasks of those this run works on. */
  private *nextChunk(now: number): Operation<RowTask[] | null> {
    this.lines = yield* table<TableLine[]>({ op: "rows", from: this.checkpoint.rowsDone });
    return this.lines.length === 0 ? null : this.tasksOf(this.lines, now).tasks;
  }

  /**
   * The chunk's output rows (the user's cells as read, then this run's
   * result, or what the earlier output left, or blanks) appended; then the
   * checkpoint moves; then the answers held for replay go.
   */
  private *keepChunk(
    tasks: readonly RowTask[],
    results: readonly RowResult[],
    outOfCredits: boolean,
    events: StreamEvents,
  ): Operation<void> {
    const cp = this.checkpoint;
    const { header, fields, lang } = this.spec;
    const width = fields.length;
    const byIndex = new Map(tasks.map((t, k) => [t.index, results[k]]));
    const rows = this.lines.map((line) => {
      const r = byIndex.get(line.index);
      const cells = r ? outputCells(r, width, lang) : (line.earlier ?? new Array<Cell>(width + 3).fill(""));
      tally(this.counts, readPrevious(cells, width)?.outcome);
      return [...Array.from({ length: header.length }, (_, i): Cell => line.row[i] ?? ""), ...cells];
    });
    // Output first, then the checkpoint, then the replays: a kill in between only repeats this chunk, replayed.
    cp.bytesDone = yield* table<number>({ op: "append", rows });
    cp.rowsDone = (this.lines.at(-1)?.index ?? cp.rowsDone - 1) + 1;
    cp.outOfCredits = outOfCredits;
    yield* saveStreamCheckpoint(cp);
    yield* table({ op: "settled" });
    events.rows?.(cp.rowsDone, tasks.length);
  }
}
