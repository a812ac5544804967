/**
 * The reconciliation service as a host-neutral request handler: a request
 * (method, path below the service URL, parameters, a few headers) in, a
 * response (status, headers, body) out. No node:http here, so the CLI's
 * server (./http.ts) and the team server mount the same handler.
 *
 * Routes (Reconciliation Service API 0.2; paths below the service URL,
 * optionally after a language segment `/de` or `/en`):
 *   ""                   GET without parameters: the manifest; `queries` (GET
 *                        or form-encoded POST): reconciliation; `extend`:
 *                        data extension
 *   /suggest/entity      ?prefix=&cursor=  (free: the API's suggest)
 *   /suggest/property    ?prefix=          (local)
 *   /suggest/type        ?prefix=          (local)
 *   /propose_properties  ?type=&limit=     (local)
 *   /preview, /view      ?id=              (free: what the service has seen)
 *   /estimate            ?extend=          the price of an extension before it is sent (not in 0.2)
 *
 * Prices: reconciliation pays batch resolve (ceil(n/10) per call of up to
 * 100 distinct names not in the cache); extension pays profiles. Every paid
 * request is priced from the one price table before it goes out and
 * reserved against the service's budget (shared/functions/guard.ts
 * withBudget, per UTC day like the MCP server's); one that does not fit is
 * refused whole, nothing of it sent, with a 402 answer naming the price and
 * what is left. Paid requests run one at a time (the budget's check and
 * reservation never race); free ones do not wait for them.
 *
 * CORS (0.2 "Cross-Origin Access": MUST, on every endpoint alike): every
 * answer allows any origin. But a paid request sent by a web page the user
 * happens to visit would spend the user's credits (a form POST needs no
 * preflight): paid requests that come from a browser (an Origin header, or
 * Sec-Fetch-Site other than same-origin/none) are refused unless the origin
 * is allowed. OpenRefine sends reconciliation and extension from its Java
 * backend (no Origin), and only suggest and preview from the browser.
 * JSONP (0.2: MAY) is answered for the free endpoints only, for the same
 * reason: a script tag carries no Origin.
 */
import { runAsync, type AsyncDriver } from "../shared/core/index.ts";
import type { Operation } from "../shared/core/index.ts";
import { CompanyDataError, invalid, toCompanyDataError } from "../shared/core/index.ts";
import { budgetStatus, type BudgetStatus } from "../shared/credits/index.ts";
import { withBudget } from "../shared/functions/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { got, rule } from "../shared/i18n/index.ts";
import { validate as V } from "../shared/api/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import { extendCompanies, extendEstimate, readExtend, type ExtendQuery } from "./extend.ts";
import { refusal } from "./i18n.ts";
import { CORS, errorResponse, html, json, SECURITY, svg, type ReconcileResponse } from "./responses.ts";
import { docsHtml, LOGO_SVG } from "./docs.ts";
import { featureHtml } from "./features.ts";
import { manifest, type ManifestAuth } from "./manifest.ts";
import { previewHtml } from "./preview.ts";
import { readBatch, reconcileBatch } from "./queries.ts";
import { seenSummaries } from "./seen.ts";
import { proposeProperties, readCursor, suggestEntities, suggestProperties, suggestTypes } from "./suggest.ts";

export interface ReconcileRequest {
  method: string;
  /** The path below the service URL: "" for the service URL itself, "/suggest/entity", "/de/preview", … */
  path: string;
  /** Query string parameters. */
  query: URLSearchParams;
  /** The raw request body (form-encoded for POST), if any. */
  body?: string;
  /** Request headers, names in lower case (Origin, Sec-Fetch-Site, Content-Type are read). */
  headers: Record<string, string | undefined>;
}

export type { ReconcileResponse } from "./responses.ts";

/** What one request spent: counted by the client's onSpend from successful paid calls. */
export interface Tally {
  credits: number;
  requests: number;
}

export interface ReconcileHost {
  driver: AsyncDriver;
  /** The service's language (labels, messages); a `/de` or `/en` path segment overrides it per request. */
  lang: Language;
  /** The operation context for one request, counting into `tally`, in `lang`. */
  context(req: ReconcileRequest, tally: Tally, lang: Language): OpContext;
  /** Credits per UTC day; null = none of its own (the team server's budgets apply there). */
  budget: number | null;
  /** Browser origins that may send paid requests (exact match, e.g. http://127.0.0.1:3333). */
  allowedOrigins: readonly string[];
  /** The token the host requires (it checks it), declared in the manifest: none, the service's own, a team server's personal token. */
  auth: ManifestAuth;
  /** Problems of the service itself (never given the key or a token). */
  log(line: string): void;
}

export interface ReconcileService {
  /** `serviceUrl`: the service URL as the client reached it (no trailing slash), for the URLs the manifest names. */
  handle(req: ReconcileRequest, serviceUrl: string): Promise<ReconcileResponse>;
}

/** A JSONP callback: a dotted JavaScript name, nothing else can be written around the answer. */
const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*){0,3}$/;

/** GET parameters, and for a POST the form-encoded body's (which win). */
function paramsOf(req: ReconcileRequest): URLSearchParams {
  const p = new URLSearchParams(req.query);
  if (req.method === "POST" && req.body) {
    const type = (req.headers["content-type"] ?? "").toLowerCase();
    if (type && !type.startsWith("application/x-www-form-urlencoded"))
      throw invalid(
        "Content-Type",
        got(
          { de: "erwartet application/x-www-form-urlencoded", en: "expected application/x-www-form-urlencoded" },
          type.split(";")[0],
        ),
      );
    for (const [k, v] of new URLSearchParams(req.body)) p.set(k, v);
  }
  return p;
}

/** A paid request from a web page whose origin is not allowed (see the module comment). */
function fromForeignPage(req: ReconcileRequest, allowed: readonly string[]): string | null {
  const origin = req.headers.origin;
  const site = req.headers["sec-fetch-site"];
  if (origin !== undefined && origin !== "null" && allowed.includes(origin)) return null;
  if (origin !== undefined) return origin;
  if (site !== undefined && site !== "same-origin" && site !== "none") return site;
  return null;
}

/** The pages the manifest names for people (documentation, logo, a matching feature); null for any other path. */
function pageOf(path: string, base: string, lang: Language, auth: ManifestAuth, id: string): ReconcileResponse | null {
  if (path === "/docs") return html(200, docsHtml(base, lang, auth));
  if (path === "/logo.svg") return svg(LOGO_SVG);
  if (path !== "/feature") return null;
  const page = featureHtml(id, lang);
  return page !== null
    ? html(200, page)
    : errorResponse(new CompanyDataError("NOT_FOUND", { detail: refusal.noFeature(id) }), lang);
}

/** The price of an extension before it is sent (`/estimate`, not part of 0.2): the enrichment estimate's figures. */
function estimateView(q: ExtendQuery, lang: Language) {
  const e = extendEstimate(q);
  return {
    credits: e.credits,
    requests: e.requests,
    companies: e.companies,
    breakdown: e.breakdown.map((l) => ({
      label: l.label[lang],
      de: l.label.de,
      en: l.label.en,
      credits: l.credits,
      requests: l.requests,
    })),
  };
}

export function createReconcileService(host: ReconcileHost): ReconcileService {
  /** Paid requests, one at a time (see the module comment). */
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(f: () => Promise<T>): Promise<T> => {
    const run = queue.then(f);
    queue = run.catch(() => undefined);
    return run;
  };

  const budgetOf = (ctx: OpContext) => runAsync(budgetStatus(ctx, host.budget), host.driver);
  const budgetHeaders = (b: BudgetStatus, t: Tally): Record<string, string> => ({
    "X-Credits-Spent": String(t.credits),
    ...(b.remaining !== null ? { "X-Budget-Remaining": String(b.remaining) } : {}),
  });

  /** Run a paid operation under the budget; a refusal is a 402 with the price and the budget. */
  async function paid<T>(
    req: ReconcileRequest,
    lang: Language,
    op: (ctx: OpContext) => Operation<T>,
  ): Promise<ReconcileResponse> {
    const foreign = fromForeignPage(req, host.allowedOrigins);
    if (foreign !== null) {
      const e = new CompanyDataError("INVALID_INPUT", { field: "Origin", detail: refusal.foreignOrigin(foreign) });
      return { ...errorResponse(e, lang), status: 403 };
    }
    return serial(async () => {
      const tally: Tally = { credits: 0, requests: 0 };
      const ctx = host.context(req, tally, lang);
      const run = host.budget === null ? op(ctx) : withBudget(ctx, host.budget, op(ctx));
      try {
        const value = await runAsync(run, host.driver);
        return json(200, value, budgetHeaders(await budgetOf(ctx), tally));
      } catch (e) {
        const err = toCompanyDataError(e);
        if (!(e instanceof CompanyDataError))
          host.log(`reconcile: internal error (${(e as Error)?.name ?? "unknown"})`);
        const b = await budgetOf(ctx).catch(() => null);
        const extra =
          err.code === "BUDGET_EXCEEDED" && b
            ? { budget: { limit: b.limit, spent: b.spent, remaining: b.remaining }, spent: tally.credits }
            : { spent: tally.credits };
        const r = errorResponse(err, lang, extra);
        return b ? { ...r, headers: { ...r.headers, ...budgetHeaders(b, tally) } } : r;
      }
    });
  }

  /** A free operation; JSONP when asked. */
  async function free(
    req: ReconcileRequest,
    lang: Language,
    params: URLSearchParams,
    op: (ctx: OpContext) => Operation<unknown>,
  ): Promise<ReconcileResponse> {
    const ctx = host.context(req, { credits: 0, requests: 0 }, lang);
    let r: ReconcileResponse;
    try {
      r = json(200, await runAsync(op(ctx), host.driver));
    } catch (e) {
      if (!(e instanceof CompanyDataError)) host.log(`reconcile: internal error (${(e as Error)?.name ?? "unknown"})`);
      r = errorResponse(toCompanyDataError(e), lang);
    }
    return jsonp(r, params);
  }

  function jsonp(r: ReconcileResponse, params: URLSearchParams): ReconcileResponse {
    const cb = params.get("callback");
    if (cb === null || r.status !== 200) return r;
    if (!CALLBACK.test(cb))
      return errorResponse(
        invalid("callback", got({ de: "ein JavaScript-Name", en: "a JavaScript name" }, cb)),
        host.lang,
      );
    return {
      ...r,
      headers: { ...r.headers, "Content-Type": "application/javascript; charset=utf-8" },
      body: `/**/${cb}(${r.body});`,
    };
  }

  const sync = <T>(f: () => T) =>
    function* (): Operation<T> {
      return f();
    };

  async function route(req: ReconcileRequest, serviceUrl: string): Promise<ReconcileResponse> {
    let path = req.path.replace(/\/+$/, "");
    let lang = host.lang;
    let base = serviceUrl.replace(/\/+$/, "");
    const seg = /^\/(de|en)(?=\/|$)/.exec(path);
    if (seg) {
      lang = seg[1] as Language;
      path = path.slice(3);
      base += `/${lang}`;
    }
    if (req.method === "OPTIONS") return { status: 204, headers: { ...CORS, ...SECURITY }, body: "" };
    if (req.method !== "GET" && req.method !== "POST")
      return {
        ...errorResponse(invalid("method", got(rule.oneOf(["GET", "POST"]), req.method)), lang),
        status: 405,
        headers: { Allow: "GET, POST, OPTIONS" },
      };
    const params = paramsOf(req);
    const one = (name: string) => params.get(name);
    const page = pageOf(path, base, lang, host.auth, one("id") ?? "");
    if (page) return page;
    /** A free answer computed here, no API call (JSONP when asked). */
    const local = <T>(f: () => T) => free(req, lang, params, sync(f));

    switch (path) {
      case "": {
        const queries = one("queries");
        const extend = one("extend");
        if (queries !== null && extend !== null)
          throw invalid("queries", {
            de: "entweder queries oder extend, nicht beides",
            en: "either queries or extend, not both",
          });
        if (queries !== null) {
          const batch = readBatch(queries);
          return paid(req, lang, (ctx) => reconcileBatch(ctx, batch));
        }
        if (extend !== null) {
          const q = readExtend(extend);
          return paid(req, lang, (ctx) => extendCompanies(ctx, q));
        }
        return jsonp(json(200, manifest({ serviceUrl: base, lang, auth: host.auth })), params);
      }
      case "/suggest/entity": {
        const prefix = V.nonEmpty(one("prefix") ?? "", "prefix", 100);
        const cursor = readCursor(one("cursor"));
        return free(req, lang, params, (ctx) => suggestEntities(ctx, prefix, cursor));
      }
      case "/suggest/property":
        return local(() => suggestProperties(one("prefix") ?? "", lang));
      case "/suggest/type":
        return local(() => suggestTypes(one("prefix") ?? "", lang));
      case "/propose_properties": {
        const limit = one("limit");
        const n = limit === null || limit === "" ? undefined : V.integer(Number(limit), "limit", 1, 1000);
        return local(() => proposeProperties(one("type"), n, lang));
      }
      case "/estimate": {
        const q = readExtend(one("extend") ?? "");
        return local(() => estimateView(q, lang));
      }
      case "/preview":
      case "/view": {
        const id = V.companyId(one("id") ?? "", "id");
        const ctx = host.context(req, { credits: 0, requests: 0 }, lang);
        const [seen] = await runAsync(seenSummaries(ctx, [id]), host.driver);
        return html(200, previewHtml(id, seen, lang));
      }
      default:
        return {
          ...errorResponse(new CompanyDataError("NOT_FOUND", { detail: refusal.noRoute(path) }), lang),
          status: 404,
        };
    }
  }

  return {
    async handle(req, serviceUrl) {
      try {
        return await route(req, serviceUrl);
      } catch (e) {
        if (!(e instanceof CompanyDataError))
          host.log(`reconcile: internal error (${(e as Error)?.name ?? "unknown"})`);
        return errorResponse(toCompanyDataError(e), host.lang);
      }
    },
  };
}
