/**
 * The AsyncDriver of the Excel host: fetch for http (the shared runtime has
 * full CORS, so the Authorization header works), setTimeout for sleep,
 * OfficeRuntime.storage for cache and store, Excel.run for sheet effects.
 */
import type { AsyncDriver } from "../../shared/core/drivers.ts";
import type { HttpRequest, HttpResponse } from "../../shared/core/http.ts";
import type { SheetRequest } from "../../shared/sheet/protocol.ts";
import { durableStore, layeredCache, type KeyValueStorage } from "./storage.ts";

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<{
  status: number;
  headers: { forEach(cb: (value: string, key: string) => void): void };
  text(): Promise<string>;
}>;

/** One request through fetch, as plain data; failures become networkError, never exceptions. */
export async function fetchOne(fetchFn: FetchLike, req: HttpRequest, timeoutMs: number): Promise<HttpResponse> {
  const ctl = typeof AbortController !== "undefined" ? new AbortController() : undefined;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctl?.abort();
  }, timeoutMs);
  try {
    const res = await fetchFn(req.url, { method: req.method, headers: req.headers, body: req.body, signal: ctl?.signal });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, key) => (headers[key.toLowerCase()] = value));
    return { status: res.status, headers, body: await res.text() };
  } catch {
    return { status: 0, headers: {}, body: "", networkError: timedOut ? "timeout" : "connection" };
  } finally {
    clearTimeout(timer);
  }
}

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
}

export function createExcelDriver(opts: ExcelDriverOptions): ExcelDriver {
  const now = opts.now ?? (() => Date.now());
  const cache = layeredCache(opts.storage, now);
  const store = durableStore(opts.storage, opts.docId);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return {
    memory: cache.memory,
    http: (requests) => Promise.all(requests.map((r) => fetchOne(opts.fetch, r, timeoutMs))),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    cacheGet: cache.cacheGet,
    cachePut: cache.cachePut,
    storeGet: store.storeGet,
    storePut: store.storePut,
    sheet: opts.sheet,
  };
}
