/**
 * Deterministic cache keys. Apps Script's CacheService takes keys of at most
 * 250 characters, so long keys are replaced by a hash (pure JS: no Node
 * crypto in shared/).
 */
import { canonicalJson, questionOf, type CallSpec } from "../api/index.ts";

export const MAX_KEY_LENGTH = 250;
/** CacheService refuses values above 100 KB; larger answers are not cached. */
export const MAX_VALUE_LENGTH = 100 * 1024;

const MASK64 = (1n << 64n) - 1n;
const FNV_PRIME = 0x100000001b3n;

/** FNV-1a, 64 bit, over UTF-16 code units, with an offset basis of choice; 16 hex digits. */
function fnv1a64(s: string, basis: bigint): string {
  let h = basis;
  for (let i = 0; i < s.length; i++) {
    h ^= BigInt(s.charCodeAt(i));
    h = (h * FNV_PRIME) & MASK64;
  }
  return h.toString(16).padStart(16, "0");
}

/** 128 bits from two FNV-1a passes with different bases: collisions are out of practical reach. */
export function hash128(s: string): string {
  return fnv1a64(s, 0xcbf29ce484222325n) + fnv1a64(s, 0x84222325cbf29ce4n);
}

/** JSON with object keys sorted at every level (the canonical question's, shared/api/question.ts). */
export { canonicalJson };

/** UTF-8 length of a string (what storage limits measure). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * utf8Length(s) <= max, without counting when the length alone decides:
 * utf8Length gives every code unit at least 1 byte and at most 4 (a high
 * surrogate counts 4, with the unit after it, or alone at the end).
 */
export function fitsUtf8(s: string, max: number): boolean {
  if (s.length * 4 <= max) return true;
  if (s.length > max) return false;
  return utf8Length(s) <= max;
}

/** A key of at most 250 characters (and bytes): readable when short, hashed when long. */
export function boundedKey(full: string): string {
  if (fitsUtf8(full, MAX_KEY_LENGTH)) return full;
  return `h:${hash128(full)}:${full.length}`;
}

/**
 * Cache key of one call: scope, the canonical question (shared/api/question.ts, the same one the
 * team server's shared answers key on, so every spelling of a question is one entry) and language.
 */
export function callKey(scope: string, language: string, spec: CallSpec): string {
  return boundedKey(["c2", scope, questionOf(spec), language].join("|"));
}
