/**
 * Durable storage for the Excel host on OfficeRuntime.storage (per user and
 * per domain, 10 MB, unencrypted; shared by the functions, the task pane
 * and the commands in the shared runtime).
 *
 * Key layout inside OfficeRuntime.storage:
 *   cd:user:<name>          `user:` store keys (API key, language, base URL)
 *   cd:doc:<docId>:<name>   `doc:` store keys, scoped to one workbook
 *   cd:cache:<key>          cached answers, JSON {e: expiry ms, v: value}
 * The workbook id lives in the workbook's settings; nothing else does (the
 * API key never goes into a workbook).
 */
export interface KeyValueStorage {
  getItems(keys: string[]): Promise<Record<string, string | null | undefined>>;
  setItems(entries: Record<string, string>): Promise<void>;
  removeItems(keys: string[]): Promise<void>;
}

export const storageKeyFor = (storeKey: string, docId: string): string => {
  if (storeKey.startsWith("user:")) return `cd:${storeKey}`;
  if (storeKey.startsWith("doc:")) return `cd:doc:${docId}:${storeKey.slice(4)}`;
  // Un-namespaced keys are treated as per-document: the safe default for state.
  return `cd:doc:${docId}:${storeKey}`;
};

/** storeGet/storePut over OfficeRuntime.storage. */
export function durableStore(storage: KeyValueStorage, docId: () => Promise<string>) {
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
      if (Object.keys(set).length) await storage.setItems(set);
      if (remove.length) await storage.removeItems(remove);
    },
  };
}

/**
 * Two-level cache: memory first (free and instant), then OfficeRuntime.storage,
 * so Excel's recalculation after a reload finds yesterday's answers without
 * a request. Writing to storage is best effort: a full store (10 MB) costs a
 * later request, never a wrong answer.
 */
export function layeredCache(storage: KeyValueStorage, now: () => number) {
  const memory = new Map<string, { v: string; e: number }>();
  const name = (k: string) => `cd:cache:${k}`;
  return {
    memory,
    async cacheGet(keys: string[]): Promise<(string | null)[]> {
      const t = now();
      const out: (string | null)[] = keys.map((k) => {
        const hit = memory.get(k);
        return hit && hit.e > t ? hit.v : null;
      });
      const missing = keys.filter((_, i) => out[i] === null);
      if (missing.length === 0) return out;
      let got: Record<string, string | null | undefined> = {};
      try {
        got = await storage.getItems(missing.map(name));
      } catch {
        return out;
      }
      keys.forEach((k, i) => {
        if (out[i] !== null) return;
        const raw = got[name(k)];
        if (!raw) return;
        try {
          const entry = JSON.parse(raw) as { v: string; e: number };
          if (typeof entry.v === "string" && entry.e > t) {
            memory.set(k, entry);
            out[i] = entry.v;
          }
        } catch {
          /* a damaged entry is a miss */
        }
      });
      return out;
    },
    async cachePut(entries: Record<string, string>, ttlSeconds: number): Promise<void> {
      const e = now() + ttlSeconds * 1000;
      const durable: Record<string, string> = {};
      for (const [k, v] of Object.entries(entries)) {
        memory.set(k, { v, e });
        durable[name(k)] = JSON.stringify({ v, e });
      }
      try {
        await storage.setItems(durable);
      } catch {
        /* quota: memory still answers in this session */
      }
    },
  };
}

/** An in-memory KeyValueStorage with OfficeRuntime.storage's shape, for tests and the simulated runtime. */
export function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    async getItems(keys) {
      return Object.fromEntries(keys.map((k) => [k, data.get(k) ?? null]));
    },
    async setItems(entries) {
      for (const [k, v] of Object.entries(entries)) data.set(k, v);
    },
    async removeItems(keys) {
      for (const k of keys) data.delete(k);
    },
  };
}
