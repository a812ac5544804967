/**
 * What an enrichment will cost before anything is sent: credits, requests
 * and a time estimate. It walks the rows in the job's own chunks and
 * de-duplicates exactly as the job does (normalised resolve keys within a
 * chunk, and across chunks when the cache is on), so for a fresh run it is
 * what the job spends when every resolved name is a different company and all
 * requested data exists; otherwise it is an upper bound: rows that are not
 * found or ambiguous, and includes the availability says are missing, are not
 * paid for. It keeps only the sets of keys seen, so it streams.
 */
import type { Estimate, EstimateLine } from "../credits/estimate.ts";
import { chunkSizes, batchCredits, dedupe } from "../batch/plan.ts";
import { profileCost } from "../api/endpoints.ts";
import { COMPANY_ID_PATTERN } from "../api/schemas.ts";
import { invalid } from "../core/errors.ts";
import type { Cell } from "../sheet/protocol.ts";
import { fieldNeeds, selectFields } from "./fields.ts";
import { validateMapping, type ColumnMapping } from "./columns.ts";
import { isEmptyTask, taskFromRow, type RowTask } from "./chunk.ts";

/** Throughput of the rate-limited endpoints and a paid call's latency (the real numbers are not published). */
export interface RateAssumptions {
  resolvePerSecond: number;
  availabilityPerSecond: number;
  /** Seconds one round of parallel paid requests takes. */
  paidRoundSeconds: number;
  /** Paid requests sent at once. */
  parallel: number;
}

/** The emulator's buckets (resolve 2/s, availability 5/s) and a round of 0.3 s for 10 parallel calls. */
export const DEFAULT_RATES: RateAssumptions = { resolvePerSecond: 2, availabilityPerSecond: 5, paidRoundSeconds: 0.3, parallel: 10 };

export interface EnrichPlan {
  mapping: ColumnMapping;
  fields: string[];
  mode?: "batch" | "free";
  /** ctx.maxBatch (default 100). */
  maxBatch?: number;
  /** Whether answers from earlier chunks are cache hits (ctx.cacheTtlSeconds > 0). Default true. */
  cache?: boolean;
}

export interface EnrichEstimate extends Estimate {
  /** Seconds, from the rate assumptions. */
  seconds: number;
  /** Rows with something to enrich. */
  rows: number;
  /** Distinct companies at most (distinct resolve keys plus distinct given ids). */
  companies: number;
}

/** Feed it the job's chunks in order; read `result()` at any time. */
export class EnrichEstimator {
  private readonly needs;
  private readonly maxBatch: number;
  private readonly cache: boolean;
  private readonly mode: "batch" | "free";
  private seenKeys = new Set<string>();
  private seenCompanies = new Set<string>();
  private resolveCredits = 0;
  private resolvePaid = 0;
  private resolveFree = 0;
  private resolved = 0;
  private profiles = 0;
  private availability = 0;
  private rowCount = 0;
  private readonly include;

  constructor(plan: EnrichPlan) {
    const fields = selectFields(plan.fields);
    this.needs = fieldNeeds(fields);
    this.include = this.needs.resolved.include;
    this.maxBatch = plan.maxBatch ?? 100;
    this.cache = plan.cache ?? true;
    this.mode = plan.mode ?? "batch";
    if (this.mode !== "batch" && this.mode !== "free") throw invalid("mode", `expected batch or free, got ${String(plan.mode)}`);
  }

  /** One chunk of tasks, as the job will send it. */
  addChunk(tasks: readonly RowTask[]): void {
    const live = tasks.filter((t) => !isEmptyTask(t));
    this.rowCount += live.length;
    const queries = live.filter((t) => t.query && !t.id).map((t) => t.query!);
    const plan = dedupe(queries);
    const fresh = plan.distinct.filter((d) => !(this.cache && this.seenKeys.has(d.key)));
    if (this.cache) for (const d of fresh) this.seenKeys.add(d.key);
    this.resolved += fresh.length;
    if (this.mode === "batch") {
      this.resolveCredits += fresh.length ? batchCredits(fresh.length, this.maxBatch) : 0;
      this.resolvePaid += fresh.length ? chunkSizes(fresh.length, this.maxBatch).length : 0;
    } else this.resolveFree += fresh.length;

    // Companies this chunk fetches: one per distinct resolve key (at most), one per distinct valid id.
    const companies = new Set<string>();
    if (this.needs.resolved.profile) for (const d of plan.distinct) companies.add("k:" + d.key);
    if (this.needs.givenId.profile) for (const t of live) if (t.id && COMPANY_ID_PATTERN.test(t.id)) companies.add("i:" + t.id);
    for (const c of companies) {
      if (this.cache && this.seenCompanies.has(c)) continue;
      if (this.cache) this.seenCompanies.add(c);
      this.profiles++;
      if (this.include.length > 0) this.availability++;
    }
  }

  result(rates: RateAssumptions = DEFAULT_RATES): EnrichEstimate {
    const profileCredits = this.profiles * profileCost(this.include);
    const lines: EstimateLine[] = [];
    if (this.resolved > 0) {
      lines.push(this.mode === "batch"
        ? { label: { de: `${this.resolved} Namen abgleichen (Stapel)`, en: `${this.resolved} names resolved (batch)` }, credits: this.resolveCredits, requests: this.resolvePaid }
        : { label: { de: `${this.resolved} Namen einzeln abgleichen (kostenlos, langsam)`, en: `${this.resolved} single resolves (free, slow)` }, credits: 0, requests: this.resolveFree });
    }
    if (this.availability > 0) {
      lines.push({ label: { de: `${this.availability} Verfügbarkeitsprüfungen (kostenlos)`, en: `${this.availability} availability checks (free)` }, credits: 0, requests: this.availability });
    }
    if (this.profiles > 0) {
      const inc = this.include.length ? ` + ${this.include.join(", ")}` : "";
      lines.push({ label: { de: `${this.profiles} Profile${inc}`, en: `${this.profiles} profiles${inc}` }, credits: profileCredits, requests: this.profiles });
    }
    const paidRequests = this.resolvePaid + this.profiles;
    const freeRequests = this.resolveFree + this.availability;
    const seconds =
      this.resolveFree / rates.resolvePerSecond +
      this.availability / rates.availabilityPerSecond +
      Math.ceil(paidRequests / Math.max(1, rates.parallel)) * rates.paidRoundSeconds;
    return {
      credits: this.resolveCredits + profileCredits,
      requests: paidRequests + freeRequests,
      paidRequests,
      freeRequests,
      breakdown: lines,
      seconds: Math.ceil(seconds),
      rows: this.rowCount,
      companies: this.profiles,
    };
  }
}

/**
 * The estimate for enriching `rows` (data rows, no header) in a fresh run,
 * chunked as the job chunks them (computeRows and enrichSheet: the non-empty
 * rows in chunks of `chunkSize`, default 50).
 */
export function estimateEnrichment(rows: readonly Cell[][], plan: EnrichPlan & { chunkSize?: number }, rates?: RateAssumptions): EnrichEstimate {
  if (!Array.isArray(rows)) throw invalid("rows", "not a table");
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  validateMapping(plan.mapping, rows.length > 0 ? width : Number.MAX_SAFE_INTEGER);
  const est = new EnrichEstimator(plan);
  const size = Math.max(1, Math.floor(plan.chunkSize ?? 50));
  const tasks = rows.map((r, i) => taskFromRow(i, r, plan.mapping)).filter((t) => !isEmptyTask(t));
  for (let at = 0; at < tasks.length; at += size) est.addChunk(tasks.slice(at, at + size));
  return est.result(rates);
}
