/**
 * Data extension (Reconciliation Service API 0.2, "Data Extension Service"):
 * the values of chosen properties for reconciled companies. It is the
 * enrichment of rows that came with an id: the same engine
 * (shared/enrich/chunk.ts enrichChunk: the free availability check first,
 * then one profile per distinct company with exactly the includes it has,
 * through the core's cache, so a company is bought once), the same field
 * catalogue and extractors (shared/enrich/fields.ts), and the same estimator
 * for its price (shared/enrich/estimate.ts): the extension of n companies
 * costs what the add-on's enrichment preview of the same fields shows.
 * A financial property may ask for one financial year (./settings.ts).
 */
import type { Operation } from "../shared/core/index.ts";
import { CompanyDataError, invalid } from "../shared/core/index.ts";
import { COMPANY_ID_PATTERN, type Company } from "../shared/api/index.ts";
import { estimateTasks, type EnrichEstimate } from "../shared/enrich/index.ts";
import { selectFields, type FieldDef } from "../shared/enrich/index.ts";
import { enrichChunk, type EnrichDeps } from "../shared/enrich/index.ts";
import { coreDeps } from "../shared/enrich/index.ts";
import type { RowTask } from "../shared/enrich/index.ts";
import type { Cell } from "../shared/core/index.ts";
import { got, notAnId, rule } from "../shared/i18n/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import { isObject, jsonObjectParam } from "./params.ts";
import { rememberSeen } from "./seen.ts";
import { onlyYear, yearOf } from "./settings.ts";

/** Companies one extension request may name (OpenRefine sends about ten at a time). */
export const MAX_EXTEND_IDS = 1000;

export interface ExtendQuery {
  ids: string[];
  /** The requested fields, in the order asked (no duplicates). */
  fields: FieldDef[];
  /** The financial year a financial field asks for (its `settings.year`); absent: the latest reported. */
  years: Map<string, number>;
}

/** A value as the 0.2 response types it: text, whole or decimal number, a date (ISO date-time). */
export type ExtendValue = { str: string } | { int: number } | { float: number } | { date: string };

export interface ExtendResponse {
  meta: { id: string; name: string }[];
  rows: Record<string, Record<string, ExtendValue[]>>;
}

/** The `extend` parameter (JSON text), checked; INVALID_INPUT naming what is wrong. */
export function readExtend(text: string): ExtendQuery {
  const raw = jsonObjectParam(text, "extend");
  if (!Array.isArray(raw.ids)) throw invalid("extend.ids", got(rule.type("array"), raw.ids));
  if (raw.ids.length > MAX_EXTEND_IDS)
    throw invalid("extend.ids", got(rule.atMost(MAX_EXTEND_IDS, "array"), raw.ids.length));
  const ids = raw.ids.map((id: unknown, i) => {
    const t = typeof id === "string" ? id.trim().toUpperCase() : "";
    if (!COMPANY_ID_PATTERN.test(t)) throw invalid(`extend.ids[${i}]`, notAnId("company", id));
    return t;
  });
  if (!Array.isArray(raw.properties) || raw.properties.length === 0)
    throw invalid("extend.properties", got(rule.atLeast(1, "array"), raw.properties));
  const years = new Map<string, number>();
  const wanted = raw.properties.map((p: unknown, i) => {
    if (!isObject(p) || typeof p.id !== "string")
      throw invalid(`extend.properties[${i}]`, { de: "erwartet {id}", en: "expected {id}" });
    const year = yearOf(p.settings, `extend.properties[${i}]`);
    if (year !== null && !years.has(p.id)) years.set(p.id, year);
    return p.id;
  });
  const catalogue = selectFields(wanted); // INVALID_INPUT "unknown field" for an id the catalogue lacks
  const fields = [...new Set(wanted)].map((id) => catalogue.find((f) => f.id === id)!);
  // The year counts for the financial fields only (the setting's help text says so).
  for (const f of fields) if (f.group !== "financials") years.delete(f.id);
  return { ids, fields, years };
}

const tasksOf = (ids: readonly string[]): RowTask[] =>
  ids.map((id, index) => ({ index, query: null, id, confidence: null }));

/** The price of an extension before anything is sent: the enrichment's estimator for rows that came with these ids. */
export function extendEstimate(q: ExtendQuery): EnrichEstimate {
  return estimateTasks(tasksOf(q.ids), {
    mapping: { id: 0 },
    fields: q.fields.map((f) => f.id),
    chunkSize: Math.max(1, q.ids.length),
  });
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A cell as typed values: nothing for an empty cell; dates as ISO date-times (the 0.2 `date` pattern). */
function valuesOf(v: Cell | undefined): ExtendValue[] {
  if (v === null || v === undefined || v === "") return [];
  if (typeof v === "number") return Number.isInteger(v) ? [{ int: v }] : [{ float: v }];
  if (typeof v === "boolean") return [{ str: String(v) }];
  return ISO_DAY.test(v) ? [{ date: `${v}T00:00:00Z` }] : [{ str: v }];
}

/**
 * The extension: one row per id asked (an unknown company has no values),
 * one column per property asked. A company the API failed to answer (out of
 * credits, a server error, the rate limit) fails the request with that
 * error, as do the key and the budget.
 */
export function* extendCompanies(ctx: OpContext, q: ExtendQuery): Operation<ExtendResponse> {
  const lang = ctx.client.language;
  const fields = selectFields(q.fields.map((f) => f.id));
  const distinct = [...new Set(q.ids)];
  // The engine's own profile getter, watched: what it buys (or finds in the cache) feeds the free preview.
  const bought: Company[] = [];
  const deps: EnrichDeps = {
    ...coreDeps,
    *getProfiles(c, ids, include) {
      const got = yield* coreDeps.getProfiles(c, ids, include);
      for (const p of got.values()) if (!(p instanceof CompanyDataError)) bought.push(p);
      return got;
    },
  };
  const { results, outOfCredits } = yield* enrichChunk(deps, ctx, tasksOf(distinct), fields, "batch");
  // A company the API could not answer is not an empty value: the request fails, and a retry pays only for what is missing (the rest is cached).
  if (outOfCredits) throw new CompanyDataError("OUT_OF_CREDITS");
  const failed = results.find((r) => r.outcome === "error");
  if (failed?.error)
    throw new CompanyDataError(failed.error.code, {
      detail: failed.error.code === "INVALID_INPUT" ? failed.error.text : undefined,
    });
  // Ids and property ids are the caller's: maps without a prototype, so no key is special (`__proto__`).
  const rows = Object.create(null) as ExtendResponse["rows"];
  const profiles = new Map(bought.map((c) => [c.id, c]));
  distinct.forEach((id, k) => {
    const r = results[k];
    const row = Object.create(null) as Record<string, ExtendValue[]>;
    for (const f of q.fields) {
      const year = q.years.get(f.id);
      const company = profiles.get(id);
      if (r?.outcome !== "matched") row[f.id] = [];
      else if (year === undefined) row[f.id] = valuesOf(r.values[fields.indexOf(f)]);
      else row[f.id] = company ? valuesOf(f.extract({ summary: null, company: onlyYear(company, year), lang })) : [];
    }
    rows[id] = row;
  });
  yield* rememberSeen(ctx, bought);
  const nameOf = (f: FieldDef) => (q.years.has(f.id) ? `${f.header[lang]} ${q.years.get(f.id)}` : f.header[lang]);
  return { meta: q.fields.map((f) => ({ id: f.id, name: nameOf(f) })), rows };
}
