/**
 * The cache in front of the client. A hit costs nothing and sends nothing;
 * identical specs in one call are sent once. Successful answers are cached
 * for ctx.cacheTtlSeconds; errors never are, except NOT_FOUND, which is an
 * answer ("no such company") and is cached briefly.
 */
import { callMany, type CallResult, type CallSpec } from "../api/index.ts";
import { endpoint, type EndpointId } from "../api/index.ts";
import { readSaved, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import { cacheGet, cachePut, type Operation } from "../core/index.ts";
import { CompanyDataError } from "../core/index.ts";
import type { OpContext } from "./context.ts";
import { callKey, fitsUtf8, MAX_VALUE_LENGTH } from "./cache-key.ts";

/** NOT_FOUND is remembered at most this long: a company registered today should show up soon. */
export const NOT_FOUND_TTL_SECONDS = 600;

/** Answers that must always be fresh (the balance) are never cached. */
const UNCACHED: ReadonlySet<EndpointId> = new Set<EndpointId>(["account"]);

type Cached = { v: 1; ok: true; data: unknown } | { v: 1; ok: false; code: "NOT_FOUND"; field?: string };

/** Saved with `v: 1` from the start. The answer inside is checked by its endpoint's schema, as when it came. */
export const CACHED_CALL = savedKind(
  1,
  z.union([
    z.object({ v: z.literal(1), ok: z.literal(true), data: z.unknown() }),
    z.object({ v: z.literal(1), ok: z.literal(false), code: z.literal("NOT_FOUND"), field: z.optional(z.string()) }),
  ]),
);

/** A damaged, foreign or outdated entry is a miss. */
function decode<T>(spec: CallSpec, text: string | null | undefined): CallResult<T> | undefined {
  const c = readSaved(CACHED_CALL, text);
  if (!c) return undefined;
  if (!c.ok) return { ok: false, error: new CompanyDataError("NOT_FOUND", { field: c.field }), attempts: 0 };
  // The schema of the endpoint's answer: the type the caller asked for (as the client reads a fresh answer).
  const data = (endpoint(spec.endpoint).response as z.ZodMiniType<T>).safeParse(c.data);
  return data.success ? { ok: true, data: data.data, credits: 0, attempts: 0 } : undefined;
}

export const isCacheable = (spec: CallSpec) => !UNCACHED.has(spec.endpoint);

/**
 * Settle every spec (one result each, in order): from the cache, or by one
 * sent call per distinct spec. A duplicate gets the same data with credits 0,
 * so summing `credits` over the results gives what was actually spent.
 */
export function* cachedCallMany<T = unknown>(ctx: OpContext, specs: CallSpec[]): Operation<CallResult<T>[]> {
  const ttl = ctx.cacheTtlSeconds > 0 ? ctx.cacheTtlSeconds : 0;
  const keys = specs.map((s) => callKey(ctx.scope, ctx.client.language, s));

  // Distinct keys, in first-appearance order.
  const firstOf = new Map<string, number>();
  keys.forEach((k, i) => {
    if (!firstOf.has(k)) firstOf.set(k, i);
  });
  const distinct = [...firstOf.values()];
  // i indexes specs/keys (same length); k indexes the calls just made, one answer or hit each.

  const results = new Map<number, CallResult<T>>(); // by index of first occurrence
  const lookup = ttl > 0 ? distinct.filter((i) => isCacheable(specs[i]!)) : [];
  const hits = yield* cacheGet(lookup.map((i) => keys[i]!));
  lookup.forEach((i, k) => {
    const hit = decode<T>(specs[i]!, hits[k]);
    if (hit) results.set(i, hit);
  });

  const send = distinct.filter((i) => !results.has(i));
  const answers = yield* callMany<T>(
    ctx.client,
    send.map((i) => specs[i]!),
    { rateLimits: ctx.rateLimits },
  );
  const store: Record<string, string> = {};
  const storeNotFound: Record<string, string> = {};
  send.forEach((i, k) => {
    const r = answers[k]!;
    results.set(i, r);
    if (ttl === 0 || !isCacheable(specs[i]!)) return;
    if (r.ok) {
      const text = writeSaved(CACHED_CALL, { v: 1, ok: true, data: r.data } satisfies Cached);
      // CacheService rejects values above 100 KB: such answers are simply not cached.
      if (fitsUtf8(text, MAX_VALUE_LENGTH)) store[keys[i]!] = text;
    } else if (r.error.code === "NOT_FOUND") {
      storeNotFound[keys[i]!] = writeSaved(CACHED_CALL, {
        v: 1,
        ok: false,
        code: "NOT_FOUND",
        field: r.error.details.field,
      } satisfies Cached);
    }
  });
  yield* cachePut(store, ttl);
  yield* cachePut(storeNotFound, Math.min(ttl, NOT_FOUND_TTL_SECONDS));

  return keys.map((k, i) => {
    const first = firstOf.get(k)!;
    const r = results.get(first)!;
    if (first === i || !r.ok) return r;
    return { ...r, credits: 0 };
  });
}
