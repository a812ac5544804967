/**
 * Serialise the read-modify-write of the daily formula budget and of the
 * spend log across concurrent runs: Excel runs many gathered batches at
 * once, and the task pane runs its own calls beside them in the same page.
 * Without this two batches could both read the same counter and both spend
 * the last credits, or two spends could each rewrite the log without the
 * other's line.
 *
 * A decorator over the host's AsyncDriver, made per run: the lock is taken
 * when the run reads a `doc:budget:` or `doc:ledger:` key and released when
 * it writes it (or does anything else first), so the lock is held only
 * across the read → write of the value, never across a request. One lock
 * per page (pageLock): the functions and the task pane bundles share it.
 */
import type { AsyncDriver } from "../../shared/core/index.ts";

export const BUDGET_PREFIX = "doc:budget:";
export const LEDGER_PREFIX = "doc:ledger:";
const isBudgetKey = (k: string) => k.startsWith(BUDGET_PREFIX) || k.startsWith(LEDGER_PREFIX);

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

const PAGE_LOCK = "__companyDataStateLock";

/** The page's one lock: separate bundles (functions.js, taskpane.js) meet on the global object. */
export function pageLock(scope: Record<string, unknown> = globalThis): Acquire {
  return ((scope[PAGE_LOCK] as Acquire | undefined) ??= createLock());
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
