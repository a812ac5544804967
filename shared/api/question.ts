/**
 * The canonical question: one spelling for every way of asking the API the
 * same thing, so an answer is bought and cached once per question, not once
 * per spelling. The server's shared answers (server/purchase.ts questionKey)
 * and every host's own answer cache (shared/operations/cache-key.ts callKey)
 * key on `questionOf`; the server also sends the canonical spelling upstream.
 *
 * Every rule is the API's own reading of a request (company-data-api.md, the
 * endpoint catalogue, the schemas; where the spec is silent, the project's
 * decision as the emulator implements it, see emulator/validate.ts):
 * - `include` is a set of the three extensions (spec 2.3 "combinable"; rule
 *   8.2 prices each once): trimmed, empty entries dropped, de-duplicated, in
 *   catalogue order; an empty list is no include at all.
 * - a query parameter is one of the endpoint's (`Endpoint.query`, in that
 *   order); an empty value is not sent (client.ts buildRequest), so it is
 *   absent; an absent one with a default is the default (QUERY_DEFAULTS);
 *   numbers in their shortest form ("010" = "10"), `since` as the instant it
 *   names (a date is its day's start, UTC), booleans as true/false, the older
 *   listing's event filters in upper case (the API compares them so).
 * - a JSON body is compared with its keys in order (canonicalJson) and its
 *   defaults filled (BODY_DEFAULTS); company ids in bodies and paths in their
 *   canonical (upper) case, as the client's validators send them.
 * A value the API would refuse is left as it was: it never becomes an answer.
 * Spellings the API may read differently (a search text's blanks, the order
 * of similar's seed ids) are left apart: at worst bought twice, never wrong.
 */
import type { CallSpec } from "./client.ts";
import { endpoint, INCLUDES, type EndpointId, type Include } from "./endpoints.ts";
import { COMPANY_ID_PATTERN } from "./company-id.ts";
import { BODY_DEFAULTS, QUERY_DEFAULTS } from "./defaults.ts";

const PERSON_ID = /^P[A-Z0-9]{10}$/;

/** JSON with object keys sorted at every level, so equal bodies give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "";
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) out[k] = (v as Record<string, unknown>)[k];
      return out;
    }
    return v;
  });
}

/** An id in its canonical case when it is one (blanks around it forgiven); anything else as it was. */
function idOf(v: string, pattern: RegExp): string {
  const c = v.trim().toUpperCase();
  return pattern.test(c) ? c : v;
}

/** The include list as a set in catalogue order, or undefined for none; an unknown name keeps the whole value apart. */
export function includeOf(v: string): string | undefined {
  const parts = [
    ...new Set(
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (parts.some((p) => !INCLUDES.includes(p as Include))) return v;
  const list = INCLUDES.filter((i) => parts.includes(i));
  return list.length ? list.join(",") : undefined;
}

/** `since` as the API reads it (emulator/validate.ts sinceParam): the instant, in ISO form. */
function sinceOf(v: string): string {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v)) return v;
  const ms = Date.parse(v.length === 10 ? v + "T00:00:00Z" : /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v) ? v + "Z" : v);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : v;
}

const intOf = (v: string) => (/^-?\d+$/.test(v) ? String(Number(v)) : v);
const numberOf = (v: string) => (v.trim() !== "" && Number.isFinite(Number(v)) ? String(Number(v)) : v);
const boolOf = (v: string) => (v === "1" || v === "true" ? "true" : v === "0" || v === "false" ? "false" : v);

/** How the API reads each query parameter (by name; the same name means the same thing on every endpoint). */
const QUERY_VALUE: Record<string, (v: string) => string | undefined> = {
  include: includeOf,
  size: intOf,
  from: intOf,
  radiusKm: numberOf,
  since: sinceOf,
  explain: boolOf,
  type: (v) => v.toUpperCase(),
  category: (v) => v.toUpperCase(),
};

/** Body fields that hold company ids, per endpoint (schemas: SimilarRequest, IdsRequest, RecommendRequest). */
function idsField(id: EndpointId): string | undefined {
  if (id === "similar") return "ids";
  if (id === "v1.recommend") return "baseCompanies";
  if (id.startsWith("v1.") && id.endsWith("Many")) return "ids";
  return undefined;
}

function canonicalQuery(id: EndpointId, query: CallSpec["query"]): Record<string, string> {
  const ep = endpoint(id);
  const given = query ?? {};
  const out: Record<string, string> = {};
  // The catalogue's order; a parameter the endpoint does not take is not the API's (the server refuses it).
  for (const name of ep.query) {
    const raw = given[name];
    let v = raw === undefined || raw === "" ? undefined : (QUERY_VALUE[name] ?? String)(String(raw));
    if (v === undefined || v === "") v = QUERY_DEFAULTS[id]?.[name];
    if (v !== undefined) out[name] = v;
  }
  return out;
}

function canonicalBody(id: EndpointId, body: unknown): unknown {
  if (endpoint(id).method !== "POST") return undefined;
  // No body is sent as {} (client.ts buildRequest); anything but an object is refused by the API and left as it is.
  if (body === undefined) return { ...BODY_DEFAULTS[id] };
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...BODY_DEFAULTS[id] };
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) if (v !== undefined) out[k] = v;
  const field = idsField(id);
  const ids = field ? out[field] : undefined;
  if (field && Array.isArray(ids))
    out[field] = (ids as unknown[]).map((x) => (typeof x === "string" ? idOf(x, COMPANY_ID_PATTERN) : x));
  return out;
}

/** The same question in its canonical spelling (idempotent); `cost` follows the canonical include. */
export function canonicalQuestion(spec: CallSpec): CallSpec {
  const path: Record<string, string> = {};
  for (const [k, v] of Object.entries(spec.path ?? {}))
    path[k] = k === "id" ? idOf(v, COMPANY_ID_PATTERN) : k === "personId" ? idOf(v, PERSON_ID) : v;
  const query = canonicalQuery(spec.endpoint, spec.query);
  const out: CallSpec = { endpoint: spec.endpoint, path, query };
  const body = canonicalBody(spec.endpoint, spec.body);
  if (body !== undefined) out.body = body;
  const include = query.include?.split(",").filter((i): i is Include => INCLUDES.includes(i as Include));
  const cost = { ...spec.cost, ...(spec.endpoint === "profile" ? { include: include ?? [] } : {}) };
  if (Object.keys(cost).length) out.cost = cost;
  return out;
}

/**
 * The text of a question: equal for every spelling the API answers alike,
 * different for any two it answers differently. What price and language a
 * call carries is not part of it (the language is the host cache's concern:
 * callKey adds it; the server serves one purchase in every language).
 */
export function questionOf(spec: CallSpec): string {
  const q = canonicalQuestion(spec);
  const path = Object.keys(q.path ?? {})
    .sort()
    .map((k) => `${k}=${encodeURIComponent(q.path![k]!)}`)
    .join("&");
  const query = Object.entries(q.query ?? {})
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join("&");
  return ["q1", q.endpoint, path, query, canonicalJson(q.body)].join("|");
}
