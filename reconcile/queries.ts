/**
 * Reconciliation queries (Reconciliation Service API 0.2, "Reconciliation
 * Queries"): a batch of queries in, one result (candidates) per query out.
 *
 * Every query of a batch is matched as the enrichment matches a row:
 * - identifiers (website, VAT id, LEI; a register number without a name;
 *   a query text that is itself an LEI, VAT id, register number or website)
 *   go to the free lookup (shared/operations/identifiers.ts);
 * - a company id as the query text is checked by the free availability call;
 * - names go to batch resolve, all names of the batch together: distinct
 *   names once, in calls of ctx.maxBatch (a multiple of ten), so a batch of
 *   25 names costs ceil(25/10) = 3 credits (shared/operations/resolve.ts,
 *   shared/batch/plan.ts); names answered from the cache cost nothing.
 *
 * `match: true` only where our matching accepts: the resolve's status
 * "matched", after its identity checks (shared/operations/contradiction.ts).
 * An ambiguous or contradicted name answers its candidates, none matched.
 *
 * A query that cannot be asked (an empty or missing `query` with no
 * properties, a `limit` that is no positive whole number, a malformed VAT id,
 * no name) answers no candidates and an `error` beside `result` (German and
 * English); the other queries of the batch keep their answers. 0.2 wants a
 * non-empty query string ("Structure of a Reconciliation Query") but says
 * nothing of one bad query in a batch, and a result batch is "a set of
 * reconciliation results indexed by" the query batch's identifiers
 * ("Reconciliation Query Responses"): every key gets a result, the empty
 * candidate list being what 0.2 can express, the `error` member what a
 * client that knows it reads (clients ignore members they do not know).
 * Only a batch that is not one (no JSON object, more than MAX_QUERIES
 * queries) is refused whole (400). A failure of the API (out of credits,
 * rate limit, server error) fails the request.
 */
import type { CompanySummary, ResolveQuery } from "../shared/api/index.ts";
import { COMPANY_ID_PATTERN } from "../shared/api/index.ts";
import type { Operation } from "../shared/core/index.ts";
import { CompanyDataError, invalid, toCompanyDataError } from "../shared/core/index.ts";
import { normaliseName } from "../shared/batch/index.ts";
import { formatRegister } from "../shared/enrich/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { got, rule } from "../shared/i18n/index.ts";
import { doubtText } from "../shared/operations/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import { getAvailability } from "../shared/operations/index.ts";
import { identifierIn, identifierQuery, lookupMany, type IdentifierQuery } from "../shared/operations/index.ts";
import { resolveMany, type ResolvedRow } from "../shared/operations/index.ts";
import { isObject, jsonObjectParam } from "./params.ts";
import { queryPid, type QueryPid } from "./properties.ts";
import { rememberSeen, seenSummaries } from "./seen.ts";
import { companyType } from "./types.ts";
import { featuresOf, type Feature } from "./features.ts";

/** Queries one request may carry (the manifest's batchSize is one batch resolve call: 100). */
export const MAX_QUERIES = 1000;
/** Candidates answered per query unless `limit` asks for fewer. */
export const DEFAULT_LIMIT = 10;

export interface ReconQuery {
  query?: string;
  limit: number;
  hints: Partial<Record<QueryPid, string>>;
  /** Why this query cannot be asked (its own input): answered in its result's `error`, the batch goes on. */
  error?: CompanyDataError;
}

export interface Candidate {
  id: string;
  name: string;
  description?: string;
  score: number;
  match: boolean;
  type: { id: string; name: string }[];
  /** How it was matched (./features.ts): the rating, a contradiction, a former name. */
  features?: Feature[];
}

export interface QueryAnswer {
  result: Candidate[];
  /** Why this query has no answer (not part of the 0.2 result; clients ignore it). */
  error?: { code: string; de: string; en: string };
}

/** A property value as text: strings, numbers (a postcode typed as a number keeps its leading zero), an entity by its name. */
function valueText(pid: QueryPid, v: unknown): string {
  if (typeof v === "string") return v.trim();
  if (typeof v === "number" && Number.isFinite(v))
    return pid === "zip" && Number.isInteger(v) && v >= 0 && v < 100000 ? String(v).padStart(5, "0") : String(v);
  if (isObject(v)) return typeof v.name === "string" ? v.name.trim() : typeof v.id === "string" ? v.id.trim() : "";
  return "";
}

/** One query of the batch, checked as the 0.2 query schema states it; INVALID_INPUT naming the query. */
function readQuery(key: string, raw: unknown): ReconQuery {
  const at = (f: string) => `queries.${key}${f ? "." + f : ""}`;
  if (!isObject(raw)) throw invalid(at(""), rule.type("object"));
  const q = raw.query;
  if (q !== undefined && typeof q !== "string") throw invalid(at("query"), got(rule.type("string"), q));
  const props = raw.properties;
  if (props !== undefined && !Array.isArray(props)) throw invalid(at("properties"), got(rule.type("array"), props));
  if ((q === undefined || q.trim() === "") && (!props || props.length === 0))
    throw invalid(at("query"), {
      de: "bitte einen Namen (query) oder Eigenschaften (properties) angeben",
      en: "please give a name (query) or properties",
    });
  let limit = DEFAULT_LIMIT;
  if (raw.limit !== undefined) {
    if (typeof raw.limit !== "number" || !Number.isInteger(raw.limit) || raw.limit < 1)
      throw invalid(at("limit"), got(rule.number({ value: 1, inclusive: true }, undefined, true), raw.limit));
    limit = Math.min(raw.limit, 100);
  }
  const hints: Partial<Record<QueryPid, string>> = {};
  (props ?? []).forEach((p: unknown, i) => {
    if (!isObject(p) || typeof p.pid !== "string" || !("v" in p))
      throw invalid(at(`properties[${i}]`), { de: "erwartet {pid, v}", en: "expected {pid, v}" });
    const pid = queryPid(p.pid);
    if (!pid || hints[pid]) return; // a property we do not match on, or a second value: the first counts
    const values = Array.isArray(p.v) ? p.v : [p.v];
    const text = values.map((v) => valueText(pid, v)).find((t) => t !== "");
    if (text) hints[pid] = text;
  });
  return { query: typeof q === "string" && q.trim() ? q.trim() : undefined, limit, hints };
}

/** One query of the batch, or its error (INVALID_INPUT naming the query) for that query alone. */
function readOneQuery(key: string, raw: unknown): ReconQuery {
  try {
    return readQuery(key, raw);
  } catch (e) {
    return { limit: DEFAULT_LIMIT, hints: {}, error: toCompanyDataError(e) };
  }
}

/**
 * The batch (the `queries` parameter, JSON text): INVALID_INPUT when it is no
 * batch at all (not a JSON object, too many queries); a bad query is that
 * query's error (see the module comment).
 */
export function readBatch(text: string): Map<string, ReconQuery> {
  const raw = jsonObjectParam(text, "queries");
  const keys = Object.keys(raw);
  if (keys.length > MAX_QUERIES) throw invalid("queries", got(rule.atMost(MAX_QUERIES, "array"), keys.length));
  return new Map(keys.map((k) => [k, readOneQuery(k, raw[k])]));
}

/** "… GmbH" when the name does not already name that legal form (the matching reads the form from the name). */
function nameWithForm(name: string, legalForm: string | undefined): string {
  if (!legalForm) return name;
  const n = ` ${normaliseName(name)} `;
  const f = normaliseName(legalForm);
  return f && !n.includes(` ${f} `) ? `${name} ${legalForm}` : name;
}

type Plan =
  | { kind: "resolve"; query: ResolveQuery }
  | { kind: "lookup"; query: IdentifierQuery }
  | { kind: "id"; id: string }
  | { kind: "error"; error: CompanyDataError };

/** How one query is asked: as the enrichment decides for a row (shared/enrich/chunk.ts lookupOf). */
function planOf(q: ReconQuery): Plan {
  if (q.error) return { kind: "error", error: q.error };
  const h = q.hints;
  try {
    if (q.query && COMPANY_ID_PATTERN.test(q.query.toUpperCase())) return { kind: "id", id: q.query.toUpperCase() };
    const byText = q.query ? identifierIn(q.query) : null;
    if (h.website || h.vatId || h.lei || byText || (!q.query && h.register)) {
      const cells = {
        website: h.website,
        vatId: h.vatId,
        lei: h.lei,
        register: h.website || h.vatId || h.lei ? undefined : h.register,
      };
      const given = identifierQuery(cells);
      return { kind: "lookup", query: { ...byText, ...given } };
    }
    if (!q.query)
      return {
        kind: "error",
        error: invalid("query", {
          de: "ohne Namen braucht es eine Website, USt-IdNr., LEI oder Registernummer",
          en: "without a name a website, VAT id, LEI or register number is needed",
        }),
      };
    const query: ResolveQuery = { name: nameWithForm(q.query, h.legalForm) };
    if (h.city) query.city = h.city;
    if (h.zip) query.zip = h.zip;
    if (h.register) query.register = h.register;
    return { kind: "resolve", query };
  } catch (e) {
    return { kind: "error", error: toCompanyDataError(e) };
  }
}

/** Errors that belong to one query (its own input): answered in its `error` member, the batch goes on. */
const QUERY_OWN_ERRORS = new Set(["INVALID_INPUT", "NOT_FOUND", "AMBIGUOUS"]);

const errorOf = (e: CompanyDataError): QueryAnswer["error"] => ({ code: e.code, de: e.text("de"), en: e.text("en") });

/** "GmbH · 80333 München · Amtsgericht München HRB 6684 · aktiv": what tells namesakes apart. */
export function describe(c: CompanySummary): string {
  const place = [c.zip, c.city].filter(Boolean).join(" ");
  const legal = c.legalForm ? (c.legalForm.name ?? c.legalForm.code) : "";
  const status = c.status ? (c.status.name ?? c.status.code) : "";
  return [legal, place, formatRegister(c.register ?? null), status].filter(Boolean).join(" · ");
}

const pct = (x: number | null | undefined) =>
  x == null || !Number.isFinite(x) ? 0 : Math.round(Math.max(0, Math.min(1, x)) * 1000) / 10;

/** The candidates of one resolve or lookup answer, best first; `match` only for an accepted match. */
function answerOf(row: ResolvedRow, limit: number, lang: Language): QueryAnswer {
  if (row.status === "error") return { result: [], error: errorOf(row.error ?? new CompanyDataError("INTERNAL")) };
  const type = [companyType(lang)];
  const out: Candidate[] = [];
  const add = (c: CompanySummary, score: number, match: boolean, features: Feature[], note?: string) => {
    if (out.some((o) => o.id === c.id)) return;
    const description = [note, describe(c)].filter(Boolean).join(" · ");
    const f = features.length ? { features } : {};
    out.push({ id: c.id, name: c.name ?? c.id, ...(description ? { description } : {}), score, match, type, ...f });
  };
  if (row.status === "matched" && row.match)
    add(row.match, pct(row.confidence ?? 1), true, featuresOf(row.confidence, undefined, row.note));
  row.candidates.forEach((c, i) => {
    // A contradicted match leads the candidates with the service's confidence and the reason.
    const doubt = i === 0 && row.doubt ? row.doubt : undefined;
    const rating = c.score ?? (doubt ? row.confidence : null);
    add(c, rating != null ? pct(rating) : 0, false, featuresOf(rating, doubt), doubt && doubtText(doubt, lang));
  });
  out.sort((a, b) => Number(b.match) - Number(a.match) || b.score - a.score);
  return { result: out.slice(0, limit) };
}

/**
 * Answer a batch: lookups and id checks first (free), then every name in one
 * batch resolve plan (paid: the caller's budget guard prices it before it is
 * sent). Every candidate shown is remembered for the free preview.
 */
export function* reconcileBatch(
  ctx: OpContext,
  batch: Map<string, ReconQuery>,
): Operation<Record<string, QueryAnswer>> {
  const lang = ctx.client.language;
  const keys = [...batch.keys()];
  const plans = keys.map((k) => planOf(batch.get(k)!));
  const rows: (ResolvedRow | undefined)[] = plans.map((p) =>
    p.kind === "error" ? { status: "error", match: null, confidence: null, candidates: [], error: p.error } : undefined,
  );

  const at = (kind: Plan["kind"]) => plans.map((p, i) => (p.kind === kind ? i : -1)).filter((i) => i >= 0);
  const lookups = at("lookup");
  if (lookups.length) {
    const answers = yield* lookupMany(
      ctx,
      lookups.map((i) => (plans[i] as { query: IdentifierQuery }).query),
    );
    lookups.forEach((i, j) => {
      rows[i] = answers[j];
    });
  }
  const names = at("resolve");
  if (names.length) {
    const answers = yield* resolveMany(
      ctx,
      names.map((i) => (plans[i] as { query: ResolveQuery }).query),
      { mode: "batch" },
    );
    names.forEach((i, j) => {
      rows[i] = answers[j];
    });
  }

  // What the lookups and resolves showed is remembered first: a company id asked in the same batch is then named.
  yield* rememberSeen(
    ctx,
    rows.flatMap((r) => (r ? [...(r.match ? [r.match] : []), ...r.candidates] : [])),
  );
  const ids = at("id");
  if (ids.length) {
    const idOf = (i: number) => (plans[i] as { id: string }).id;
    const av = yield* getAvailability(ctx, ids.map(idOf));
    const known = yield* seenSummaries(ctx, ids.map(idOf));
    ids.forEach((i, j) => {
      const a = av.get(idOf(i));
      if (a instanceof CompanyDataError)
        rows[i] =
          a.code === "NOT_FOUND"
            ? { status: "not_found", match: null, confidence: null, candidates: [] }
            : { status: "error", match: null, confidence: null, candidates: [], error: a };
      else rows[i] = { status: "matched", match: known[j] ?? { id: idOf(i) }, confidence: 1, candidates: [] };
    });
  }

  // A failure of the API (no credits, the rate limit, a server error) is not "no candidates": the request
  // fails with it, and a retry pays only for what is missing (answers received are cached).
  const failed = rows.find((r) => r?.status === "error" && r.error && !QUERY_OWN_ERRORS.has(r.error.code));
  if (failed?.error) throw failed.error;

  // The batch's keys are the caller's (`__proto__`, `constructor` are keys like any other): an object without a
  // prototype holds each as its own property, so every answer is sent under its key.
  const out = Object.create(null) as Record<string, QueryAnswer>;
  keys.forEach((k, i) => {
    const row = rows[i] ?? {
      status: "error",
      match: null,
      confidence: null,
      candidates: [],
      error: new CompanyDataError("INTERNAL"),
    };
    out[k] = answerOf(row, batch.get(k)!.limit, lang);
  });
  return out;
}
