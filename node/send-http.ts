/**
 * The Node hosts' one way of sending a request to the API (the CLI, the MCP
 * server and the team server), on node:http(s) and kept-alive connections.
 *
 * Not fetch (issue 43, item 2; shared/web/fetch-http.ts stays the browser
 * hosts'): measured over loopback against the emulator, 700 profile GETs at
 * 32 in flight took about 0.55 s of client CPU through Node 20's fetch,
 * 0.78 s with the AbortSignal a per-request timeout needs, and 0.36 s on
 * node:http. Node's fetch builds a WHATWG Request, Response and
 * ReadableStream per call, registers abort listeners on the signal and
 * records a resource-timing entry per request; reading a JSON answer needs
 * none of it.
 *
 * What fetch did that this keeps: answers compressed with gzip, deflate or
 * br are asked for and decoded (a caller's own Accept-Encoding stands); the
 * body is read as UTF-8; header names come back in lower case, repeated ones
 * joined with ", "; a failure never throws: status 0 with networkError
 * "timeout" or "connection", which the client's retry logic reads. What it
 * does not: follow redirects. A 3xx is the answer, as in Apps Script
 * (apps-script/http.ts): a redirect would resend the key elsewhere.
 *
 * The team server's send mark: `beforeWrite` runs in the instant before the
 * request's bytes go out: the socket is connected (and, for https, the TLS
 * handshake done), nothing of the request written yet (node writes neither
 * headers nor body before `end`). The hook is the ledger's send mark
 * (server/ledger/budget.ts markSent): it runs there, and only if it says yes
 * is the request written. So whether a request may have left is known
 * exactly: a refused connection, a name that did not resolve, a failed TLS
 * handshake, a timeout while connecting, or a mark refused all end with
 * `left: false`: not one byte of the request went out.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import * as zlib from "node:zlib";
import { header, type HttpRequest, type HttpResponse } from "../shared/core/index.ts";

/**
 * Idle kept-alive sockets are closed after this long, before a server's own
 * keep-alive timeout does (Node's http server: 5 s) and a request written to
 * a socket the server is closing fails.
 */
const IDLE_SOCKET_MS = 4_000;

/** The connections a sender keeps: kept-alive ones, and for requests with a send mark, ones of their own. */
export interface ConnectionPool {
  kept: { http: http.Agent; https: https.Agent };
  marked: { http: http.Agent; https: https.Agent };
}

/** A pool of at most `maxSockets` connections per host and kind (default: no bound but the caller's own). */
export function connectionPool(maxSockets = Infinity): ConnectionPool {
  const kept = { keepAlive: true, maxSockets, timeout: IDLE_SOCKET_MS, scheduling: "lifo" as const };
  return {
    kept: { http: new http.Agent(kept), https: new https.Agent(kept) },
    // A request with a mark goes on a connection of its own: a kept-alive one may be closed as idle by the API just
    // as the request is written (the mark makes it wait), and a request then lost on the way would count as sent
    // although the API never read it.
    marked: {
      http: new http.Agent({ keepAlive: false, maxSockets }),
      https: new https.Agent({ keepAlive: false, maxSockets }),
    },
  };
}

/** The pool of a process's callers that bring none (the CLI bounds its requests in flight itself). */
const SHARED_POOL = connectionPool();

/** Closes every connection of the shared pool (the bench starts each timed run as a fresh process would). */
export function closeSharedConnections(): void {
  for (const kind of [SHARED_POOL.kept, SHARED_POOL.marked])
    for (const agent of [kind.http, kind.https]) agent.destroy();
}

export interface SendHttpOptions {
  timeoutMs: number;
  /** Runs once the connection stands, before anything is written; false (or a throw): nothing is sent. */
  beforeWrite?: () => Promise<boolean>;
  /** The resolver (tests inject one that fails, so no test asks a real DNS server). */
  lookup?: LookupFunction;
  /** The connections to use (default: the process's shared pool). */
  pool?: ConnectionPool;
}

export interface SentHttp {
  res: HttpResponse;
  /** Whether any byte of the request may have left this process. */
  left: boolean;
  /** The connection could not be made: the name did not resolve, it was refused, TLS failed, connecting timed out. */
  unreachable: boolean;
}

const lost = (networkError: "timeout" | "connection"): HttpResponse => ({
  status: 0,
  headers: {},
  body: "",
  networkError,
});

/**
 * One exchange; should the connection close while the mark is being made (a
 * kept-alive connection the API closed as idle), nothing was written: it is
 * made once more on a new connection (the mark, made, holds for it).
 */
export async function sendHttp(req: HttpRequest, opts: SendHttpOptions): Promise<SentHttp> {
  const first = await exchange(req, opts, false);
  return first.closedWhileMarking ? exchange(req, opts, true) : first;
}

type Exchanged = SentHttp & { closedWhileMarking?: boolean };

/** One exchange's state, shared by the request's socket, error and response events. */
interface ExchangeRun {
  readonly r: http.ClientRequest;
  readonly body: Buffer | undefined;
  readonly opts: SendHttpOptions;
  readonly fresh: boolean;
  /** Whether any byte of the request may have left (set just before the write). */
  left: boolean;
  done: boolean;
  connecting: boolean;
  marking: boolean;
  closedWhileMarking: boolean;
  timer: NodeJS.Timeout | undefined;
  /** The outcome, once (later calls do nothing); `again` passes on whether to try on a new connection. */
  finish(res: HttpResponse, again?: boolean): void;
}

/** The request, not yet written: its agent says whether it may share a kept-alive connection. */
function openRequest(req: HttpRequest, opts: SendHttpOptions, fresh: boolean) {
  const url = new URL(req.url);
  const tls = url.protocol === "https:";
  const body = req.body !== undefined ? Buffer.from(req.body, "utf8") : undefined;
  const headers: Record<string, string> = { ...req.headers };
  if (body) headers["content-length"] = String(body.length);
  if (header(req, "accept-encoding") === undefined) headers["accept-encoding"] = ACCEPT_ENCODING;
  const pool = opts.pool ?? SHARED_POOL;
  const r = (tls ? https : http).request(url, {
    method: req.method,
    headers,
    // A new connection of its own for the second try (agent false: not a kept-alive one).
    agent: fresh ? false : (opts.beforeWrite ? pool.marked : pool.kept)[tls ? "https" : "http"],
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
  });
  return { r, tls, body };
}

// The timeout runs while connecting and from the write on (not while waiting for a free connection of the pool,
// nor during the mark).
function startTimer(x: ExchangeRun): void {
  x.timer = setTimeout(() => {
    x.finish(lost("timeout"));
    x.r.destroy();
  }, x.opts.timeoutMs);
}

const ACCEPT_ENCODING = "gzip, deflate, br";

/** The body stream of an answer, decoded when it came compressed (null: an encoding this cannot read). */
function decoded(res: http.IncomingMessage): Readable | null {
  const encoding = String(res.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  // Servers end compressed streams loosely; fetch accepts that too (finishFlush).
  if (encoding === "gzip" || encoding === "x-gzip")
    return res.pipe(zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }));
  if (encoding === "deflate") return res.pipe(zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH }));
  if (encoding === "br")
    return res.pipe(zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }));
  return encoding === "" || encoding === "identity" ? res : null;
}

/**
 * The whole answer: status, headers (lower-case names, repeated ones joined) and body, decoded. The headers
 * that describe the bytes on the wire (content-encoding, content-length) are not passed on with a decoded body.
 */
function readResponse(x: ExchangeRun, res: http.IncomingMessage): void {
  const body = decoded(res);
  if (!body) {
    res.resume();
    return x.finish(lost("connection"));
  }
  body.setEncoding("utf8");
  let text = "";
  body.on("data", (c: string) => (text += c));
  // A body cut short (the server reset it, or a compressed body that does not decode) is no answer.
  body.on("error", () => x.finish(lost("connection")));
  if (body !== res) res.on("error", () => x.finish(lost("connection")));
  body.on("close", () => x.finish(lost("connection"))); // closed before its end; nothing once it ended
  body.on("end", () => {
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined) h[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
    if (body !== res) {
      delete h["content-encoding"];
      delete h["content-length"];
    }
    x.finish({ status: res.statusCode ?? 0, headers: h, body: text });
  });
}

/** The connection stands: the mark is made, and only if it says yes is the request written. */
async function markThenWrite(x: ExchangeRun): Promise<void> {
  x.connecting = false;
  // The mark waits for the database, not the network: no timeout runs meanwhile (a mark made, then timed out, would
  // count a request that never left).
  clearTimeout(x.timer);
  if (x.done) return;
  let go: boolean;
  x.marking = true;
  try {
    go = x.opts.beforeWrite ? await x.opts.beforeWrite() : true;
  } catch {
    go = false;
  }
  x.marking = false;
  if (x.done) return;
  if (x.closedWhileMarking) {
    // Nothing written; with the mark made, once more on a new connection (sendHttp), unless this was that.
    x.closedWhileMarking = go && !x.fresh;
    x.finish(lost("connection"), true);
    return;
  }
  if (!go) {
    x.finish(lost("connection"));
    x.r.destroy();
    return;
  }
  x.left = true;
  startTimer(x);
  x.r.end(x.body);
}

function exchange(req: HttpRequest, opts: SendHttpOptions, fresh: boolean): Promise<Exchanged> {
  return new Promise((resolve) => {
    let opened: ReturnType<typeof openRequest>;
    try {
      opened = openRequest(req, opts, fresh);
    } catch {
      // Not an http(s) address: nothing can be sent.
      return resolve({ res: lost("connection"), left: false, unreachable: true });
    }
    const { r, tls, body } = opened;
    const x: ExchangeRun = {
      r,
      body,
      opts,
      fresh,
      left: false,
      done: false,
      connecting: false,
      marking: false,
      closedWhileMarking: false,
      timer: undefined,
      finish: (res, again = false) => {
        if (x.done) return;
        x.done = true;
        clearTimeout(x.timer);
        const unreachable = x.connecting && res.status === 0;
        resolve({ res, left: x.left, unreachable, ...(again ? { closedWhileMarking: x.closedWhileMarking } : {}) });
      },
    };
    r.on("error", () => {
      // While the mark is made, the outcome waits for it (markThenWrite decides).
      if (x.marking) x.closedWhileMarking = true;
      else x.finish(lost("connection"));
    });
    r.on("response", (res) => readResponse(x, res));
    r.on("socket", (s) => {
      startTimer(x);
      // A kept-alive socket stands already; a new one is ready once connected (and, for https, secured).
      if (r.reusedSocket) void markThenWrite(x);
      else {
        x.connecting = true;
        s.once(tls ? "secureConnect" : "connect", () => void markThenWrite(x));
      }
    });
  });
}
