/**
 * Durable storage for the Excel host on OfficeRuntime.storage (shared by
 * the functions and the task pane in the shared runtime).
 *
 * The platform rule this is built around (Microsoft, "OfficeRuntime.Storage
 * interface", learn.microsoft.com/javascript/api/office-runtime/officeruntime.storage,
 * and "Runtimes in Office Add-ins" / custom-functions-runtime.md): persistent,
 * unencrypted key-value storage, **10 MB per domain, which may be shared by
 * multiple add-ins**, with getItems / setItems / removeItems / getKeys. The
 * documentation does not say how a full store fails: any rejected setItems
 * is treated as "full". Entries never expire by themselves.
 *
 * So the cache can never take the settings, the budget or the spend log
 * down with it:
 *  - expired and damaged cache entries are deleted when the runtime starts
 *    (the first cache use), so yesterday's answers do not pile up;
 *  - the durable cache is capped (CACHE_CAP_BYTES, well under 10 MB, since
 *    other add-ins of the same domain share the quota): a write that would
 *    pass the cap first evicts the entries closest to expiry;
 *  - a rejected cache write evicts half the cache and tries once more, then
 *    keeps the answer in memory only (a later request, never a wrong answer);
 *  - a rejected settings/budget/ledger write first empties the cache and
 *    retries; only if that fails too does the user see STORAGE_FULL.
 *
 * Key layout inside OfficeRuntime.storage:
 *   cd:user:<name>          `user:` store keys (API key, language, base URL)
 *   cd:doc:<docId>:<name>   `doc:` store keys, scoped to one workbook
 *   cd:cache:<key>          cached answers, JSON {e: expiry ms, v: value}
 * The workbook's own state (the `doc:` keys that describe the document) is
 * kept in the workbook's settings by ./document-state.ts; what arrives here
 * under `cd:doc:` is what stays per device (the formula budget and spend
 * log, the webhook address) or what the file could not take. The API key
 * never goes into a workbook.
 */
import { CompanyDataError } from "../../shared/core/index.ts";
import { readPart, savedCacheEnvelope } from "../../shared/core/index.ts";

export interface KeyValueStorage {
  getItems(keys: string[]): Promise<Record<string, string | null | undefined>>;
  setItems(entries: Record<string, string>): Promise<void>;
  removeItems(keys: string[]): Promise<void>;
  getKeys(): Promise<string[]>;
}

/** The documented quota: 10 MB per domain. */
export const STORAGE_QUOTA_BYTES = 10 * 1024 * 1024;
/** What the durable cache may take of it: the rest is for settings, workbook state and other add-ins of the domain. */
export const CACHE_CAP_BYTES = 4 * 1024 * 1024;
/** Answers the memory layer keeps per session (oldest dropped first). */
export const MEMORY_CAP_ENTRIES = 20_000;

/**
 * Size of one item as counted here: UTF-16 bytes of key and value. The
 * documentation does not say how Office counts; browsers' Web Storage
 * counts UTF-16 code units, so this is the conservative reading.
 */
export const itemBytes = (key: string, value: string) => 2 * (key.length + value.length);

export const CACHE_PREFIX = "cd:cache:";

export const storageKeyFor = (storeKey: string, docId: string): string => {
  if (storeKey.startsWith("user:")) return `cd:${storeKey}`;
  if (storeKey.startsWith("doc:")) return `cd:doc:${docId}:${storeKey.slice(4)}`;
  // Un-namespaced keys are treated as per-document: the safe default for state.
  return `cd:doc:${docId}:${storeKey}`;
};

const storageFull = () =>
  new CompanyDataError("STORAGE_FULL", {
    detail: {
      de: "Der Add-in-Speicher von Excel (10 MB je Domäne, geteilt mit anderen Add-ins derselben Domäne) nimmt nichts mehr auf, auch nachdem der Zwischenspeicher geleert wurde. Bitte andere Add-ins derselben Herkunft prüfen",
      en: "Excel's add-in storage (10 MB per domain, shared with other add-ins of the same domain) takes nothing more, even after the cache was emptied. Please check other add-ins of the same origin",
    },
  });

/** What the store does when a write is refused: free space (the cache) and say whether anything was freed. */
export type MakeRoom = () => Promise<boolean>;

/** storeGet/storePut over OfficeRuntime.storage; a refused write empties the cache and tries again. */
export function durableStore(storage: KeyValueStorage, docId: () => Promise<string>, makeRoom?: MakeRoom) {
  return {
    async storeGet(keys: string[]): Promise<(string | null)[]> {
      const id = await docId();
      const names = keys.map((k) => storageKeyFor(k, id));
      const got = await storage.getItems(names);
      return names.map((n) => got[n] ?? null);
    },
    async storePut(entries: Record<string, string | null>): Promise<void> {
      const id = await docId();
      const set: Record<string, string> = {};
      const remove: string[] = [];
      for (const [k, v] of Object.entries(entries)) {
        const n = storageKeyFor(k, id);
        if (v === null) remove.push(n);
        else set[n] = v;
      }
      if (Object.keys(set).length) {
        try {
          await storage.setItems(set);
        } catch {
          // Settings and budget come before cached answers: make room, then once more.
          if (!makeRoom || !(await makeRoom())) throw storageFull();
          try {
            await storage.setItems(set);
          } catch {
            throw storageFull();
          }
        }
      }
      if (remove.length) await storage.removeItems(remove);
    },
  };
}

interface Indexed {
  /** Expiry, epoch ms. */
  e: number;
  bytes: number;
}

export interface LayeredCache {
  memory: Map<string, { v: string; e: number }>;
  cacheGet(keys: string[]): Promise<(string | null)[]>;
  cachePut(entries: Record<string, string>, ttlSeconds: number): Promise<void>;
  /** Delete every durable cache entry (the store's last resort before STORAGE_FULL); whether anything was deleted. */
  clearDurable(): Promise<boolean>;
  /** Bytes the durable cache takes, as counted by itemBytes (after start-up pruning). */
  durableBytes(): Promise<number>;
}

/**
 * Two-level cache: memory first (free and instant), then OfficeRuntime.storage,
 * so Excel's recalculation after a reload finds yesterday's answers without
 * a request. Writing to storage is best effort and bounded (see the top).
 */
export function layeredCache(storage: KeyValueStorage, now: () => number, capBytes = CACHE_CAP_BYTES): LayeredCache {
  const layers: Layers = { storage, now, capBytes, memory: new Map(), durable: durableIndex(storage, now) };
  const { durable } = layers;
  return {
    memory: layers.memory,
    cacheGet: (keys) => cacheGet(layers, keys),
    cachePut: (entries, ttlSeconds) => cachePut(layers, entries, ttlSeconds),
    async clearDurable(): Promise<boolean> {
      await durable.start();
      let keys = [...durable.keys()];
      try {
        // Also what this session did not index (written by another runtime of the same domain).
        keys = [...new Set([...keys, ...(await storage.getKeys()).filter((k) => k.startsWith(CACHE_PREFIX))])];
      } catch {
        /* the index is what we know */
      }
      await durable.remove(keys);
      return keys.length > 0;
    },
    async durableBytes(): Promise<number> {
      await durable.start();
      return durable.total();
    },
  };
}

/** What the cache's operations share: the storage, the clock, the cap and both layers. */
interface Layers {
  storage: KeyValueStorage;
  now: () => number;
  capBytes: number;
  memory: Map<string, { v: string; e: number }>;
  durable: DurableIndex;
}

type DurableIndex = ReturnType<typeof durableIndex>;

const cacheName = (k: string) => `${CACHE_PREFIX}${k}`;

/**
 * The durable entries: storage key → expiry and size. Built once from storage
 * at start, kept in step after, so the cap is enforced without reading
 * storage back on every write.
 */
function durableIndex(storage: KeyValueStorage, now: () => number) {
  const index = new Map<string, Indexed>();
  let total = 0;
  let started: Promise<void> | undefined;

  const forget = (keys: string[]) => {
    for (const k of keys) {
      const i = index.get(k);
      if (i) total -= i.bytes;
      index.delete(k);
    }
  };
  const remember = (k: string, e: number, bytes: number) => {
    forget([k]);
    index.set(k, { e, bytes });
    total += bytes;
  };
  const remove = async (keys: string[]) => {
    if (!keys.length) return;
    forget(keys);
    try {
      await storage.removeItems(keys);
    } catch {
      /* left behind: the next start prunes it if expired */
    }
  };

  /** Start-up: index what is stored, delete what has expired or cannot be read. */
  const start = () =>
    (started ??= (async () => {
      try {
        const keys = (await storage.getKeys()).filter((k) => k.startsWith(CACHE_PREFIX));
        const t = now();
        const dead: string[] = [];
        for (let i = 0; i < keys.length; i += 500) {
          const chunk = keys.slice(i, i + 500);
          const got = await storage.getItems(chunk);
          for (const k of chunk) {
            const raw = got[k];
            const e = expiryOf(raw);
            if (raw && e !== undefined && e > t) remember(k, e, itemBytes(k, raw));
            else dead.push(k);
          }
        }
        await remove(dead);
      } catch {
        /* storage unreadable: the cache works from memory; writes still try */
      }
    })());

  /** Evict the durable entries closest to expiry until `needed` more bytes fit under `limit`. */
  const evictFor = async (needed: number, limit: number) => {
    if (total + needed <= limit) return;
    const victims: string[] = [];
    let freed = 0;
    for (const [k, i] of [...index].sort((a, b) => a[1].e - b[1].e)) {
      if (total - freed + needed <= limit) break;
      victims.push(k);
      freed += i.bytes;
    }
    await remove(victims);
  };

  return {
    keys: () => index.keys(),
    bytesOf: (k: string) => index.get(k)?.bytes,
    total: () => total,
    remember,
    remove,
    start,
    evictFor,
  };
}

/** Keep an answer in memory as the newest entry, dropping the oldest past MEMORY_CAP_ENTRIES. */
function rememberInMemory(memory: Map<string, { v: string; e: number }>, k: string, entry: { v: string; e: number }) {
  memory.delete(k);
  memory.set(k, entry);
  while (memory.size > MEMORY_CAP_ENTRIES) memory.delete(memory.keys().next().value as string);
}

/** Memory hits first; the misses are looked up in storage in one read (a storage failure is a miss). */
async function cacheGet(layers: Layers, keys: string[]): Promise<(string | null)[]> {
  const { storage, now, memory, durable } = layers;
  const t = now();
  const out: (string | null)[] = keys.map((k) => {
    const hit = memory.get(k);
    return hit && hit.e > t ? hit.v : null;
  });
  const missing = keys.filter((_, i) => out[i] === null);
  if (missing.length === 0) return out;
  await durable.start();
  let got: Record<string, string | null | undefined> = {};
  try {
    got = await storage.getItems(missing.map(cacheName));
  } catch {
    return out;
  }
  keys.forEach((k, i) => {
    if (out[i] !== null) return;
    const raw = got[cacheName(k)];
    if (!raw) return;
    // A damaged entry is a miss.
    const entry = readPart(savedCacheEnvelope, raw);
    if (entry && entry.e > t) {
      rememberInMemory(memory, k, entry);
      out[i] = entry.v;
    }
  });
  return out;
}

/** Every answer goes to memory; those that fit the cap also to storage, after evicting what must go. */
async function cachePut(layers: Layers, entries: Record<string, string>, ttlSeconds: number): Promise<void> {
  const { storage, now, capBytes, memory, durable } = layers;
  const e = now() + ttlSeconds * 1000;
  await durable.start();
  const toStore: Record<string, string> = {};
  let bytes = 0;
  for (const [k, v] of Object.entries(entries)) {
    rememberInMemory(memory, k, { v, e });
    const raw = JSON.stringify({ v, e });
    const b = itemBytes(cacheName(k), raw);
    if (b > capBytes) continue; // one answer larger than the whole cache: memory only
    toStore[cacheName(k)] = raw;
    bytes += b - (durable.bytesOf(cacheName(k)) ?? 0);
  }
  const keys = Object.keys(toStore);
  if (!keys.length) return;
  await durable.evictFor(bytes, capBytes);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await storage.setItems(toStore);
      for (const [k, raw] of Object.entries(toStore)) durable.remember(k, e, itemBytes(k, raw));
      return;
    } catch {
      // Refused (the domain's 10 MB are shared): give up half of what the cache holds, then once more.
      if (attempt === 0) await durable.evictFor(bytes, Math.floor(durable.total() / 2));
    }
  }
  /* still refused: memory answers in this session */
}

function expiryOf(raw: string | null | undefined): number | undefined {
  return readPart(savedCacheEnvelope, raw)?.e;
}

/**
 * An in-memory KeyValueStorage with OfficeRuntime.storage's shape and its
 * documented limit, for tests and the simulated runtime: 10 MB per domain
 * (counted as itemBytes), `usedByOthers` bytes taken by other add-ins of the
 * same domain; a setItems that would pass the quota is rejected whole (a
 * QuotaExceededError, as Web Storage names it) and writes nothing.
 */
export function memoryStorage(
  opts: { quotaBytes?: number; usedByOthers?: number } = {},
): KeyValueStorage & { data: Map<string, string>; usedBytes(): number } {
  const data = new Map<string, string>();
  const quota = opts.quotaBytes ?? STORAGE_QUOTA_BYTES;
  const others = opts.usedByOthers ?? 0;
  const used = () => others + [...data].reduce((n, [k, v]) => n + itemBytes(k, v), 0);
  return {
    data,
    usedBytes: used,
    async getItems(keys) {
      return Object.fromEntries(keys.map((k) => [k, data.get(k) ?? null]));
    },
    async setItems(entries) {
      let after = used();
      for (const [k, v] of Object.entries(entries))
        after += itemBytes(k, v) - (data.has(k) ? itemBytes(k, data.get(k)!) : 0);
      if (after > quota) {
        const e = new Error("The quota has been exceeded.");
        e.name = "QuotaExceededError";
        throw e;
      }
      for (const [k, v] of Object.entries(entries)) data.set(k, v);
    },
    async removeItems(keys) {
      for (const k of keys) data.delete(k);
    },
    async getKeys() {
      return [...data.keys()];
    },
  };
}
