/**
 * The team server on node:http: CORS for the configured origins, /health,
 * the extension routes (routes.ts), and the API's surface (proxy.ts →
 * purchase.ts) for requests with a personal token. Requests in flight are
 * counted, so a graceful shutdown lets each finish (and settle its ledger
 * row) before the process ends.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { toLanguage, type Language } from "../shared/i18n/index.ts";
import { accountAnswer } from "./account.ts";
import { authenticate } from "./auth/tokens.ts";
import { errorAnswer, send } from "./errors.ts";
import { msg } from "./i18n.ts";
import { isApiPath, specOf } from "./proxy.ts";
import { answerFor, type PurchaseContext } from "./purchase.ts";
import { startHeartbeat } from "./heartbeat.ts";
import { startReachability } from "./reachability.ts";
import { healthChecks, registeredServices, routeFor, type ServerContext, type ServiceContext } from "./routes.ts";

export interface TeamServerOptions extends PurchaseContext {
  port: number;
  host: string;
  /** Browser origins allowed to call (exact scheme://host[:port]); any other Origin is refused. */
  allowOrigins: string[];
  maxBodyBytes?: number;
}

export interface RunningTeamServer {
  url: string;
  port: number;
  /** Stop accepting, let requests in flight finish (at most `graceMs`), stop services. */
  close(graceMs?: number): Promise<void>;
}

export const MAX_BODY_BYTES = 1024 * 1024;
const ALLOW_HEADERS = "Authorization, Content-Type, Accept-Language";
const EXPOSE_HEADERS = "Retry-After, X-Credits-Charged, X-Cache";

/** ?lang= wins over Accept-Language (its first language); German otherwise, as the API. */
export function languageOf(url: URL, acceptLanguage: string | undefined): Language {
  const q = url.searchParams.get("lang");
  if (q === "de" || q === "en") return q;
  return toLanguage((acceptLanguage ?? "").split(",")[0], "de");
}

/** An origin as the browser sends it: scheme://host[:port], lower case, no path. */
export function normaliseOrigin(o: string): string {
  const u = new URL(o);
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new Error(`origin must be http(s): ${o}`);
  return u.origin;
}

function readBody(req: http.IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > max) over = true;
      if (!over) chunks.push(c);
    });
    req.on("end", () => resolve(over ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
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
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = Date.now();
    const url = new URL(req.url ?? "/", "http://server.invalid");
    const lang = languageOf(url, req.headers["accept-language"]);
    const method = (req.method ?? "GET").toUpperCase();
    const origin = req.headers.origin;
    const cors: Record<string, string> = {};
    if (origin !== undefined) {
      if (!allowed.has(origin)) {
        opts.log.warn("refused.origin", { origin: origin.slice(0, 200), path: url.pathname });
        send(res, errorAnswer("FORBIDDEN", msg.originRefused[lang]), { vary: "Origin" });
        req.resume();
        return;
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
    if (closing) {
      send(res, errorAnswer("UNAVAILABLE", msg.shuttingDown[lang], { retryAfterSeconds: 2 }), {
        ...cors,
        connection: "close",
      });
      req.resume();
      return;
    }
    const body = await readBody(req, maxBody);
    if (body === null) return send(res, errorAnswer("PAYLOAD_TOO_LARGE", msg.tooLarge[lang], { field: "body" }), cors);

    if (url.pathname === "/health" && method === "GET") {
      await opts.db.query("select 1");
      const out: Record<string, unknown> = { ok: true, database: opts.db.kind, process: opts.process };
      if (url.searchParams.get("deep") === "1") {
        const results: Record<string, unknown> = {};
        for (const [name, check] of healthChecks()) {
          try {
            results[name] = await check(service);
          } catch (e) {
            results[name] = { ok: false, detail: String((e as Error)?.message ?? e) };
          }
        }
        out.checks = results;
        out.ok = Object.values(results).every((r) => (r as { ok?: boolean }).ok === true);
      }
      res
        .writeHead(out.ok ? 200 : 503, { "content-type": "application/json; charset=utf-8", ...cors })
        .end(JSON.stringify(out));
      return;
    }

    const extra = routeFor(method, url.pathname);
    const api = !extra && isApiPath(url.pathname);
    if (!extra && !api) return send(res, errorAnswer("NOT_FOUND", msg.notFound[lang]), cors);
    const user = extra && !extra.auth ? null : await authenticate(opts.db, req.headers.authorization);
    if ((api || extra?.auth) && !user) {
      opts.log.info("refused.token", { path: url.pathname });
      return send(res, errorAnswer("UNAUTHORIZED", msg.unauthorized[lang]), cors);
    }
    if (extra) {
      const ctx: ServerContext = { ...service, user, lang, url, body };
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
    res.writeHead(answer.status, { ...answer.headers, ...cors }).end(answer.body);
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
          message: String((e as Error)?.message ?? e).slice(0, 300),
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
  for (const s of registeredServices()) stops.push(await s.start(service));
  const port = (server.address() as AddressInfo).port;
  const shownHost = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
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
