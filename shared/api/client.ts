/**
 * Calling the API, sans IO: build the request (auth, language, JSON), read
 * the answer (schema, error taxonomy), retry what is transient. Every
 * endpoint call of every host goes through `callMany`.
 */
import type * as z from "zod/mini";
import { endpoint, fillPath, type CostInput, type EndpointId } from "./endpoints.ts";
import { ErrorBody } from "./schemas.ts";
import { chargedOf, header, type HttpRequest, type HttpResponse } from "../core/index.ts";
import { http, sleep, type Operation } from "../core/index.ts";
import { CompanyDataError, toCompanyDataError } from "../core/index.ts";
import { DEFAULT_RETRY, nextDelay, parseRetryAfter, type RetryPolicy } from "../core/index.ts";
import { Pacer, bucketOf, rateLimitsOf, type BucketModel, type RateBucket, type RateLimitOverrides } from "./pacing.ts";
import { acceptLanguage, type Language } from "../i18n/index.ts";

export const PRODUCTION_BASE_URL = "https://api.implisense.com";

export interface ClientConfig {
  /** The bearer secret: the API key, or a team server's personal token (`credential` says which). */
  apiKey: string | undefined | null;
  baseUrl: string;
  /** Which setting `apiKey` holds, so MISSING_KEY / INVALID_KEY name it; default the API key. */
  credential?: "apiKey" | "serverToken";
  language: Language;
  /** Wall clock (epoch ms). Injected so tests and sans-IO code stay deterministic. */
  now: () => number;
  /** [0, 1), for backoff jitter. */
  random: () => number;
  /** Epoch ms after which no retry is started (platform time limits). */
  deadline?: number;
  retry?: Partial<RetryPolicy>;
  /** Called per successful call, and per failed one that says it cost something, with what it cost (`chargedOf`). */
  onSpend?: (endpointId: EndpointId, credits: number) => void;
  /** Called for every request actually sent (benchmarks and tests count them). */
  onRequest?: (endpointId: EndpointId) => void;
  /** The host's models of the rate-limit buckets, shared by every call it makes (see Pacer). */
  pacer?: Pacer;
}

export interface CallSpec {
  endpoint: EndpointId;
  /** Path parameters: id, personId, prefix. */
  path?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  /** JSON body for POST endpoints. */
  body?: unknown;
  /** What the price depends on (includes, batch size). */
  cost?: CostInput;
}

export type CallResult<T = unknown> =
  { ok: true; data: T; credits: number; attempts: number } | { ok: false; error: CompanyDataError; attempts: number };

/**
 * A key is a token of visible ASCII characters. Anything else (a line break, a blank, a typographic
 * quote, a non-Latin-1 character) cannot travel in a header: fetch and UrlFetchApp refuse it before
 * sending, which would read as "could not reach the data service". Said as what it is, without the key.
 */
const WELL_FORMED_KEY = /^[\x21-\x7e]+$/;
export const MALFORMED_KEY = {
  de: "er enthält einen Zeilenumbruch, ein Leerzeichen oder ein Zeichen, das in einem API-Schlüssel nicht vorkommt (beim Kopieren mitgenommen?)",
  en: "it contains a line break, a blank or a character that no API key has (copied along with it?)",
};

/**
 * The request for one call. The key travels only in the Authorization header.
 * The request carries its price (the endpoint and the credits a successful
 * answer costs, from the catalogue's one price table and the spec's `cost`),
 * so that whoever sees it later (a budget, a limiter, a journal) reads the
 * price rather than working it out again from the URL.
 */
export function buildRequest(cfg: ClientConfig, spec: CallSpec): HttpRequest {
  const ep = endpoint(spec.endpoint);
  if (!cfg.apiKey) throw missingKey(cfg);
  if (!WELL_FORMED_KEY.test(cfg.apiKey))
    throw new CompanyDataError("INVALID_KEY", {
      detail: MALFORMED_KEY,
      ...(cfg.credential === "serverToken" ? { field: "serverToken" } : {}),
    });
  const base = cfg.baseUrl.replace(/\/+$/, "");
  let url = base + fillPath(ep.path, spec.path ?? {});
  const query = Object.entries(spec.query ?? {}).filter(([, v]) => v !== undefined && v !== "");
  if (query.length)
    url += "?" + query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join("&");
  const headers: Record<string, string> = {
    Authorization: `Bearer ${cfg.apiKey}`,
    "Accept-Language": acceptLanguage(cfg.language),
    Accept: "application/json",
  };
  const req: HttpRequest = { method: ep.method, url, headers, price: { endpoint: ep.id, credits: ep.cost(spec.cost) } };
  if (ep.method === "POST") {
    headers["Content-Type"] = "application/json";
    req.body = JSON.stringify(spec.body ?? {});
  }
  return req;
}

/** MISSING_KEY naming the credential in use (a team server's token, or the key). */
export function missingKey(cfg: Pick<ClientConfig, "credential">): CompanyDataError {
  return new CompanyDataError("MISSING_KEY", cfg.credential === "serverToken" ? { field: "serverToken" } : {});
}

export function errorFromResponse(
  res: HttpResponse,
  now: number,
  credential?: ClientConfig["credential"],
): CompanyDataError {
  if (res.status === 0) return new CompanyDataError(res.networkError === "timeout" ? "TIMEOUT" : "NETWORK");
  let body: ErrorBody | undefined;
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(res.body));
    if (parsed.success) body = parsed.data;
  } catch {
    /* a non-JSON error page: the status alone decides */
  }
  const field = body?.error.field ?? undefined;
  const team = { teamServer: true, teamBudget: body?.error.budget ?? undefined };
  switch (res.status) {
    case 400:
    case 413:
    case 422:
      return new CompanyDataError("INVALID_INPUT", { status: res.status, field });
    case 401:
    case 403:
      return new CompanyDataError(
        "INVALID_KEY",
        credential === "serverToken" ? { status: res.status, field: "serverToken" } : { status: res.status },
      );
    case 402: // through a team server: its budget (the admin's to set), never a balance the user could top up
      return new CompanyDataError("OUT_OF_CREDITS", { status: 402, ...(credential === "serverToken" ? team : {}) });
    case 404:
      return new CompanyDataError("NOT_FOUND", { status: res.status, field });
    case 429: {
      const wait =
        parseRetryAfter(header(res, "retry-after"), now) ??
        (body?.error.retryAfterSeconds != null ? body.error.retryAfterSeconds * 1000 : undefined);
      return new CompanyDataError("RATE_LIMITED", {
        status: 429,
        retryAt: wait !== undefined ? now + wait : undefined,
      });
    }
    case 408:
      return new CompanyDataError("TIMEOUT", { status: 408 });
    default: {
      if (res.status < 500) return new CompanyDataError("INVALID_INPUT", { status: res.status });
      // 503 often says when to come back; honour it like a 429's.
      const wait =
        parseRetryAfter(header(res, "retry-after"), now) ??
        (body?.error.retryAfterSeconds != null ? body.error.retryAfterSeconds * 1000 : undefined);
      return new CompanyDataError("SERVER_ERROR", {
        status: res.status,
        retryAt: wait !== undefined ? now + wait : undefined,
      });
    }
  }
}

/** Read one answer: a parsed body or a typed error. */
export function interpret<T>(
  spec: CallSpec,
  res: HttpResponse,
  now: number,
  credential?: ClientConfig["credential"],
): { ok: true; data: T } | { ok: false; error: CompanyDataError } {
  if (res.status < 200 || res.status >= 300) return { ok: false, error: errorFromResponse(res, now, credential) };
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    return { ok: false, error: new CompanyDataError("MALFORMED_RESPONSE") };
  }
  const schema = endpoint(spec.endpoint).response as z.ZodMiniType<T>;
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const path = parsed.error.issues[0]?.path.join(".");
    return { ok: false, error: new CompanyDataError("MALFORMED_RESPONSE", { field: path || undefined }) };
  }
  return { ok: true, data: parsed.data };
}

export interface CallManyOptions {
  /** Per-bucket limits of the rate-limited endpoints (defaults: DEFAULT_RATE_LIMITS). */
  rateLimits?: RateLimitOverrides;
}

/**
 * The bookkeeping of one callMany. Every index is a position in `specs`
 * (0 ≤ i < specs.length), and every per-call array has specs.length entries:
 * the `!` on `specs[i]`, `attempts[i]`, … says no more than that.
 */
interface Calls<T> {
  cfg: ClientConfig;
  specs: CallSpec[];
  policy: RetryPolicy;
  /** Each call's request (undefined: it could not be built, and its result says why). */
  requests: (HttpRequest | undefined)[];
  results: (CallResult<T> | undefined)[];
  attempts: number[];
  /** Failed attempts, and waits a 429 scheduled with Retry-After (see RetryPolicy). */
  failures: number[];
  waits: number[];
  /** Pending calls and when each may go next (input order kept within a time). */
  readyAt: Map<number, number>;
  /** The model of the rate-limit bucket a call draws on (undefined: a paid endpoint, not rate-limited). */
  bucketFor: (i: number) => BucketModel | undefined;
}

function startCalls<T>(cfg: ClientConfig, specs: CallSpec[], opts: CallManyOptions, now: () => number): Calls<T> {
  const limits = rateLimitsOf(opts.rateLimits);
  const results: (CallResult<T> | undefined)[] = new Array<CallResult<T> | undefined>(specs.length);
  const requests: (HttpRequest | undefined)[] = specs.map((spec, i) => {
    try {
      return buildRequest(cfg, spec);
    } catch (e) {
      // MISSING_KEY, or a spec bug (missing path parameter) that must not escape as a raw Error.
      results[i] = { ok: false, error: toCompanyDataError(e), attempts: 0 };
      return undefined;
    }
  });
  // Without a host's pacer this call paces only itself: a fresh one knows nothing of earlier calls' spending.
  const pacer = cfg.pacer ?? new Pacer();
  const buckets = new Map<RateBucket, BucketModel>();
  const bucketFor = (i: number): BucketModel | undefined => {
    const b = bucketOf(specs[i]!.endpoint);
    if (!b) return undefined;
    let m = buckets.get(b);
    if (!m) buckets.set(b, (m = pacer.bucket(cfg.baseUrl, cfg.apiKey ?? "", b, limits[b], now())));
    return m;
  };
  const readyAt = new Map<number, number>();
  requests.forEach((req, i) => {
    if (req !== undefined) readyAt.set(i, -Infinity);
  });
  const zeros = () => specs.map(() => 0);
  const policy = { ...DEFAULT_RETRY, ...cfg.retry };
  return {
    cfg,
    specs,
    policy,
    requests,
    results,
    attempts: zeros(),
    failures: zeros(),
    waits: zeros(),
    readyAt,
    bucketFor,
  };
}

/**
 * The calls that go at time `t` (in input order): those due and not paced,
 * and of each bucket's due calls a wave no larger than its burst once the
 * bucket has room for the whole wave. `wake`: the earliest time a call that
 * waits may go.
 */
function due<T>(c: Calls<T>, t: number): { send: number[]; wake: number } {
  const send: number[] = [];
  let wake = Infinity;
  const paced = new Map<BucketModel, number[]>();
  for (const i of [...c.readyAt.keys()].sort((a, b) => a - b)) {
    const at = c.readyAt.get(i)!;
    const m = c.bucketFor(i);
    if (at > t) wake = Math.min(wake, at);
    else if (!m) send.push(i);
    else if (!paced.get(m)?.push(i)) paced.set(m, [i]); // appended in place: no copy per call
  }
  for (const [m, ready] of paced) {
    const go = c.cfg.deadline === undefined ? ready : beforeDeadline(c, m, ready, t, c.cfg.deadline);
    if (go.length === 0) continue;
    const wave = Math.min(m.limit.burst, go.length);
    const wait = m.waitFor(wave, t);
    if (wait > 0) {
      wake = Math.min(wake, t + wait);
      continue;
    }
    m.take(wave, t);
    send.push(...go.slice(0, wave));
  }
  return { send: send.sort((a, b) => a - b), wake };
}

/**
 * The calls of `ready` the bucket can let through before the deadline.
 * Whatever it cannot is answered now (RATE_LIMITED, with the time it could
 * have gone), not dropped.
 */
function beforeDeadline<T>(c: Calls<T>, m: BucketModel, ready: number[], t: number, deadline: number): number[] {
  const go: number[] = [];
  for (const [k, i] of ready.entries()) {
    const wait = m.waitFor(k + 1, t);
    if (t + wait < deadline) {
      go.push(i);
      continue;
    }
    c.readyAt.delete(i);
    const prior = c.results[i];
    const error =
      prior && !prior.ok && prior.error.code === "RATE_LIMITED" && prior.error.details.retryAt !== undefined
        ? prior.error
        : new CompanyDataError("RATE_LIMITED", { retryAt: t + wait });
    c.results[i] = { ok: false, error, attempts: c.attempts[i]! };
  }
  return go;
}

/**
 * Read the answers of the calls `sent`, settling each one's result. Returns
 * the failed calls to try again and how long to wait before (the longest
 * delay among them: they go again together).
 */
function settle<T>(c: Calls<T>, sent: number[], responses: HttpResponse[], after: number) {
  const retry: number[] = [];
  let wait = 0;
  sent.forEach((i, k) => {
    const attempts = c.attempts[i]!;
    const outcome = interpret<T>(c.specs[i]!, responses[k]!, after, c.cfg.credential);
    // What the answer says it cost (a shared answer: 0), else its price; a failure may cost too (part of a batch).
    const credits = chargedOf(c.requests[i]!, responses[k]!);
    if (outcome.ok) {
      c.cfg.onSpend?.(c.specs[i]!.endpoint, credits);
      c.results[i] = { ok: true, data: outcome.data, credits, attempts };
      return;
    }
    if (credits > 0) c.cfg.onSpend?.(c.specs[i]!.endpoint, credits);
    c.results[i] = { ok: false, error: outcome.error, attempts };
    if (outcome.error.code === "RATE_LIMITED") c.bucketFor(i)?.exhausted(after, outcome.error.details.retryAt);
    const delay = retryDelay(c, i, outcome.error, after);
    if (delay === null) return;
    retry.push(i);
    wait = Math.max(wait, delay);
  });
  return { retry, wait };
}

/**
 * How long before failed call `i` goes again, or null: not again (not
 * transient, out of attempts or of rate-limit waits, past the deadline).
 */
function retryDelay<T>(c: Calls<T>, i: number, error: CompanyDataError, after: number): number | null {
  if (!error.transient) return null;
  const { cfg, policy } = c;
  const retryAt = error.details.retryAt;
  const retryAfterMs = retryAt !== undefined ? Math.max(0, retryAt - after) : undefined;
  if (error.code === "RATE_LIMITED" && retryAfterMs !== undefined) {
    // A wait the service scheduled: counted apart from failures.
    c.waits[i]!++;
    const inTime = cfg.deadline === undefined || after + retryAfterMs < cfg.deadline;
    return c.waits[i]! <= policy.maxRateLimitWaits && inTime ? retryAfterMs : null;
  }
  c.failures[i]!++;
  return nextDelay({ n: c.failures[i]!, retryAfterMs, policy, now: after, deadline: cfg.deadline, random: cfg.random });
}

/**
 * Send calls in parallel; retry the transient failures (429, 5xx, network)
 * together, honouring the longest Retry-After among them. Calls to
 * rate-limited endpoints go in waves no larger than their bucket's burst,
 * spaced by its refill; one that cannot go before the deadline settles as
 * RATE_LIMITED with the time it could have gone (retryAt), unsent. Each
 * result settles on its own: one failed call never fails the others.
 */
export function* callMany<T = unknown>(
  cfg: ClientConfig,
  specs: CallSpec[],
  opts: CallManyOptions = {},
): Operation<CallResult<T>[]> {
  // Sleeps move this clock even when the host's does not (fake drivers), so waiting always makes progress.
  let clock = cfg.now();
  const now = () => Math.max(cfg.now(), clock);
  const c = startCalls<T>(cfg, specs, opts, now);
  while (c.readyAt.size > 0) {
    const t = now();
    const { send, wake } = due(c, t);
    if (send.length === 0) {
      if (wake === Infinity) break; // nothing pending (all settled at the deadline)
      yield* sleep(wake - t);
      clock = wake;
      continue;
    }
    for (const i of send) {
      cfg.onRequest?.(specs[i]!.endpoint);
      c.readyAt.delete(i);
      c.attempts[i]!++;
    }
    const responses = yield* http(send.map((i) => c.requests[i]!));
    const after = now();
    const { retry, wait } = settle(c, send, responses, after);
    for (const i of retry) c.readyAt.set(i, after + wait);
  }
  return c.results as CallResult<T>[];
}

/** One call; throws its CompanyDataError on failure. */
export function* call<T = unknown>(cfg: ClientConfig, spec: CallSpec): Operation<T> {
  // callMany settles one result per spec.
  const result = (yield* callMany<T>(cfg, [spec]))[0]!;
  if (!result.ok) throw result.error;
  return result.data;
}
