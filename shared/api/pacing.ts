/**
 * Pacing of the rate-limited (zero-credit) endpoints. The service limits
 * them with token buckets per key (spec 8.2 rule 3); sending hundreds at once
 * only earns 429s. So the client keeps its own model of each bucket and sends
 * waves no larger than the burst, spaced by the refill rate. Paid endpoints
 * are limited by credits only and are never paced.
 *
 * The defaults are the one rate-limit table: the emulator enforces the same
 * buckets (emulator/ratelimit.ts imports it; documented in emulator/README.md).
 * The real service's numbers are not published: they are a guess that the
 * client corrects at run time through Retry-After on any 429.
 */
import { endpoint, type Endpoint, type EndpointId } from "./endpoints.ts";
import { invalid } from "../core/index.ts";
import { rule } from "../i18n/index.ts";
import { fnv1a32 } from "../core/index.ts";

export type RateBucket = NonNullable<Endpoint["rateBucket"]>;
export interface RateLimit {
  /** Calls the bucket holds when full (the largest wave). */
  burst: number;
  /** Tokens added per second. */
  perSecond: number;
}
export type RateLimits = Record<RateBucket, RateLimit>;
export type RateLimitOverrides = Partial<Record<RateBucket, RateLimit>>;

export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = {
  suggest: { burst: 30, perSecond: 10 },
  resolve: { burst: 5, perSecond: 2 },
  availability: { burst: 20, perSecond: 5 },
  account: { burst: 10, perSecond: 2 },
};

const BUCKETS = Object.keys(DEFAULT_RATE_LIMITS) as RateBucket[];

/** The limits in force: defaults, with the caller's overrides checked (INVALID_INPUT naming the field). */
export function rateLimitsOf(overrides?: RateLimitOverrides): RateLimits {
  const out = { ...DEFAULT_RATE_LIMITS };
  if (overrides === undefined || overrides === null) return out;
  if (typeof overrides !== "object")
    throw invalid("rateLimits", { de: "erwartet ein Objekt je Bucket", en: "expected an object per bucket" });
  for (const [name, v] of Object.entries(overrides)) {
    if (!BUCKETS.includes(name as RateBucket)) throw invalid(`rateLimits.${name}`, rule.oneOf(BUCKETS));
    if (v === undefined) continue;
    if (!Number.isInteger(v?.burst) || v.burst < 1)
      throw invalid(`rateLimits.${name}.burst`, rule.number({ value: 1, inclusive: true }, undefined, true));
    if (typeof v.perSecond !== "number" || !Number.isFinite(v.perSecond) || v.perSecond <= 0)
      throw invalid(`rateLimits.${name}.perSecond`, rule.number({ value: 0, inclusive: false }, undefined, false));
    out[name as RateBucket] = { burst: v.burst, perSecond: v.perSecond };
  }
  return out;
}

/** The bucket an endpoint draws from, or undefined when it is not rate-limited (paid endpoints). */
export function bucketOf(id: EndpointId): RateBucket | undefined {
  const ep = endpoint(id);
  return ep.billing === "rate-limited" ? (ep.rateBucket ?? undefined) : undefined;
}

/** A clock going back further than this belongs to another run (tests, virtual clocks): start full. */
const CLOCK_JUMP_MS = 60_000;

/** The client's model of one server bucket. Times are epoch ms of the caller's clock. */
export class BucketModel {
  private tokens: number;
  private at: number;
  private blockedUntil = 0;

  constructor(
    public limit: RateLimit,
    t: number,
  ) {
    this.tokens = limit.burst;
    this.at = t;
  }

  /** Tokens available at t (refilled since the last look; never more than the burst). */
  level(t: number): number {
    if (t < this.at - CLOCK_JUMP_MS) {
      this.tokens = this.limit.burst;
      this.blockedUntil = 0;
      this.at = t;
    } else if (t > this.at) {
      this.tokens = Math.min(this.limit.burst, this.tokens + ((t - this.at) / 1000) * this.limit.perSecond);
      this.at = t;
    }
    return Math.min(this.tokens, this.limit.burst);
  }

  /** Milliseconds from t until n calls may go (0 = now). n may exceed the burst: a projection. */
  waitFor(n: number, t: number): number {
    const short = n - this.level(t);
    const byTokens = short <= 1e-9 ? 0 : Math.ceil((short / this.limit.perSecond) * 1000);
    return Math.max(byTokens, this.blockedUntil - t, 0);
  }

  take(n: number, t: number): void {
    this.level(t);
    this.tokens -= n;
  }

  /** The server said 429: the bucket is empty now, and stays shut until its Retry-After. */
  exhausted(t: number, retryAt?: number): void {
    this.level(t);
    this.tokens = Math.min(this.tokens, 0);
    if (retryAt !== undefined) this.blockedUntil = Math.max(this.blockedUntil, retryAt);
  }
}

const hash = (s: string) => fnv1a32(s).toString(36);

/**
 * The client's models of the server's buckets, held for as long as the host
 * keeps this object: a host creates one where it builds its context (a task
 * pane, a CLI run, an MCP server, one Apps Script execution) and passes it as
 * ClientConfig.pacer, so consecutive calls (enrichment chunks, monitoring
 * groups) draw from one model while two hosts or two test runs never share
 * one. Within a pacer the models are per base URL and key, like the server's
 * (the key only as a hash, in memory).
 */
export class Pacer {
  private readonly models = new Map<string, BucketModel>();

  /** The model of one bucket, created full at t; a changed limit applies from t on. */
  bucket(baseUrl: string, apiKey: string, bucket: RateBucket, limit: RateLimit, t: number): BucketModel {
    const id = `${baseUrl.replace(/\/+$/, "")}\u0000${hash(apiKey)}\u0000${bucket}`;
    let m = this.models.get(id);
    if (!m) this.models.set(id, (m = new BucketModel(limit, t)));
    else if (m.limit.burst !== limit.burst || m.limit.perSecond !== limit.perSecond) {
      m.level(t);
      m.limit = limit;
    }
    return m;
  }
}
