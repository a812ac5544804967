/**
 * The per-document daily credit budget for formulas. The guard watches the
 * requests an operation is about to send (cache hits send nothing, so only
 * the uncached part is counted), prices them with the endpoint catalogue and
 * reserves that many credits before they go out. When the budget would be
 * passed, the requests are not sent and the call fails with BUDGET_EXCEEDED.
 */
import { ENDPOINTS, type CostInput, type Endpoint, type Include, INCLUDES } from "../api/index.ts";
import type { HttpRequest } from "../core/index.ts";
import type { Effect, Operation } from "../core/index.ts";
import type { OpContext } from "../operations/index.ts";
import { releaseBudget, reserveBudget } from "../credits/index.ts";
import type { HttpResponse } from "../core/index.ts";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

let matchers: { ep: Endpoint; re: RegExp }[] | undefined;
/** Built on first use: no work when a host evaluates the bundle. */
function endpointMatchers() {
  matchers ??= (ENDPOINTS as readonly Endpoint[]).map((ep) => ({
    ep,
    re: new RegExp(escape(ep.path).replace(/\\\{\w+\\\}/g, "[^/]+") + "$"),
  }));
  return matchers;
}

/** The endpoint a request goes to (v2 paths are listed first, so they win over the older listing). */
export function endpointOf(req: HttpRequest): Endpoint | undefined {
  const path = req.url.replace(/^[a-z]+:\/\/[^/]+/i, "").split(/[?#]/)[0] ?? "";
  return endpointMatchers().find((m) => m.ep.method === req.method && m.re.test(path))?.ep;
}

/** What a request will cost if it succeeds, by the catalogue's price. */
export function requestCredits(req: HttpRequest): number {
  const ep = endpointOf(req);
  if (!ep) return 0;
  if (ep.billing !== "credits") return 0;
  const input: CostInput = {};
  const q = req.url.split("?")[1];
  if (q) {
    for (const pair of q.split("&")) {
      const [k = "", v = ""] = pair.split("=");
      if (decodeURIComponent(k) === "include")
        input.include = decodeURIComponent(v)
          .split(",")
          .filter((x): x is Include => (INCLUDES as readonly string[]).includes(x));
    }
  }
  if (req.body) {
    try {
      const body = JSON.parse(req.body) as { companies?: unknown[]; ids?: unknown[] };
      const list = body.companies ?? body.ids;
      if (Array.isArray(list)) input.count = list.length;
    } catch {
      /* no body to count: the fixed price applies */
    }
  }
  return ep.cost(input);
}

/**
 * Run `op`, reserving the price of every paid request it sends against the
 * daily budget first. A refused reservation is thrown into the operation at
 * the point of sending, so its own cleanup runs and nothing is sent.
 */
export function* withBudget<T>(ctx: OpContext, limit: number, op: Operation<T>): Operation<T> {
  let step = op.next();
  while (!step.done) {
    const effect: Effect = step.value;
    let result: unknown;
    try {
      if (effect.kind === "http") {
        const prices = effect.requests.map(requestCredits);
        const credits = prices.reduce((a, b) => a + b, 0);
        if (credits > 0) yield* reserveBudget(ctx, credits, limit);
        result = yield effect;
        // A failed request costs nothing: give its reservation back.
        const responses = result as HttpResponse[];
        const unspent = prices.reduce(
          (sum, p, i) => (responses[i] && responses[i].status >= 200 && responses[i].status < 300 ? sum : sum + p),
          0,
        );
        if (unspent > 0) yield* releaseBudget(ctx, unspent);
      } else result = yield effect;
    } catch (err) {
      step = op.throw(err);
      continue;
    }
    step = op.next(result);
  }
  return step.value;
}
