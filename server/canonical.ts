/**
 * JSON with object keys sorted at every level: the canonical question's own
 * (shared/api/question.ts), so the server's item keys (split.ts) and the
 * question keys (purchase.ts questionKey) spell JSON one way.
 */
import { canonicalJson } from "../shared/api/index.ts";

export const canonicalJsonOf = (v: unknown): string => (v === undefined ? "null" : canonicalJson(v));
