/**
 * The price of an enrichment against a team's shared answers. Through a team
 * server a company the team already bought costs nothing (the server serves
 * it and charges 0), so the host's own estimate (./estimate.ts, list prices)
 * would overstate the job. Before a spend a host in server mode sends the
 * job's rows (as the estimator reads them: the name to resolve, a given id,
 * an identifier to look up) to the server's free `POST /team/estimate`,
 * which runs this same estimator with what the team holds priced at 0
 * (server/estimate.ts): exact for the names and companies the team has
 * answered, an upper bound only for the rest.
 *
 * The wire format (request and answer) is here, beside the estimator, so the
 * host and the server read one schema. A server that does not answer it
 * (older, unreachable, the job too large to send) leaves the host's own
 * estimate in place: a bound, never a lower figure.
 */
import * as z from "zod/mini";
import type { ClientConfig } from "../api/index.ts";
import { http, type HttpRequest, type Operation } from "../core/index.ts";
import { acceptLanguage } from "../i18n/index.ts";
import type { EnrichEstimate } from "./estimate.ts";
import type { RowTask } from "./task.ts";

/** Where the server answers; outside /v2, which is the API's surface. */
export const TEAM_ESTIMATE_PATH = "/team/estimate";

/** The most rows one request may carry (the server's body limit is 1 MB; a row is at most a few hundred bytes). */
export const TEAM_ESTIMATE_MAX_ROWS = 2000;

const text = (max: number) => z.string().check(z.maxLength(max));
const Query = z.object({
  name: text(500),
  city: z.optional(text(200)),
  zip: z.optional(text(10)),
  register: z.optional(text(200)),
});
const Lookup = z.object({
  url: z.optional(text(500)),
  vatId: z.optional(text(40)),
  register: z.optional(text(200)),
  lei: z.optional(text(40)),
});

/** One row as the estimator reads it. */
export const TeamEstimateRow = z.object({
  q: z.optional(z.nullable(Query)),
  id: z.optional(z.nullable(text(40))),
  l: z.optional(z.nullable(Lookup)),
});

export const TeamEstimateRequest = z.object({
  rows: z.array(TeamEstimateRow).check(z.maxLength(TEAM_ESTIMATE_MAX_ROWS)),
  fields: z.array(text(60)).check(z.maxLength(100)),
  maxBatch: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(100))),
  /** The job's chunk size; absent: the names are resolved in one phase (the CLI's streamed job). */
  chunkSize: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(10_000))),
});
export type TeamEstimateRequest = z.infer<typeof TeamEstimateRequest>;

const Line = z.object({
  label: z.object({ de: z.string(), en: z.string() }),
  credits: z.number(),
  requests: z.number(),
});
const Est = z.object({
  credits: z.number(),
  requests: z.number(),
  paidRequests: z.number(),
  freeRequests: z.number(),
  breakdown: z.array(Line),
  seconds: z.number(),
  rows: z.number(),
  companies: z.number(),
});

/** Both modes' prices, and what of the job the team already holds (distinct names and companies). */
export const TeamEstimateAnswer = z.object({
  batch: Est,
  free: Est,
  known: z.object({ names: z.number(), companies: z.number() }),
});
export type TeamEstimateAnswer = z.infer<typeof TeamEstimateAnswer>;

/** The rows as the server reads them (the index is their place in the list). */
export const teamRowsOf = (tasks: readonly RowTask[]): TeamEstimateRequest["rows"] =>
  tasks.map((t) => ({
    ...(t.query ? { q: t.query } : {}),
    ...(t.id ? { id: t.id } : {}),
    ...(t.lookup ? { l: t.lookup } : {}),
  }));

/** The rows back as the estimator's tasks. */
export const tasksOfTeamRows = (rows: TeamEstimateRequest["rows"]): RowTask[] =>
  rows.map((r, index) => ({
    index,
    query: r.q ?? null,
    id: r.id ?? null,
    confidence: null,
    ...(r.l ? { lookup: r.l } : {}),
  }));

/**
 * Ask the team server for the job's price against the team's answers; null
 * when `cfg` is no team server's, the job is too large to send, or the
 * server does not answer it (the host keeps its own estimate).
 */
export function* teamEstimate(
  cfg: ClientConfig,
  tasks: readonly RowTask[],
  plan: { fields: readonly string[]; maxBatch?: number; chunkSize?: number },
): Operation<TeamEstimateAnswer | null> {
  if (cfg.credential !== "serverToken" || !cfg.apiKey || tasks.length > TEAM_ESTIMATE_MAX_ROWS) return null;
  const body: TeamEstimateRequest = {
    rows: teamRowsOf(tasks),
    fields: [...plan.fields],
    ...(plan.maxBatch !== undefined ? { maxBatch: plan.maxBatch } : {}),
    ...(plan.chunkSize !== undefined ? { chunkSize: plan.chunkSize } : {}),
  };
  const req: HttpRequest = {
    method: "POST",
    url: cfg.baseUrl.replace(/\/+$/, "") + TEAM_ESTIMATE_PATH,
    headers: {
      Authorization: `Bearer ${cfg.apiKey}`,
      "Accept-Language": acceptLanguage(cfg.language),
      Accept: "application/json",
      "Content-Type": "application/json",
    },
    body: JSON.stringify(body),
  };
  const [res] = yield* http([req]);
  if (!res || res.status !== 200) return null;
  try {
    const parsed = TeamEstimateAnswer.safeParse(JSON.parse(res.body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The server's price for the job's mode in the shape of the host's own estimate. */
export const teamPriceOf = (a: TeamEstimateAnswer, mode: "batch" | "free"): EnrichEstimate => ({ ...a[mode] });
