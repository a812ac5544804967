/**
 * The enrichment job of a sheet block (what the Sheets sidebar, Excel, the
 * playground and a scheduled refresh run), sans IO: one step's lifecycle
 * (open, start or continue the run, passes, finish) over modules with one
 * job each:
 *
 *  - job-select.ts      which rows a run works on, from what an earlier run left
 *  - job-engine.ts      the rows a pass works on, as the chunk loop's source
 *  - job-loop.ts        the one chunk loop (the streamed job, job-stream.ts, runs it too)
 *  - job-checkpoint.ts  the checkpoint, resumed by a run with the same signature
 *  - job-pass.ts        the passes over the table as it is now (rows move and change)
 *  - job-sheet-write.ts results written into the rows that hold their input now
 *  - job-price.ts       what rows cost (budgets, the price after matching)
 *  - job-summary.ts     the stats a step reports
 *  - job-types.ts       the shapes they share
 *
 * A run stopped anywhere (deadline, the Apps Script 6-minute limit, a closed
 * sidebar, OUT_OF_CREDITS) resumes where it stopped: rows already written
 * are never fetched again, ids already resolved are never resolved again.
 */
import { sheet, type Operation } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import type { Cell } from "../core/index.ts";
import type { OpContext } from "../operations/index.ts";
import { detectColumns, validateMapping } from "./columns.ts";
import { selectFields, type FieldDef } from "./fields.ts";
import { taskFromRow, type EnrichDeps } from "./chunk.ts";
import { RowLedger } from "./row-ledger.ts";
import { readTableNow } from "./table-now.ts";
import { isOutputHeader, outputHeader, readPrevious, type RowResult } from "./rows.ts";
import { ensureChangeColumn } from "./value-changes.ts";
import { checkpointKey, loadCheckpoint, saveCheckpoint, signature } from "./job-checkpoint.ts";
import { runPasses, type Passes } from "./job-pass.ts";
import { unboughtPrice } from "./job-price.ts";
import { countStats } from "./job-summary.ts";
import { belongs, ledgerToken, previousInCells, writeRows } from "./job-sheet-write.ts";
import type { EngineOutcome, EnrichOptions, SheetBlock, SheetJob, SheetJobSpec, SheetRunResult } from "./job-types.ts";

/** The output block: directly right of the input, status and confidence first, as-of last. */
export function outputBlock(spec: SheetBlock, fieldCount: number): SheetBlock {
  return { sheet: spec.sheet, row: spec.row, col: spec.col + spec.cols, rows: spec.rows, cols: fieldCount + 3 };
}

/**
 * Enrich a block in a sheet: read the input (header row first), read what an
 * earlier run left beside it, and write each chunk's rows as one block (with
 * candidate dropdowns in the id column for review rows) before going on.
 */
export function* enrichSheet(deps: EnrichDeps, ctx: OpContext, spec: SheetJobSpec): Operation<SheetRunResult> {
  return yield* sheetRun(deps, ctx, spec, false);
}

/**
 * Apply the user's picks: review rows whose id cell now holds a candidate
 * (or any company id) are enriched with it; nothing else is touched.
 */
export function* applyReviewPicks(deps: EnrichDeps, ctx: OpContext, spec: SheetJobSpec): Operation<SheetRunResult> {
  return yield* sheetRun(deps, ctx, spec, true);
}

/** One step: rows are found by key, never by position (job-sheet-write.ts says why). */
function* sheetRun(
  deps: EnrichDeps,
  ctx: OpContext,
  spec: SheetJobSpec,
  picksOnly: boolean,
): Operation<SheetRunResult> {
  const job = yield* openJob(ctx, spec, picksOnly);
  const old = yield* loadCheckpoint(job.key);
  if (!(old && old.sig === job.sig && old.state !== "done")) yield* startRun(job);
  return yield* finish(job, yield* runPasses(deps, job));
}

/** The block checked, its columns mapped, the output header in place, the run's checkpoint key and signature. */
function* openJob(ctx: OpContext, spec: SheetJobSpec, picksOnly: boolean): Operation<SheetJob> {
  if (!spec.sheet || !(spec.row >= 1) || !(spec.col >= 1) || !(spec.rows >= 2) || !(spec.cols >= 1)) {
    throw invalid("range", {
      de: "bitte eine Tabelle mit Kopfzeile und mindestens einer Datenzeile markieren",
      en: "please select a table with a header row and at least one data row",
    });
  }
  const lang = ctx.client.language;
  const head = yield* sheet<Cell[][]>({
    op: "read",
    sheet: spec.sheet,
    row: spec.row,
    col: spec.col,
    rows: 1,
    cols: spec.cols,
  });
  const headerCells = head[0] ?? [];
  const mapping = spec.mapping ?? detectColumns(headerCells).mapping;
  validateMapping(mapping, spec.cols);
  const fields = selectFields(spec.fields);
  const out = yield* outputHeaderIn(spec, fields, headerCells, lang);
  // A refresh's change column sits right after the output block and moves with its row (it is written with it).
  const outCols = out.cols + (spec.changes ? 1 : 0);
  if (spec.changes) yield* ensureChangeColumn(out.sheet, out.row, out.col + out.cols, lang);

  const options: EnrichOptions = { ...(spec.options ?? {}) };
  if (picksOnly) options.rerun = "all";
  const rerun = options.rerun ?? "new-or-failed";
  const block = `${spec.sheet}!R${spec.row}C${spec.col}`;
  const key = checkpointKey(ctx, `${picksOnly ? "picks" : "sheet"}:${block}`);
  // A phase is a run of its own: matching and buying each start from the table as it is then.
  const sig = signature([
    fields.map((f) => f.id),
    mapping,
    options.mode ?? "batch",
    rerun,
    spec.rows,
    spec.cols,
    ...(options.phase ? [options.phase] : []),
  ]);
  const ledger = yield* RowLedger.load(`doc:rows:${ctx.scope}:${block}`);
  const width = fields.length;
  return { spec, ctx, lang, mapping, fields, width, out, outCols, options, rerun, picksOnly, key, sig, ledger };
}

/** The output block right of the input: its header written when empty, refused when the columns hold something else. */
function* outputHeaderIn(
  spec: SheetJobSpec,
  fields: FieldDef[],
  headerCells: Cell[],
  lang: SheetJob["lang"],
): Operation<SheetBlock> {
  const out = outputBlock(spec, fields.length);
  const [existingHeader = []] = yield* sheet<Cell[][]>({
    op: "read",
    sheet: out.sheet,
    row: out.row,
    col: out.col,
    rows: 1,
    cols: out.cols,
  });
  const headerEmpty = existingHeader.every((c) => c === "" || c == null);
  if (!headerEmpty && !isOutputHeader(existingHeader, fields)) {
    throw invalid("output", {
      de: "die Spalten rechts der Tabelle sind nicht leer; bitte die Tabelle verschieben oder die Spalten leeren",
      en: "the columns right of the table are not empty; please move the table or clear them",
    });
  }
  if (headerEmpty)
    yield* sheet({
      op: "write",
      sheet: out.sheet,
      row: out.row,
      col: out.col,
      values: [outputHeader(fields, lang, headerCells)],
    });
  return out;
}

/** A new run: the block exactly as selected; the ledger keeps what still describes a row of it. */
function* startRun(job: SheetJob): Operation<void> {
  const { ledger, width } = job;
  const first = yield* readTableNow(job.spec, job.outCols, job.mapping, ledger, { selected: true });
  const keep: string[] = [];
  first.keys.forEach((k, i) => {
    const p = previousInCells(first.output[i] ?? [], width);
    if (p && belongs(ledger, k, p)) keep.push(RowLedger.entry(k, ledgerToken(ledger, k, p)));
  });
  yield* ledger.startRun(keep, first.keys, first.below, first.header);
  // Rows without input get their "skipped" status now: later reads cannot tell empty rows at the
  // table's end from empty rows below it, and these cost nothing.
  const skipped = new Map<number, RowResult>();
  first.keys.forEach((k, i) => {
    if (k === "" && readPrevious(first.output[i] ?? [], width)?.outcome !== "empty")
      skipped.set(i, { outcome: "empty", id: null, confidence: null, asOf: null, values: [] });
  });
  if (!job.picksOnly) yield* writeRows(job, first, skipped, []);
}

/** The step's checkpoint (rows still to do keep the run open) and what it reports, from the table as it is now. */
function* finish(job: SheetJob, passes: Passes): Operation<SheetRunResult> {
  const { ctx, options, ledger, width, mapping } = job;
  const { outcome, now, left } = passes;
  // Rows left after the passes without a deadline passing (the user keeps adding rows): not complete, no stop reason; the next step goes on.
  const stopped =
    outcome?.stopped ??
    (options.deadline !== undefined && left > 0 && ctx.client.now() >= options.deadline ? "deadline" : undefined);
  const complete = left === 0;
  // The engine may have closed its checkpoint; rows still to do keep the run open for the next step.
  yield* saveCheckpoint(job.key, {
    v: 1,
    sig: job.sig,
    selection: "",
    cursor: 0,
    state: complete ? "done" : outcome?.stopped === "out_of_credits" ? "out_of_credits" : "running",
    parts: 0,
  });
  const final = now.output.map((r, i) => {
    const p = previousInCells(r, width);
    return belongs(ledger, now.keys[i] ?? "", p) ? p : null;
  });
  const engineOutcome: EngineOutcome = outcome ?? { results: new Map(), credits: 0, pending: 0 };
  const finalTasks = now.input.map((r, i) => taskFromRow(i, r, mapping));
  const stats = countStats(final, finalTasks, { ...engineOutcome, pending: complete ? 0 : left });
  const afterMatching =
    options.phase === "match" && complete
      ? unboughtPrice(
          final.map((p, i) => (p ? { ...p, givenId: !!finalTasks[i]?.id } : null)),
          job.spec.fields,
        )
      : undefined;
  return {
    complete,
    stopped,
    stats,
    mapping,
    output: { ...job.out, rows: 1 + now.input.length },
    ...(afterMatching ? { afterMatching } : {}),
  };
}
