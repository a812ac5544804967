/**
 * Token buckets per (API key, bucket) for the zero-credit endpoints (spec 8.2
 * rule 3). Suggest has a deep bucket for typing bursts; resolve a shallow one
 * refilled steadily, so looping single resolves cannot stand in for batch
 * resolve. The clock is injected so tests need no real waiting.
 */
export interface BucketConfig { capacity: number; refillPerSecond: number }
export type BucketName = "suggest" | "resolve" | "availability" | "account";
export type RateLimits = Record<BucketName, BucketConfig>;

/** Decisions (documented in emulator/README.md). */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  suggest: { capacity: 30, refillPerSecond: 10 },
  resolve: { capacity: 5, refillPerSecond: 2 },
  availability: { capacity: 20, refillPerSecond: 5 },
  account: { capacity: 10, refillPerSecond: 2 },
};

export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  constructor(public limits: RateLimits, private now: () => number) {}

  /** Take one token; returns 0 when allowed, else the seconds to wait (Retry-After). */
  take(key: string, bucket: BucketName): number {
    const cfg = this.limits[bucket];
    const id = key + "\u0000" + bucket;
    const t = this.now();
    const b = this.buckets.get(id) ?? { tokens: cfg.capacity, at: t };
    b.tokens = Math.min(cfg.capacity, b.tokens + ((t - b.at) / 1000) * cfg.refillPerSecond);
    b.at = t;
    this.buckets.set(id, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / cfg.refillPerSecond));
  }

  reset(key?: string): void {
    if (!key) return this.buckets.clear();
    for (const id of [...this.buckets.keys()]) if (id.startsWith(key + "\u0000")) this.buckets.delete(id);
  }
}
