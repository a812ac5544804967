/**
 * The answer cache's fast layer: CacheService, with many answers packed into
 * a fixed number of items.
 *
 * CacheService keeps at most 1,000 items per cache: "if more than 1,000
 * items are written, the cache stores the 900 items farthest from
 * expiration" (https://developers.google.com/apps-script/reference/cache/cache),
 * a value is at most 100 KB and a key at most 250 characters, and nothing
 * lives longer than 6 hours (21,600 s). One item per answer meant a range
 * formula over 1,200 ids lost about 200 answers at each recalculation (and
 * bought them again), over 5,000 most of them. Here every answer goes into
 * one of SHARDS items chosen by a hash of its key, so the cache never holds
 * more than SHARDS + a few items, whatever the number of ids:
 *
 *   capacity ≈ SHARDS × SHARD_MAX_BYTES = 256 × 96 KB ≈ 24 MB, about 18,000
 *   company profiles of ≈ 1.3 KB (measured with the emulator's profiles).
 *
 * A shard that would pass SHARD_MAX_BYTES drops its expired entries, then
 * those that expire soonest. Each entry keeps its own expiry; the item's
 * lifetime is the longest of its entries' (at most 6 h). Answers over
 * SOLO_MIN_BYTES (4 KB: lists, not profiles) are kept as items of their own.
 *
 * Shards are read-modify-written: formulas run up to about 30 at a time, so
 * the merge runs under the short lock `withLock` gives (the document lock,
 * for milliseconds). Without it a concurrent merge could drop an answer
 * another formula just wrote; that answer is then bought again, never lost
 * from a cell.
 */
import * as z from "zod/mini";
import { readPart } from "../shared/core/index.ts";
import { hash128, utf8Length } from "../shared/operations/index.ts";

type Cache = GoogleAppsScript.Cache.Cache;

export const SHARDS = 256;
/** Bytes a shard may hold: under CacheService's 100 KB a value, with room for the JSON around entries. */
export const SHARD_MAX_BYTES = 96 * 1024;
/**
 * Answers this large get an item of their own: a shard then stays small
 * (fast to read and merge) and holds the many small answers of a range
 * (a profile is about 1.3 KB). Large answers (a search's list) come one per
 * formula, not thousands.
 */
export const SOLO_MIN_BYTES = 4 * 1024;
export const CACHE_MAX_SECONDS = 21_600;
/** CacheService's own limit per value. */
export const CACHE_VALUE_MAX_BYTES = 100 * 1024;

const SHARD_PREFIX = "pk:";
const SOLO_PREFIX = "v:";

/**
 * [expires here (epoch ms), value, and, for an answer meant to live longer
 * than CacheService keeps it, when it expires (the answer sheet keeps it
 * that long: cache.ts)]
 */
type Entry = [number, string, ...number[]];
type Shard = Record<string, Entry>;

/** FNV-1a (32 bit) of the key: which shard holds it. */
export function shardOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % SHARDS;
}

const shardKey = (n: number) => SHARD_PREFIX + n;
const soloKey = (key: string) => SOLO_PREFIX + (key.length <= 240 ? key : "h:" + hash128(key));

/**
 * A shard as stored: no version of its own, like every cache envelope (see
 * savedCacheEnvelope in shared/core/saved.ts). A shard that does not fit is
 * empty: its entries are misses, and the next write replaces it.
 */
const savedShard: z.ZodMiniType<Shard> = z.record(z.string(), z.tuple([z.number(), z.string()], z.number()));

function parseShard(text: string | undefined | null): Shard {
  return readPart(savedShard, text) ?? {};
}

/** Bytes an entry takes in the shard's JSON (its value is escaped there). */
const entryBytes = (k: string, e: Entry) => utf8Length(JSON.stringify(k)) + utf8Length(JSON.stringify(e[1])) + 20;

export class PackedCache {
  constructor(
    private readonly cache: Cache,
    private readonly now: () => number,
    private readonly withLock: <T>(body: () => T) => T = (body) => body(),
  ) {}

  /** One getAll for every shard (and solo item) the keys can be in. */
  getMany(keys: string[]): (string | null)[] {
    const wanted = new Set<string>();
    for (const k of keys) {
      wanted.add(shardKey(shardOf(k)));
      wanted.add(soloKey(k));
    }
    let items: Record<string, string> = {};
    try {
      items = this.cache.getAll([...wanted]);
    } catch {
      return keys.map(() => null);
    }
    const shards = new Map<string, Shard>();
    const now = this.now();
    return keys.map((k) => {
      const sk = shardKey(shardOf(k));
      let shard = shards.get(sk);
      if (!shard) shards.set(sk, (shard = parseShard(items[sk])));
      const e = shard[k];
      if (Array.isArray(e) && typeof e[1] === "string" && e[0] > now) return e[1];
      const solo = items[soloKey(k)];
      return typeof solo === "string" ? solo : null;
    });
  }

  putMany(entries: Record<string, string>, ttlSeconds: number): void {
    const ttl = Math.min(Math.floor(ttlSeconds), CACHE_MAX_SECONDS);
    if (ttl <= 0) return;
    const now = this.now();
    const expires = now + ttl * 1000;
    const until = ttlSeconds > CACHE_MAX_SECONDS ? now + Math.floor(ttlSeconds) * 1000 : 0;
    const byShard = new Map<string, Record<string, Entry>>();
    const solo: Record<string, string> = {};
    for (const [k, v] of Object.entries(entries)) {
      const bytes = utf8Length(v);
      if (bytes >= SOLO_MIN_BYTES) {
        if (bytes <= CACHE_VALUE_MAX_BYTES - 64) solo[soloKey(k)] = v;
        continue;
      }
      const sk = shardKey(shardOf(k));
      const add = byShard.get(sk) ?? {};
      add[k] = until ? [expires, v, until] : [expires, v];
      byShard.set(sk, add);
    }
    try {
      if (Object.keys(solo).length) this.cache.putAll(solo, ttl);
    } catch {
      /* a refused write means a later recalculation asks again, never a failed formula */
    }
    if (byShard.size === 0) return;
    this.withLock(() => {
      let current: Record<string, string> = {};
      try {
        current = this.cache.getAll([...byShard.keys()]);
      } catch {
        current = {};
      }
      // Items grouped by the lifetime they need, so each group is one putAll.
      const byTtl = new Map<number, Record<string, string>>();
      for (const [sk, add] of byShard) {
        const { text, longest } = fit({ ...parseShard(current[sk]), ...add }, now);
        const itemTtl = Math.min(
          CACHE_MAX_SECONDS,
          Math.max(1, Math.ceil((Math.max(longest, now + 1000) - now) / 1000)),
        );
        const group = byTtl.get(itemTtl) ?? {};
        group[sk] = text;
        byTtl.set(itemTtl, group);
      }
      for (const [itemTtl, group] of byTtl) {
        try {
          this.cache.putAll(group, itemTtl);
        } catch {
          /* as above */
        }
      }
    });
  }

  /** Packed answers meant to outlive CacheService, with their own expiry: what the answer sheet should keep. */
  longLived(): Record<string, { e: number; v: string }> {
    const out: Record<string, { e: number; v: string }> = {};
    const now = this.now();
    let items: Record<string, string> = {};
    try {
      items = this.cache.getAll(Array.from({ length: SHARDS }, (_, i) => shardKey(i)));
    } catch {
      return out;
    }
    for (const text of Object.values(items))
      for (const [k, e] of Object.entries(parseShard(text)))
        if (e[0] > now && (e[2] ?? 0) > now) out[k] = { e: e[2]!, v: e[1] };
    return out;
  }
}

/**
 * The shard as text within SHARD_MAX_BYTES (expired entries out, then those
 * expiring soonest), and its latest expiry. The text is measured once; only
 * a shard over the limit is cut down and written again.
 */
function fit(shard: Shard, now: number): { text: string; longest: number } {
  const live = Object.entries(shard).filter(([, e]) => Array.isArray(e) && typeof e[1] === "string" && e[0] > now);
  let text = JSON.stringify(Object.fromEntries(live));
  // A UTF-16 code unit takes at most 3 bytes in UTF-8: shorter text cannot be over.
  if (text.length * 3 > SHARD_MAX_BYTES && utf8Length(text) > SHARD_MAX_BYTES) {
    live.sort((a, b) => a[1][0] - b[1][0]);
    let bytes = live.reduce((s, [k, e]) => s + entryBytes(k, e), 2);
    while (bytes > SHARD_MAX_BYTES) {
      const oldest = live.shift();
      if (!oldest) break;
      bytes -= entryBytes(oldest[0], oldest[1]);
    }
    text = JSON.stringify(Object.fromEntries(live));
  }
  return { text, longest: live.reduce((m, [, e]) => Math.max(m, e[0]), 0) };
}
