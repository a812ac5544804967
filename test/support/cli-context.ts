/** An operation context as the CLI builds one, for driving the core directly over HTTP. */
import type { OpContext } from "../../shared/operations/context.ts";
import { hash } from "../../shared/enrich/job-checkpoint.ts";
import { Pacer } from "../../shared/api/pacing.ts";

/** An operation context as the CLI builds one (6-hour cache, batches of 100). */
export function cliContext(baseUrl: string, apiKey: string, extra: Partial<OpContext["client"]> = {}): OpContext {
  return {
    client: { apiKey, baseUrl, language: "en", now: Date.now, random: Math.random, pacer: new Pacer(), ...extra },
    cacheTtlSeconds: 6 * 3600,
    maxBatch: 100,
    scope: hash(baseUrl),
  };
}
