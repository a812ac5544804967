/**
 * The one retry policy: honour Retry-After (seconds or an HTTP date),
 * otherwise exponential backoff with full jitter, random(0, min(cap, base·2^n)),
 * and never wait past the caller's deadline.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included (failures the server did not schedule). */
  maxAttempts: number;
  /**
   * Waits on a 429 that says when to come back (Retry-After). The server asked
   * us to wait, it did not fail, so these do not use up `maxAttempts`; they are
   * bounded by this count and by the deadline.
   */
  maxRateLimitWaits: number;
  baseMs: number;
  capMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, maxRateLimitWaits: 20, baseMs: 250, capMs: 8_000 };

const HTTP_DATE = [
  /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/, // IMF-fixdate
  /^[A-Za-z]+, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/, // RFC 850
  /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/, // asctime
];

/** Milliseconds to wait from `now`, or undefined when the header is absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(parseFloat(v) * 1000);
  // Only the three HTTP-date forms (RFC 9110 5.6.7): engines parse far more
  // ("soon 12" is a date in 2001 to V8), which would turn garbage into "retry now".
  if (!HTTP_DATE.some((re) => re.test(v))) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Full-jitter backoff for the n-th retry (n = 1 for the first retry). */
export function backoffMs(n: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (n - 1));
  return Math.floor(random() * ceiling);
}

/**
 * How long to wait before retry number `n`, or null to give up: attempts are
 * used up, or the wait would end after the deadline.
 */
export function nextDelay(args: {
  n: number;
  retryAfterMs?: number;
  policy: RetryPolicy;
  now: number;
  deadline?: number;
  random: () => number;
}): number | null {
  if (args.n >= args.policy.maxAttempts) return null;
  const wait = args.retryAfterMs ?? backoffMs(args.n, args.policy, args.random);
  if (args.deadline !== undefined && args.now + wait >= args.deadline) return null;
  return wait;
}
