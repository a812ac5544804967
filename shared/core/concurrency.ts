/**
 * How many requests may be in flight: an AIMD limiter (additive increase,
 * multiplicative decrease, as TCP congestion control), pure — no timers, no
 * I/O. The async drivers ask `canStart` before sending and report every
 * answer with `onAnswer`; they keep the queue and the clock.
 *
 *  - Start modestly (`initial`) and, as TCP's slow start, grow by one slot per
 *    clean answer (the limit doubles each round trip, never more than twice
 *    the limit a request was sent under) until the first congestion, the
 *    first answer that queues (slower than `slowFactor` × the fastest recent
 *    and by more than SLOW_SLACK_MS), or `threshold` (default: the ceiling).
 *  - After an answer queued (before any congestion) grow by `growth` per
 *    round trip, holding while answers queue; never above `ceiling`. (What a
 *    hard kill can lose, the paid credits in flight, is bounded by the host:
 *    shared/web/limited-http.ts.)
 *  - On congestion (429, 503, a timeout) multiply the limit the request was
 *    sent under by `decrease`, once per round of requests: answers to requests
 *    sent before the last decrease do not decrease it again.
 *  - After the first congestion, remember the limit where it happened
 *    (`knee`): grow back to just below it quickly (half a slot per answer),
 *    and probe above it only slowly (one slot per `probeRounds` round trips),
 *    so a server's fixed concurrency cap is found once and then hit rarely.
 */

/** An answer must be this much slower than the fastest (besides `slowFactor` times) to count as queueing. */
const SLOW_SLACK_MS = 250;

export type AnswerKind = "ok" | "congestion" | "other";

export interface AimdOptions {
  /** Highest limit (the user's `--parallel`). */
  ceiling: number;
  /** Limit to start with (default min(8, ceiling)). */
  initial?: number;
  /** Lowest limit (default 1). */
  floor?: number;
  /** Factor applied on congestion (default 0.7). */
  decrease?: number;
  /** Answers slower than this × the fastest seen do not grow the limit (default 3). */
  slowFactor?: number;
  /** Round trips per extra slot when probing above the knee (default 8)… */
  probeRounds?: number;
  /** …and at least this many answers per extra slot, so a small cap is not probed every few requests (default 64). */
  probeAnswers?: number;
  /** Slow start (doubling) ends at this limit (default the ceiling); above it the limit grows by `growth`. */
  threshold?: number;
  /** Growth per answer above `threshold` (or after an answer queued) before the first congestion: this share per round trip (default 0.25). */
  growth?: number;
  /** The knee, as a share of the limit where the congestion happened (default 0.85). */
  kneeFactor?: number;
}

export interface AimdTicket {
  /** The decrease epoch when the request was sent. */
  epoch: number;
  /** The limit the request was sent under. */
  limit: number;
  /** Requests in flight once it was sent, itself included (its place in the queue a capped server counts), if known. */
  position?: number;
}

/** What a status (and network error) means for the limiter. */
export function answerKind(status: number, networkError?: "timeout" | "connection"): AnswerKind {
  if (status === 429 || status === 503 || networkError === "timeout") return "congestion";
  if (status >= 200 && status < 300) return "ok";
  return "other";
}

export class AimdLimiter {
  readonly ceiling: number;
  readonly floor: number;
  private readonly decrease: number;
  private readonly slowFactor: number;
  private readonly probeRounds: number;
  private readonly kneeFactor: number;
  private readonly probeAnswers: number;
  private readonly growth: number;
  /** Slow start's end: the threshold, or lower where an answer first queued. */
  private threshold: number;
  private value: number;
  private knee: number | null = null;
  private epoch = 0;
  private fastestMs = Infinity;
  /** Counters for reports and tests. */
  readonly stats = { answers: 0, congestions: 0, decreases: 0, peak: 0 };

  constructor(o: AimdOptions) {
    if (!(o.ceiling >= 1)) throw new RangeError("ceiling must be at least 1");
    this.ceiling = Math.floor(o.ceiling);
    this.floor = Math.max(1, Math.min(this.ceiling, Math.floor(o.floor ?? 1)));
    this.decrease = o.decrease ?? 0.7;
    this.slowFactor = o.slowFactor ?? 3;
    this.probeRounds = o.probeRounds ?? 8;
    this.kneeFactor = o.kneeFactor ?? 0.85;
    this.probeAnswers = o.probeAnswers ?? 64;
    this.growth = o.growth ?? 0.25;
    this.threshold = Math.min(this.ceiling, o.threshold ?? this.ceiling);
    this.value = Math.max(this.floor, Math.min(this.ceiling, o.initial ?? 8));
    this.stats.peak = this.limit;
  }

  /** Requests that may be in flight now. */
  get limit(): number {
    return Math.max(this.floor, Math.min(this.ceiling, Math.floor(this.value)));
  }

  /** Whether one more request may start while `inFlight` are out. */
  canStart(inFlight: number): boolean {
    return inFlight < this.limit;
  }

  /** Take a ticket when sending (`inFlight`: requests out with this one, default the limit); hand it back with the answer. */
  ticket(inFlight?: number): AimdTicket {
    const limit = this.limit;
    return inFlight === undefined ? { epoch: this.epoch, limit } : { epoch: this.epoch, limit, position: inFlight };
  }

  onAnswer(t: AimdTicket, kind: AnswerKind, latencyMs: number): void {
    this.stats.answers++;
    if (kind === "congestion") return this.congested(t);
    if (kind !== "ok") return; // a 4xx is the request's fault, not the server's load
    // The baseline is the fastest recent answer: it drifts up 2 % an answer, so a machine or network that got
    // slower for good (not a queue that keeps growing) does not hold the limit for ever.
    if (Number.isFinite(latencyMs) && latencyMs >= 0) this.fastestMs = Math.min(this.fastestMs * 1.02, latencyMs);
    // Answers queueing up at the server: hold the limit (latency is the early sign of overload), and end slow start.
    // The absolute slack keeps a loopback server (fastest answer ~1 ms, busy CPU) from freezing the limit.
    if (latencyMs > this.fastestMs * this.slowFactor && latencyMs > this.fastestMs + SLOW_SLACK_MS) {
      this.threshold = Math.min(this.threshold, this.value);
      return;
    }
    if (this.knee === null) {
      // Slow start: one slot per answer doubles the limit each round trip, at most twice what the request saw.
      if (this.value < this.threshold)
        this.value = Math.max(this.value, Math.min(this.value + 1, this.threshold, 2 * t.limit));
      else this.value += this.growth;
    } else if (this.value < this.knee)
      this.value += 0.5; // back towards the known knee quickly
    else this.value += 1 / Math.max(this.value * this.probeRounds, this.probeAnswers); // probe above it slowly
    this.value = Math.min(this.value, this.ceiling);
    this.stats.peak = Math.max(this.stats.peak, this.limit);
  }

  /**
   * 429, 503 or a timeout: what the server held is at most the requests that were out before this one (a
   * capped server refused it with at most those in flight); the limit goes to `decrease` × that, the knee
   * just below it. Slow start may have overshot a cap twofold: this lands below the cap, not at 0.7 × twice it.
   */
  private congested(t: AimdTicket): void {
    this.stats.congestions++;
    // Requests sent before the last decrease saw the old limit: one decrease per round.
    if (t.epoch !== this.epoch) return;
    const seen = Math.min(this.value, Math.max(t.position === undefined ? t.limit : t.position - 1, this.floor));
    this.knee = seen * this.kneeFactor;
    this.value = Math.max(this.floor, seen * this.decrease);
    this.threshold = Math.min(this.threshold, this.value);
    this.epoch++;
    this.stats.decreases++;
  }
}
