/**
 * The playground's AsyncDriver: fetch against the emulator (which answers
 * CORS for local origins), in-memory cache and store, and the grid's
 * workbook for sheet effects.
 */
import { memoryStores, type AsyncDriver } from "../shared/core/drivers.ts";
import type { HttpRequest, HttpResponse } from "../shared/core/http.ts";
import type { Workbook } from "./workbook.ts";

async function send(req: HttpRequest, timeoutMs: number): Promise<HttpResponse> {
  const ctl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => ((timedOut = true), ctl.abort()), timeoutMs);
  try {
    const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: ctl.signal });
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k.toLowerCase()] = v));
    return { status: res.status, headers, body: await res.text() };
  } catch {
    return { status: 0, headers: {}, body: "", networkError: timedOut ? "timeout" : "connection" };
  } finally {
    clearTimeout(timer);
  }
}

export function playgroundDriver(workbook: Workbook, timeoutMs = 20_000): AsyncDriver & { stores: ReturnType<typeof memoryStores> } {
  const stores = memoryStores();
  return {
    stores,
    http: (reqs) => Promise.all(reqs.map((r) => send(r, timeoutMs))),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    cacheGet: async (k) => stores.cacheGet(k),
    cachePut: async (e, t) => stores.cachePut(e, t),
    storeGet: async (k) => stores.storeGet(k),
    storePut: async (e) => stores.storePut(e),
    sheet: async (req) => workbook.handle(req),
  };
}
