/**
 * How the reconciliation service answers a request once it is routed
 * (./service.ts): a paid operation under the service's budget, one at a time,
 * refused whole when it comes from a web page whose origin is not allowed; a
 * free one at once, as JSONP when asked. Errors become the service's JSON
 * answers (./responses.ts); what is not the service's own error is logged by
 * its name only. Here too: what a request is and what the host gives the
 * service (ReconcileRequest, ReconcileHost; ./service.ts re-exports them).
 */
import { runAsync } from "../shared/core/index.ts";
import type { Operation } from "../shared/core/index.ts";
import { CompanyDataError, invalid, toCompanyDataError } from "../shared/core/index.ts";
import { budgetStatus, type BudgetStatus } from "../shared/credits/index.ts";
import { withBudget } from "../shared/functions/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { got } from "../shared/i18n/index.ts";
import type { AsyncDriver } from "../shared/core/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import type { ManifestAuth } from "./manifest.ts";
import { refusal } from "./i18n.ts";
import { errorResponse, json, type ReconcileResponse } from "./responses.ts";

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

/** A JSONP callback: a dotted JavaScript name, nothing else can be written around the answer. */
const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*){0,3}$/;

/** A paid request from a web page whose origin is not allowed (see the module comment). */
function fromForeignPage(req: ReconcileRequest, allowed: readonly string[]): string | null {
  const origin = req.headers.origin;
  const site = req.headers["sec-fetch-site"];
  if (origin !== undefined && origin !== "null" && allowed.includes(origin)) return null;
  if (origin !== undefined) return origin;
  if (site !== undefined && site !== "same-origin" && site !== "none") return site;
  return null;
}

/** Logs a failure that is not the service's own error (by its name only: never a key or a token). */
export function logInternal(host: ReconcileHost, e: unknown): void {
  if (!(e instanceof CompanyDataError)) host.log(`reconcile: internal error (${(e as Error)?.name ?? "unknown"})`);
}

/** What answers the requests of one service: the paid ones one at a time (see the module comment of ./service.ts). */
export interface Answerer {
  host: ReconcileHost;
  serial<T>(f: () => Promise<T>): Promise<T>;
}

export function answerer(host: ReconcileHost): Answerer {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    host,
    serial<T>(f: () => Promise<T>): Promise<T> {
      const run = queue.then(f);
      queue = run.catch(() => undefined);
      return run;
    },
  };
}

const budgetOf = (host: ReconcileHost, ctx: OpContext) => runAsync(budgetStatus(ctx, host.budget), host.driver);
const budgetHeaders = (b: BudgetStatus, t: Tally): Record<string, string> => ({
  "X-Credits-Spent": String(t.credits),
  ...(b.remaining !== null ? { "X-Budget-Remaining": String(b.remaining) } : {}),
});

/** Run a paid operation under the budget; a refusal is a 402 with the price and the budget. */
export async function paid<T>(
  a: Answerer,
  req: ReconcileRequest,
  lang: Language,
  op: (ctx: OpContext) => Operation<T>,
): Promise<ReconcileResponse> {
  const { host } = a;
  const foreign = fromForeignPage(req, host.allowedOrigins);
  if (foreign !== null) {
    const e = new CompanyDataError("INVALID_INPUT", { field: "Origin", detail: refusal.foreignOrigin(foreign) });
    return { ...errorResponse(e, lang), status: 403 };
  }
  return a.serial(async () => {
    const tally: Tally = { credits: 0, requests: 0 };
    const ctx = host.context(req, tally, lang);
    const run = host.budget === null ? op(ctx) : withBudget(ctx, host.budget, op(ctx));
    try {
      const value = await runAsync(run, host.driver);
      return json(200, value, budgetHeaders(await budgetOf(host, ctx), tally));
    } catch (e) {
      const err = toCompanyDataError(e);
      logInternal(host, e);
      const b = await budgetOf(host, ctx).catch(() => null);
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
export async function free(
  host: ReconcileHost,
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
    logInternal(host, e);
    r = errorResponse(toCompanyDataError(e), lang);
  }
  return jsonp(host, r, params);
}

/** The answer wrapped in the `callback` parameter's call, when there is one (an error in the service's language). */
export function jsonp(host: ReconcileHost, r: ReconcileResponse, params: URLSearchParams): ReconcileResponse {
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
