/**
 * Enrichment of rows held in memory, with results kept in the operation
 * store (the checkpoint's parts): the engine of shared/enrich/job-engine.ts
 * without a sheet. No host runs it (the Sheets host, Excel and the
 * playground run the sheet job, the CLI the streamed job); tests use it to
 * check the engine's resumption, chunking and credits on plain rows.
 * Calling again with the same job and input resumes, and after a completed
 * run returns the stored rows without sending anything.
 */
import * as z from "zod/mini";
import { readPart, storeGet, storePut, invalid, type Cell, type Operation } from "../../shared/core/index.ts";
import type { Language } from "../../shared/i18n/index.ts";
import type { OpContext } from "../../shared/operations/index.ts";
import { coreDeps } from "../../shared/enrich/run.ts";
import { NOT_A_TABLE } from "../../shared/enrich/estimate.ts";
import { selectFields } from "../../shared/enrich/fields.ts";
import { validateMapping, type ColumnMapping } from "../../shared/enrich/columns.ts";
import { taskFromRow, type EnrichDeps } from "../../shared/enrich/chunk.ts";
import { savedRowResult } from "../../shared/enrich/row-result-schema.ts";
import { outputCells, outputHeader, type PreviousRow, type RowResult } from "../../shared/enrich/rows.ts";
import { checkpointKey, hash, loadCheckpoint, signature } from "../../shared/enrich/job-checkpoint.ts";
import { runEngine } from "../../shared/enrich/job-engine.ts";
import { countStats } from "../../shared/enrich/job-summary.ts";
import type { EnrichOptions, EnrichStats, StopReason } from "../../shared/enrich/job-types.ts";

export interface EnrichRunResult {
  header: string[];
  /** One output row per input row, in input order (rows not reached yet are blank). */
  rows: Cell[][];
  results: (RowResult | null)[];
  complete: boolean;
  stopped?: StopReason;
  stats: EnrichStats;
}

function prepare(rows: readonly Cell[][], mapping: ColumnMapping, fieldIds: readonly string[]) {
  if (!Array.isArray(rows)) throw invalid("rows", NOT_A_TABLE);
  const width = rows.reduce<number>((w, r: readonly Cell[]) => Math.max(w, r.length), 0);
  validateMapping(mapping, rows.length > 0 ? width : Number.MAX_SAFE_INTEGER);
  const fields = selectFields(fieldIds);
  const tasks = rows.map((r: readonly Cell[], i) => taskFromRow(i, r, mapping));
  return { fields, tasks };
}

export interface EnrichInput {
  /** Data rows, without the header row. */
  rows: Cell[][];
  mapping: ColumnMapping;
  fields: string[];
  options?: EnrichOptions;
}

/** Serialised row results of one chunk, in the store beside the checkpoint. */
interface StoredPart {
  i: number[];
  r: RowResult[];
}
/** A part of a checkpoint: versioned by it. */
export const CHECKPOINT_PART: z.ZodMiniType<StoredPart> = z.object({
  i: z.array(z.number()),
  r: z.array(savedRowResult),
});

/**
 * Enrich rows without a sheet. `job` names the checkpoint; calling again with
 * the same job and input resumes, and after a completed run returns the
 * stored rows without sending anything (rerun decides what is fetched again).
 */
export function* computeRows(
  deps: EnrichDeps,
  ctx: OpContext,
  job: string,
  input: EnrichInput,
): Operation<EnrichRunResult> {
  const { fields, tasks } = prepare(input.rows, input.mapping, input.fields);
  const options = input.options ?? {};
  const lang: Language = ctx.client.language;
  const key = checkpointKey(ctx, job);
  const sig = signature([
    fields.map((f) => f.id),
    input.mapping,
    options.mode ?? "batch",
    hash(JSON.stringify(input.rows)),
  ]);

  // What earlier runs of this job stored.
  const current: (RowResult | null)[] = tasks.map(() => null);
  const cp = yield* loadCheckpoint(key);
  if (cp && cp.sig === sig && cp.parts) {
    const raws = yield* storeGet(Array.from({ length: cp.parts }, (_, n) => `${key}:${n}`));
    for (const raw of raws) {
      const part = readPart(CHECKPOINT_PART, raw);
      if (!part) continue;
      part.i.forEach((i, k) => (current[i] = part.r[k] ?? null));
    }
  } else if (cp && cp.parts) {
    // A different input or field list: the old parts are of no use.
    const drop: Record<string, null> = {};
    for (let n = 0; n < cp.parts; n++) drop[`${key}:${n}`] = null;
    yield* storePut({ ...drop, [key]: null });
  }
  const previous = current.map((r) => (r ? previousOf(r) : null));

  const outcome = yield* runEngine(deps, ctx, {
    tasks,
    previous,
    fields,
    options,
    key,
    sig,
    done: (i) => current[i] ?? null,
    *persist(indexes, results, c) {
      const n = c.parts ?? 0;
      c.parts = n + 1;
      indexes.forEach((i, k) => (current[i] = results[k] ?? null));
      yield* storePut({ [`${key}:${n}`]: JSON.stringify({ i: indexes, r: results } satisfies StoredPart) });
    },
  });
  for (const [i, r] of outcome.results) current[i] = r;
  const width = fields.length;
  return {
    header: outputHeader(fields, lang),
    rows: current.map((r) => (r ? outputCells(r, width, lang) : new Array<Cell>(width + 3).fill(""))),
    results: current,
    complete: !outcome.stopped,
    stopped: outcome.stopped,
    stats: countStats(current, tasks, outcome),
  };
}

function previousOf(r: RowResult): PreviousRow {
  return { outcome: r.outcome, id: r.id, confidence: r.confidence, asOf: r.asOf };
}

/** computeRows bound to the core's operations. */
export function enrichRows(ctx: OpContext, job: string, input: EnrichInput): Operation<EnrichRunResult> {
  return computeRows(coreDeps, ctx, job, input);
}
