/**
 * The answer cache: CacheService (document cache; 6 h at most, 100 KB a
 * value, 250-character keys, 1,000 items: answers are packed into a fixed
 * number of items, packed-cache.ts) plus a durable layer in DocumentProperties for
 * entries that must outlive 6 hours. The durable layer is small on purpose
 * (PropertiesService holds 500 KB a store): values over DURABLE_MAX_CHARS are
 * kept in CacheService only, and the layer is trimmed to DURABLE_BUDGET_CHARS,
 * dropping expired entries first, then those that expire soonest. The layer
 * shares its store with the document's state (monitor, jobs, ledger): it
 * never fills the store's last DURABLE_RESERVE_BYTES, and it gives its space
 * back (`yieldSpace`) when a state write does not fit.
 */
import { readPart, savedCacheEnvelope } from "../shared/core/saved.ts";
import { hash128, utf8Length } from "../shared/operations/cache-key.ts";
import { readValues, writeValues } from "./properties.ts";
import { STORE_QUOTA_BYTES, storeBytes } from "./quota.ts";
import { CACHE_MAX_SECONDS, PackedCache } from "./packed-cache.ts";

type Cache = GoogleAppsScript.Cache.Cache;
type Props = GoogleAppsScript.Properties.Properties;

export { CACHE_MAX_SECONDS };
export const DURABLE_PREFIX = "cache:";
export const DURABLE_MAX_CHARS = 12_000;
export const DURABLE_BUDGET_CHARS = 200_000;
/** Room the cache leaves free in the store for state that grows (monitor, jobs, ledger). */
export const DURABLE_RESERVE_BYTES = 32 * 1024;

interface DurableEntry { key: string; chars: number; bytes: number; e: number }

const safeKey = (k: string) => (k.length <= 240 ? k : "h:" + hash128(k));

export class AnswerCache {
  private readonly fast: PackedCache | null;

  constructor(cache: Cache | null, private readonly durable: Props | null, private readonly now: () => number, withLock?: <T>(body: () => T) => T) {
    this.fast = cache ? new PackedCache(cache, now, withLock) : null;
  }

  getMany(keys: string[]): (string | null)[] {
    const safe = keys.map(safeKey);
    const out = this.fast ? this.fast.getMany(safe) : safe.map(() => null);
    const missing = safe.filter((_, i) => out[i] === null);
    if (missing.length === 0 || !this.durable) return out;
    const stored = readValues(this.durable, missing.map((k) => DURABLE_PREFIX + k));
    const warm: Record<string, string> = {};
    let warmTtl = CACHE_MAX_SECONDS;
    const now = this.now();
    const found = new Map<string, string>();
    missing.forEach((k, i) => {
      const entry = parse(stored[i] ?? null); // one answer per key asked
      if (!entry || entry.e <= now) return;
      found.set(k, entry.v);
      warm[k] = entry.v;
      warmTtl = Math.min(warmTtl, Math.max(1, Math.floor((entry.e - now) / 1000)));
    });
    // Put durable hits back into the fast cache for the next recalculation.
    if (found.size && this.fast) this.fast.putMany(warm, warmTtl);
    return safe.map((k, i) => out[i] ?? found.get(k) ?? null);
  }

  putMany(entries: Record<string, string>, ttlSeconds: number): void {
    if (ttlSeconds <= 0) return;
    const fast: Record<string, string> = {};
    const slow: Record<string, string> = {};
    const expires = this.now() + ttlSeconds * 1000;
    for (const [k, v] of Object.entries(entries)) {
      const key = safeKey(k);
      fast[key] = v;
      if (ttlSeconds > CACHE_MAX_SECONDS && v.length <= DURABLE_MAX_CHARS) slow[DURABLE_PREFIX + key] = JSON.stringify({ e: expires, v });
    }
    if (this.fast && Object.keys(fast).length) this.fast.putMany(fast, ttlSeconds);
    if (this.durable && Object.keys(slow).length) {
      try {
        const all = this.durable.getProperties();
        const drop = this.trim(all, slow);
        if (drop) writeValues(this.durable, { ...drop, ...slow }, all);
      } catch {
        /* the store is full: this answer stays in the fast cache only */
      }
    }
  }

  /**
   * Delete durable entries, expired and soonest-expiring first, until at
   * least `bytes` are freed (all of them with Infinity). Answers the bytes freed.
   */
  yieldSpace(bytes: number): number {
    if (!this.durable) return 0;
    const all = this.durable.getProperties();
    const drop: Record<string, null> = {};
    let freed = 0;
    for (const x of this.entries(all)) {
      if (freed >= bytes) break;
      drop[x.key] = null;
      freed += x.bytes;
    }
    if (Object.keys(drop).length) writeValues(this.durable, drop, all);
    return freed;
  }

  /** The layer's entries (parts counted with their main key), expired and soonest-expiring first. */
  private entries(all: Record<string, string>, skip: Record<string, unknown> = {}): DurableEntry[] {
    const out: DurableEntry[] = [];
    for (const [key, value] of Object.entries(all)) {
      if (!key.startsWith(DURABLE_PREFIX) || key.includes("#") || key in skip) continue;
      const [text = null] = readValues(this.durable!, [key], all);
      let bytes = utf8Length(key) + utf8Length(value);
      for (let i = 1; ; i++) {
        const part = all[`${key}#${i}`];
        if (part === undefined) break;
        bytes += utf8Length(`${key}#${i}`) + utf8Length(part);
      }
      out.push({ key, chars: text?.length ?? 0, bytes, e: parse(text)?.e ?? 0 });
    }
    return out.sort((a, b) => a.e - b.e);
  }

  /**
   * Entries to delete so that the durable layer stays within its budget after
   * adding `incoming`, and the store keeps DURABLE_RESERVE_BYTES free; null
   * when `incoming` cannot fit at all (then it is not written).
   */
  private trim(all: Record<string, string>, incoming: Record<string, string>): Record<string, null> | null {
    const now = this.now();
    const entries = this.entries(all, incoming);
    const inChars = Object.values(incoming).reduce((s, v) => s + v.length, 0);
    // Parts add a little; count the incoming text as it will be stored.
    const inBytes = Object.entries(incoming).reduce((s, [k, v]) => s + utf8Length(k) + utf8Length(v) + 64, 0);
    let chars = inChars;
    let cacheBytes = inBytes;
    for (const x of entries) {
      chars += x.chars;
      cacheBytes += x.bytes;
    }
    // Whatever is not this layer's (incoming keys replace their old values) stays as it is.
    const replaced = Object.keys(incoming).reduce((s, k) => s + (all[k] !== undefined ? utf8Length(k) + utf8Length(all[k]) : 0), 0);
    const others = storeBytes(all) - entries.reduce((s, x) => s + x.bytes, 0) - replaced;
    const roomBytes = STORE_QUOTA_BYTES - DURABLE_RESERVE_BYTES - others;
    if (inBytes > roomBytes) return null;
    const drop: Record<string, null> = {};
    for (const x of entries) {
      if (x.e > now && chars <= DURABLE_BUDGET_CHARS && cacheBytes <= roomBytes) break;
      drop[x.key] = null;
      chars -= x.chars;
      cacheBytes -= x.bytes;
    }
    return drop;
  }
}

function parse(text: string | null): { e: number; v: string } | null {
  return readPart(savedCacheEnvelope, text) ?? null;
}
