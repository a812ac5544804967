/**
 * The Node host: fetch with a per-request timeout, real sleeps, an in-memory
 * cache bounded in size (a 100,000-row file must not hold every profile), and
 * an optional journal that makes the cache survive a kill: what was paid for
 * in an unfinished chunk is read back on resume instead of bought again.
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import type { AsyncDriver } from "../shared/core/drivers.ts";
import type { HttpRequest, HttpResponse } from "../shared/core/http.ts";

export interface NodeDriverOptions {
  timeoutMs?: number;
  /** Largest number of cached answers kept (oldest dropped first). */
  cacheEntries?: number;
  /** File to which cache writes are appended, and from which they are read back at start. */
  journal?: string;
}

async function send(req: HttpRequest, timeoutMs: number): Promise<HttpResponse> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  try {
    const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: ctl.signal });
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => { headers[k.toLowerCase()] = v; });
    return { status: res.status, headers, body: await res.text() };
  } catch (e) {
    const timeout = ctl.signal.aborted || (e as Error)?.name === "TimeoutError";
    return { status: 0, headers: {}, body: "", networkError: timeout ? "timeout" : "connection" };
  } finally {
    clearTimeout(timer);
  }
}

export function nodeDriver(opts: NodeDriverOptions = {}): AsyncDriver & { clearJournal(): void } {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const cap = opts.cacheEntries ?? 20_000;
  const cache = new Map<string, { value: string; expires: number }>();
  const store = new Map<string, string>();
  const put = (k: string, value: string, expires: number) => {
    cache.delete(k);
    cache.set(k, { value, expires });
    while (cache.size > cap) cache.delete(cache.keys().next().value as string);
  };
  if (opts.journal && existsSync(opts.journal)) {
    for (const line of readFileSync(opts.journal, "utf8").split("\n")) {
      if (!line) continue;
      try {
        const { k, v, e } = JSON.parse(line) as { k: string; v: string; e: number };
        put(k, v, e);
      } catch {
        /* a torn last line from a kill: ignore */
      }
    }
  }
  return {
    http: (reqs) => Promise.all(reqs.map((r) => send(r, timeoutMs))),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    cacheGet: async (keys) =>
      keys.map((k) => {
        const hit = cache.get(k);
        return hit && hit.expires > Date.now() ? hit.value : null;
      }),
    cachePut: async (entries, ttl) => {
      const expires = Date.now() + ttl * 1000;
      let lines = "";
      for (const [k, v] of Object.entries(entries)) {
        put(k, v, expires);
        if (opts.journal) lines += JSON.stringify({ k, v, e: expires }) + "\n";
      }
      if (opts.journal && lines) appendFileSync(opts.journal, lines);
    },
    storeGet: async (keys) => keys.map((k) => store.get(k) ?? null),
    storePut: async (entries) => {
      for (const [k, v] of Object.entries(entries)) (v === null ? store.delete(k) : store.set(k, v));
    },
    clearJournal: () => {
      if (opts.journal) appendFileSync(opts.journal, "", { flag: "w" });
    },
  };
}
