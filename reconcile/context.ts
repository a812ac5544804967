/**
 * The service process's driver. A request's operation context is the one
 * every service host builds (callContext, node/call-context.ts).
 */
import { nodeDriver } from "../node/index.ts";

/** The answer cache of a long-lived service: larger than a CLI run's (profiles of a whole OpenRefine project). */
export const CACHE_CHARS = 64 * 1024 * 1024;
/** The Node driver of a service process: node:http with a timeout (node/send-http.ts), the answer cache above, the budget store in memory. */
export const serviceDriver = () => nodeDriver({ cacheChars: CACHE_CHARS, cacheEntries: 200_000 });
