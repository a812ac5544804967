/**
 * One request's operation context, the same for every host of the service:
 * the core's client (key, base URL, the host's pacer), counting what the
 * request sends and what the catalogue says it cost into its tally, with the
 * service's cache lifetime and full batch-resolve calls of 100.
 */
import { nodeDriver } from "../node/driver.ts";
import type { Pacer } from "../shared/api/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import type { Tally } from "./service.ts";

/** How long answers (and what the preview may show) stay cached: the MCP server's lifetime. */
export const CACHE_TTL_SECONDS = 6 * 3600;
/** The answer cache of a long-lived service: larger than a CLI run's (profiles of a whole OpenRefine project). */
export const CACHE_CHARS = 64 * 1024 * 1024;
/** The Node driver of a service process: fetch with a timeout, the answer cache above, the budget store in memory. */
export const serviceDriver = () => nodeDriver({ cacheChars: CACHE_CHARS, cacheEntries: 200_000 });
/** Names per batch-resolve call: the API's largest batch, priced in full groups of ten. */
export const MAX_BATCH = 100;

export interface ContextSource {
  apiKey: string | undefined;
  baseUrl: string;
  /** Cache and budget keys of this service. */
  scope: string;
  pacer: Pacer;
  /** The match floor (COMPANY_DATA_MIN_CONFIDENCE); unset = the core's default. */
  matchFloor?: number;
}

export function requestContext(src: ContextSource, tally: Tally, lang: Language): OpContext {
  return {
    client: {
      apiKey: src.apiKey,
      baseUrl: src.baseUrl,
      language: lang,
      now: Date.now,
      random: Math.random,
      onSpend: (_id, credits) => {
        tally.credits += credits;
      },
      onRequest: () => {
        tally.requests += 1;
      },
      pacer: src.pacer,
    },
    cacheTtlSeconds: CACHE_TTL_SECONDS,
    maxBatch: MAX_BATCH,
    scope: src.scope,
    matchFloor: src.matchFloor,
  };
}
