/**
 * The team server on node:http: CORS for the configured origins, /health,
 * the extension routes (routes.ts), and the API's surface (proxy.ts →
 * purchase.ts) for requests with a personal token. Requests in flight are
 * counted, so a graceful shutdown lets each finish (and settle its ledger
 * row) before the process ends.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { languageOf } from "./language.ts";
import { accountAnswer } from "./account.ts";
import { startAdminChannel } from "./admin/channel.ts";
import { healthAnswer } from "./admin/health.ts";
import { checkToken } from "./auth/tokens.ts";
import { errorAnswer, send, type ErrorAnswer } from "./errors.ts";
import { msg } from "./i18n.ts";
import { closeUnread } from "../node/index.ts";
import { STRICT_OUTBOUND, type OutboundPolicy } from "./net/outbound.ts";
import { isApiPath, specOf } from "./proxy.ts";
import { answerFor, type PurchaseContext } from "./purchase.ts";
import { errorMessage } from "./error-text.ts";
import { startHeartbeat } from "./heartbeat.ts";
import { startReachability } from "./reachability.ts";
import { registeredServices, routeFor, type ServerContext, type ServiceContext } from "./routes.ts";

export interface TeamServerOptions extends PurchaseContext {
  port: number;
  host: string;
  /** Browser origins allowed to call (exact scheme://host[:port]); any other Origin is refused. */
  allowOrigins: string[];
  maxBodyBytes?: number;
  /** The admin channel's Unix socket (PGlite: <data>/admin.sock; admin/channel.ts), or none. */
  adminSocket?: string;
  /** User-given addresses (webhooks): what the admin allowed beyond the public internet (--allow-webhook-host). */
  outbound?: OutboundPolicy;
}

export interface RunningTeamServer {
  url: string;
  port: number;
  /** The listener (tests read its sockets' bytesRead: a refused body is not read). */
  listener: http.Server;
  /** Stop accepting, let requests in flight finish (at most `graceMs`), stop services. */
  close(graceMs?: number): Promise<void>;
}

export const MAX_BODY_BYTES = 1024 * 1024;
const ALLOW_HEADERS = "Authorization, Content-Type, Accept-Language";
const EXPOSE_HEADERS = "Retry-After, X-Credits-Charged, X-Cache";

/** An origin as the browser sends it: scheme://host[:port], lower case, no path. */
export function normaliseOrigin(o: string): string {
  const u = new URL(o);
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new Error(`origin must be http(s): ${o}`);
  return u.origin;
}

/**
 * A request from a page this server served itself (the console at /console):
 * its Origin names this server's own host. Browsers send Origin on a
 * same-origin POST too; it is not a cross-origin call, so --allow-origin is
 * not needed for it. (A page of another site cannot send this server's host
 * as its Origin; a rebinding page that could would still hold no token: the
 * server takes bearer tokens only, no cookies.)
 */
export function sameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** Bodies of methods that carry none (GET, DELETE, HEAD): what a client may still send by habit. */
export const BODYLESS_MAX_BYTES = 16 * 1024;

/**
 * The request body as text, at most `max` bytes; null when it is larger.
 * A declared Content-Length over the limit is refused before one byte is
 * read; a longer stream is read only up to the limit and then left unread
 * (the answer closes the connection).
 */
function readBody(req: http.IncomingMessage, max: number): Promise<string | null> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= max) return void chunks.push(c);
      req.off("data", onData);
      req.off("end", onEnd);
      req.pause();
      resolve(null);
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString("utf8"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", reject);
  });
}

/**
 * An answer given before the body is read (or while it is still coming):
 * the connection is closed after it, so the rest of the body is never read
 * (node/close-unread.ts: what is already in the socket's buffers stays there).
 */
function refuse(res: http.ServerResponse, a: ErrorAnswer, headers: Record<string, string>): void {
  closeUnread(res);
  send(res, a, { ...headers, connection: "close" });
}

/**
 * An extension route's way to the API that adds up what its calls cost the
 * user, and says the sum in X-Credits-Charged on the route's answer (unless
 * the route set it itself): every answer of the server carries its charge.
 */
function chargedCalls(service: ServiceContext, res: http.ServerResponse): ServiceContext["call"] {
  let charged = 0;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
  res.writeHead = (...args: unknown[]) => {
    if (!res.hasHeader("x-credits-charged")) {
      const headers = args.find((a, i) => i > 0 && a !== null && typeof a === "object" && !Array.isArray(a)) as
        Record<string, unknown> | undefined;
      const said = headers && Object.keys(headers).some((k) => k.toLowerCase() === "x-credits-charged");
      if (!said) res.setHeader("x-credits-charged", String(charged));
    }
    return writeHead(...args);
  };
  return async (user, spec, lang, callOpts) => {
    const a = await service.call(user, spec, lang, callOpts);
    charged += Number(a.headers["x-credits-charged"] ?? 0) || 0;
    return a;
  };
}

export async function startTeamServer(options: TeamServerOptions): Promise<RunningTeamServer> {
  // This process beats in the database before it serves (heartbeat.ts), and says which API and whether it answers.
  const heartbeat = await startHeartbeat(options.db, options.process, options.log);
  const reachability = await startReachability(options.upstream, options.upstream.baseUrl, options.log);
  const opts: TeamServerOptions = { ...options, reachability };
  const allowed = new Set(opts.allowOrigins.map(normaliseOrigin));
  const maxBody = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const inFlight = new Set<Promise<void>>();
  let closing = false;
  const service: ServiceContext = {
    db: opts.db,
    log: opts.log,
    process: opts.process,
    call: (user, spec, lang, callOpts) => answerFor(opts, user, spec, lang, callOpts),
    operate: (op, signal) => opts.upstream.operate(op, signal),
    outbound: opts.outbound ?? STRICT_OUTBOUND,
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = Date.now();
    const url = new URL(req.url ?? "/", "http://server.invalid");
    const lang = languageOf(url, req.headers["accept-language"]);
    const method = (req.method ?? "GET").toUpperCase();
    const origin = req.headers.origin;
    const cors: Record<string, string> = {};
    if (origin !== undefined && !sameOrigin(origin, req.headers.host)) {
      if (!allowed.has(origin)) {
        opts.log.warn("refused.origin", { origin: origin.slice(0, 200), path: url.pathname });
        return refuse(res, errorAnswer("FORBIDDEN", msg.originRefused[lang]), { vary: "Origin" });
      }
      cors["access-control-allow-origin"] = origin;
      cors["vary"] = "Origin";
      cors["access-control-expose-headers"] = EXPOSE_HEADERS;
      if (method === "OPTIONS") {
        res
          .writeHead(204, {
            ...cors,
            "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
            "access-control-allow-headers": ALLOW_HEADERS,
            "access-control-max-age": "600",
          })
          .end();
        return;
      }
    }
    if (closing) return refuse(res, errorAnswer("UNAVAILABLE", msg.shuttingDown[lang], { retryAfterSeconds: 2 }), cors);

    // Who before what: the route and the caller are decided from the request line and the headers; only a
    // caller the route admits has its body read, and only up to the route's limit (issue 36, item 4).
    // /health reads no body: liveness for anyone, the deep checks for an admin credential (admin/health.ts).
    if (url.pathname === "/health" && method === "GET") {
      const a = await healthAnswer({
        db: opts.db,
        service,
        url,
        authorization: req.headers.authorization,
        lang,
        process: opts.process,
      });
      res.writeHead(a.status, { ...a.headers, ...cors }).end(a.body);
      return;
    }

    const extra = routeFor(method, url.pathname);
    const api = !extra && isApiPath(url.pathname);
    if (!extra && !api) return refuse(res, errorAnswer("NOT_FOUND", msg.notFound[lang]), cors);
    const anonymous = extra !== undefined && (!extra.auth || extra.anonymous?.(method, url) === true);
    const check = anonymous ? null : await checkToken(opts.db, req.headers.authorization);
    const user = check && "user" in check ? check.user : null;
    if (!anonymous && !user) {
      opts.log.info("refused.token", { path: url.pathname, expired: check?.refused === "expired" || undefined });
      const text = check?.refused === "expired" ? msg.tokenExpired[lang](check.expiredAt) : msg.unauthorized[lang];
      return refuse(res, errorAnswer("UNAUTHORIZED", text), cors);
    }
    if (extra?.auth === "admin" && !user?.admin) {
      opts.log.info("refused.admin", { user: user?.name, path: url.pathname });
      return refuse(res, errorAnswer("FORBIDDEN", msg.adminOnly[lang]), cors);
    }
    const bodyless = method === "GET" || method === "HEAD" || method === "DELETE";
    const limit = Math.min(extra?.maxBodyBytes ?? maxBody, bodyless ? BODYLESS_MAX_BYTES : Infinity);
    const body = await readBody(req, limit);
    if (body === null)
      return refuse(res, errorAnswer("PAYLOAD_TOO_LARGE", msg.tooLarge[lang], { field: "body" }), cors);

    if (extra) {
      const ctx: ServerContext = { ...service, user, lang, url, body, call: chargedCalls(service, res) };
      for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
      await extra.handler(req, res, ctx);
      opts.log.info("request", {
        user: user?.name,
        method,
        path: extra.prefix,
        status: res.statusCode,
        ms: Date.now() - started,
      });
      return;
    }
    const parsed = specOf(method, url, body, lang);
    if (!parsed.ok) return send(res, parsed.answer, cors);
    const answer =
      parsed.spec.endpoint === "account"
        ? await accountAnswer(opts, user!, parsed.spec, lang)
        : await answerFor(opts, user!, parsed.spec, lang);
    // Every answer says what it cost this user (0 where the server answered without buying).
    res.writeHead(answer.status, { "x-credits-charged": "0", ...answer.headers, ...cors }).end(answer.body);
    opts.log.info("request", {
      user: user!.name,
      endpoint: parsed.spec.endpoint,
      company: parsed.spec.path?.id,
      status: answer.status,
      credits: Number(answer.headers["x-credits-charged"] ?? 0),
      cache: answer.headers["x-cache"],
      ms: Date.now() - started,
    });
  }

  const server = http.createServer((req, res) => {
    const p = handle(req, res)
      .catch((e: unknown) => {
        // Never the error's text to the user (it could name internals); its kind to the log.
        opts.log.error("request.failed", {
          path: (req.url ?? "").split("?")[0],
          error: (e as Error)?.name ?? "Error",
          message: errorMessage(e).slice(0, 300),
        });
        send(
          res,
          errorAnswer(
            "SERVER_ERROR",
            msg.internal[languageOf(new URL(req.url ?? "/", "http://x"), req.headers["accept-language"])],
          ),
        );
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  });
  server.on("clientError", (_e, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  }).catch(async (e: unknown) => {
    reachability.stop();
    await heartbeat.stop();
    throw e;
  });
  const stops: (() => Promise<void>)[] = [];
  const channel = opts.adminSocket ? await startAdminChannel(opts.adminSocket, service) : null;
  if (channel) stops.push(() => channel.close());
  for (const s of registeredServices()) stops.push(await s.start(service));
  const port = (server.address() as AddressInfo).port;
  const shownHost = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    listener: server,
    async close(graceMs = 30_000) {
      if (closing) return;
      closing = true;
      const stopped = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, graceMs).unref())]);
      server.closeAllConnections();
      // Neither the listener nor a module's service may keep a stopping server alive past a few seconds.
      const bounded = (p: Promise<unknown>) => Promise.race([p, new Promise((r) => setTimeout(r, 5_000).unref())]);
      await bounded(stopped);
      for (const stop of stops.reverse()) await bounded(stop().catch(() => undefined));
      reachability.stop();
      await bounded(heartbeat.stop());
    },
  };
}
