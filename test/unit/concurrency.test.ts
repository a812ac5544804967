import { describe, expect, it } from "vitest";
import { AimdLimiter, answerKind } from "../../shared/core/concurrency.ts";
import { buildRequest, type CallSpec } from "../../shared/api/client.ts";
import { creditsOf } from "../../shared/core/http.ts";
import { testContext } from "../helpers/fake-api.ts";

/** A request as the API client builds it, with the price it carries. */
const request = (spec: CallSpec) => buildRequest(testContext(() => 0).ctx.client, spec);
const ID = "DEJK7QV0PK24";

/**
 * A simulated server with a concurrency cap the limiter does not know:
 * rounds of one round trip each; every request beyond the cap is answered
 * 429 and sent again next round. Returns rounds used and 429s seen.
 */
function simulate(requests: number, cap: number, ceiling: number) {
  const l = new AimdLimiter({ ceiling });
  let left = requests;
  let rounds = 0;
  let rejected = 0;
  while (left > 0) {
    rounds++;
    const n = Math.min(left, l.limit);
    const tickets = Array.from({ length: n }, (_, i) => l.ticket(i + 1));
    tickets.forEach((t, i) => {
      if (i < cap) {
        l.onAnswer(t, "ok", 100);
        left--;
      } else {
        l.onAnswer(t, "congestion", 1);
        rejected++;
      }
    });
  }
  return { rounds, rejected, limiter: l };
}

describe("AIMD limiter", () => {
  it("starts modestly and never exceeds its ceiling", () => {
    const l = new AimdLimiter({ ceiling: 10 });
    expect(l.limit).toBe(8);
    for (let i = 0; i < 1000; i++) l.onAnswer(l.ticket(), "ok", 50);
    expect(l.limit).toBe(10);
    expect(new AimdLimiter({ ceiling: 2 }).limit).toBe(2);
  });

  it("grows while answers come back fast and clean, holds when they slow down", () => {
    const l = new AimdLimiter({ ceiling: 1000 });
    l.onAnswer(l.ticket(), "ok", 100);
    const before = l.limit;
    for (let i = 0; i < 20; i++) l.onAnswer(l.ticket(), "ok", 1000); // 10× the fastest: the server queues
    expect(l.limit).toBe(before);
    for (let i = 0; i < 20; i++) l.onAnswer(l.ticket(), "ok", 300); // slower, but within the slack: not queueing
    expect(l.limit).toBeGreaterThan(before);
  });

  it("backs off multiplicatively on 429/503/timeouts, once per round", () => {
    const l = new AimdLimiter({ ceiling: 100, initial: 40 });
    const round = Array.from({ length: 40 }, () => l.ticket());
    for (const t of round) l.onAnswer(t, "congestion", 5);
    expect(l.limit).toBe(28); // 40 × 0.7, not 40 × 0.7^40
    l.onAnswer(l.ticket(), "congestion", 5); // a request sent after the decrease: a new round
    expect(l.limit).toBe(19);
    for (let i = 0; i < 100; i++) l.onAnswer(l.ticket(), "congestion", 5);
    expect(l.limit).toBe(1);
  });

  it("ignores answers that are the request's own fault (4xx other than 429)", () => {
    const l = new AimdLimiter({ ceiling: 100, initial: 10 });
    l.onAnswer(l.ticket(), "other", 5);
    expect(l.limit).toBe(10);
  });

  it("classifies answers", () => {
    expect(answerKind(200)).toBe("ok");
    expect(answerKind(429)).toBe("congestion");
    expect(answerKind(503)).toBe("congestion");
    expect(answerKind(0, "timeout")).toBe("congestion");
    expect(answerKind(0, "connection")).toBe("other");
    expect(answerKind(404)).toBe("other");
    expect(answerKind(500)).toBe("other");
  });

  it("against an unknown cap: close to requests ÷ cap round trips, 429s under 2 %", () => {
    for (const [cap, n] of [
      [8, 1000],
      [20, 1000],
      [32, 2000],
      [100, 5000],
    ] as const) {
      const { rounds, rejected } = simulate(n, cap, 1000);
      expect(rounds).toBeLessThanOrEqual(Math.ceil((n / cap) * 1.3));
      expect(rejected / n).toBeLessThan(0.02);
    }
  });
});

describe("the price a request carries", () => {
  it("is the one price table's, for what the request asks", () => {
    expect(creditsOf(request({ endpoint: "profile", path: { id: ID } }))).toBe(1);
    expect(
      creditsOf(
        request({
          endpoint: "profile",
          path: { id: ID },
          query: { include: "people,financials" },
          cost: { include: ["people", "financials"] },
        }),
      ),
    ).toBe(6);
    expect(creditsOf(request({ endpoint: "availability", path: { id: ID } }))).toBe(0);
    expect(creditsOf(request({ endpoint: "account" }))).toBe(0);
    expect(creditsOf(request({ endpoint: "changes", path: { id: ID }, query: { size: 100 } }))).toBe(1);
    const companies = Array.from({ length: 95 }, (_, i) => ({ name: `Firma ${i}` }));
    expect(
      creditsOf(request({ endpoint: "batchResolve", body: { companies }, cost: { count: companies.length } })),
    ).toBe(10);
    expect(creditsOf(request({ endpoint: "resolve", body: {} }))).toBe(0);
    expect(request({ endpoint: "search", body: {} }).price).toEqual({ endpoint: "search", credits: 1 });
    // A request the client did not build (a webhook) is no API call: it costs nothing.
    expect(creditsOf({ method: "POST", url: "https://hooks.example/x", headers: {}, body: "{}" })).toBe(0);
  });
});

describe("limitedHttp", () => {
  it("holds paid requests to the credit ceiling, lets free ones pass, and starts nothing once stopped", async () => {
    const { limitedHttp } = await import("../../shared/web/limited-http.ts");
    let inFlight = 0;
    let credits = 0;
    let peakCredits = 0;
    let peak = 0;
    const pending: (() => void)[] = [];
    let stop = false;
    const net = limitedHttp(
      async (r) => {
        const c = creditsOf(r);
        inFlight++;
        credits += c;
        peak = Math.max(peak, inFlight);
        peakCredits = Math.max(peakCredits, credits);
        await new Promise<void>((go) => pending.push(go));
        inFlight--;
        credits -= c;
        return { status: 200, headers: {}, body: "{}" };
      },
      { ceiling: 32, initial: 32, stopped: () => stop },
    );
    const companies = Array.from({ length: 100 }, (_, i) => ({ name: `n${i}` }));
    const batch = Array.from({ length: 8 }, () =>
      net.send(request({ endpoint: "batchResolve", body: { companies }, cost: { count: companies.length } })),
    );
    const free = Array.from({ length: 10 }, (_, i) =>
      net.send(request({ endpoint: "availability", path: { id: `DE00000000${String(i).padStart(2, "0")}` } })),
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(credits).toBe(30); // 3 batch resolves of 10 credits; a fourth would pass 32
    expect(inFlight).toBe(13); // and the free ones beside them
    while (pending.length) {
      pending.shift()!();
      await new Promise((r) => setTimeout(r, 0));
    }
    await Promise.all([...batch, ...free]);
    expect(peakCredits).toBeLessThanOrEqual(32);
    expect(peak).toBeLessThanOrEqual(32);
    stop = true;
    let settled = false;
    void net.send(request({ endpoint: "profile", path: { id: "DE0000000001" } })).then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    expect(pending).toHaveLength(0);
  });
});
