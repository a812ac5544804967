/**
 * The leaf half of the credit estimator: the shape of an estimate and the
 * catalogue calls every estimator prices. Domain estimators
 * (shared/enrich/estimate.ts, shared/monitor/estimate.ts) build on these;
 * shared/credits/estimate.ts aggregates them (its `estimate()` dispatches to
 * the domain estimators), so nothing here imports a domain.
 */
import type { CostInput, EndpointId, Include } from "../api/index.ts";
import type { Bilingual } from "../i18n/index.ts";

export interface EstimateLine {
  label: Bilingual;
  credits: number;
  requests: number;
}

export interface Estimate {
  credits: number;
  requests: number;
  /** Requests to credit-billed endpoints. */
  paidRequests: number;
  /** Requests to zero-credit, rate-limited endpoints. */
  freeRequests: number;
  breakdown: EstimateLine[];
}

/** One catalogue call, `count` times (default 1). */
export interface CallPlan {
  kind: "call";
  endpoint: EndpointId;
  cost?: CostInput;
  count?: number;
}

/** Planned catalogue calls (PlannedOperation in shared/credits/estimate.ts adds the domain kinds). */
export type CallOperation =
  | { kind: "search"; count?: number }
  | { kind: "suggest"; count?: number }
  /**
   * Resolve `rows` input rows. `distinct` = rows left after normalised
   * de-duplication (default: rows); `cached` = distinct queries already in
   * the cache (default 0). Batch mode sends calls of at most maxBatch.
   */
  | { kind: "resolve"; rows: number; distinct?: number; cached?: number; mode: "batch" | "free"; maxBatch?: number }
  /** `count` profiles, each with the same includes. */
  | { kind: "profile"; count: number; include?: Include[] }
  | { kind: "availability"; count: number }
  | CallPlan
  /** A generic list of calls. */
  | { kind: "calls"; calls: { endpoint: EndpointId; cost?: CostInput }[] };

/**
 * Several operations run together (a composite). This is the extension
 * point for composite estimators: shared/enrich/estimate.ts (kind "enrich")
 * and the portfolio check (kind "portfolio") translate their plans into
 * this form, and shared/credits/estimate.ts adds their `case` to `estimate()`.
 */
export interface AllOf<Op> {
  kind: "all";
  label?: Bilingual;
  parts: Op[];
}
