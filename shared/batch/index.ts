/**
 * The public surface of shared/batch/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { normaliseCity, normaliseKey, normaliseName, normaliseRegister, normaliseZip } from "./normalise.ts";
export { batchCredits, chunk, chunkSizes, dedupe, scatter } from "./plan.ts";
