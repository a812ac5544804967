import type { Effect, Operation } from "./effects.ts";
import { CompanyDataError } from "./errors.ts";
import type { HttpRequest, HttpResponse } from "./http.ts";
import type { SheetRequest } from "./sheet-protocol.ts";
import type { TableRequest } from "./table-protocol.ts";

/** What a synchronous host (Apps Script) provides. */
export interface SyncDriver {
  http(requests: HttpRequest[]): HttpResponse[];
  sleep(ms: number): void;
  cacheGet(keys: string[]): (string | null)[];
  cachePut(entries: Record<string, string>, ttlSeconds: number): void;
  storeGet(keys: string[]): (string | null)[];
  storePut(entries: Record<string, string | null>): void;
  /** Hosts without a sheet (CLI) leave it out; a sheet effect then fails with INTERNAL. */
  sheet?(request: SheetRequest): unknown;
  /** Hosts without a streamed table leave it out; a table effect then fails with INTERNAL. */
  table?(request: TableRequest): unknown;
}

/** What an asynchronous host (Excel, browser, Node) provides. */
export interface AsyncDriver {
  http(requests: HttpRequest[]): Promise<HttpResponse[]>;
  sleep(ms: number): Promise<void>;
  cacheGet(keys: string[]): Promise<(string | null)[]>;
  cachePut(entries: Record<string, string>, ttlSeconds: number): Promise<void>;
  storeGet(keys: string[]): Promise<(string | null)[]>;
  storePut(entries: Record<string, string | null>): Promise<void>;
  sheet?(request: SheetRequest): Promise<unknown>;
  table?(request: TableRequest): Promise<unknown>;
}

/**
 * Hand one effect to the driver method of the same name. Sync drivers answer
 * with values, async ones with promises; `runAsync` awaits, `runSync` does not.
 */
function perform(d: SyncDriver | AsyncDriver, e: Effect): unknown {
  switch (e.kind) {
    case "http":
      return d.http(e.requests);
    case "sleep":
      return d.sleep(e.ms);
    case "cacheGet":
      return d.cacheGet(e.keys);
    case "cachePut":
      return d.cachePut(e.entries, e.ttlSeconds);
    case "storeGet":
      return d.storeGet(e.keys);
    case "storePut":
      return d.storePut(e.entries);
    case "sheet":
      // A host without a sheet (the CLI, custom functions) never runs a sheet job.
      if (!d.sheet) throw new CompanyDataError("INTERNAL");
      return d.sheet(e.request);
    case "table":
      // Only the CLI streams a table (a CSV file); no other host runs a streamed job.
      if (!d.table) throw new CompanyDataError("INTERNAL");
      return d.table(e.request);
  }
}

/**
 * Drive an operation to completion synchronously. A driver failure (thrown
 * exception) is thrown into the operation so its own try/finally runs.
 */
export function runSync<T>(op: Operation<T>, driver: SyncDriver): T {
  let step = op.next();
  while (!step.done) {
    let result: unknown;
    try {
      result = perform(driver, step.value);
    } catch (err) {
      step = op.throw(err);
      continue;
    }
    step = op.next(result);
  }
  return step.value;
}

export async function runAsync<T>(op: Operation<T>, driver: AsyncDriver): Promise<T> {
  let step = op.next();
  while (!step.done) {
    let result: unknown;
    try {
      result = await perform(driver, step.value);
    } catch (err) {
      step = op.throw(err);
      continue;
    }
    step = op.next(result);
  }
  return step.value;
}

/** In-memory cache and store, for tests, the CLI and the playground. */
export function memoryStores(now: () => number = () => Date.now()) {
  const cache = new Map<string, { value: string; expires: number }>();
  const store = new Map<string, string>();
  return {
    cache,
    store,
    cacheGet: (keys: string[]) =>
      keys.map((k) => {
        const hit = cache.get(k);
        if (!hit || hit.expires <= now()) return null;
        return hit.value;
      }),
    cachePut: (entries: Record<string, string>, ttlSeconds: number) => {
      for (const [k, v] of Object.entries(entries)) cache.set(k, { value: v, expires: now() + ttlSeconds * 1000 });
    },
    storeGet: (keys: string[]) => keys.map((k) => store.get(k) ?? null),
    storePut: (entries: Record<string, string | null>) => {
      for (const [k, v] of Object.entries(entries)) v === null ? store.delete(k) : store.set(k, v);
    },
  };
}

/** memoryStores behind the AsyncDriver's promise-returning signatures. */
export function asyncStores(
  stores: ReturnType<typeof memoryStores>,
): Pick<AsyncDriver, "cacheGet" | "cachePut" | "storeGet" | "storePut"> {
  return {
    cacheGet: async (keys) => stores.cacheGet(keys),
    cachePut: async (entries, ttlSeconds) => stores.cachePut(entries, ttlSeconds),
    storeGet: async (keys) => stores.storeGet(keys),
    storePut: async (entries) => stores.storePut(entries),
  };
}
