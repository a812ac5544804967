/**
 * The limiter's ramp (issue 43, item 1) on a virtual clock: a discrete-event
 * simulation of a client that sends as many requests as the limiter allows
 * and a server with a fixed round trip, optionally a concurrency cap it does
 * not announce (429 at once beyond it) and a queue (answers slow down past a
 * capacity). No timers, no randomness: every figure below is exact.
 */
import { describe, expect, it } from "vitest";
import { AimdLimiter, type AimdOptions, type AimdTicket } from "../../shared/core/concurrency.ts";

interface Server {
  rttMs: number;
  /** Added to the round trip: the n-th request's is (37 n mod jitterMs) ms, a fixed spread as the emulator's jitter. */
  jitterMs?: number;
  /** Requests beyond this many at once are answered 429 at once. */
  cap?: number;
  /** Beyond this many at once, each further request adds `queueMs` to every answer (a server queueing). */
  capacity?: number;
  queueMs?: number;
}

interface Run {
  ms: number;
  rejected: number;
  /** The limit at the last send at or before `t`. */
  limitAt: (t: number) => number;
  /** The most requests in flight against the answers already received when they were sent. */
  /** Every answer: when, how long it took, the limit right after it. */
  answers: { at: number; latencyMs: number; limit: number }[];
  limiter: AimdLimiter;
}

function simulate(requests: number, server: Server, options: AimdOptions): Run {
  const l = new AimdLimiter(options);
  const events: { at: number; ticket: AimdTicket; ok: boolean; sentAt: number }[] = [];
  const limits: [number, number][] = [];
  const answers: Run["answers"] = [];
  let now = 0;
  let left = requests;
  let inFlight = 0;
  let rejected = 0;
  let sent = 0;
  const send = () => {
    while (left > 0 && l.canStart(inFlight)) {
      left--;
      inFlight++;
      const ticket = l.ticket(inFlight);
      limits.push([now, l.limit]);
      const refused = server.cap !== undefined && inFlight > server.cap;
      const queue = Math.max(0, inFlight - (server.capacity ?? Infinity)) * (server.queueMs ?? 0);
      const jitter = server.jitterMs ? (sent++ * 37) % server.jitterMs : 0;
      events.push({ at: now + (refused ? 1 : server.rttMs + jitter + queue), ticket, ok: !refused, sentAt: now });
    }
  };
  send();
  while (events.length) {
    events.sort((a, b) => a.at - b.at);
    const e = events.shift()!;
    now = e.at;
    inFlight--;
    if (!e.ok) {
      rejected++;
      left++; // sent again
    }
    l.onAnswer(e.ticket, e.ok ? "ok" : "congestion", now - e.sentAt);
    answers.push({ at: now, latencyMs: now - e.sentAt, limit: l.limit });
    send();
  }
  const limitAt = (t: number) => [...limits].reverse().find(([at]) => at <= t)?.[1] ?? 0;
  return { ms: now, rejected, limitAt, answers, limiter: l };
}

describe("the ramp (slow start)", () => {
  it("doubles each round trip from 8 to the default ceiling of 32: there after two round trips", () => {
    const r = simulate(2000, { rttMs: 100 }, { ceiling: 32 });
    expect(r.limitAt(0)).toBe(8);
    expect(r.limitAt(100)).toBe(16);
    expect(r.limitAt(200)).toBe(32);
    // 8 + 16 = 24 in the first two round trips, then 32 a round trip: 2 + ceil(1976 / 32) round trips.
    expect(r.ms).toBe((2 + Math.ceil(1976 / 32)) * 100);
    expect(r.rejected).toBe(0);
  });

  it("reaches a ceiling of 1,000 in 7 round trips (the 25 % rule took 22)", () => {
    const r = simulate(5000, { rttMs: 100 }, { ceiling: 1000 });
    expect([0, 100, 200, 300, 400, 500, 600].map(r.limitAt)).toEqual([8, 16, 32, 64, 128, 256, 512]);
    expect(r.limitAt(700)).toBe(1000);
  });

  it("above a threshold it grows a quarter a round trip", () => {
    const r = simulate(5000, { rttMs: 100 }, { ceiling: 1000, threshold: 32 });
    expect(r.limitAt(200)).toBe(32);
    const at = [300, 400, 500, 600].map(r.limitAt);
    for (let i = 1; i < at.length; i++) expect(at[i]! / at[i - 1]!).toBeCloseTo(1.25, 1);
    expect(r.limiter.limit).toBe(1000);
  });

  it("ends slow start at the first answer that queues", () => {
    // The server answers in 100 ms up to 20 at once; each request beyond adds 30 ms to every answer: at 29 in
    // flight an answer takes 370 ms, more than 3× and 250 ms over the fastest.
    const r = simulate(3000, { rttMs: 100, capacity: 20, queueMs: 30 }, { ceiling: 1000 });
    const firstSlow = r.answers.find((a) => a.latencyMs > 350)!;
    const next = r.answers.find((a) => a.at >= firstSlow.at + firstSlow.latencyMs)!;
    // One round trip later the limit has grown by at most the additive share, not doubled.
    expect(next.limit).toBeLessThanOrEqual(Math.ceil(1.25 * firstSlow.limit));
    expect(r.rejected).toBe(0);
  });

  it("finds a cap it is not told within 1.3× requests ÷ cap round trips, under 2 % answered 429", () => {
    for (const [cap, n] of [
      [8, 1000],
      [20, 1000],
      [32, 2000],
      [100, 5000],
    ] as const) {
      // 100 ms + 0–49 ms: a mean round trip of 124.5 ms.
      const r = simulate(n, { rttMs: 100, jitterMs: 50, cap }, { ceiling: 1000 });
      expect(r.ms).toBeLessThanOrEqual(1.3 * (n / cap) * 124.5);
      expect(r.rejected / n).toBeLessThan(0.02);
    }
  });

  it("after a 429 lands below the cap, not at 0.7 × the overshoot", () => {
    const r = simulate(1000, { rttMs: 100, jitterMs: 50, cap: 20 }, { ceiling: 1000 });
    // Slow start overshot past 20; the 429 went to the 21st request out: the server held at most 20.
    expect(r.limiter.stats.decreases).toBeGreaterThanOrEqual(1);
    expect(r.limiter.limit).toBeGreaterThanOrEqual(14);
    expect(r.limiter.limit).toBeLessThanOrEqual(20);
  });
});

describe("what a kill -9 can lose", () => {
  it("is at most 7 % of the job's estimate (at least the default ceiling), whatever --parallel", async () => {
    const { riskCredits, DEFAULT_PARALLEL } = await import("../../node/index.ts");
    expect(riskCredits(825)).toBe(58); // the bench list's estimate: 7.5 % of the 775 it is charged
    expect(riskCredits(100)).toBe(DEFAULT_PARALLEL);
    expect(riskCredits(70_000)).toBe(4900);
  });

  it("limitedHttp holds paid credits in flight to creditCeiling while the limiter ramps above it", async () => {
    const { limitedHttp } = await import("../../shared/web/limited-http.ts");
    let paid = 0;
    let peakPaid = 0;
    const pending: (() => void)[] = [];
    const net = limitedHttp(
      async () => {
        peakPaid = Math.max(peakPaid, ++paid);
        await new Promise<void>((go) => pending.push(go));
        paid--;
        return { status: 200, headers: {}, body: "{}" };
      },
      { ceiling: 1000, initial: 500, creditCeiling: 62 },
    );
    const price = { endpoint: "profile" as const, credits: 1 };
    const all = Array.from({ length: 300 }, (_, i) =>
      net.send({ method: "GET", url: `http://127.0.0.1/v2/companies/${i}`, headers: {}, price }),
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(net.limiter.limit).toBe(500);
    expect(paid).toBe(62);
    while (pending.length) {
      pending.shift()!();
      await new Promise((r) => setTimeout(r, 0));
    }
    await Promise.all(all);
    expect(peakPaid).toBe(62);
  });

  it("a creditCeiling given as a function is read before each start: the CLI's refresh and check lower it once priced", async () => {
    const { limitedHttp } = await import("../../shared/web/limited-http.ts");
    let paid = 0;
    const pending: (() => void)[] = [];
    let cap = 32;
    const net = limitedHttp(
      async () => {
        paid++;
        await new Promise<void>((go) => pending.push(go));
        paid--;
        return { status: 200, headers: {}, body: "{}" };
      },
      { ceiling: 1000, initial: 500, creditCeiling: () => cap },
    );
    const price = { endpoint: "profile" as const, credits: 1 };
    const all = Array.from({ length: 200 }, (_, i) =>
      net.send({ method: "GET", url: `http://127.0.0.1/v2/companies/${i}`, headers: {}, price }),
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(paid).toBe(32);
    // Priced: a lower share (what riskCredits gives a job's price); the 32 out before it come back first.
    cap = 21;
    let released = 0;
    let peakAfter = 0;
    while (pending.length) {
      pending.shift()!();
      released++;
      await new Promise((r) => setTimeout(r, 0));
      if (released >= 32) peakAfter = Math.max(peakAfter, paid);
    }
    await Promise.all(all);
    expect(peakAfter).toBe(21);
    expect(paid).toBe(0);
  });
});
