/**
 * The Node hosts' way of sending one request (issue 43, item 2): node:http
 * and node:https on keep-alive agents, without fetch.
 *
 * Why not fetch (shared/web/fetch-http.ts, which the browser hosts keep):
 * measured over loopback against the emulator, 700 profile GETs at 32 in
 * flight took about 0.55 s of client CPU through Node 20's fetch, 0.78 s with
 * the AbortSignal a per-request timeout needs, and 0.36 s here. Node's fetch
 * builds a WHATWG Request, Response and ReadableStream per call, registers
 * abort listeners on the signal, and records a resource-timing entry for each
 * request; none of that is needed to read a JSON answer.
 *
 * What fetch did that this keeps:
 *  - answers compressed with gzip, deflate or br are asked for and decoded
 *    (fetch sends Accept-Encoding itself; a caller's own header stands);
 *  - header names come back in lower case, repeated ones joined with ", ";
 *  - the body is read as UTF-8;
 *  - a failure never throws: status 0 with networkError "timeout" (the
 *    whole request took longer than `timeoutMs`) or "connection" (refused,
 *    reset, DNS, a torn compressed body), which the client's retry logic reads.
 * What it does not: follow redirects. A 3xx is the answer, as in Apps Script
 * (apps-script/http.ts): a redirect would resend the key to another address,
 * and the API and the team server answer none.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import * as zlib from "node:zlib";
import type { HttpRequest, HttpResponse } from "../shared/core/index.ts";

/**
 * Idle pooled sockets are closed after this long, before a server's own
 * keep-alive timeout does (Node's http server: 5 s) and a request written to
 * a socket the server is closing fails.
 */
const IDLE_SOCKET_MS = 4_000;

const agents = {
  "http:": new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: "lifo" }),
  "https:": new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: "lifo" }),
};

const ACCEPT_ENCODING = "gzip, deflate, br";

/** The decoded body stream of an answer, or the answer itself when it is not compressed. */
function decoded(res: IncomingMessage): Readable {
  switch (
    String(res.headers["content-encoding"] ?? "")
      .trim()
      .toLowerCase()
  ) {
    case "gzip":
    case "x-gzip":
      // Servers end gzip streams loosely; fetch accepts that too.
      return res.pipe(zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    case "deflate":
      return res.pipe(zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    case "br":
      return res.pipe(zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }));
    default:
      return res;
  }
}

function headersOf(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

const failed = (networkError: "timeout" | "connection"): HttpResponse => ({
  status: 0,
  headers: {},
  body: "",
  networkError,
});

function hasHeader(headers: Record<string, string>, name: string): boolean {
  for (const k of Object.keys(headers)) if (k.toLowerCase() === name) return true;
  return false;
}

/** Send `req` over node:http(s); the whole exchange is given up after `timeoutMs`. */
export function nodeHttp(req: HttpRequest, timeoutMs: number): Promise<HttpResponse> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return resolve(failed("connection"));
    }
    const agent = url.protocol === "http:" || url.protocol === "https:" ? agents[url.protocol] : undefined;
    if (!agent) return resolve(failed("connection"));
    let settled = false;
    const settle = (res: HttpResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(res);
    };
    const headers = hasHeader(req.headers, "accept-encoding")
      ? req.headers
      : { ...req.headers, "Accept-Encoding": ACCEPT_ENCODING };
    const send = url.protocol === "https:" ? https.request : http.request;
    const out = send(url, { method: req.method, headers, agent }, (res) => {
      const body = decoded(res);
      body.setEncoding("utf8");
      let text = "";
      body.on("data", (chunk: string) => (text += chunk));
      body.on("end", () => settle({ status: res.statusCode ?? 0, headers: headersOf(res), body: text }));
      // A body cut short (the server reset it, or a compressed body that does not decode) is no answer.
      body.on("error", () => settle(failed("connection")));
      body.on("close", () => settle(failed("connection"))); // closed before its end: nothing once it ended
      if (body !== res) res.on("error", () => settle(failed("connection")));
    });
    const timer = setTimeout(() => {
      settle(failed("timeout"));
      out.destroy();
    }, timeoutMs);
    out.on("error", () => settle(failed("connection")));
    out.end(req.body);
  });
}
