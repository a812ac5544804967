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
import { runAsync } from "../shared/core/index.ts";
import type { Operation } from "../shared/core/index.ts";
import { CompanyDataError, invalid, toCompanyDataError } from "../shared/core/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { got, rule } from "../shared/i18n/index.ts";
import { validate as V } from "../shared/api/index.ts";
import {
  answerer,
  free,
  jsonp,
  logInternal,
  paid,
  type Answerer,
  type ReconcileHost,
  type ReconcileRequest,
} from "./answer.ts";
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

export type { ReconcileResponse } from "./responses.ts";
export type { ReconcileHost, ReconcileRequest, Tally } from "./answer.ts";

export interface ReconcileService {
  /** `serviceUrl`: the service URL as the client reached it (no trailing slash), for the URLs the manifest names. */
  handle(req: ReconcileRequest, serviceUrl: string): Promise<ReconcileResponse>;
}

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
  const a = answerer(host);
  return {
    async handle(req, serviceUrl) {
      try {
        return await route(a, req, serviceUrl);
      } catch (e) {
        logInternal(host, e);
        return errorResponse(toCompanyDataError(e), host.lang);
      }
    },
  };
}

const sync = <T>(f: () => T) =>
  function* (): Operation<T> {
    return f();
  };

/** The path below the service URL, its language and the service URL in that language (`/de`, `/en` segments). */
function localised(path: string, serviceUrl: string, hostLang: Language) {
  let p = path.replace(/\/+$/, "");
  let lang = hostLang;
  let base = serviceUrl.replace(/\/+$/, "");
  const seg = /^\/(de|en)(?=\/|$)/.exec(p);
  if (seg) {
    lang = seg[1] as Language;
    p = p.slice(3);
    base += `/${lang}`;
  }
  return { path: p, lang, base };
}

async function route(a: Answerer, req: ReconcileRequest, serviceUrl: string): Promise<ReconcileResponse> {
  const { host } = a;
  const { path, lang, base } = localised(req.path, serviceUrl, host.lang);
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
  const local = <T>(f: () => T) => free(host, req, lang, params, sync(f));

  switch (path) {
    case "":
      return serviceRoot(a, req, { lang, base, params });
    case "/suggest/entity": {
      const prefix = V.nonEmpty(one("prefix") ?? "", "prefix", 100);
      const cursor = readCursor(one("cursor"));
      return free(host, req, lang, params, (ctx) => suggestEntities(ctx, prefix, cursor));
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

/** The service URL itself: reconciliation (`queries`), data extension (`extend`), else the manifest. */
function serviceRoot(
  a: Answerer,
  req: ReconcileRequest,
  { lang, base, params }: { lang: Language; base: string; params: URLSearchParams },
): Promise<ReconcileResponse> | ReconcileResponse {
  const queries = params.get("queries");
  const extend = params.get("extend");
  if (queries !== null && extend !== null)
    throw invalid("queries", {
      de: "entweder queries oder extend, nicht beides",
      en: "either queries or extend, not both",
    });
  if (queries !== null) {
    const batch = readBatch(queries);
    return paid(a, req, lang, (ctx) => reconcileBatch(ctx, batch));
  }
  if (extend !== null) {
    const q = readExtend(extend);
    return paid(a, req, lang, (ctx) => extendCompanies(ctx, q));
  }
  return jsonp(a.host, json(200, manifest({ serviceUrl: base, lang, auth: a.host.auth })), params);
}
