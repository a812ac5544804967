/**
 * Requests under adaptive concurrency, for the fetch-based hosts (CLI,
 * Excel, playground): at most the AIMD limiter's number of requests in
 * flight (shared/core/concurrency.ts: grows while answers come back fast and
 * clean, shrinks on 429, 503 and timeouts) and, for paid requests, at most
 * `ceiling` credits in flight (each request's price as the API client set it, `creditsOf`;
 * a single request dearer than that still goes, alone among paid ones): what
 * an interruption can lose is the answers out at that instant.
 */
import { AimdLimiter, answerKind, creditsOf } from "../core/index.ts";
import type { AimdTicket, HttpRequest, HttpResponse } from "../core/index.ts";

export interface LimitedHttpOptions {
  /** Ceiling of requests in flight, and of paid credits in flight. */
  ceiling: number;
  /** Requests in flight to start with (default 8). */
  initial?: number;
  /**
   * Most paid credits in flight, under `ceiling` (default `ceiling`): what a hard kill can lose. A host that
   * knows its job's price bounds it to a share of it (node/driver.ts riskCredits); a function when the price
   * is known only after the driver exists (the CLI's refresh and check price their run first).
   */
  creditCeiling?: number | (() => number);
  /** Once true, nothing more starts (the requests waiting never settle: the host is being interrupted). */
  stopped?: () => boolean;
}

export interface LimitedHttp {
  /** Send one request when the limits allow it. */
  send(req: HttpRequest): Promise<HttpResponse>;
  readonly limiter: AimdLimiter;
}

export function limitedHttp(send: (req: HttpRequest) => Promise<HttpResponse>, opts: LimitedHttpOptions): LimitedHttp {
  const limiter = new AimdLimiter({ ceiling: opts.ceiling, initial: opts.initial });
  const given = opts.creditCeiling;
  const creditCeiling = () =>
    Math.max(1, Math.floor(Math.min(opts.ceiling, (typeof given === "function" ? given() : given) ?? opts.ceiling)));
  const stopped = opts.stopped ?? (() => false);
  let inFlight = 0;
  let creditsInFlight = 0;
  const waiting: { credits: number; go: (t: AimdTicket) => void }[] = [];
  const pump = () => {
    const cap = creditCeiling();
    // In order, but a free request may pass a paid one waiting for credits to come back.
    for (let i = 0; i < waiting.length && !stopped();) {
      if (!limiter.canStart(inFlight)) return;
      const w = waiting[i];
      if (!w) return;
      if (w.credits > 0 && creditsInFlight > 0 && creditsInFlight + w.credits > cap) {
        i++;
        continue;
      }
      waiting.splice(i, 1);
      inFlight++;
      creditsInFlight += w.credits;
      // Its place among the requests out (itself included): a 429 on it says the server held fewer.
      w.go(limiter.ticket(inFlight));
    }
  };
  return {
    limiter,
    async send(req) {
      const credits = creditsOf(req);
      const ticket = await new Promise<AimdTicket>((go) => {
        waiting.push({ credits, go });
        pump();
      });
      const started = performance.now();
      try {
        const res = await send(req);
        limiter.onAnswer(ticket, answerKind(res.status, res.networkError), performance.now() - started);
        return res;
      } finally {
        inFlight--;
        creditsInFlight -= credits;
        pump();
      }
    },
  };
}
