/**
 * What an operation will cost before anything is sent: credits and number of
 * requests, from the catalogue's one price table. The figure is exact for
 * the operations in shared/operations given the same inputs (distinct rows,
 * cache hits), which the integration test checks against the emulator.
 */
import { endpoint, type CostInput, type EndpointId } from "../api/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import { invalid } from "../core/index.ts";
import { got, rule } from "../i18n/index.ts";
import { chunkSizes } from "../batch/index.ts";
import { batchResolveCost } from "../api/index.ts";
import { validate as V } from "../api/index.ts";
import type { Cell } from "../core/index.ts";
import { estimateEnrichment, type EnrichPlan } from "../enrich/index.ts";
import { portfolioParts, type PortfolioPlanned } from "../monitor/index.ts";
import { NOUNS, counted, includeList } from "../credits/index.ts";
import type { AllOf, CallOperation, Estimate, EstimateLine } from "../credits/index.ts";

export type PlannedOperation =
  | CallOperation
  | AllOf<PlannedOperation>
  /** Enrich data rows (no header) with the chosen fields: shared/enrich/estimate.ts. */
  | ({ kind: "enrich"; rows: Cell[][]; chunkSize?: number } & EnrichPlan)
  /** A portfolio check's plan (RunSummary.plan): shared/monitor/estimate.ts. */
  | PortfolioPlanned;

const DEFAULT_MAX_BATCH = 100;

const count = (v: unknown, field: string) => V.integer(v ?? 1, field, 0, Number.MAX_SAFE_INTEGER);

function line(label: Bilingual, credits: number, requests: number): EstimateLine {
  return { label, credits, requests };
}

function ofCalls(ep: EndpointId, cost: CostInput | undefined, n: number, label?: Bilingual): Estimate {
  const e = endpoint(ep);
  const credits = e.cost(cost) * n;
  const paid = e.billing === "credits";
  return {
    credits,
    requests: n,
    paidRequests: paid ? n : 0,
    freeRequests: paid ? 0 : n,
    breakdown: n > 0 ? [line(label ?? e.summary, credits, n)] : [],
  };
}

/** Sum estimates (breakdown lines concatenated). */
export function sum(parts: Estimate[]): Estimate {
  return parts.reduce<Estimate>(
    (a, b) => ({
      credits: a.credits + b.credits,
      requests: a.requests + b.requests,
      paidRequests: a.paidRequests + b.paidRequests,
      freeRequests: a.freeRequests + b.freeRequests,
      breakdown: [...a.breakdown, ...b.breakdown],
    }),
    { credits: 0, requests: 0, paidRequests: 0, freeRequests: 0, breakdown: [] },
  );
}

const in2 = (a: Bilingual, b: Bilingual): Bilingual => ({ de: `${a.de} in ${b.de}`, en: `${a.en} in ${b.en}` });

function resolveEstimate(op: Extract<PlannedOperation, { kind: "resolve" }>): Estimate {
  const rows = count(op.rows, "rows");
  const distinct = count(op.distinct ?? rows, "distinct");
  if (distinct > rows)
    throw invalid("distinct", {
      de: `mehr verschiedene Zeilen (${distinct}) als Zeilen (${rows})`,
      en: `more distinct rows (${distinct}) than rows (${rows})`,
    });
  const cached = count(op.cached ?? 0, "cached");
  if (cached > distinct)
    throw invalid("cached", {
      de: `mehr Zeilen im Zwischenspeicher (${cached}) als verschiedene Zeilen (${distinct})`,
      en: `more cached rows (${cached}) than distinct rows (${distinct})`,
    });
  const toSend = distinct - cached;
  if (op.mode === "free") {
    const n = counted(toSend, NOUNS.singleResolve);
    return ofCalls("resolve", undefined, toSend, { de: `${n.de} (kostenlos)`, en: `${n.en} (free)` });
  }
  if (op.mode !== "batch") throw invalid("mode", got(rule.oneOf(["batch", "free"]), op.mode));
  const sizes = chunkSizes(toSend, V.maxBatch(op.maxBatch ?? DEFAULT_MAX_BATCH));
  const credits = sizes.reduce((s, n) => s + batchResolveCost(n), 0);
  return {
    credits,
    requests: sizes.length,
    paidRequests: sizes.length,
    freeRequests: 0,
    breakdown: sizes.length
      ? [line(in2(counted(toSend, NOUNS.company), counted(sizes.length, NOUNS.batchCall)), credits, sizes.length)]
      : [],
  };
}

export function estimate(op: PlannedOperation): Estimate {
  if (typeof op !== "object" || op === null)
    throw invalid("operation", { de: "erwartet einen geplanten Vorgang", en: "expected a planned operation" });
  switch (op.kind) {
    case "search":
      return ofCalls("search", undefined, count(op.count, "count"));
    case "suggest":
      return ofCalls("suggest", undefined, count(op.count, "count"));
    case "resolve":
      return resolveEstimate(op);
    case "profile": {
      const include = V.includes(op.include);
      const n = count(op.count, "count");
      const profiles = counted(n, NOUNS.profile),
        inc = includeList(include);
      const label = include.length
        ? { de: `${profiles.de} mit ${inc.de}`, en: `${profiles.en} with ${inc.en}` }
        : profiles;
      return ofCalls("profile", { include }, n, label);
    }
    case "availability":
      return ofCalls("availability", undefined, count(op.count, "count"));
    case "call": {
      if (!endpointExists(op.endpoint))
        throw invalid("endpoint", got({ de: "unbekannter Endpunkt", en: "unknown endpoint" }, op.endpoint));
      if (op.cost?.include) V.includes(op.cost.include, "cost.include");
      if (op.cost?.count !== undefined) V.integer(op.cost.count, "cost.count", 0, Number.MAX_SAFE_INTEGER);
      return ofCalls(op.endpoint, op.cost, count(op.count, "count"));
    }
    case "calls":
      if (!Array.isArray(op.calls)) throw invalid("calls", rule.type("array"));
      return sum(op.calls.map((c) => estimate({ kind: "call", endpoint: c.endpoint, cost: c.cost })));
    case "all": {
      if (!Array.isArray(op.parts)) throw invalid("parts", rule.type("array"));
      // The label names the whole for callers; lines stay per part so they add up to the total.
      return sum(op.parts.map(estimate));
    }
    case "enrich":
      return estimateEnrichment(op.rows, op);
    case "portfolio":
      return estimate(portfolioParts(op));
    default:
      throw invalid("operation", got({ de: "unbekannte Art", en: "unknown kind" }, (op as { kind?: unknown }).kind));
  }
}

function endpointExists(id: unknown): id is EndpointId {
  try {
    return typeof id === "string" && endpoint(id as EndpointId) !== undefined;
  } catch {
    return false;
  }
}
