/**
 * Resolving company names to ids. One result per input row, in input order.
 * Rows that normalise to the same key are asked once; answers are cached per
 * normalised key, so "Siemens AG" after "SIEMENS  Aktiengesellschaft" is free.
 * Batch mode pays ceil(n/10) per call (calls of ctx.maxBatch, a multiple of
 * ten); free mode calls the rate-limited single resolve per distinct row.
 */
import { callMany, type CallSpec } from "../api/index.ts";
import { DEFAULT_RATE_LIMITS } from "../api/index.ts";
import {
  CompanySummary as CompanySummarySchema,
  type CompanySummary,
  type ResolveQuery,
  type ResolveResult,
} from "../api/index.ts";
import { readSaved, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import { cacheGet, cachePut, type Operation } from "../core/index.ts";
import { CompanyDataError, invalid } from "../core/index.ts";
import { got, rule } from "../i18n/index.ts";
import { chunk, dedupe, scatter } from "../batch/index.ts";
import type { OpContext } from "./context.ts";
import { boundedKey, fitsUtf8, MAX_VALUE_LENGTH } from "./cache-key.ts";
import { NOT_FOUND_TTL_SECONDS } from "./cached.ts";
import { validate as V } from "../api/index.ts";
import { DEFAULT_MATCH_FLOOR, judgeMatch, legalFormDoubt, type Doubt, type MatchNote } from "./contradiction.ts";
import { cachedCallMany } from "./cached.ts";

export type RowStatus = "matched" | "ambiguous" | "not_found" | "error";

export interface ResolvedRow {
  status: RowStatus;
  match: CompanySummary | null;
  /** 0..1, as the service rates the match; null when it gave none. */
  confidence: number | null;
  candidates: CompanySummary[];
  /** Ambiguous because the service's match contradicts a hint or the legal form the user gave, or rates below the floor (operations/contradiction.ts). */
  doubt?: Doubt;
  /** Matched, and worth saying how: under a former name. */
  note?: MatchNote;
  error?: CompanyDataError;
}

export type ResolveMode = "batch" | "free";

/** Single resolves sent at once in free mode: the resolve bucket's default burst (api/pacing.ts). */
export const FREE_WAVE = DEFAULT_RATE_LIMITS.resolve.burst;

const errorRow = (error: CompanyDataError): ResolvedRow => ({
  status: "error",
  match: null,
  confidence: null,
  candidates: [],
  error,
});

function fromResult(r: ResolveResult): ResolvedRow {
  const status = r.status === "matched" && r.match ? "matched" : r.status === "matched" ? "not_found" : r.status;
  return {
    status,
    // Ambiguous names are never guessed: a match only with status matched.
    match: status === "matched" ? (r.match ?? null) : null,
    confidence: r.confidence ?? null,
    candidates: r.candidates ?? [],
  };
}

/**
 * The one verdict (operations/contradiction.ts) on a matched answer: a match
 * that contradicts the given city, postcode, register or legal form, or rates
 * below the floor, is never taken silently: review, with the reason, the match
 * first among the candidates. Applied to fresh and cached answers alike (a
 * cached answer predates the check, and the floor is a setting).
 */
function judged(row: ResolvedRow, q: ResolveQuery, floor: number): ResolvedRow {
  if (row.status !== "matched" || !row.match) return row;
  const { doubt, note } = judgeMatch(q, row.match, row.confidence, floor);
  if (!doubt) return note ? { ...row, note } : row;
  const others = row.candidates.filter((c) => c.id !== row.match!.id);
  return { status: "ambiguous", match: null, confidence: row.confidence, candidates: [row.match, ...others], doubt };
}

/**
 * Former names for matches whose legal form differs from the given one and
 * whose answer did not carry them: asked from the free lookup (v1 POST
 * /lookup, 0 credits, the resolve rate bucket), whose companies carry
 * `historicalNames` (known-service-facts: v1 company fields). Only those rows
 * are asked; an answer that fails leaves the names unknown, so the row stays
 * a review (never a guess).
 */
function* withFormerNames(ctx: OpContext, rows: { answer: ResolvedRow; query: ResolveQuery }[]): Operation<void> {
  const asked = rows.filter(
    ({ answer: a, query }) =>
      a.status === "matched" && a.match && a.match.historicalNames == null && legalFormDoubt(query, a.match),
  );
  if (!asked.length) return;
  const specs: CallSpec[] = asked.map(({ query }) => ({ endpoint: "v1.lookup", body: { ...query } }));
  const answers = yield* cachedCallMany<{ companies?: { id?: unknown; historicalNames?: unknown }[] }>(ctx, specs);
  asked.forEach(({ answer }, k) => {
    const r = answers[k];
    if (!r?.ok || !answer.match) return;
    const same = (r.data.companies ?? []).find((c) => c.id === answer.match!.id);
    const names = same?.historicalNames;
    if (Array.isArray(names))
      answer.match = { ...answer.match, historicalNames: names.filter((n): n is string => typeof n === "string") };
  });
}

/** Cache key of a resolve answer: scope, language (labels are localised) and the normalised query. */
export const resolveCacheKey = (ctx: OpContext, normalisedKey: string) =>
  boundedKey(["r1", ctx.scope, ctx.client.language, normalisedKey].join("|"));

/** Saved with `v: 1` from the start; the companies in it are checked by the API's schema, as when they came. */
export const CACHED_ANSWER = savedKind(
  1,
  z.object({
    status: z.enum(["matched", "ambiguous", "not_found"]),
    match: z.optional(z.nullable(CompanySummarySchema)),
    confidence: z.optional(z.nullable(z.number())),
    candidates: z.optional(z.array(CompanySummarySchema)),
  }),
);

/** A damaged, foreign or outdated entry is a miss. */
function decode(text: string | null | undefined): ResolvedRow | undefined {
  const r = readSaved(CACHED_ANSWER, text);
  return (
    r && { status: r.status, match: r.match ?? null, confidence: r.confidence ?? null, candidates: r.candidates ?? [] }
  );
}

type Plan = ReturnType<typeof dedupe>;
type Answers = (ResolvedRow | undefined)[];

/** The paid batch resolve: misses in calls of up to maxBatch, each answer found again by its ref. */
function* resolveInBatches(ctx: OpContext, plan: Plan, misses: number[], maxBatch: number, answers: Answers) {
  const chunks = misses.length ? chunk(misses, maxBatch) : [];
  const specs: CallSpec[] = chunks.map((c) => ({
    endpoint: "batchResolve",
    body: { companies: c.map((d, j) => ({ ...plan.distinct[d]!.query, ref: String(j) })) },
    cost: { count: c.length },
  }));
  const results = yield* callMany<{ results: (ResolveResult & { ref?: string | null; index?: number | null })[] }>(
    ctx.client,
    specs,
    { rateLimits: ctx.rateLimits },
  );
  chunks.forEach((c, k) => {
    const r = results[k]!;
    if (!r.ok) {
      for (const d of c) answers[d] = errorRow(r.error);
      return;
    }
    const byRef = new Map<number, ResolveResult>();
    r.data.results.forEach((x, pos) => {
      const at = x.ref != null && /^\d+$/.test(x.ref) ? Number(x.ref) : (x.index ?? pos);
      if (!byRef.has(at)) byRef.set(at, x);
    });
    c.forEach((d, j) => {
      const x = byRef.get(j);
      answers[d] = x ? fromResult(x) : errorRow(new CompanyDataError("MALFORMED_RESPONSE", { field: "results" }));
    });
  });
}

/**
 * The free single resolve, one call per miss. It is rate-limited: the client
 * paces it in waves of the resolve bucket's burst (see api/pacing.ts); what
 * cannot go before the caller's deadline comes back RATE_LIMITED with its
 * retry time, unsent.
 */
function* resolveSingly(ctx: OpContext, plan: Plan, misses: number[], answers: Answers) {
  const results = yield* callMany<ResolveResult>(
    ctx.client,
    misses.map((d) => ({ endpoint: "resolve", body: plan.distinct[d]!.query })),
    { rateLimits: ctx.rateLimits },
  );
  misses.forEach((d, k) => {
    const r = results[k]!;
    if (r.ok) answers[d] = fromResult(r.data);
    // A 404 from single resolve means "no such company": an answer, not a failure.
    else if (r.error.code === "NOT_FOUND")
      answers[d] = { status: "not_found", match: null, confidence: null, candidates: [] };
    else answers[d] = errorRow(r.error);
  });
}

/** Keep what was answered (never errors; "not found" for a shorter time; nothing too large for the cache). */
function* cacheAnswers(keys: string[], misses: number[], answers: Answers, ttl: number) {
  const found: Record<string, string> = {};
  const notFound: Record<string, string> = {};
  for (const d of misses) {
    const a = answers[d]!;
    if (a.status === "error") continue; // errors are never cached
    const text = writeSaved(CACHED_ANSWER, { ...a, status: a.status });
    if (!fitsUtf8(text, MAX_VALUE_LENGTH)) continue; // too large for CacheService: not cached
    (a.status === "not_found" ? notFound : found)[keys[d]!] = text;
  }
  yield* cachePut(found, ttl);
  yield* cachePut(notFound, Math.min(ttl, NOT_FOUND_TTL_SECONDS));
}

export function* resolveMany(
  ctx: OpContext,
  rows: ResolveQuery[],
  opts: { mode?: ResolveMode } = {},
): Operation<ResolvedRow[]> {
  const mode = opts.mode ?? "batch";
  if (mode !== "batch" && mode !== "free") throw invalid("mode", got(rule.oneOf(["batch", "free"]), mode));
  const maxBatch = mode === "batch" ? V.maxBatch(ctx.maxBatch) : 0;
  const plan = dedupe(rows);
  const ttl = ctx.cacheTtlSeconds > 0 ? ctx.cacheTtlSeconds : 0;
  const keys = plan.distinct.map((d) => resolveCacheKey(ctx, d.key));
  // d indexes plan.distinct (and keys, answers).
  const answers: Answers = new Array<ResolvedRow | undefined>(plan.distinct.length);

  if (ttl > 0) {
    const hits = yield* cacheGet(keys);
    hits.forEach((h, i) => {
      answers[i] = decode(h);
    });
  }
  const misses = plan.distinct.map((_, i) => i).filter((i) => answers[i] === undefined);
  if (mode === "batch") yield* resolveInBatches(ctx, plan, misses, maxBatch, answers);
  else yield* resolveSingly(ctx, plan, misses, answers);
  if (ttl > 0) yield* cacheAnswers(keys, misses, answers, ttl);

  yield* withFormerNames(
    ctx,
    plan.distinct.flatMap((d, i) => (answers[i] ? [{ answer: answers[i], query: d.query }] : [])),
  );
  const floor = ctx.matchFloor ?? DEFAULT_MATCH_FLOOR;
  plan.distinct.forEach((d, i) => {
    const a = answers[i];
    if (a) answers[i] = judged(a, d.query, floor);
  });

  // Each row gets its own object: callers may annotate rows without touching duplicates.
  return scatter(plan, answers as ResolvedRow[], errorRow).map((r) => ({ ...r, candidates: [...r.candidates] }));
}

/** One query, by the free single resolve. Bad input throws INVALID_INPUT; a failed call is status "error". */
export function* resolveOne(ctx: OpContext, q: ResolveQuery): Operation<ResolvedRow> {
  const query = V.resolveQuery(q);
  return (yield* resolveMany(ctx, [query], { mode: "free" }))[0]!; // one row per query
}
