/**
 * The AsyncDriver of the Excel host: fetch for http (the shared runtime has
 * full CORS, so the Authorization header works), setTimeout for sleep,
 * OfficeRuntime.storage for cache and store, Excel.run for sheet effects.
 */
import type { AsyncDriver } from "../../shared/core/index.ts";
import type { SheetRequest } from "../../shared/core/index.ts";
import { fetchHttp, type FetchLike } from "../../shared/web/index.ts";
import { durableStore, layeredCache, type KeyValueStorage, type LayeredCache } from "./storage.ts";

export interface ExcelDriverOptions {
  fetch: FetchLike;
  storage: KeyValueStorage;
  /** The workbook's id for `doc:` keys. */
  docId: () => Promise<string>;
  now?: () => number;
  timeoutMs?: number;
  sheet?: (request: SheetRequest) => Promise<unknown>;
}

export interface ExcelDriver extends AsyncDriver {
  /** The memory layer of the cache (tests look into it). */
  readonly memory: Map<string, { v: string; e: number }>;
  /** The cache itself (tests read its durable size). */
  readonly cache: LayeredCache;
}

export function createExcelDriver(opts: ExcelDriverOptions): ExcelDriver {
  const now = opts.now ?? (() => Date.now());
  const cache = layeredCache(opts.storage, now);
  // Settings, budget and spend log come first: a refused write of theirs empties the cache and retries.
  const store = durableStore(opts.storage, opts.docId, () => cache.clearDurable());
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return {
    memory: cache.memory,
    cache,
    http: (requests) => Promise.all(requests.map((r) => fetchHttp(opts.fetch, r, timeoutMs))),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    cacheGet: (keys) => cache.cacheGet(keys),
    cachePut: (entries, ttl) => cache.cachePut(entries, ttl),
    storeGet: (keys) => store.storeGet(keys),
    storePut: (entries) => store.storePut(entries),
    sheet: opts.sheet,
  };
}
