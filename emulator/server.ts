/**
 * The network face of the emulator on node:http: reads bodies up to the limit
 * (413 without buffering the rest), answers CORS for local origins, and
 * applies the latency and dropped connections handle() asks for, and
 * optionally caps the API requests a key may have in flight at once.
 */
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Emulator } from "./index.ts";
import { MAX_BODY_BYTES } from "./index.ts";
import { ApiError, errorResponse } from "./respond.ts";
import { langOf, type Lang } from "./i18n.ts";
import { controlGuard } from "./routes/control.ts";
import type { HttpMethod } from "../shared/core/index.ts";

export interface ServerOptions {
  port?: number;
  host?: string;
  maxBodyBytes?: number;
  /**
   * API requests one key may have in flight at once (received, not yet
   * answered, the added latency included); one more is answered 429 at once,
   * without Retry-After: a slot frees when any answer of that key is sent, so
   * there is no time to name (decision; the real service publishes no such
   * cap, this models one the client does not know). Unset: no cap.
   */
  maxConcurrentPerKey?: number;
}

/** The key a request names (the Authorization bearer), or "" (answered 401 by handle()). */
function keyOf(headers: Record<string, string>): string {
  const m = /^Bearer\s+(\S+)$/i.exec((headers["authorization"] ?? "").trim());
  return m?.[1] ?? "";
}
/** The path as handle() reads it (emulator/index.ts route) names a control endpoint. */
function isControlPath(url: string): boolean {
  let path: string;
  try {
    path = new URL(url, "http://emulator.invalid").pathname;
  } catch {
    return false;
  }
  return path === "/_emulator" || path.startsWith("/_emulator/");
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Browser hosts that may call the emulator: the Excel task pane (https://localhost:3000), the playground, any local dev server. */
export function allowedOrigin(origin: string | undefined): boolean {
  return (
    !!origin &&
    /^(https?:\/\/localhost|http:\/\/127\.0\.0\.1|https:\/\/127\.0\.0\.1|http:\/\/\[::1\])(:\d+)?$/.test(origin)
  );
}

const CORS_ALLOW_HEADERS = "Authorization, Content-Type, Accept-Language";
const CORS_EXPOSE_HEADERS = "Retry-After, X-Credits-Charged, X-Credits-Remaining";
/** A client that keeps sending after a 413 is cut off here, so a huge upload cannot occupy the server. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/** The CORS headers for a page on this machine (none for another origin), with a preflight's answer to OPTIONS. */
function corsHeaders(req: http.IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  const cors: Record<string, string> = {};
  if (!allowedOrigin(origin)) return cors;
  cors["access-control-allow-origin"] = origin!;
  cors["vary"] = "Origin";
  cors["access-control-expose-headers"] = CORS_EXPOSE_HEADERS;
  if (req.method === "OPTIONS") {
    cors["access-control-allow-methods"] = "GET, POST, OPTIONS";
    cors["access-control-allow-headers"] = CORS_ALLOW_HEADERS;
    cors["access-control-max-age"] = "600";
    // Chrome's private network access preflight, for pages served from a non-local address.
    if (req.headers["access-control-request-private-network"]) cors["access-control-allow-private-network"] = "true";
  }
  return cors;
}

export function startServer(emulator: Emulator, options: ServerOptions = {}): Promise<RunningServer> {
  const ctx: ServerContext = {
    emulator,
    maxBody: options.maxBodyBytes ?? MAX_BODY_BYTES,
    cap: options.maxConcurrentPerKey,
    inFlight: new Map<string, number>(),
  };
  const server = http.createServer((req, res) => onRequest(ctx, req, res));
  const sockets = trackSockets(server);
  server.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });
  return listen(server, sockets, options.port ?? 8787, options.host ?? "127.0.0.1");
}

/** What every request of one server shares: the emulator, the body limit and the per-key cap with its counts. */
interface ServerContext {
  emulator: Emulator;
  maxBody: number;
  cap: number | undefined;
  /** API requests in flight per key (only while a cap is set). */
  inFlight: Map<string, number>;
}

/** What one request's answer needs besides the context: its response, CORS headers, string headers and language. */
interface Exchange {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  cors: Record<string, string>;
  headers: Record<string, string>;
  lang: Lang;
}

function onRequest(ctx: ServerContext, req: http.IncomingMessage, res: http.ServerResponse): void {
  const cors = corsHeaders(req);
  const headers = stringHeaders(req);
  const x: Exchange = { req, res, cors, headers, lang: langOf(headers) };
  if (req.method === "OPTIONS") return void res.writeHead(204, cors).end();
  // A declared length over the limit is refused before a byte of the body is read.
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > ctx.maxBody) return refuseTooLarge(x, ctx.maxBody);
  readBody(req, ctx.maxBody, {
    tooLarge: () => refuseTooLarge(x, ctx.maxBody),
    done: (body) => answer(ctx, x, body),
  });
  req.on("error", () => req.destroy());
}

/** The request's headers that have one value (handle() reads strings only). */
function stringHeaders(req: http.IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
  return headers;
}

/** Answer 413 and close; the rest of the body is discarded, and a client that sends far more is cut off. */
function refuseTooLarge({ req, res, cors, lang }: Exchange, maxBody: number): void {
  const r = errorResponse(new ApiError("PAYLOAD_TOO_LARGE", "payloadTooLarge", { max: maxBody }, "body"), lang);
  res.writeHead(413, { ...r.headers, ...cors, connection: "close" }).end(r.body);
  // Discard the rest without keeping it; cut off clients that send far more.
  let drained = 0;
  req.removeAllListeners("data");
  req.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT) req.destroy();
  });
  req.resume();
}

/** Collect the body up to the limit: `tooLarge` once it passes the limit (nothing more is kept), else `done`. */
function readBody(
  req: http.IncomingMessage,
  maxBody: number,
  then: { tooLarge: () => void; done: (body: string | undefined) => void },
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let aborted = false;
  req.on("data", (chunk: Buffer) => {
    if (aborted) return;
    size += chunk.length;
    if (size > maxBody) {
      aborted = true;
      chunks.length = 0;
      then.tooLarge();
      return;
    }
    chunks.push(chunk);
  });
  req.on("end", () => {
    if (aborted) return;
    then.done(size > 0 ? Buffer.concat(chunks).toString("utf8") : undefined);
  });
}

/** A whole request's answer: the control guard, the per-key cap, then handle() with the latency or drop it asks for. */
function answer(ctx: ServerContext, x: Exchange, body: string | undefined): void {
  const { req, res, cors, headers, lang } = x;
  const method = (req.method ?? "GET").toUpperCase() as HttpMethod;
  const refused = isControlPath(req.url ?? "/") ? controlGuard(method, headers) : null;
  if (refused) {
    const r = errorResponse(refused, lang);
    res.writeHead(403, { ...r.headers, ...cors }).end(r.body);
    return;
  }
  const release = claimSlot(ctx, x);
  if (!release) return;
  res.on("close", release);
  const out = ctx.emulator.handle({ method, url: req.url ?? "/", headers, body });
  const send = () => {
    release();
    if (out.drop) {
      req.socket.destroy();
      return;
    }
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(out.status, { ...out.headers, ...cors }).end(out.body);
  };
  if (out.delayMs && out.delayMs > 0) setTimeout(send, out.delayMs);
  else send();
}

/**
 * Take one of the key's in-flight slots: a release (safe to call twice), or
 * undefined after answering 429 when the key has none left.
 */
function claimSlot(
  { cap, inFlight }: ServerContext,
  { req, res, cors, headers, lang }: Exchange,
): (() => void) | undefined {
  // The cap counts API calls of a key; control endpoints and unauthenticated calls pass.
  const key = cap !== undefined && !(req.url ?? "/").startsWith("/_emulator") ? keyOf(headers) : "";
  if (key && (inFlight.get(key) ?? 0) >= cap!) {
    const r = errorResponse(new ApiError("RATE_LIMITED", "tooManyConcurrent", { max: cap! }), lang);
    res.writeHead(429, { ...r.headers, ...cors }).end(r.body);
    return undefined;
  }
  if (key) inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
  let released = false;
  return () => {
    if (!key || released) return;
    released = true;
    const n = (inFlight.get(key) ?? 1) - 1;
    if (n > 0) inFlight.set(key, n);
    else inFlight.delete(key);
  };
}

/** The open sockets, so close() can end kept-alive connections instead of waiting for them. */
function trackSockets(server: http.Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  return sockets;
}

function listen(server: http.Server, sockets: Set<Socket>, port: number, host: string): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const bound = (server.address() as AddressInfo).port;
      const shownHost = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost}:${bound}`,
        port: bound,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
