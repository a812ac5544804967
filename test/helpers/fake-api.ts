/**
 * A scripted fake of the HTTP side for unit tests: a handler per request,
 * the requests it saw, and both drivers over memoryStores() with a manual clock.
 */
import { asyncStores, memoryStores, type AsyncDriver, type SyncDriver } from "../../shared/core/drivers.ts";
import type { HttpRequest, HttpResponse } from "../../shared/core/http.ts";
import type { ClientConfig } from "../../shared/api/client.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { Pacer } from "../../shared/api/pacing.ts";

export type Handler = (req: HttpRequest, url: URL, body: unknown) => HttpResponse;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

export function fakeApi(handler: Handler, start = Date.UTC(2025, 0, 15, 12)) {
  let clock = start;
  const now = () => clock;
  const stores = memoryStores(now);
  const requests: HttpRequest[] = [];
  const batches: number[] = [];
  const sleeps: number[] = [];
  const send = (reqs: HttpRequest[]) => {
    batches.push(reqs.length);
    return reqs.map((r) => {
      requests.push(r);
      return handler(r, new URL(r.url), r.body ? JSON.parse(r.body) : undefined);
    });
  };
  const sync: SyncDriver = {
    http: send,
    sleep: (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    cacheGet: stores.cacheGet,
    cachePut: stores.cachePut,
    storeGet: stores.storeGet,
    storePut: stores.storePut,
  };
  const async: AsyncDriver = {
    http: async (r) => send(r),
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    ...asyncStores(stores),
  };
  return {
    sync,
    async,
    stores,
    requests,
    batches,
    sleeps,
    now,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

export function testContext(now: () => number, over: Partial<OpContext> = {}, client: Partial<ClientConfig> = {}) {
  const spent: { endpoint: string; credits: number }[] = [];
  const ctx: OpContext = {
    client: {
      apiKey: "test-key-123",
      baseUrl: "http://api.test",
      language: "de",
      now,
      random: () => 0.5,
      onSpend: (endpoint, credits) => spent.push({ endpoint, credits }),
      // As a host does: one pacer for everything this context (and its spread copies) sends.
      pacer: new Pacer(),
      ...client,
    },
    cacheTtlSeconds: 3600,
    maxBatch: 100,
    scope: "t",
    ...over,
  };
  return { ctx, spent };
}
