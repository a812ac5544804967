/**
 * The per-document daily credit budget for formulas. The guard watches the
 * requests an operation is about to send (cache hits send nothing, so only
 * the uncached part is counted), reads the price each carries (set by the
 * API client from the endpoint catalogue when it built the request) and
 * reserves that many credits before they go out. When the budget would be
 * passed, the requests are not sent and the call fails with BUDGET_EXCEEDED.
 */
import { creditsOf, intercept, type HttpResponse, type Operation } from "../core/index.ts";
import type { OpContext } from "../operations/index.ts";
import { releaseBudget, reserveBudget } from "../credits/index.ts";

/**
 * Run `op`, reserving the price of every paid request it sends against the
 * daily budget first. A refused reservation is thrown into the operation at
 * the point of sending, so its own cleanup runs and nothing is sent.
 */
export function withBudget<T>(ctx: OpContext, limit: number, op: Operation<T>): Operation<T> {
  return intercept(op, function* (effect) {
    if (effect.kind !== "http") return yield effect;
    const prices = effect.requests.map(creditsOf);
    const credits = prices.reduce((a, b) => a + b, 0);
    if (credits > 0) yield* reserveBudget(ctx, credits, limit);
    const responses = (yield effect) as HttpResponse[];
    // A failed request costs nothing: give its reservation back.
    const unspent = prices.reduce(
      (sum, p, i) => (responses[i] && responses[i].status >= 200 && responses[i].status < 300 ? sum : sum + p),
      0,
    );
    if (unspent > 0) yield* releaseBudget(ctx, unspent);
    return responses;
  });
}
