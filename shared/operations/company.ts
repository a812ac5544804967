/**
 * Company data operations. Each validates its input first (INVALID_INPUT
 * naming the field, nothing sent), then goes through the cache. Many-company
 * getters settle per id: one bad or unknown id never fails the others.
 */
import type * as z from "zod/mini";
import type { CallResult, CallSpec } from "../api/index.ts";
import { callMany } from "../api/index.ts";
import { type Include } from "../api/index.ts";
import { schemas as S } from "../api/index.ts";
import type { Operation } from "../core/index.ts";
import { CompanyDataError, invalid } from "../core/index.ts";
import type { OpContext } from "./context.ts";
import { cachedCallMany } from "./cached.ts";
import { validate as V } from "../api/index.ts";
import { formatPath, got, rule, ruleOfIssue, schemaAt, type IssueLike, type Rule } from "../i18n/index.ts";
import { fieldLabel } from "../i18n/index.ts";

export type Company = S.Company;
export type Availability = S.Availability;
export type SearchResponse = z.infer<typeof S.SearchResponse>;
export type SuggestResponse = z.infer<typeof S.SuggestResponse>;
export type CompanyListResponse = z.infer<typeof S.CompanyListResponse>;
export type PeopleResponse = z.infer<typeof S.PeopleResponse>;
export type AnnouncementsResponse = z.infer<typeof S.AnnouncementsResponse>;
export type FinancialsResponse = z.infer<typeof S.FinancialsResponse>;
export type ChangesResponse = z.infer<typeof S.ChangesResponse>;
export type PersonCompaniesResponse = z.infer<typeof S.PersonCompaniesResponse>;
export type EventsResponse = z.infer<typeof S.EventsResponse>;
export type JobsResponse = z.infer<typeof S.JobsResponse>;
export type AccountResponse = S.AccountResponse;

/** One cached call; throws its error. */
function* one<T>(ctx: OpContext, spec: CallSpec): Operation<T> {
  const r = (yield* cachedCallMany<T>(ctx, [spec]))[0]!; // one result per spec
  if (!r.ok) throw r.error;
  return r.data;
}

/**
 * The same call for many ids. The map is keyed by the ids as given; invalid
 * ids map to their INVALID_INPUT error and are not sent; ids equal after
 * trimming and upper-casing are sent once.
 */
function* perId<T>(
  ctx: OpContext,
  ids: unknown,
  field: string,
  specOf: (id: string) => CallSpec,
): Operation<Map<string, T | CompanyDataError>> {
  if (!Array.isArray(ids))
    throw invalid(field, got({ de: "erwartet eine Liste von Firmen-IDs", en: "expected a list of company IDs" }, ids));
  const out = new Map<string, T | CompanyDataError>();
  const valid: { given: string; id: string }[] = [];
  ids.forEach((given, i) => {
    const label = String(given);
    try {
      valid.push({ given: label, id: V.companyId(given, `${field}[${i}]`) });
    } catch (e) {
      out.set(label, e as CompanyDataError);
    }
  });
  const results: CallResult<T>[] = yield* cachedCallMany<T>(
    ctx,
    valid.map((v) => specOf(v.id)),
  );
  valid.forEach((v, k) => {
    const r = results[k]!; // one result per spec, in order
    out.set(v.given, r.ok ? r.data : r.error);
  });
  return out;
}

/** The include parameter as the API takes it: comma-separated, catalogue order. */
export const includeParam = (include: readonly Include[]) => (include.length ? include.join(",") : undefined);

export function* getProfiles(
  ctx: OpContext,
  ids: string[],
  include?: Include[],
): Operation<Map<string, Company | CompanyDataError>> {
  const inc = V.includes(include);
  return yield* perId<Company>(ctx, ids, "ids", (id) => ({
    endpoint: "profile",
    path: { id },
    query: { include: includeParam(inc) },
    cost: { include: inc },
  }));
}

export function* getProfile(ctx: OpContext, id: string, include?: Include[]): Operation<Company> {
  const inc = V.includes(include);
  return yield* one<Company>(ctx, {
    endpoint: "profile",
    path: { id: V.companyId(id) },
    query: { include: includeParam(inc) },
    cost: { include: inc },
  });
}

export function* getAvailability(
  ctx: OpContext,
  ids: string[],
): Operation<Map<string, Availability | CompanyDataError>> {
  return yield* perId<Availability>(ctx, ids, "ids", (id) => ({ endpoint: "availability", path: { id } }));
}

export function* getPeople(ctx: OpContext, id: string): Operation<PeopleResponse> {
  return yield* one(ctx, { endpoint: "people", path: { id: V.companyId(id) } });
}

export function* getAnnouncements(
  ctx: OpContext,
  id: string,
  since?: string,
  size?: number,
): Operation<AnnouncementsResponse> {
  const cid = V.companyId(id);
  const s = since === undefined || since === null || since === "" ? undefined : V.isoDate(since, "since");
  return yield* one(ctx, { endpoint: "announcements", path: { id: cid }, query: { since: s, size: V.size(size) } });
}

export function* getFinancials(ctx: OpContext, id: string): Operation<FinancialsResponse> {
  return yield* one(ctx, { endpoint: "financials", path: { id: V.companyId(id) } });
}

/** Changes asked for per page: the API's largest. */
export const CHANGES_PAGE_SIZE = S.MAX_SIZE;
/** The API's largest `from` offset (emulator decision, like search's): paging stops there. */
export const MAX_CHANGES_OFFSET = 10_000;

/**
 * Requests (1 credit each) that fetching n changes takes: pages of `size`
 * until one comes back short, so a multiple of `size` needs one more, empty page.
 */
export const changesPages = (n: number, size: number = CHANGES_PAGE_SIZE) => Math.floor(Math.max(0, n) / size) + 1;

export interface ChangesResult extends ChangesResponse {
  /** Pages fetched (= credits spent when nothing came from the cache). */
  pages: number;
  /** False when paging stopped early (maxPages, or the API's offset limit): older changes after `since` are missing. */
  complete: boolean;
}

const changeKey = (c: S.Change) => JSON.stringify([c.date, c.kind, c.field, c.oldValue, c.newValue, c.text, c.source]);

/**
 * Every change after `since`, newest first, fetched page by page (`from`
 * offsets; see emulator/README "Changes paging"). `until` is the first page's:
 * passed as the next `since` it misses nothing that arrived while paging. A
 * change arriving between two pages shifts the offsets by one, which repeats
 * an entry: repeats are dropped.
 */
export function* getChanges(
  ctx: OpContext,
  id: string,
  since: string,
  size?: number,
  opts: { maxPages?: number } = {},
): Operation<ChangesResult> {
  const cid = V.companyId(id);
  const s = V.isoDate(since, "since");
  const pageSize = V.size(size) ?? CHANGES_PAGE_SIZE;
  const maxPages = opts.maxPages ?? Infinity;
  if (maxPages !== Infinity && (!Number.isInteger(maxPages) || maxPages < 1))
    throw invalid("maxPages", got(rule.number({ value: 1, inclusive: true }, undefined, true), maxPages));
  const seen = new Set<string>();
  const changes: S.Change[] = [];
  let first: ChangesResponse | undefined;
  let pages = 0;
  for (let from = 0; ; from += pageSize) {
    const page = yield* one<ChangesResponse>(ctx, {
      endpoint: "changes",
      path: { id: cid },
      query: { since: s, size: pageSize, from: from > 0 ? from : undefined },
    });
    pages++;
    first ??= page;
    for (const c of page.changes) {
      const k = changeKey(c);
      if (!seen.has(k)) {
        seen.add(k);
        changes.push(c);
      }
    }
    const last = page.changes.length < pageSize;
    if (last) return { ...first, changes, pages, complete: true };
    if (pages >= maxPages || from + pageSize > MAX_CHANGES_OFFSET) return { ...first, changes, pages, complete: false };
  }
}

export function* getNearby(
  ctx: OpContext,
  id: string,
  radiusKm?: number,
  size?: number,
): Operation<CompanyListResponse> {
  const cid = V.companyId(id);
  return yield* one(ctx, {
    endpoint: "nearby",
    path: { id: cid },
    query: { radiusKm: V.radiusKm(radiusKm), size: V.size(size) },
  });
}

export function* getPeers(ctx: OpContext, id: string, size?: number): Operation<CompanyListResponse> {
  const cid = V.companyId(id);
  return yield* one(ctx, { endpoint: "peers", path: { id: cid }, query: { size: V.size(size) } });
}

/** Similar companies to 1..20 given ones (the SimilarRequest bound). */
export const MAX_SIMILAR_IDS = 20;

export function* getSimilar(ctx: OpContext, ids: string[], size?: number): Operation<CompanyListResponse> {
  const list = V.batch<unknown>(ids, "ids", MAX_SIMILAR_IDS, 1).map((id, i) => V.companyId(id, `ids[${i}]`));
  const body: { ids: string[]; size?: number } = { ids: [...new Set(list)] };
  const s = V.size(size);
  if (s !== undefined) body.size = s;
  return yield* one(ctx, { endpoint: "similar", body });
}

export function* getPersonCompanies(ctx: OpContext, personId: string): Operation<PersonCompaniesResponse> {
  return yield* one(ctx, { endpoint: "personCompanies", path: { personId: V.personId(personId) } });
}

export function* getEvents(ctx: OpContext, id: string, size?: number): Operation<EventsResponse> {
  const cid = V.companyId(id);
  return yield* one(ctx, { endpoint: "v1.events", path: { id: cid }, query: { size: V.size(size) } });
}

export function* getJobs(ctx: OpContext, id: string, size?: number): Operation<JobsResponse> {
  const cid = V.companyId(id);
  return yield* one(ctx, { endpoint: "v1.jobs", path: { id: cid }, query: { size: V.size(size) } });
}

/** Regular expressions users know by what they stand for. */
const PATTERNS: Record<string, Rule> = {
  [String(S.COMPANY_ID_PATTERN)]: rule.companyId,
  [S.COMPANY_ID_PATTERN.source]: rule.companyId,
  [String(S.PERSON_ID_PATTERN)]: rule.personId,
  [S.PERSON_ID_PATTERN.source]: rule.personId,
};

/**
 * Validate a request body against its (strict) schema. The first issue names
 * the field and the rule in the user's terms (never zod's English message).
 */
export function checked<T>(schema: z.ZodMiniType<T>, value: unknown, field: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0] as IssueLike | undefined;
  if (!issue) throw invalid(field, NOT_VALID);
  let path = formatPath(issue.path);
  // An unknown key is named itself, with the keys that are allowed.
  const unknown = issue.code === "unrecognized_keys" ? issue.keys?.[0] : undefined;
  if (unknown !== undefined) path = path ? `${path}.${unknown}` : unknown;
  const why = ruleOfIssue(issue, schema, value, PATTERNS);
  const detail = issue.code === "unrecognized_keys" ? unknownKey(schema, issue) : (why ?? NOT_VALID);
  throw invalid(path ? `${field}.${path}` : field, detail);
}
const NOT_VALID: Rule = { de: "ungültiger Wert", en: "not a valid value" };

/** An unknown key, with the allowed ones by the names users know them by. */
function unknownKey(schema: z.ZodMiniType, issue: IssueLike): Rule {
  const s = schemaAt(schema, issue.path)?._zod.def;
  const keys = s?.type === "object" && s.shape ? Object.keys(s.shape) : [];
  if (!keys.length) return { de: "unbekanntes Feld", en: "unknown field" };
  const list = (lang: "de" | "en") => keys.map((k) => fieldLabel(k, lang)).join(", ");
  return { de: `unbekanntes Feld; erlaubt: ${list("de")}`, en: `unknown field; allowed: ${list("en")}` };
}

export function* search(ctx: OpContext, req: S.SearchRequest): Operation<SearchResponse> {
  const body = checked(S.SearchRequest, req, "search");
  if (body.query.trim() === "" && !body.filters && !body.near)
    throw invalid("query", {
      de: "bitte einen Suchtext, einen Filter oder einen Ort angeben",
      en: "please give a search text, a filter or a place",
    });
  return yield* one(ctx, { endpoint: "search", body });
}

export function* suggest(ctx: OpContext, prefix: string, size?: number): Operation<SuggestResponse> {
  const p = V.nonEmpty(prefix, "prefix", 100);
  return yield* one(ctx, { endpoint: "suggest", path: { prefix: p }, query: { size: V.size(size) } });
}

/** The account and balance: never cached. */
export function* getAccount(ctx: OpContext): Operation<AccountResponse> {
  const r = (yield* callMany<AccountResponse>(ctx.client, [{ endpoint: "account" }], {
    rateLimits: ctx.rateLimits,
  }))[0]!; // one result per spec
  if (!r.ok) throw r.error;
  return r.data;
}
