/**
 * What every operation needs besides its arguments. Hosts build one per
 * invocation (a custom-function call, a sidebar action, a CLI run).
 */
import type { ClientConfig } from "../api/index.ts";
import type { RateLimitOverrides } from "../api/index.ts";

export interface OpContext {
  client: ClientConfig;
  /** How long answers stay cached (seconds); 0 disables the cache. */
  cacheTtlSeconds: number;
  /** Largest batch-resolve call (a multiple of ten, at most MAX_BATCH). */
  maxBatch: number;
  /**
   * Prefix for cache and store keys, so two documents or two base URLs
   * never share answers (e.g. a hash of base URL + document id).
   */
  scope: string;
  /**
   * Burst and refill per bucket of the rate-limited endpoints (resolve,
   * suggest, availability, account and the older free ones). Defaults: the
   * emulator's documented buckets (DEFAULT_RATE_LIMITS); the real service's
   * numbers are not published.
   */
  rateLimits?: RateLimitOverrides;
  /**
   * Matches the service rates below this are reviews, not acceptances
   * (operations/contradiction.ts; default DEFAULT_MATCH_FLOOR, 0.8).
   */
  matchFloor?: number;
}
