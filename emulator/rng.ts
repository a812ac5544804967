/**
 * Deterministic randomness. Every generated value derives from (seed, key) so a
 * company's details can be rebuilt on demand instead of being stored, and two
 * emulators with the same seed answer byte for byte the same.
 */
import { nth } from "./indexed.ts";

/** 32-bit FNV-1a over a string, mixed with a seed. */
export function hash32(seed: number, key: string | number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  const s = typeof key === "number" ? String(key) : key;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return avalanche(h);
}

function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A small, fast PRNG (mulberry32). */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  static for(seed: number, key: string | number): Rng {
    return new Rng(hash32(seed, key));
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return nth(list, Math.floor(this.next() * list.length));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Pick by weights (same length as list). */
  weighted<T>(list: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < list.length; i++) {
      r -= nth(weights, i);
      if (r < 0) return nth(list, i);
    }
    return nth(list, list.length - 1);
  }
}

const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/** `prefix` + `len` upper-case letters or digits, from a hash of key. */
export function makeId(prefix: string, seed: number, key: string, len = 10): string {
  const r = Rng.for(seed, key);
  let s = prefix;
  for (let i = 0; i < len; i++) s += ID_CHARS[Math.floor(r.next() * ID_CHARS.length)];
  return s;
}
