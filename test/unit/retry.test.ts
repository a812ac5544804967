import { describe, expect, test } from "vitest";
import { backoffMs, DEFAULT_RETRY, nextDelay, parseRetryAfter } from "../../shared/core/retry.ts";

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);

describe("parseRetryAfter", () => {
  test("seconds", () => {
    expect(parseRetryAfter("120", NOW)).toBe(120_000);
    expect(parseRetryAfter(" 3 ", NOW)).toBe(3_000);
    expect(parseRetryAfter("0", NOW)).toBe(0);
    expect(parseRetryAfter("1.5", NOW)).toBe(1_500);
  });
  test("HTTP dates in all three forms", () => {
    expect(parseRetryAfter("Wed, 15 Jan 2025 12:00:30 GMT", NOW)).toBe(30_000);
    expect(parseRetryAfter("Wednesday, 15-Jan-25 12:01:00 GMT", NOW)).toBe(60_000);
    expect(parseRetryAfter("Wed Jan 15 12:00:05 2025", NOW)).toBe(5_000);
  });
  test("a date in the past means now", () => {
    expect(parseRetryAfter("Tue, 14 Jan 2025 12:00:00 GMT", NOW)).toBe(0);
  });
  test("absent or unreadable is undefined, never a bogus 'retry now'", () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter("", NOW)).toBeUndefined();
    expect(parseRetryAfter("soon 12", NOW)).toBeUndefined();
    expect(parseRetryAfter("-5", NOW)).toBeUndefined();
    expect(parseRetryAfter("later", NOW)).toBeUndefined();
  });
});

describe("backoff with full jitter", () => {
  test("ceiling doubles from base and stops at cap", () => {
    const top = (n: number) => backoffMs(n, DEFAULT_RETRY, () => 0.999999);
    expect(top(1)).toBe(249);
    expect(top(2)).toBe(499);
    expect(top(3)).toBe(999);
    expect(top(10)).toBe(7_999);
  });
  test("uniform in [0, ceiling)", () => {
    expect(backoffMs(3, DEFAULT_RETRY, () => 0)).toBe(0);
    expect(backoffMs(3, DEFAULT_RETRY, () => 0.5)).toBe(500);
  });
});

describe("nextDelay", () => {
  const base = { policy: DEFAULT_RETRY, now: NOW, random: () => 0.5 };
  test("Retry-After wins over backoff", () => {
    expect(nextDelay({ ...base, n: 1, retryAfterMs: 4_000 })).toBe(4_000);
    expect(nextDelay({ ...base, n: 1 })).toBe(125);
  });
  test("gives up after maxAttempts", () => {
    expect(nextDelay({ ...base, n: 4 })).not.toBeNull();
    expect(nextDelay({ ...base, n: 5 })).toBeNull();
  });
  test("never waits past the deadline", () => {
    expect(nextDelay({ ...base, n: 1, retryAfterMs: 10_000, deadline: NOW + 5_000 })).toBeNull();
    expect(nextDelay({ ...base, n: 1, retryAfterMs: 1_000, deadline: NOW + 5_000 })).toBe(1_000);
    expect(nextDelay({ ...base, n: 1, deadline: NOW })).toBeNull();
  });
});
