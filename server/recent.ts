/**
 * A value asked for by many requests at once, kept for a short while
 * (issue 43, item 4): the first asks, the others share its promise, and the
 * value is kept `ms` from the moment it was *asked* (not answered), so what
 * a request sees is never older than `ms` however slow the database was.
 * A failure is not kept: the next request asks again.
 */
export interface Recent<T> {
  get(key: string, ask: () => Promise<T>): Promise<T>;
  /** Forget a key (its next request asks again). */
  drop(key: string): void;
}

export function recent<T>(ms: number, opts: { max?: number; keep?: (v: T) => boolean } = {}): Recent<T> {
  const max = opts.max ?? 10_000;
  const keep = opts.keep ?? (() => true);
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  const sweep = (now: number) => {
    for (const [k, e] of entries) if (now - e.at >= ms) entries.delete(k);
    // Still full (a burst of distinct keys within `ms`): the oldest go first.
    for (const k of entries.keys()) {
      if (entries.size < max) break;
      entries.delete(k);
    }
  };
  return {
    get(key, ask) {
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && now - hit.at < ms) return hit.value;
      if (entries.size >= max) sweep(now);
      const value = ask();
      const entry = { at: now, value };
      entries.set(key, entry);
      const forget = () => {
        if (entries.get(key) === entry) entries.delete(key);
      };
      value.then((v) => (keep(v) ? undefined : forget()), forget);
      return value;
    },
    drop: (key) => void entries.delete(key),
  };
}
