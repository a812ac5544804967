/**
 * Fault injection, off by default. Draws come from a seeded generator, so a
 * failing sequence can be replayed with the same seed.
 */
import { Rng } from "./rng.ts";

export interface FaultConfig {
  /** Added to every API answer. */
  latencyMs: number;
  /** Extra latency drawn uniformly from [0, jitterMs]. */
  jitterMs: number;
  /** Share (0..1) of API calls answered 500 or 503 (half each). */
  failRate: number;
  /** Share (0..1) of API calls whose connection is dropped without an answer. */
  dropRate: number;
  /** The next N API calls answer 429. */
  rateLimitBurst: number;
  /** Recurring bursts: after every `burstEvery` API calls, the next `burstLength` calls answer 429. 0 = off. */
  burstEvery: number;
  /** Length of each recurring burst (calls answered 429). */
  burstLength: number;
  /** Retry-After (seconds) sent with burst 429s (one-shot and recurring). */
  burstRetryAfterSeconds: number;
  /** After this many more credits are charged (all keys together), paid calls answer 402. null = off. */
  creditsRunOutAfter: number | null;
}

export const NO_FAULTS: FaultConfig = {
  latencyMs: 0,
  jitterMs: 0,
  failRate: 0,
  dropRate: 0,
  rateLimitBurst: 0,
  burstEvery: 0,
  burstLength: 3,
  burstRetryAfterSeconds: 1,
  creditsRunOutAfter: null,
};

export type FaultDecision =
  { kind: "none" } | { kind: "drop" } | { kind: "status"; status: 500 | 503 } | { kind: "burst"; retryAfter: number };

export class Faults {
  config: FaultConfig;
  private rng: Rng;
  /** Credits charged since creditsRunOutAfter was set. */
  charged = 0;
  /** API calls seen since the recurring-burst settings last changed. */
  private calls = 0;
  constructor(seed: number, initial: Partial<FaultConfig> = {}) {
    this.rng = Rng.for(seed, "faults");
    this.config = { ...NO_FAULTS, ...initial };
  }
  set(patch: Partial<FaultConfig>): FaultConfig {
    if ("creditsRunOutAfter" in patch) this.charged = 0;
    if ("burstEvery" in patch || "burstLength" in patch) this.calls = 0;
    this.config = { ...this.config, ...patch };
    return this.config;
  }
  reset(): FaultConfig {
    this.charged = 0;
    this.calls = 0;
    this.config = { ...NO_FAULTS };
    return this.config;
  }
  delay(): number {
    const c = this.config;
    return c.latencyMs + (c.jitterMs > 0 ? Math.round(this.rng.next() * c.jitterMs) : 0);
  }
  decide(): FaultDecision {
    const c = this.config;
    if (c.rateLimitBurst > 0) {
      c.rateLimitBurst--;
      return { kind: "burst", retryAfter: c.burstRetryAfterSeconds };
    }
    if (c.burstEvery > 0 && c.burstLength > 0) {
      const k = this.calls++ % (c.burstEvery + c.burstLength);
      if (k >= c.burstEvery) return { kind: "burst", retryAfter: c.burstRetryAfterSeconds };
    }
    if (c.dropRate > 0 && this.rng.next() < c.dropRate) return { kind: "drop" };
    if (c.failRate > 0 && this.rng.next() < c.failRate)
      return { kind: "status", status: this.rng.next() < 0.5 ? 500 : 503 };
    return { kind: "none" };
  }
  /** Credits still allowed by creditsRunOutAfter (Infinity when off). */
  remaining(): number {
    return this.config.creditsRunOutAfter === null
      ? Infinity
      : Math.max(0, this.config.creditsRunOutAfter - this.charged);
  }
}
