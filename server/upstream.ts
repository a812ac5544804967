/**
 * Requests to the API, on the shared core's client: the key goes only into
 * the Authorization header it builds, answers are checked against the
 * catalogue's schemas, and every free (rate-limited) call draws from one
 * Pacer for the whole team (DEFAULT_RATE_LIMITS, shared/api/pacing.ts), so
 * the users together stay within the key's buckets. The raw answer is kept
 * (the proxy passes the API's own bytes on).
 *
 * Paid calls are sent once: a lost answer may have been charged, and buying
 * it again is the client's decision, not the server's. A 429 that names its
 * Retry-After is waited for (the API did not process it, so nothing was charged).
 * Requests go out through node/send-http.ts, which runs the caller's send mark
 * (the ledger's) in the instant before the bytes leave and says exactly
 * whether they did (`sent`).
 */
import { runAsync, type AsyncDriver } from "../shared/core/index.ts";
import { callMany, type CallResult, type CallSpec, type ClientConfig } from "../shared/api/index.ts";
import { endpoint } from "../shared/api/index.ts";
import {
  bucketOf,
  DEFAULT_RATE_LIMITS,
  Pacer,
  type RateBucket,
  type RateLimit,
  type RateLimitOverrides,
} from "../shared/api/index.ts";
import { CompanyDataError } from "../shared/core/index.ts";
import type { HttpRequest, HttpResponse } from "../shared/core/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import type { Operation } from "../shared/core/index.ts";
import { fetchHttp } from "../shared/web/index.ts";
import type { LookupFunction } from "node:net";
import type { TeamPacer } from "./pacing.ts";
import { endpointOfRequest } from "./proxy.ts";
import { connectionPool, sendHttp } from "../node/index.ts";

/**
 * Connections to the API at once, per process (decision: the API's concurrency limit is not published; the
 * emulator's is an option). Requests beyond wait for a free one, reserved but not sent: a kill then
 * leaves them unsent, and they are released (heartbeat.ts). Free calls keep their connections alive (no
 * handshake per autocomplete); a request with a send mark goes on a connection of its own (node/send-http.ts).
 */
export const MAX_CONNECTIONS = 32;
const API_POOL = connectionPool(MAX_CONNECTIONS);

export interface UpstreamAnswer {
  /** The API's status, or 0 when no answer arrived (network, timeout) or none was sent (paced past the deadline). */
  status: number;
  headers: Record<string, string>;
  body: string;
  ok: boolean;
  /** The client's reading of a failure (code, retryAt). */
  error?: CompanyDataError;
  /**
   * True when bytes of the request may have left this process (an answer may have been charged); false when it
   * provably never left: the connection was refused, the name did not resolve, TLS failed, the mark said no.
   */
  sent: boolean;
  /** The last attempt found no connection to the API (name, refusal, TLS, connect timeout): the API does not answer. */
  unreachable?: boolean;
}

export interface UpstreamOptions {
  apiKey: string;
  baseUrl: string;
  /** Per-request timeout. */
  timeoutMs: number;
  /** Longest a free call waits for the team's pacer before it is answered 429. */
  maxPaceWaitMs: number;
  /** The API's rate limits when they are not DEFAULT_RATE_LIMITS (a plan with other buckets; tests against a fast emulator). */
  rateLimits?: RateLimitOverrides;
  /** The network of `operate` (the doctor's free calls; tests may wrap it). `send` goes through node/send-http.ts. */
  fetchFn?: typeof fetch;
  /** The resolver of `send` (tests inject a failing one; default the system's). */
  lookup?: LookupFunction;
  /**
   * The team's pacer in the database (pacing.ts), shared by every process on it: each free request
   * takes its slot there before it is sent. Without it only this process's Pacer paces.
   */
  teamPacer?: TeamPacer;
}

export interface Upstream {
  /** The API's address (shown at start; never with the key). */
  readonly baseUrl: string;
  /**
   * `tag` goes out as X-Request-Id: the ledger id of a paid request, so a request can be matched with its ledger
   * row. `mark` runs once the connection stands, before the request is written (the ledger's send mark); when it
   * says no (or throws), nothing is written and the answer is `sent: false`. `user` (the caller's id) gives the
   * request its user's fair share of the team's pacer (pacing.ts takeFor).
   */
  send(
    spec: CallSpec,
    lang: Language,
    tag?: string,
    mark?: () => Promise<boolean>,
    user?: number,
  ): Promise<UpstreamAnswer>;
  /** A free request (GET /v2/account) to learn whether the API answers: its status, or 0 when nothing came back. */
  probe(timeoutMs: number): Promise<number>;
  /**
   * Run a sans-IO operation with the team's key, base URL and pacer, the key
   * never leaving this module: the doctor's free calls (server/doctor/),
   * which read the answers as they came, before any schema. `signal` ends it
   * early (graceful shutdown): its waits and requests are abandoned and it
   * rejects; only free calls go through here, so nothing paid is lost.
   */
  operate<T>(op: (cfg: ClientConfig) => Operation<T>, signal?: AbortSignal): Promise<T>;
}

/** A sleep that an abort ends at once (rejecting), so a stopping server is not held by a pacer's wait. */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const done = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", done);
      resolve();
    }, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

const PAID_RETRY = { maxAttempts: 1, maxRateLimitWaits: 3 };
/** A slot taken however far off it is: a retry the API asked to wait for, the doctor's probes (no client waits on them). */
const ANY_SLOT_WAIT_MS = 3600_000;

/** A request URL's path below the base URL (the API's paths start at /v2/). */
function apiPath(url: string): string {
  const path = new URL(url).pathname;
  const at = path.indexOf("/v2/");
  return at >= 0 ? path.slice(at) : path;
}

/** What every request of one upstream shares: its options, the process's pacer, the API's rate limits. */
interface Shared {
  opts: UpstreamOptions;
  pacer: Pacer;
  limits: Record<RateBucket, RateLimit>;
}

/** A free call's bucket in the team's pacer (pacing.ts), when the team paces this call. */
interface TeamSlot {
  pacer: TeamPacer;
  bucket: RateBucket;
  limit: RateLimit;
}

/** What the attempts of one `send` left: the last answer, whether any request left, whether the API went unanswered. */
interface Attempts {
  last: HttpResponse | undefined;
  sent: boolean;
  unreachable: boolean;
  attempted: boolean;
}

/** Upstream.operate: the operation on the team's key and pacer, its free calls taking the team's slots. */
function operate<T>(
  { opts, pacer, limits }: Shared,
  fetchFn: typeof fetch,
  op: (cfg: ClientConfig) => Operation<T>,
  signal?: AbortSignal,
): Promise<T> {
  const abortable: typeof fetch = signal
    ? (input, init) =>
        fetchFn(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal })
    : fetchFn;
  const cfg: ClientConfig = {
    apiKey: opts.apiKey,
    baseUrl: opts.baseUrl,
    language: "de",
    now: Date.now,
    random: Math.random,
    pacer,
  };
  return runAsync(op(cfg), {
    http: async (reqs) => {
      if (signal?.aborted) throw signal.reason as Error;
      return Promise.all(
        reqs.map(async (req) => {
          // The operation's free calls take the team's slots too (the doctor's probes share the key's buckets).
          const ep = opts.teamPacer ? endpointOfRequest(req.method, apiPath(req.url)) : undefined;
          if (opts.teamPacer && ep?.rateBucket && ep.billing === "rate-limited") {
            const wait = await opts.teamPacer.take(ep.rateBucket, limits[ep.rateBucket], ANY_SLOT_WAIT_MS);
            if (wait) await abortableSleep(wait, signal);
          }
          return fetchHttp(abortable, req, opts.timeoutMs);
        }),
      );
    },
    sleep: (ms: number) => abortableSleep(ms, signal),
    cacheGet: async (keys) => keys.map(() => null),
    cachePut: async () => undefined,
    storeGet: async (keys) => keys.map(() => null),
    storePut: async () => undefined,
  });
}

/** Upstream.probe: GET /v2/account, its status (0 when nothing came back). */
async function probe(opts: UpstreamOptions, timeoutMs: number): Promise<number> {
  const req: HttpRequest = {
    method: "GET",
    url: opts.baseUrl.replace(/\/+$/, "") + "/v2/account",
    headers: { Authorization: `Bearer ${opts.apiKey}`, Accept: "application/json" },
  };
  const { res } = await sendHttp(req, { timeoutMs, pool: API_POOL, ...(opts.lookup ? { lookup: opts.lookup } : {}) });
  return res.status;
}

/**
 * The team's slot first (every process on the database draws from it), waited for; past the wait allowed, nothing
 * is sent: the answer then is RATE_LIMITED, else undefined.
 */
async function takeTeamSlot(team: TeamSlot, user: number | undefined, maxPaceWaitMs: number) {
  const wait =
    user !== undefined && team.pacer.takeFor
      ? await team.pacer.takeFor(user, team.bucket, team.limit, maxPaceWaitMs)
      : await team.pacer.take(team.bucket, team.limit, maxPaceWaitMs);
  if (wait === null) {
    const error = new CompanyDataError("RATE_LIMITED", { retryAt: Date.now() + maxPaceWaitMs });
    return { status: 0, headers: {}, body: "", ok: false, error, sent: false } satisfies UpstreamAnswer;
  }
  if (wait > 0) await new Promise<void>((r) => setTimeout(r, wait));
  return undefined;
}

/** The client's network for one `send`: each attempt through node/send-http.ts, its outcome kept in `st`. */
function attemptsHttp(
  opts: UpstreamOptions,
  team: TeamSlot | undefined,
  tag: string | undefined,
  mark: (() => Promise<boolean>) | undefined,
  st: Attempts,
): (reqs: HttpRequest[]) => Promise<HttpResponse[]> {
  // The mark is asked once: a retry after the API's 429 goes out under the same ledger row.
  let marked: Promise<boolean> | undefined;
  const beforeWrite = mark ? () => (marked ??= mark()) : undefined;
  return async (reqs) =>
    Promise.all(
      reqs.map(async (req) => {
        // A retry after the API's 429 (its Retry-After waited for) takes a slot of its own.
        if (st.attempted && team) {
          const wait = (await team.pacer.take(team.bucket, team.limit, ANY_SLOT_WAIT_MS)) ?? 0;
          if (wait > 0) await new Promise<void>((r) => setTimeout(r, wait));
        }
        st.attempted = true;
        const tagged = tag ? { ...req, headers: { ...req.headers, "x-request-id": tag } } : req;
        const out = await sendHttp(tagged, {
          timeoutMs: opts.timeoutMs,
          pool: API_POOL,
          ...(beforeWrite ? { beforeWrite } : {}),
          ...(opts.lookup ? { lookup: opts.lookup } : {}),
        });
        if (out.left) st.sent = true;
        st.unreachable = out.unreachable;
        st.last = out.res;
        return out.res;
      }),
    );
}

/** The call's answer: the API's raw bytes when the client accepted them, else the failure as the client read it. */
function answerOf(result: CallResult | undefined, st: Attempts): UpstreamAnswer {
  const { last: raw, sent, unreachable } = st;
  if (result?.ok && raw) return { status: raw.status, headers: raw.headers, body: raw.body, ok: true, sent };
  if (unreachable)
    return {
      status: 0,
      headers: {},
      body: "",
      ok: false,
      sent,
      unreachable,
      ...(result && !result.ok ? { error: result.error } : {}),
    };
  return {
    status: raw?.status ?? 0,
    headers: raw?.headers ?? {},
    body: raw?.body ?? "",
    ok: false,
    ...(result && !result.ok ? { error: result.error } : {}),
    sent,
  };
}

/** Upstream.send: one call on the team's pacer, paid calls sent once (see the file's comment). */
async function send(
  { opts, pacer, limits }: Shared,
  spec: CallSpec,
  lang: Language,
  tag?: string,
  mark?: () => Promise<boolean>,
  user?: number,
): Promise<UpstreamAnswer> {
  const paid = endpoint(spec.endpoint).billing === "credits";
  const bucket = bucketOf(spec.endpoint);
  const team = bucket && opts.teamPacer ? { pacer: opts.teamPacer, bucket, limit: limits[bucket] } : undefined;
  if (team) {
    const refused = await takeTeamSlot(team, user, opts.maxPaceWaitMs);
    if (refused) return refused;
  }
  const st: Attempts = { last: undefined, sent: false, unreachable: false, attempted: false };
  const http = attemptsHttp(opts, team, tag, mark, st);
  const now = Date.now();
  const cfg: ClientConfig = {
    apiKey: opts.apiKey,
    baseUrl: opts.baseUrl,
    language: lang,
    now: Date.now,
    random: Math.random,
    pacer,
    deadline: now + opts.maxPaceWaitMs,
    ...(paid ? { retry: PAID_RETRY } : {}),
  };
  // The client asks for the network and for sleeps only; it keeps nothing in a cache or store here.
  const driver: AsyncDriver = {
    http,
    sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
    cacheGet: async (keys) => keys.map(() => null),
    cachePut: async () => undefined,
    storeGet: async (keys) => keys.map(() => null),
    storePut: async () => undefined,
  };
  const [result] = await runAsync(
    callMany(cfg, [spec], opts.rateLimits ? { rateLimits: opts.rateLimits } : {}),
    driver,
  );
  return answerOf(result, st);
}

export function createUpstream(opts: UpstreamOptions): Upstream {
  // One pacer for the team: every user's free calls draw from the key's one set of buckets.
  const shared: Shared = { opts, pacer: new Pacer(), limits: { ...DEFAULT_RATE_LIMITS, ...opts.rateLimits } };
  const fetchFn = opts.fetchFn ?? fetch;
  return {
    baseUrl: opts.baseUrl,
    operate: (op, signal) => operate(shared, fetchFn, op, signal),
    probe: (timeoutMs) => probe(opts, timeoutMs),
    send: (spec, lang, tag, mark, user) => send(shared, spec, lang, tag, mark, user),
  };
}
