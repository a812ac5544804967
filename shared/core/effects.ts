import type { HttpRequest, HttpResponse } from "./http.ts";
import type { SheetRequest } from "./sheet-protocol.ts";
import type { TableRequest } from "./table-protocol.ts";

/**
 * Sans-IO operations: an operation is a generator that yields effects and
 * receives their results. It never touches a platform global. Hosts run it
 * with `runSync` (Apps Script: UrlFetchApp.fetchAll, Utilities.sleep,
 * CacheService) or `runAsync` (Excel, browser, Node: fetch, setTimeout,
 * OfficeRuntime.storage).
 */
export type Effect =
  /** Send all requests in parallel; the result is the responses in the same order. */
  | { kind: "http"; requests: HttpRequest[] }
  /** Wait; the result is undefined. */
  | { kind: "sleep"; ms: number }
  /** Read cached values (TTL-bound); the result is `(string | null)[]` in key order. */
  | { kind: "cacheGet"; keys: string[] }
  /** Write cached values for `ttlSeconds`; the result is undefined. */
  | { kind: "cachePut"; entries: Record<string, string>; ttlSeconds: number }
  /** Read durable per-user/per-document state (budget, ledger, checkpoints); `(string | null)[]`. */
  | { kind: "storeGet"; keys: string[] }
  /** Write durable state; a null value deletes the key. */
  | { kind: "storePut"; entries: Record<string, string | null> }
  /** Read or write the host's spreadsheet (see sheet/protocol.ts); the result depends on the request. */
  | { kind: "sheet"; request: SheetRequest }
  /** Read or write a streamed table (see table-protocol.ts); the result depends on the request. */
  | { kind: "table"; request: TableRequest };

/** An operation that returns T. `yield*` composes operations. */
export type Operation<T> = Generator<Effect, T, unknown>;

// Typed helpers so operation code reads as straight-line code:
//   const [res] = yield* http([req]);
/** One response per request, in the requests' order; a tuple of requests gives a tuple of responses. */
export function* http<const R extends readonly HttpRequest[]>(
  requests: R,
): Operation<{ -readonly [I in keyof R]: HttpResponse }> {
  type Responses = { -readonly [I in keyof R]: HttpResponse };
  if (requests.length === 0) return [] as unknown as Responses;
  return (yield { kind: "http", requests: [...requests] }) as Responses;
}
export function* sleep(ms: number): Operation<void> {
  if (ms > 0) yield { kind: "sleep", ms };
}
export function* cacheGet(keys: string[]): Operation<(string | null)[]> {
  if (keys.length === 0) return [];
  return (yield { kind: "cacheGet", keys }) as (string | null)[];
}
export function* cachePut(entries: Record<string, string>, ttlSeconds: number): Operation<void> {
  if (Object.keys(entries).length > 0) yield { kind: "cachePut", entries, ttlSeconds };
}
/** One value per key, in the keys' order (null: absent); a tuple of keys gives a tuple of values. */
export function* storeGet<const K extends readonly string[]>(
  keys: K,
): Operation<{ -readonly [I in keyof K]: string | null }> {
  type Values = { -readonly [I in keyof K]: string | null };
  if (keys.length === 0) return [] as unknown as Values;
  return (yield { kind: "storeGet", keys: [...keys] }) as Values;
}
export function* storePut(entries: Record<string, string | null>): Operation<void> {
  if (Object.keys(entries).length > 0) yield { kind: "storePut", entries };
}

export function* sheet<T = unknown>(request: SheetRequest): Operation<T> {
  return (yield { kind: "sheet", request }) as T;
}

export function* table<T = unknown>(request: TableRequest): Operation<T> {
  return (yield { kind: "table", request }) as T;
}

/**
 * Wrap an operation so that every effect it yields passes through `around`
 * first: `around` is itself an operation that returns the effect's result,
 * usually by yielding the effect (`return yield effect`) with work of its own
 * before and after (reserve a budget, check a price), or by answering it
 * without yielding. Whatever `around` throws, or the driver throws while the
 * effect runs, is thrown into the wrapped operation at that point, so its own
 * try/finally runs, exactly as under `runSync`/`runAsync`. This is the one
 * driver loop for interceptors; an interceptor only says what it does to an
 * effect.
 */
export function* intercept<T>(op: Operation<T>, around: (effect: Effect) => Operation<unknown>): Operation<T> {
  let step = op.next();
  while (!step.done) {
    let result: unknown;
    try {
      result = yield* around(step.value);
    } catch (err) {
      step = op.throw(err);
      continue;
    }
    step = op.next(result);
  }
  return step.value;
}

/** Run independent operations "in parallel": their http effects are merged into one batch per step. */
export function* all<T>(ops: Operation<T>[]): Operation<T[]> {
  const results: T[] = new Array<T>(ops.length);
  const done: boolean[] = ops.map(() => false);
  const pending: unknown[] = ops.map(() => undefined);
  let first = true;
  for (;;) {
    // Advance every unfinished op to its next effect.
    const waiting: { i: number; effect: Effect }[] = [];
    for (const [i, op] of ops.entries()) {
      if (done[i]) continue;
      const step = first ? op.next() : op.next(pending[i]);
      if (step.done) {
        done[i] = true;
        results[i] = step.value;
      } else waiting.push({ i, effect: step.value });
    }
    first = false;
    if (waiting.length === 0) return results;
    // Merge http effects; run others one by one (cache/store are cheap, sleeps are max-ed).
    const httpWaiters = waiting.filter((w) => w.effect.kind === "http");
    if (httpWaiters.length > 0) {
      const requests = httpWaiters.flatMap((w) => (w.effect as { requests: HttpRequest[] }).requests);
      const responses = yield* http(requests);
      let at = 0;
      for (const w of httpWaiters) {
        const n = (w.effect as { requests: HttpRequest[] }).requests.length;
        pending[w.i] = responses.slice(at, at + n);
        at += n;
      }
    }
    const sleepers = waiting.filter((w) => w.effect.kind === "sleep");
    if (sleepers.length > 0) {
      yield* sleep(Math.max(...sleepers.map((w) => (w.effect as { ms: number }).ms)));
      for (const w of sleepers) pending[w.i] = undefined;
    }
    for (const w of waiting) {
      if (w.effect.kind === "http" || w.effect.kind === "sleep") continue;
      pending[w.i] = yield w.effect;
    }
  }
}
