/**
 * Gathering: Excel invokes a custom function once per cell, so a column of
 * 1,000 formulas arrives as 1,000 separate calls within a few milliseconds.
 * The gatherer holds the calls made in the same moment, asks for each
 * distinct call once (one `runBatch` over all of them), and answers every
 * waiting cell. Unlike the Office batching sample, a failed batch rejects
 * every waiting call: no cell is ever left pending.
 */
export interface GatherOptions<A, R> {
  /** Calls with the same key share one answer (repeated ids are asked once). */
  key(args: A): string;
  /** One result per distinct call, in the order given; throwing fails them all. */
  runBatch(calls: A[]): Promise<R[]>;
  /** Arrange for `flush` to run once the current burst of calls is over. */
  schedule(flush: () => void): void;
  /** What a waiting call is rejected with when the batch fails. */
  toError?(e: unknown): unknown;
}

export interface Gatherer<A, R> {
  (args: A): Promise<R>;
  /** Batches started so far (tests and the benchmark read it). */
  readonly batches: number;
}

interface Waiting<R> {
  resolve(value: R): void;
  reject(reason: unknown): void;
}

export function createGatherer<A, R>(opts: GatherOptions<A, R>): Gatherer<A, R> {
  let queue = new Map<string, { args: A; waiters: Waiting<R>[] }>();
  // Calls identical to one already on its way join it instead of asking again.
  const inFlight = new Map<string, Promise<R>>();
  let scheduled = false;
  let batches = 0;
  const toError = (e: unknown) => (opts.toError ? opts.toError(e) : e);

  const flush = () => {
    scheduled = false;
    const taken = queue;
    queue = new Map();
    if (taken.size === 0) return;
    batches++;
    const entries = [...taken.entries()];
    const settleAll = (fn: (w: Waiting<R>, i: number) => void) =>
      entries.forEach(([, e], i) => e.waiters.forEach((w) => fn(w, i)));
    let started: Promise<R[]>;
    try {
      started = opts.runBatch(entries.map(([, e]) => e.args));
    } catch (e) {
      started = Promise.reject(e);
    }
    started
      .then(
        (results) => {
          if (!Array.isArray(results) || results.length !== entries.length) {
            const err = toError(
              new Error(
                `batch answered ${Array.isArray(results) ? results.length : "no"} results for ${entries.length} calls`,
              ),
            );
            settleAll((w) => w.reject(err));
          } else results.forEach((result, i) => entries[i]?.[1].waiters.forEach((w) => w.resolve(result)));
        },
        (e) => {
          const err = toError(e);
          settleAll((w) => w.reject(err));
        },
      )
      .finally(() => {
        for (const [k] of entries) inFlight.delete(k);
      });
  };

  const gather = ((args: A): Promise<R> => {
    const k = opts.key(args);
    const running = inFlight.get(k);
    if (running) return running;
    const p = new Promise<R>((resolve, reject) => {
      let entry = queue.get(k);
      if (!entry) queue.set(k, (entry = { args, waiters: [] }));
      entry.waiters.push({ resolve, reject });
    });
    inFlight.set(k, p);
    if (!scheduled) {
      scheduled = true;
      opts.schedule(flush);
    }
    return p;
  }) as Gatherer<A, R>;
  Object.defineProperty(gather, "batches", { get: () => batches });
  return gather;
}

/** Default schedule: a short timer, long enough for Excel's burst of calls to arrive. */
export const afterMs = (ms: number) => (flush: () => void) => void setTimeout(flush, ms);
