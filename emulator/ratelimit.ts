/**
 * Token buckets per (API key, bucket) for the zero-credit endpoints (spec 8.2
 * rule 3). Suggest has a deep bucket for typing bursts; resolve a shallow one
 * refilled steadily, so looping single resolves cannot stand in for batch
 * resolve. The clock is injected so tests need no real waiting.
 */
import { DEFAULT_RATE_LIMITS as CLIENT_RATE_LIMITS, type RateBucket, type RateLimit } from "../shared/api/index.ts";

export interface BucketConfig {
  capacity: number;
  refillPerSecond: number;
}
export type BucketName = RateBucket;
export type RateLimits = Record<BucketName, BucketConfig>;

/**
 * The client's table (shared/api/pacing.ts), in the emulator's words: one
 * table, so the client paces by the buckets the emulator enforces. Decisions
 * (documented in emulator/README.md).
 */
const inEmulatorWords = (l: RateLimit): BucketConfig => ({ capacity: l.burst, refillPerSecond: l.perSecond });
export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = {
  suggest: inEmulatorWords(CLIENT_RATE_LIMITS.suggest),
  resolve: inEmulatorWords(CLIENT_RATE_LIMITS.resolve),
  availability: inEmulatorWords(CLIENT_RATE_LIMITS.availability),
  account: inEmulatorWords(CLIENT_RATE_LIMITS.account),
};

export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    public limits: RateLimits,
    private now: () => number,
  ) {}

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
