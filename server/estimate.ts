/**
 * `POST /team/estimate`: the price of an enrichment for this user against
 * the team's shared answers, free (nothing is bought, reserved or sent to
 * the API). The host sends the job's rows (shared/enrich/team-estimate.ts);
 * the server looks up, for each distinct name, the team's stored answer to
 * the very batch-resolve item the host will send (its key from split.ts, as
 * purchase.ts keys it), and for each company matched or given, the stored
 * profile under `questionKey` of the very profile question the job asks.
 * What the team holds goes into the estimator's memo (shared/enrich/memo.ts)
 * and the host's own estimator (shared/enrich/estimate.ts) prices the rest:
 * a held name resolves for 0 and a held company's profile costs 0, so the
 * price is exact for the answered part and an upper bound only for the rest
 * (names not held may be not found, ambiguous or one company).
 *
 * Not known exactly (an upper bound): a profile the team bought with other
 * includes than the job asks (the job asks the includes the free
 * availability says exist; only the full set is looked up).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { endpoint, validate as V, type CallSpec, type Include } from "../shared/api/index.ts";
import { CompanyDataError, toCompanyDataError } from "../shared/core/index.ts";
import { normaliseKey } from "../shared/batch/index.ts";
import {
  RunMemo,
  TEAM_ESTIMATE_PATH,
  TeamEstimateRequest,
  estimateTasks,
  fieldNeeds,
  selectFields,
  tasksOfTeamRows,
  type RowTask,
  type TeamEstimateAnswer,
} from "../shared/enrich/index.ts";
import { lookup } from "./cache.ts";
import type { Db } from "./db/db.ts";
import { errorAnswer, send } from "./errors.ts";
import { msg } from "./i18n.ts";
import { questionKey } from "./purchase.ts";
import type { ServerContext, ServerExtension } from "./routes.ts";
import { splitOf } from "./split.ts";

/** The key of one name's batch-resolve item, as purchase.ts stores it (split.ts). */
function resolveItemKey(query: NonNullable<RowTask["query"]>): string | null {
  const spec: CallSpec = { endpoint: "batchResolve", body: { companies: [query] }, cost: { count: 1 } };
  return splitOf(endpoint("batchResolve"), spec)?.keys[0] ?? null;
}

/** The profile question the job asks for `id` (shared/operations/company.ts getProfiles), as the proxy reads it. */
function profileKey(id: string, include: readonly Include[]): string {
  const spec: CallSpec = {
    endpoint: "profile",
    path: { id },
    query: include.length ? { include: include.join(",") } : {},
  };
  return questionKey(spec);
}

type StoredResolve = { status?: unknown; match?: { id?: unknown } | null; confidence?: unknown };

/** The team's answer to one name, as the memo keeps it; null when the team has none. */
type Held = Parameters<RunMemo["rememberKey"]>[1];

async function heldName(db: Db, query: NonNullable<RowTask["query"]>): Promise<Held | null> {
  let key: string | null;
  try {
    key = resolveItemKey(V.resolveQuery(query));
  } catch {
    return null; // a query the host would refuse before sending: nothing of it is held
  }
  const stored = key ? await lookup(db, key) : null;
  if (!stored) return null;
  let r: StoredResolve;
  try {
    r = JSON.parse(stored.body) as StoredResolve;
  } catch {
    return null;
  }
  const c = typeof r.confidence === "number" ? r.confidence : null;
  if (r.status === "matched" && typeof r.match?.id === "string") return { o: "m", id: r.match.id, c };
  if (r.status === "not_found") return { o: "n" };
  if (r.status === "ambiguous") return { o: "r", c, k: [] };
  return null;
}

/** What the team holds of these rows, as a run's memo: names it resolved, companies whose profile it bought. */
async function teamMemo(db: Db, tasks: readonly RowTask[], fields: readonly string[]): Promise<RunMemo> {
  const needs = fieldNeeds(selectFields([...fields]));
  const memo = new RunMemo(needs);
  const names = new Map<string, NonNullable<RowTask["query"]>>();
  for (const t of tasks)
    if (!t.id && t.query) names.set(normaliseKey(t.query), names.get(normaliseKey(t.query)) ?? t.query);
  const wanted = new Map<string, readonly Include[]>();
  for (const [key, query] of names) {
    const held = await heldName(db, query);
    if (!held) continue;
    memo.rememberKey(key, held);
    if (held.o === "m" && needs.resolved.profile) wanted.set(held.id, needs.resolved.include);
  }
  if (needs.givenId.profile)
    for (const t of tasks) if (t.id && !wanted.has(t.id)) wanted.set(t.id, needs.givenId.include);
  for (const [id, include] of wanted) if (await lookup(db, profileKey(id, include))) memo.rememberCompany(id, [], null);
  return memo;
}

/** Both modes' prices of the job for this user, with what the team holds at 0. */
export async function teamEstimateOf(db: Db, input: TeamEstimateRequest): Promise<TeamEstimateAnswer> {
  const tasks = tasksOfTeamRows(input.rows);
  const known = await teamMemo(db, tasks, input.fields);
  const plan = { mapping: {}, fields: input.fields, maxBatch: input.maxBatch ?? 100 };
  // Without a chunk size the names are resolved in one phase (the CLI's streamed job): one chunk of all rows.
  const chunkSize = input.chunkSize ?? Math.max(1, tasks.length);
  return {
    batch: estimateTasks(tasks, { ...plan, mode: "batch", chunkSize }, undefined, known),
    free: estimateTasks(tasks, { ...plan, mode: "free", chunkSize }, undefined, known),
    known: { names: [...known.keys.values()].length, companies: known.companies.size },
  };
}

async function handle(_req: IncomingMessage, res: ServerResponse, ctx: ServerContext): Promise<void> {
  if ((_req.method ?? "").toUpperCase() !== "POST")
    return send(res, errorAnswer("METHOD_NOT_ALLOWED", msg.methodNotAllowed[ctx.lang]));
  let input: TeamEstimateRequest;
  try {
    const parsed = TeamEstimateRequest.safeParse(JSON.parse(ctx.body || "null"));
    if (!parsed.success) throw new CompanyDataError("INVALID_INPUT", { field: "body" });
    input = parsed.data;
    selectFields(input.fields);
  } catch (e) {
    const err = toCompanyDataError(e);
    const field = err.details.field ?? "body";
    return send(
      res,
      errorAnswer("INVALID_INPUT", err.code === "INVALID_INPUT" ? err.text(ctx.lang) : msg.badJson[ctx.lang], {
        field,
      }),
    );
  }
  const answer = await teamEstimateOf(ctx.db, input);
  res
    .writeHead(200, { "content-type": "application/json; charset=utf-8", "x-credits-charged": "0" })
    .end(JSON.stringify(answer));
}

export const estimateExtension: ServerExtension = {
  name: "estimate",
  routes: [{ method: "*", prefix: TEAM_ESTIMATE_PATH, auth: true, handler: handle }],
};
