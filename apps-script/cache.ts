/**
 * The answer cache: CacheService (document cache; 6 h at most, 100 KB a
 * value, 250-character keys, 1,000 items: answers are packed into a fixed
 * number of items, packed-cache.ts), the answer sheet, and a small durable
 * layer in DocumentProperties, for entries that must outlive 6 hours.
 *
 * The answer sheet (ANSWER_SHEET, hidden, one answer a row with its expiry)
 * holds what the user's cache setting keeps longer than CacheService can:
 * every execution may read it, custom functions included ("Read only (can use
 * most get*() methods, but not set*())",
 * https://developers.google.com/apps-script/guides/sheets/functions#using_apps_script_services),
 * so a recalculation after 6 hours finds its answers there. Custom functions
 * cannot write it: what they buy goes to CacheService with its real expiry
 * (packed-cache.ts), and the next sidebar opened from the menu copies those
 * answers into the sheet (`keepFromFast`). A time-driven trigger cannot do
 * that copy: getDocumentCache() is null outside the document. Sidebar steps
 * and scheduled runs write their long-lived answers into the sheet directly.
 * The sheet is capped at ANSWER_SHEET_CHARS, dropping expired answers first,
 * then those that expire soonest.
 *
 * The DocumentProperties layer remains for formulas' answers until then. The durable layer is small on purpose
 * (PropertiesService holds 500 KB a store): values over DURABLE_MAX_CHARS are
 * kept in CacheService only, and the layer is trimmed to DURABLE_BUDGET_CHARS,
 * dropping expired entries first, then those that expire soonest. The layer
 * shares its store with the document's state (monitor, jobs, ledger): it
 * never fills the store's last DURABLE_RESERVE_BYTES, and it gives its space
 * back (`yieldSpace`) when a state write does not fit.
 */
import { readPart, savedCacheEnvelope } from "../shared/core/index.ts";
import { hash128, utf8Length } from "../shared/operations/index.ts";
import { readValues, writeValues } from "./properties.ts";
import { STORE_QUOTA_BYTES, storeBytes } from "./quota.ts";
import { CACHE_MAX_SECONDS, PackedCache } from "./packed-cache.ts";
import type { SheetStore } from "./doc-state.ts";

type Cache = GoogleAppsScript.Cache.Cache;
type Props = GoogleAppsScript.Properties.Properties;

export { CACHE_MAX_SECONDS };
export const DURABLE_PREFIX = "cache:";
export const DURABLE_MAX_CHARS = 12_000;
export const DURABLE_BUDGET_CHARS = 200_000;
/** Room the cache leaves free in the store for state that grows (monitor, jobs, ledger). */
export const DURABLE_RESERVE_BYTES = 32 * 1024;
/** Characters the answer sheet keeps (about 3,800 profiles; cells hold 50,000 characters each, a spreadsheet 10 million cells). */
export const ANSWER_SHEET_CHARS = 5_000_000;

/** The answer sheet, and whether this execution may write it (not a custom function). */
export interface AnswerSheet {
  store: SheetStore;
  writable: boolean;
}

interface DurableEntry {
  key: string;
  chars: number;
  bytes: number;
  e: number;
}

const safeKey = (k: string) => (k.length <= 240 ? k : "h:" + hash128(k));

export class AnswerCache {
  private readonly fast: PackedCache | null;

  constructor(
    cache: Cache | null,
    private readonly durable: Props | null,
    private readonly now: () => number,
    withLock?: <T>(body: () => T) => T,
    private readonly sheet: AnswerSheet | null = null,
  ) {
    this.fast = cache ? new PackedCache(cache, now, withLock) : null;
  }

  getMany(keys: string[]): (string | null)[] {
    const safe = keys.map(safeKey);
    const out = this.fast ? this.fast.getMany(safe) : safe.map(() => null);
    const missing = safe.filter((_, i) => out[i] === null);
    if (missing.length === 0) return out;
    const fromSheet = this.sheet ? this.sheet.store.read(missing) : [];
    const fromProps = this.durable
      ? readValues(
          this.durable,
          missing.map((k) => DURABLE_PREFIX + k),
        )
      : [];
    const stored = missing.map((_, i) => fromSheet[i] ?? fromProps[i] ?? null);
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
    const kept: Record<string, { e: number; v: string }> = {};
    for (const [k, v] of Object.entries(entries)) {
      const key = safeKey(k);
      fast[key] = v;
      if (ttlSeconds > CACHE_MAX_SECONDS) kept[key] = { e: expires, v };
      if (ttlSeconds > CACHE_MAX_SECONDS && v.length <= DURABLE_MAX_CHARS)
        slow[DURABLE_PREFIX + key] = JSON.stringify({ e: expires, v });
    }
    if (this.fast && Object.keys(fast).length) this.fast.putMany(fast, ttlSeconds);
    if (this.sheet?.writable && Object.keys(kept).length) return void this.keep(kept);
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

  /** Copy the long-lived answers formulas left in CacheService into the answer sheet; answers how many were new. */
  keepFromFast(): number {
    if (!this.fast || !this.sheet?.writable) return 0;
    return this.keep(this.fast.longLived());
  }

  private keptMap: Map<string, { e: number; v: string }> | null = null;
  /** The answer sheet's entries, read and parsed once per execution (this execution's writes keep it current). */
  private kept(): Map<string, { e: number; v: string }> {
    if (this.keptMap) return this.keptMap;
    const have = new Map<string, { e: number; v: string }>();
    for (const [k, text] of this.sheet!.store.all()) {
      const x = parse(text);
      if (x) have.set(k, x);
    }
    return (this.keptMap = have);
  }

  /**
   * Write answers into the answer sheet (one block), dropping expired ones
   * and, over ANSWER_SHEET_CHARS, those that expire soonest. Answers how many
   * keys were new or longer-lived than what the sheet had.
   */
  private keep(entries: Record<string, { e: number; v: string }>): number {
    const store = this.sheet!.store;
    const now = this.now();
    const have = this.kept();
    const write: Record<string, string | null> = {};
    let added = 0;
    for (const [k, x] of Object.entries(entries)) {
      if (x.e <= now || x.v.length > 40_000 || (have.get(k)?.e ?? 0) >= x.e) continue;
      have.set(k, x);
      write[k] = JSON.stringify(x);
      added++;
    }
    if (!added) return 0;
    let chars = 0;
    for (const [k, x] of [...have].sort((a, b) => b[1].e - a[1].e)) {
      chars += k.length + x.v.length;
      if (x.e <= now || chars > ANSWER_SHEET_CHARS) {
        write[k] = null;
        have.delete(k);
      }
    }
    try {
      store.write(write);
    } catch {
      this.keptMap = null;
      return 0; // the answers stay in CacheService; a later sidebar tries again
    }
    return added;
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
    const replaced = Object.keys(incoming).reduce(
      (s, k) => s + (all[k] !== undefined ? utf8Length(k) + utf8Length(all[k]) : 0),
      0,
    );
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
