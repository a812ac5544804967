/**
 * Serialise the daily formula budget's read-modify-write across the
 * concurrent runs of the custom functions. Excel runs many gathered batches
 * at once; without this two batches could both read the same counter and
 * both spend the last credits.
 *
 * A decorator over the host's AsyncDriver, made per run: the lock is taken
 * when the run reads a `doc:budget:` key and released when it writes it (or
 * does anything else first), so the lock is held only across the
 * read → write of the counter, never across a request.
 */
import type { AsyncDriver } from "../../shared/core/drivers.ts";

export const BUDGET_PREFIX = "doc:budget:";
const isBudgetKey = (k: string) => k.startsWith(BUDGET_PREFIX);

export type Acquire = () => Promise<() => void>;

/** A FIFO mutex: acquire() resolves with the release function once earlier holders have released. */
export function createLock(): Acquire {
  let tail: Promise<void> = Promise.resolve();
  return async function acquire() {
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const before = tail;
    tail = before.then(() => mine);
    await before;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };
}

export interface SerialisedDriver extends AsyncDriver {
  /** Give the lock back if the run still holds it (the run ended between read and write). Call once the run is over. */
  release(): void;
}

export function serialiseBudget(driver: AsyncDriver, acquire: Acquire): SerialisedDriver {
  let held: (() => void) | undefined;
  const release = () => {
    held?.();
    held = undefined;
  };
  /** Any effect but the budget's own read and write ends the critical section. */
  const other = <T>(f: () => Promise<T>): Promise<T> => {
    release();
    return f();
  };
  const out: SerialisedDriver = {
    http: (requests) => other(() => driver.http(requests)),
    sleep: (ms) => other(() => driver.sleep(ms)),
    cacheGet: (keys) => other(() => driver.cacheGet(keys)),
    cachePut: (entries, ttl) => other(() => driver.cachePut(entries, ttl)),
    async storeGet(keys) {
      if (!keys.some(isBudgetKey)) return other(() => driver.storeGet(keys));
      held ??= await acquire();
      return driver.storeGet(keys);
    },
    async storePut(entries) {
      if (!Object.keys(entries).some(isBudgetKey)) release();
      try {
        return await driver.storePut(entries);
      } finally {
        release();
      }
    },
    release,
  };
  if (driver.sheet) {
    const sheet = driver.sheet.bind(driver);
    out.sheet = (request) => other(() => sheet(request));
  }
  return out;
}
