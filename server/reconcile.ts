/**
 * The reconciliation service on the team server (server/, issue 23), at
 * /reconcile, through the server's extension point (server/routes.ts): the
 * same host-neutral handler as `company-data reconcile` (../reconcile/service.ts), with
 * the team's money rules instead of a budget of its own.
 *
 * - Who: every request but the manifest carries a personal token
 *   (`Authorization: Bearer cdt_…`, 401 otherwise, as 0.2 "Authentication"
 *   says); the manifest declares it. The key stays on the server.
 * - Money: every API call the service makes goes through `ctx.call` (the
 *   server's shared answers, the user's and the team's monthly budgets, the
 *   ledger, the team's pacer), billed to the token's user: the requests the
 *   core's client builds are read back into calls by the server's own parser
 *   (server/proxy.ts specOf) and answered by ctx.call, never sent by us. A
 *   company the team already bought costs nobody anything again. The
 *   budgets are checked per call, so a request that crosses a budget may
 *   have bought part of what it asked: that part is kept in the team's shared
 *   answers and is not paid again; the answer is the server's own 402 with
 *   the budget and what is left, in the user's language.
 * - CORS: the server's (allowed origins only, applied before this route);
 *   the service's own "any origin" header is left out.
 * - The free preview reads what this process has shown (an in-memory cache
 *   per server process): with several processes behind one address, a
 *   preview can land on a process that has not met the company and say so.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallSpec } from "../shared/api/index.ts";
import { Pacer } from "../shared/api/index.ts";
import type { AsyncDriver } from "../shared/core/index.ts";
import type { HttpRequest, HttpResponse } from "../shared/core/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { authenticate } from "./auth/tokens.ts";
import { errorAnswer, send, withCharge, type ErrorAnswer } from "./errors.ts";
import { msg } from "./i18n.ts";
import { specOf } from "./proxy.ts";
import type { ServerContext, ServerExtension } from "./routes.ts";
import { isManifestRequest, RECONCILE_PATH } from "../reconcile/http.ts";
import { serviceDriver } from "../reconcile/context.ts";
import { callContext } from "../node/index.ts";
import { createReconcileService, type ReconcileRequest } from "../reconcile/service.ts";

/** Never contacted: the core's client needs a base URL and a key to build requests, which ctx.call answers instead. */
const TEAM = {
  apiKey: "team-server",
  baseUrl: "http://team-server.invalid",
  scope: "reconcile-team",
  pacer: new Pacer(),
};

/** What this process has shown (the preview's memory); the store holds nothing here (no budget of its own). */
let shared: AsyncDriver | undefined;
const sharedDriver = () => (shared ??= serviceDriver());

/** The language a request of the core's client asks for (its Accept-Language: DE or EN). */
const langOf = (r: HttpRequest): Language => (/^en/i.test(r.headers["Accept-Language"] ?? "") ? "en" : "de");

/** What one request's calls cost the user (the server's x-credits-charged: a shared answer is free) and the server's refusal, if any. */
interface Account {
  charged: number;
  refused?: ErrorAnswer;
}

/** A driver whose requests are answered by ctx.call for `call`'s user. */
function teamDriver(call: (spec: CallSpec, lang: Language) => Promise<ErrorAnswer>, acct: Account): AsyncDriver {
  const base = sharedDriver();
  return {
    sleep: (ms) => base.sleep(ms),
    cacheGet: (keys) => base.cacheGet(keys),
    cachePut: (entries, ttl) => base.cachePut(entries, ttl),
    storeGet: (keys) => base.storeGet(keys),
    storePut: (entries) => base.storePut(entries),
    http: (requests) =>
      Promise.all(
        requests.map(async (r): Promise<HttpResponse> => {
          const lang = langOf(r);
          const parsed = specOf(r.method, new URL(r.url), r.body ?? "", lang);
          const a = parsed.ok ? await call(parsed.spec, lang) : parsed.answer;
          if (a.status === 402) acct.refused = a;
          acct.charged += Number(a.headers["x-credits-charged"] ?? 0) || 0;
          return { status: a.status, headers: a.headers, body: a.body };
        }),
      ),
  };
}

/** The service URL as the client reached the server (a proxy in front says its scheme). */
function serviceUrlOf(req: IncomingMessage): string {
  const proto =
    String(req.headers["x-forwarded-proto"] ?? "http")
      .split(",")[0]!
      .trim() === "https"
      ? "https"
      : "http";
  return `${proto}://${req.headers.host ?? "localhost"}${RECONCILE_PATH}`;
}

async function handle(req: IncomingMessage, res: ServerResponse, ctx: ServerContext): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  const path = ctx.url.pathname.slice(RECONCILE_PATH.length);
  const manifestOnly = isManifestRequest(method, path, ctx.url.searchParams);
  const user = ctx.user ?? (manifestOnly ? null : await authenticate(ctx.db, req.headers.authorization));
  if (!manifestOnly && !user) {
    ctx.log.info("refused.token", { path: RECONCILE_PATH });
    return send(res, errorAnswer("UNAUTHORIZED", msg.unauthorized[ctx.lang]));
  }
  const acct: Account = { charged: 0 };
  const origin = typeof req.headers.origin === "string" ? req.headers.origin : undefined;
  const service = createReconcileService({
    driver: user ? teamDriver((spec, lang) => ctx.call(user, spec, lang), acct) : sharedDriver(),
    lang: ctx.lang,
    budget: null,
    // The server admitted the origin already (its allowed origins); a page it admits may send paid requests.
    allowedOrigins: origin ? [origin] : [],
    auth: "personal",
    log: (line) => ctx.log.warn("reconcile", { line }),
    context: (_r, tally, lang) => callContext(TEAM, tally, lang),
  });
  const headers: Record<string, string | undefined> = {};
  for (const name of ["origin", "sec-fetch-site", "content-type"]) {
    const v = req.headers[name];
    headers[name] = Array.isArray(v) ? v[0] : v;
  }
  const r: ReconcileRequest = { method, path, query: ctx.url.searchParams, body: ctx.body || undefined, headers };
  const out = await service.handle(r, serviceUrlOf(req));
  // Over a budget: the server's own answer (which budget, what is left, in the user's language).
  if (out.status === 402 && acct.refused)
    return send(res, withCharge(acct.refused, acct.charged - chargeOf(acct.refused)));
  // The server's CORS, and what the user was charged (the catalogue's price counts answers the team already had).
  const own = Object.fromEntries(
    Object.entries(out.headers).filter(([k]) => !/^access-control-/i.test(k) && k !== "X-Credits-Spent"),
  );
  res
    .writeHead(out.status, {
      ...own,
      "X-Credits-Spent": String(acct.charged),
      "X-Credits-Charged": String(acct.charged),
    })
    .end(out.body);
}

const chargeOf = (a: ErrorAnswer) => Number(a.headers["x-credits-charged"] ?? 0) || 0;

// A token for everything but the manifest (and preflights), checked by the server before the body is read.
export const reconcileExtension: ServerExtension = {
  name: "reconcile",
  routes: [
    {
      method: "*",
      prefix: RECONCILE_PATH,
      auth: true,
      anonymous: (method, url) =>
        isManifestRequest(method, url.pathname.slice(RECONCILE_PATH.length), url.searchParams),
      handler: handle,
    },
  ],
};
