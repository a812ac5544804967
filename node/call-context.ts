/**
 * One call's operation context, the same for every service host (the MCP
 * server's tool calls, the reconciliation service's requests, locally and on
 * the team server): the core's client (key, base URL, the host's pacer),
 * counting what the call sends and what the catalogue says it cost into its
 * tally, with a service's cache lifetime and full batch-resolve calls of 100.
 * Without a key the client answers MISSING_KEY before anything is sent.
 */
import { MAX_BATCH, type Pacer } from "../shared/api/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import type { OpContext } from "../shared/operations/index.ts";

/** How long a service's answers (and what a preview may show) stay cached. */
export const SERVICE_CACHE_TTL_SECONDS = 6 * 3600;

/** What a call is tallied into: credits charged and requests sent. */
export interface CallTally {
  credits: number;
  requests: number;
}

export interface CallSource {
  /** The bearer secret: the API key, or a team server's personal token (`credential`). */
  apiKey: string | undefined;
  baseUrl: string;
  credential?: "apiKey" | "serverToken";
  /** Cache and budget keys of this service. */
  scope: string;
  pacer: Pacer;
  /** The match floor (COMPANY_DATA_MIN_CONFIDENCE); unset = the core's default. */
  matchFloor?: number;
}

export function callContext(src: CallSource, tally: CallTally, lang: Language): OpContext {
  return {
    client: {
      apiKey: src.apiKey,
      baseUrl: src.baseUrl,
      ...(src.credential ? { credential: src.credential } : {}),
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
    cacheTtlSeconds: SERVICE_CACHE_TTL_SECONDS,
    maxBatch: MAX_BATCH, // the API's largest batch, priced in full groups of ten
    scope: src.scope,
    matchFloor: src.matchFloor,
  };
}
