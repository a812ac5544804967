/**
 * Drivers that send requests to an in-process emulator through its
 * synchronous `handle()`: the same operation can run under runSync (as in
 * Apps Script) and runAsync (as in Excel/Node) against one emulator.
 * Sleeps advance an optional fake clock instead of waiting, so retries after
 * 429 stay fast when the emulator was created with the same `now`.
 */
import { asyncStores, memoryStores, type AsyncDriver, type SyncDriver } from "../../shared/core/drivers.ts";
import type { HttpRequest, HttpResponse } from "../../shared/core/http.ts";
import type { Emulator } from "../../emulator/index.ts";

export interface EmulatorDriverOptions {
  /** Clock for the cache TTLs (default Date.now). */
  now?: () => number;
  /** Called for every sleep the operation asks for (e.g. advance a fake clock). Default: return at once. */
  onSleep?: (ms: number) => void;
}

export function emulatorDrivers(emulator: Emulator, opts: EmulatorDriverOptions = {}) {
  const stores = memoryStores(opts.now);
  const requests: HttpRequest[] = [];
  const sleeps: number[] = [];
  const send = (reqs: HttpRequest[]): HttpResponse[] =>
    reqs.map((req) => {
      requests.push(req);
      const { delayMs: _delay, drop, ...res } = emulator.handle(req);
      if (drop) return { status: 0, headers: {}, body: "", networkError: "connection" };
      return res;
    });
  const sleep = (ms: number) => {
    sleeps.push(ms);
    opts.onSleep?.(ms);
  };
  const sync: SyncDriver = {
    http: send,
    sleep,
    cacheGet: stores.cacheGet,
    cachePut: stores.cachePut,
    storeGet: stores.storeGet,
    storePut: stores.storePut,
  };
  const async: AsyncDriver = {
    http: async (reqs) => send(reqs),
    sleep: async (ms) => sleep(ms),
    ...asyncStores(stores),
  };
  return { sync, async, requests, sleeps, stores };
}
