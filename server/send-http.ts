/**
 * One HTTP exchange with the API on node:http(s), with a hook in the instant
 * before the request's bytes go out: the socket is connected (and, for
 * https, the TLS handshake done), nothing of the request written yet (node
 * writes neither headers nor body before `end`). The hook is the ledger's
 * send mark (ledger/budget.ts markSent): it runs there, and only if it says
 * yes is the request written. So whether a request may have left is known
 * exactly: a refused connection, a name that did not resolve, a failed TLS
 * handshake, a timeout while connecting, or a mark refused all end with
 * `left: false`: not one byte of the request went out.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { LookupFunction } from "node:net";
import type { HttpRequest, HttpResponse } from "../shared/core/index.ts";

export interface SendHttpOptions {
  timeoutMs: number;
  /** Runs once the connection stands, before anything is written; false (or a throw): nothing is sent. */
  beforeWrite?: () => Promise<boolean>;
  /** The resolver (tests inject one that fails, so no test asks a real DNS server). */
  lookup?: LookupFunction;
}

export interface SentHttp {
  res: HttpResponse;
  /** Whether any byte of the request may have left this process. */
  left: boolean;
  /** The connection could not be made: the name did not resolve, it was refused, TLS failed, connecting timed out. */
  unreachable: boolean;
}

/**
 * Connections to the API at once, per process (decision: the API's concurrency limit is not published; the
 * emulator's is an option). Requests beyond wait for a free one, reserved but not sent: a kill then
 * leaves them unsent, and they are released (heartbeat.ts).
 */
export const MAX_CONNECTIONS = 32;
// Free calls keep their connections alive (no handshake per autocomplete). A request with a mark goes on a
// connection of its own: a kept-alive one may be closed as idle by the API just as the request is written (the mark
// makes it wait), and a request then lost on the way would count as sent although the API never read it.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: MAX_CONNECTIONS }),
  https: new https.Agent({ keepAlive: true, maxSockets: MAX_CONNECTIONS }),
};
const markedAgents = {
  http: new http.Agent({ keepAlive: false, maxSockets: MAX_CONNECTIONS }),
  https: new https.Agent({ keepAlive: false, maxSockets: MAX_CONNECTIONS }),
};

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
  const r = (tls ? https : http).request(url, {
    method: req.method,
    headers,
    // A new connection of its own for the second try (agent false: not a kept-alive one).
    agent: fresh ? false : (opts.beforeWrite ? markedAgents : agents)[tls ? "https" : "http"],
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
  });
  return { r, tls, body };
}

// The timeout runs while connecting and from the write on (not while waiting for one of the MAX_CONNECTIONS,
// nor during the mark).
function startTimer(x: ExchangeRun): void {
  x.timer = setTimeout(() => {
    x.finish(lost("timeout"));
    x.r.destroy();
  }, x.opts.timeoutMs);
}

/** The whole answer: status, headers (lower-case names, repeated ones joined) and body. */
function readResponse(x: ExchangeRun, res: http.IncomingMessage): void {
  const chunks: Buffer[] = [];
  res.on("data", (c: Buffer) => chunks.push(c));
  res.on("error", () => x.finish(lost("connection")));
  res.on("end", () => {
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined) h[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
    x.finish({ status: res.statusCode ?? 0, headers: h, body: Buffer.concat(chunks).toString("utf8") });
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
    const { r, tls, body } = openRequest(req, opts, fresh);
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
