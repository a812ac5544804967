/**
 * What an enrichment will cost before anything is sent: credits, requests
 * and a time estimate. It walks the rows in the job's own chunks (grown so
 * that each chunk's new names are whole tens, see chunkEnd) and
 * de-duplicates exactly as the job does (each normalised name resolved once
 * per run, each company bought once per run), so for a fresh run it is
 * what the job spends when every resolved name is a different company and all
 * requested data exists; otherwise it is an upper bound: rows that are not
 * found or ambiguous, and includes the availability says are missing, are not
 * paid for, and names that turn out to be the same company are bought once.
 * It keeps only the sets of keys seen, so it streams.
 */
import type { Estimate, EstimateLine } from "../credits/index.ts";
import { chunkSizes, batchCredits } from "../batch/index.ts";
import { profileCost } from "../api/index.ts";
import { DEFAULT_RATE_LIMITS } from "../api/index.ts";
import { COMPANY_ID_PATTERN } from "../api/index.ts";
import { invalid } from "../core/index.ts";
import { got, rule } from "../i18n/index.ts";
import { NOUNS, counted, includeList } from "../credits/index.ts";

/** Rows that are not a list of rows. */
export const NOT_A_TABLE = {
  de: "keine Tabelle (erwartet eine Liste von Zeilen)",
  en: "not a table (expected a list of rows)",
};
import type { Cell } from "../core/index.ts";
import { fieldNeeds, selectFields } from "./fields.ts";
import { validateMapping, type ColumnMapping } from "./columns.ts";
import { chunkEnd, isEmptyTask, taskFromRow } from "./chunk.ts";
import type { RowTask } from "./task.ts";
import { RunMemo } from "./memo.ts";
import { normaliseKey } from "../batch/index.ts";

/**
 * The one time model of an enrichment (the CLI's estimate and the sidebar's
 * preview): free calls at their bucket's refill rate, paid calls in rounds
 * of `parallel`. The real numbers are not published.
 */
export interface RateAssumptions {
  resolvePerSecond: number;
  availabilityPerSecond: number;
  /** Seconds one round of parallel paid requests takes. */
  paidRoundSeconds: number;
  /** Paid requests sent at once. */
  parallel: number;
}

/** The client's rate-limit table (the emulator's buckets: shared/api/pacing.ts) and a round of 0.3 s for 10 parallel calls. */
export const DEFAULT_RATES: RateAssumptions = {
  resolvePerSecond: DEFAULT_RATE_LIMITS.resolve.perSecond,
  availabilityPerSecond: DEFAULT_RATE_LIMITS.availability.perSecond,
  paidRoundSeconds: 0.3,
  parallel: 10,
};

export interface EnrichPlan {
  mapping: ColumnMapping;
  fields: string[];
  mode?: "batch" | "free";
  /** ctx.maxBatch (default 100). */
  maxBatch?: number;
  /** No longer changes the figure: a run resolves each name and buys each company once, cache or not. */
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

/**
 * Feed it the job's chunks in order (`addChunk`: each chunk's new names are
 * one batch resolve), or all rows at once in pieces (`add`, then `result`:
 * the names are resolved in one phase, as the CLI does); read `result()` at
 * any time. A run resolves each normalised name once and buys each company
 * once, whatever the cache holds; with a memo (what a resumed or repeated
 * run already has) those rows cost nothing.
 */
export class EnrichEstimator {
  private readonly needs;
  private readonly maxBatch: number;
  private readonly mode: "batch" | "free";
  private seenKeys = new Set<string>();
  private companySet = new Set<string>();
  /** Distinct identifier lookups (website, VAT id, register number, LEI): free, but paced by the resolve bucket. */
  private lookupSet = new Set<string>();
  private pendingNames = 0;
  private resolveCredits = 0;
  private resolvePaid = 0;
  private resolveFree = 0;
  private resolved = 0;
  private rowCount = 0;
  private readonly include;

  constructor(
    plan: EnrichPlan,
    private readonly memo?: RunMemo,
  ) {
    const fields = selectFields(plan.fields);
    this.needs = fieldNeeds(fields);
    this.include = this.needs.resolved.include;
    this.maxBatch = plan.maxBatch ?? 100;
    this.mode = plan.mode ?? "batch";
    if (this.mode !== "batch" && this.mode !== "free")
      throw invalid("mode", got(rule.oneOf(["batch", "free"]), plan.mode));
  }

  /** The name this row will resolve, if no earlier row or the memo has it. */
  pendingKey(t: RowTask): string | null {
    if (t.id || !t.query) return null;
    const key = this.memo ? this.memo.pendingKey(t) : normaliseKey(t.query);
    return key === null || this.seenKeys.has(key) ? null : key;
  }

  /** Rows of the run, in order; their new names join the resolve group that `endGroup` (or `result`) closes. */
  add(tasks: readonly RowTask[], onNewKey?: (t: RowTask, key: string) => void): void {
    const today = "";
    for (const t of tasks) {
      if (isEmptyTask(t)) continue;
      this.rowCount++;
      if (this.memo?.answer(t, today)) continue;
      const key = this.pendingKey(t);
      if (key) {
        this.seenKeys.add(key);
        this.pendingNames++;
        onNewKey?.(t, key);
      }
      const m = this.memo?.matchedId(t);
      if (m) this.companySet.add("i:" + m.id);
      else if (t.id) {
        if (this.needs.givenId.profile && COMPANY_ID_PATTERN.test(t.id)) this.companySet.add("i:" + t.id);
      } else if (t.query && this.needs.resolved.profile) this.companySet.add("k:" + normaliseKey(t.query));
      // A free lookup by identifier: the same identifier is the same company, bought once.
      else if (t.lookup && this.needs.resolved.profile) this.companySet.add("l:" + JSON.stringify(t.lookup));
      if (!t.id && t.lookup && !m) this.lookupSet.add(JSON.stringify(t.lookup));
    }
  }

  /** Close the resolve group: its names are sent in calls of maxBatch. */
  endGroup(): void {
    const n = this.pendingNames;
    this.pendingNames = 0;
    if (n === 0) return;
    this.resolved += n;
    if (this.mode === "batch") {
      this.resolveCredits += batchCredits(n, this.maxBatch);
      this.resolvePaid += chunkSizes(n, this.maxBatch).length;
    } else this.resolveFree += n;
  }

  /** One chunk of tasks, as the job will send it. */
  addChunk(tasks: readonly RowTask[]): void {
    this.add(tasks);
    this.endGroup();
  }

  /** Companies to buy: ids the memo learnt of during the pass (later rows of a file) are not bought again. */
  private get profiles(): number {
    let n = 0;
    for (const c of this.companySet) if (!(c.startsWith("i:") && this.memo?.companies.has(c.slice(2)))) n++;
    return n;
  }

  result(rates: RateAssumptions = DEFAULT_RATES): EnrichEstimate {
    this.endGroup();
    const profiles = this.profiles;
    const availability = this.include.length > 0 ? profiles : 0;
    const profileCredits = profiles * profileCost(this.include);
    const lines: EstimateLine[] = [];
    if (this.resolved > 0) {
      const names = counted(this.resolved, NOUNS.name);
      lines.push(
        this.mode === "batch"
          ? {
              label: { de: `${names.de} abgleichen (Stapel)`, en: `${names.en} resolved (batch)` },
              credits: this.resolveCredits,
              requests: this.resolvePaid,
            }
          : {
              label: {
                de: `${names.de} einzeln abgleichen (kostenlos, langsam)`,
                en: `${counted(this.resolved, NOUNS.singleResolve).en} (free, slow)`,
              },
              credits: 0,
              requests: this.resolveFree,
            },
      );
    }
    const lookups = this.lookupSet.size;
    if (lookups > 0) {
      const l = counted(lookups, NOUNS.lookup);
      lines.push({
        label: { de: `${l.de} nachschlagen (kostenlos)`, en: `${l.en} (free)` },
        credits: 0,
        requests: lookups,
      });
    }
    if (availability > 0) {
      const checks = counted(availability, NOUNS.availability);
      lines.push({
        label: { de: `${checks.de} (kostenlos)`, en: `${checks.en} (free)` },
        credits: 0,
        requests: availability,
      });
    }
    if (profiles > 0) {
      const p = counted(profiles, NOUNS.profile),
        inc = includeList(this.include);
      const label = this.include.length ? { de: `${p.de} mit ${inc.de}`, en: `${p.en} with ${inc.en}` } : p;
      lines.push({ label, credits: profileCredits, requests: profiles });
    }
    const paidRequests = this.resolvePaid + profiles;
    const freeRequests = this.resolveFree + lookups + availability;
    const seconds =
      (this.resolveFree + lookups) / rates.resolvePerSecond +
      availability / rates.availabilityPerSecond +
      Math.ceil(paidRequests / Math.max(1, rates.parallel)) * rates.paidRoundSeconds;
    return {
      credits: this.resolveCredits + profileCredits,
      requests: paidRequests + freeRequests,
      paidRequests,
      freeRequests,
      breakdown: lines,
      seconds: Math.ceil(seconds),
      rows: this.rowCount,
      companies: profiles,
    };
  }
}

function simulateDone(sim: RunMemo, t: RowTask): void {
  if (t.id) {
    if (sim.needs.givenId.profile && COMPANY_ID_PATTERN.test(t.id)) sim.rememberCompany(t.id, [], null);
  } else if (t.query) {
    const key = normaliseKey(t.query);
    const id = "k:" + key;
    sim.rememberKey(key, { o: "m", id, c: null, v: sim.needs.resolved.profile ? undefined : [] });
    if (sim.needs.resolved.profile) sim.rememberCompany(id, [], null);
  }
}

/**
 * The estimate for enriching `rows` (data rows, no header) in a fresh run,
 * chunked as the job chunks them (the engine, job-engine.ts: the non-empty
 * rows in chunks of `chunkSize`, default 50).
 */
export function estimateEnrichment(
  rows: readonly Cell[][],
  plan: EnrichPlan & { chunkSize?: number },
  rates?: RateAssumptions,
): EnrichEstimate {
  if (!Array.isArray(rows)) throw invalid("rows", NOT_A_TABLE);
  const width = rows.reduce<number>((w, r: readonly Cell[]) => Math.max(w, r.length), 0);
  validateMapping(plan.mapping, rows.length > 0 ? width : Number.MAX_SAFE_INTEGER);
  return estimateTasks(
    rows.map((r: readonly Cell[], i) => taskFromRow(i, r, plan.mapping)),
    plan,
    rates,
  );
}

/**
 * The estimate for these row tasks in a fresh run, in the job's chunks of
 * `chunkSize` (default 50): the CLI's and the sidebar's one estimator (the
 * sidebar passes its selected rows with what an earlier run left beside them).
 */
export function estimateTasks(
  all: readonly RowTask[],
  plan: EnrichPlan & { chunkSize?: number },
  rates?: RateAssumptions,
  known?: RunMemo,
): EnrichEstimate {
  // `known`: what is had already (a team server's shared answers, server/estimate.ts), priced at 0.
  const est = new EnrichEstimator(plan, known);
  const size = Math.max(1, Math.floor(plan.chunkSize ?? 50));
  const tasks = all.filter((t) => !isEmptyTask(t));
  // The job's memo as it will be in a fresh run where every name is its own company: chunks end where the job's do.
  const sim = new RunMemo(fieldNeeds(selectFields(plan.fields)));
  const taskAt = (j: number): RowTask => {
    const t = tasks[j];
    if (t === undefined) throw new RangeError(`chunkEnd asked for task ${j} of ${tasks.length}`);
    return t;
  };
  for (let at = 0; at < tasks.length;) {
    const end = chunkEnd(tasks.length, taskAt, at, size, plan.mode ?? "batch", sim);
    const chunk = tasks.slice(at, end);
    est.addChunk(chunk);
    for (const t of chunk) simulateDone(sim, t);
    at = end;
  }
  return est.result(rates);
}
