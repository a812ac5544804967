/**
 * The playground's AsyncDriver: fetch against the emulator (which answers
 * CORS for local origins), in-memory cache and store, and the grid's
 * workbook for sheet effects.
 */
import { asyncStores, memoryStores, type AsyncDriver } from "../shared/core/index.ts";
import { fetchHttp } from "../shared/web/index.ts";
import { limitedHttp } from "../shared/web/index.ts";

/** Requests and paid credits in flight at most, as the CLI's default (adaptive below it: shared/web/limited-http.ts). */
export const PLAYGROUND_PARALLEL = 32;
import type { Workbook } from "../shared/sheet/index.ts";

export function playgroundDriver(
  workbook: Workbook,
  timeoutMs = 20_000,
): AsyncDriver & { stores: ReturnType<typeof memoryStores> } {
  const stores = memoryStores();
  const net = limitedHttp((r) => fetchHttp((url, init) => fetch(url, init), r, timeoutMs), {
    ceiling: PLAYGROUND_PARALLEL,
  });
  return {
    stores,
    http: (reqs) => Promise.all(reqs.map((r) => net.send(r))),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    ...asyncStores(stores),
    sheet: async (req) => workbook.handle(req),
  };
}
