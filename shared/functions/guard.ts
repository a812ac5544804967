/**
 * The per-document daily credit budget for formulas. The guard watches the
 * requests an operation is about to send (cache hits send nothing, so only
 * the uncached part is counted), reads the price each carries (set by the
 * API client from the endpoint catalogue when it built the request) and
 * reserves that many credits before they go out. When the budget would be
 * passed, the requests are not sent and the call fails with BUDGET_EXCEEDED.
 */
import { chargedOf, creditsOf, intercept, type HttpResponse, type Operation } from "../core/index.ts";
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
    // What an answer did not cost (a failure, a team server's shared answer) is given back; a charge above the price is kept.
    let unspent = 0;
    let over = 0;
    effect.requests.forEach((req, i) => {
      const res = responses[i];
      const charged = res ? chargedOf(req, res) : 0;
      if (charged < prices[i]!) unspent += prices[i]! - charged;
      else over += charged - prices[i]!;
    });
    if (unspent > 0) yield* releaseBudget(ctx, unspent);
    if (over > 0) yield* reserveBudget(ctx, over, null);
    return responses;
  });
}
