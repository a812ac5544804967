/**
 * The service's last refusal for credits, kept while an operation runs. A
 * job that meets OUT_OF_CREDITS marks the rows it could not do and stops
 * (shared/enrich/chunk-run.ts), so the error itself, with what a team
 * server's 402 says (the budget, what is left, the price: shared/core/errors.ts
 * `teamBudget`), would be lost before the host words its summary. Hosts run
 * the job under `noticingRefusals` and say `seen.error` instead of a bare
 * "out of credits".
 */
import { intercept, type HttpResponse, type Operation } from "../core/index.ts";
import type { CompanyDataError } from "../core/index.ts";
import { errorFromResponse, type ClientConfig } from "./client.ts";

export interface SeenRefusal {
  error?: CompanyDataError;
}

/** Run `op`, keeping in `seen` the last 402 its requests were answered with, as the client reads it. */
export function noticingRefusals<T>(cfg: ClientConfig, op: Operation<T>, seen: SeenRefusal): Operation<T> {
  return intercept(op, function* (effect) {
    const result = yield effect;
    if (effect.kind === "http")
      for (const res of result as HttpResponse[])
        if (res?.status === 402) seen.error = errorFromResponse(res, cfg.now(), cfg.credential);
    return result;
  });
}
