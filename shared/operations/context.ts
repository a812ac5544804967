/**
 * What every operation needs besides its arguments. Hosts build one per
 * invocation (a custom-function call, a sidebar action, a CLI run).
 */
import type { ClientConfig } from "../api/client.ts";

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
}
