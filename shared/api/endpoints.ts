/**
 * The endpoint catalogue: every v2 endpoint (spec 4.1) and every path of the
 * older listing (spec 4.2), with its schemas and its credit cost. This is the
 * one price table: the estimator, the UI, the emulator's billing and the docs
 * all read it.
 *
 * Over 400 lines: one entry per endpoint, and one table is the point (a
 * price in a second file is a price that can drift).
 */
import * as S from "./schemas.ts";
import type * as z from "zod/mini";
import { invalid } from "../core/index.ts";
import { got, rule } from "../i18n/index.ts";

export type Billing = "credits" | "rate-limited";
export type Include = "people" | "announcements" | "financials";
export const INCLUDES: readonly Include[] = ["people", "announcements", "financials"];
/** Spec 8.2 rule 1: what each include adds to GET /v2/companies/{id}. */
export const INCLUDE_COST: Record<Include, number> = { people: 1, announcements: 1, financials: 4 };

/** What the price of one call depends on. */
export interface CostInput {
  /** include=… on the profile endpoint */
  include?: readonly Include[];
  /** number of companies in a batch / many-company call */
  count?: number;
}

export type RateBucketName = "suggest" | "resolve" | "availability" | "account";

/**
 * The hosts that expose an endpoint, by the names a user sees there: MCP tool names (mcp/tools.ts), CLI
 * commands (cli/main.ts), custom functions (shared/functions/registry.ts), at least one of them; or
 * `absent` with the reason none does. test/unit/endpoint-coverage.test.ts holds every name to its host.
 */
export type Exposure =
  { mcp?: readonly string[]; cli?: readonly string[]; functions?: readonly string[] } | { absent: string };

/** Why the older listing's paths are in no host: the emulator and the team server answer them for old clients. */
const OLDER_LISTING =
  "older listing (spec 4.2): served by the emulator and the team server for clients that still call it; the hosts use v2";

export interface Endpoint {
  id: string;
  method: "GET" | "POST";
  /** Path template with {id}, {personId} or {prefix}. */
  path: string;
  version: "v2" | "v1";
  billing: Billing;
  /** Query parameters the endpoint takes (anything else is rejected by the emulator). */
  query: readonly string[];
  request?: z.ZodMiniType;
  response: z.ZodMiniType;
  /** Credits one successful call costs. */
  cost(input?: CostInput): number;
  /** How the spec's table states the price, for docs and the UI. */
  priceText: string;
  /** Rate-limit bucket of a zero-credit endpoint (decision: see emulator/README); null for a credit-billed one. */
  rateBucket: RateBucketName | null;
  /**
   * Days the team server keeps a bought answer for the whole team (server/cache.ts; decision: profiles
   * and what belongs to them change rarely, changes, announcements and result lists daily). Free
   * endpoints are not stored: 0. Required: a new endpoint states its lifetime, none is assumed.
   */
  cacheDays: number;
  /** Where a user reaches it: MCP tools, CLI commands, spreadsheet functions, or absent with the reason. */
  hosts: Exposure;
  summary: { en: string; de: string };
}

const fixed = (n: number) => () => n;

/** A number of companies: a whole number ≥ 0 (a price is never NaN). Negative counts as none, as before. */
function countOf(count: unknown): number {
  if (count === undefined) return 0;
  if (typeof count !== "number" || !Number.isInteger(count))
    throw invalid("count", got(rule.number({ value: 0, inclusive: true }, undefined, true), count));
  return Math.max(0, count);
}
/** Known includes only: an unknown one would price as NaN. */
function includesOf(include: unknown): readonly Include[] {
  if (include === undefined || include === null) return [];
  if (!Array.isArray(include)) throw invalid("include", got(rule.oneOf(INCLUDES), include));
  for (const inc of include)
    if (!INCLUDES.includes(inc as Include)) throw invalid("include", got(rule.oneOf(INCLUDES), inc));
  return include as Include[];
}

const perCompany = (n: number) => (input?: CostInput) => n * countOf(input?.count);
/** Spec 8.2 rule 2: one credit per started group of ten. */
export const BATCH_RESOLVE_GROUP = 10;
export const batchResolveCost = (count: number) => Math.ceil(countOf(count) / BATCH_RESOLVE_GROUP);
export const profileCost = (include: readonly Include[] = []) =>
  1 + [...new Set(includesOf(include))].reduce((sum, inc) => sum + INCLUDE_COST[inc], 0);

const define = <const T extends readonly Endpoint[]>(list: T) => list;

export const ENDPOINTS = define([
  // ---- v2 (spec 4.1, prices from spec 8.1)
  {
    id: "search",
    method: "POST",
    path: "/v2/search",
    version: "v2",
    billing: "credits",
    rateBucket: null,
    cacheDays: 1,
    hosts: { mcp: ["search_companies"], cli: ["search"], functions: ["SEARCH"] },
    query: [],
    request: S.SearchRequest,
    response: S.SearchResponse,
    cost: fixed(1),
    priceText: "1",
    summary: {
      en: "Search and filter companies (free text, filters, proximity)",
      de: "Firmen suchen und filtern (Freitext, Filter, Umkreis)",
    },
  },
  {
    id: "resolve",
    method: "POST",
    path: "/v2/resolve",
    version: "v2",
    billing: "rate-limited",
    rateBucket: "resolve",
    cacheDays: 0,
    hosts: { mcp: ["company_profile", "portfolio_risk"], cli: ["enrich"], functions: ["RESOLVE"] },
    query: [],
    request: S.ResolveRequest,
    response: S.ResolveResult,
    cost: fixed(0),
    priceText: "0",
    summary: { en: "Resolve one company by name and hints", de: "Eine Firma über Name und Hinweise finden" },
  },
  {
    id: "batchResolve",
    method: "POST",
    path: "/v2/companies/batch/resolve",
    version: "v2",
    billing: "credits",
    rateBucket: null,
    cacheDays: 30,
    hosts: { mcp: ["portfolio_risk"], cli: ["enrich"], functions: ["RESOLVE"] },
    query: [],
    request: S.BatchResolveRequest,
    response: S.BatchResolveResponse,
    cost: (i?: CostInput) => batchResolveCost(i?.count ?? 0),
    priceText: "ceil(n/10)",
    summary: { en: "Resolve many companies in one call", de: "Viele Firmen in einem Aufruf finden" },
  },
  {
    id: "suggest",
    method: "GET",
    path: "/v2/suggest/{prefix}",
    version: "v2",
    billing: "rate-limited",
    rateBucket: "suggest",
    cacheDays: 0,
    hosts: { functions: ["SUGGEST"] },
    query: ["size"],
    response: S.SuggestResponse,
    cost: fixed(0),
    priceText: "0",
    summary: { en: "Autocomplete company names", de: "Firmennamen vervollständigen" },
  },
  {
    id: "profile",
    method: "GET",
    path: "/v2/companies/{id}",
    version: "v2",
    billing: "credits",
    rateBucket: null,
    cacheDays: 30,
    hosts: {
      mcp: ["company_profile", "portfolio_risk"],
      cli: ["enrich", "monitor", "refresh"],
      functions: ["PROFILE", "CARD"],
    },
    query: ["include"],
    response: S.Company,
    cost: (i?: CostInput) => profileCost(i?.include),
    priceText: "1 (+1 people, +1 announcements, +4 financials)",
    summary: {
      en: "Company profile, optionally with people, announcements, financials",
      de: "Firmenprofil, optional mit Personen, Bekanntmachungen, Finanzdaten",
    },
  },
  {
    id: "availability",
    method: "GET",
    path: "/v2/companies/{id}/availability",
    version: "v2",
    billing: "rate-limited",
    rateBucket: "availability",
    cacheDays: 0,
    hosts: { mcp: ["company_profile", "portfolio_risk"], cli: ["monitor"], functions: ["AVAILABILITY", "CARD"] },
    query: [],
    response: S.AvailabilityResponse,
    cost: fixed(0),
    priceText: "0",
    summary: { en: "Which data exists for a company", de: "Welche Daten es zu einer Firma gibt" },
  },
  {
    id: "changes",
    method: "GET",
    path: "/v2/companies/{id}/changes",
    version: "v2",
    billing: "credits",
    rateBucket: null,
    cacheDays: 1,
    hosts: { mcp: ["recent_changes", "portfolio_risk"], cli: ["monitor", "refresh"], functions: ["CHANGES"] },
    query: ["since", "size", "from"],
    response: S.ChangesResponse,
    cost: fixed(1),
    priceText: "1",
    summary: { en: "Changes since a point in time", de: "Änderungen seit einem Zeitpunkt" },
  },
  {
    id: "nearby",
    method: "GET",
    path: "/v2/companies/{id}/nearby",
    version: "v2",
    billing: "credits",
    rateBucket: null,
    cacheDays: 1,
    hosts: { functions: ["NEARBY"] },
    query: ["radiusKm", "size"],
    response: S.CompanyListResponse,
    cost: fixed(1),
    priceText: "1",
    summary: { en: "Companies near this company", de: "Firmen in der Nähe" },
  },
  {
    id: "people",
    method: "GET",
    path: "/v2/companies/{id}/people",
    version: "v2",
    billing: "credits",
    rateBucket: null,
    cacheDays: 30,
    hosts: { mcp: ["company_profile"], cli: ["enrich"], functions: ["PEOPLE"] },
    query: [],
    response: S.PeopleResponse,
    cost: fixed(1),
    priceText: "1",
    summary: { en: "People (management) of the company", de: "Personen (Management) der Firma" },
  },
  {
    id: "announcements",
    method: "GET",
    path: "/v2/companies/{id}/announcements",
    version: "v2",
    billing: "credits",
    rateBucket: null,
    cacheDays: 1,
    hosts: { mcp: ["company_profile", "recent_changes"], cli: ["enrich"], functions: ["ANNOUNCEMENTS"] },
    query: ["since", "size"],
    response: S.AnnouncementsResponse,
    cost: fixed(1),
    priceText: "1",
    summary: { en: "Official announcements", de: "Registerbekanntmachungen" },
  },
  {
    id: "financials",
    method: "GET",
    path: "/v2/companies/{id}/financials",
    version: "v2",
    billing: "credits",
    rateBucket: null,
    cacheDays: 30,
    hosts: { mcp: ["company_profile", "portfolio_risk"], cli: ["enrich", "monitor"], functions: ["FINANCIALS"] },
    query: [],
    response: S.FinancialsResponse,
    cost: fixed(4),
    priceText: "4",
    summary: { en: "Key financial figures per year", de: "Finanzkennzahlen je Jahr" },
  },
  {
    id: "peers",
    method: "GET",
    path: "/v2/companies/{id}/peers",
    version: "v2",
    billing: "credits",
    rateBucket: null,
    cacheDays: 1,
    hosts: { functions: ["PEERS"] },
    query: ["size"],
    response: S.CompanyListResponse,
    cost: fixed(2),
    priceText: "2",
    summary: { en: "Comparable companies", de: "Vergleichbare Firmen" },
  },
  {
    id: "similar",
    method: "POST",
    path: "/v2/similar",
    version: "v2",
    billing: "credits",
    rateBucket: null,
    cacheDays: 1,
    hosts: { mcp: ["similar_companies"], functions: ["SIMILAR"] },
    query: [],
    request: S.SimilarRequest,
    response: S.CompanyListResponse,
    cost: fixed(2),
    priceText: "2",
    summary: { en: "Companies similar to the given ones", de: "Firmen ähnlich den angegebenen" },
  },
  {
    id: "personCompanies",
    method: "GET",
    path: "/v2/people/{personId}/companies",
    version: "v2",
    billing: "credits",
    rateBucket: null,
    cacheDays: 30,
    hosts: { mcp: ["person_network"], functions: ["PERSON_COMPANIES"] },
    query: [],
    response: S.PersonCompaniesResponse,
    cost: fixed(2),
    priceText: "2",
    summary: { en: "Companies a person is involved in", de: "Firmen, an denen eine Person beteiligt ist" },
  },
  {
    id: "account",
    method: "GET",
    path: "/v2/account",
    version: "v2",
    billing: "rate-limited",
    rateBucket: "account",
    cacheDays: 0,
    hosts: { mcp: ["account"], cli: ["account"], functions: ["CREDITS"] },
    query: [],
    response: S.AccountResponse,
    cost: fixed(0),
    priceText: "0",
    summary: { en: "Account and credit balance", de: "Konto und Guthaben" },
  },

  // ---- older unversioned listing (spec 4.2). Its prices are not in the spec
  // (decision): each costs what its v2 counterpart costs, per company for the
  // many-company POST forms; lookup, suggest and financials/exists are free
  // and rate-limited like resolve, suggest and availability.
  {
    id: "v1.data",
    method: "GET",
    path: "/companies/{id}/data",
    version: "v1",
    billing: "credits",
    rateBucket: null,
    cacheDays: 30,
    hosts: { absent: OLDER_LISTING },
    query: [],
    response: S.V1CompanyResponse,
    cost: fixed(1),
    priceText: "1",
    summary: { en: "Basic company data (older listing)", de: "Basisdaten (ältere Schnittstelle)" },
  },
  {
    id: "v1.dataMany",
    method: "POST",
    path: "/companies/data",
    version: "v1",
    billing: "credits",
    rateBucket: null,
    cacheDays: 30,
    hosts: { absent: OLDER_LISTING },
    query: [],
    request: S.IdsRequest,
    response: S.V1CompaniesResponse,
    cost: perCompany(1),
    priceText: "1 per company",
    summary: {
      en: "Basic data for many companies (older listing)",
      de: "Basisdaten für viele Firmen (ältere Schnittstelle)",
    },
  },
  {
    id: "v1.people",
    method: "GET",
    path: "/companies/{id}/people",
    version: "v1",
    billing: "credits",
    rateBucket: null,
    cacheDays: 30,
    hosts: { absent: OLDER_LISTING },
    query: [],
    response: S.PeopleResponse,
    cost: fixed(1),
    priceText: "1",
    summary: { en: "Management (older listing)", de: "Management (ältere Schnittstelle)" },
  },
  {
    id: "v1.peopleMany",
    method: "POST",
    path: "/companies/people",
    version: "v1",
    billing: "credits",
    rateBucket: null,
    cacheDays: 30,
    hosts: { absent: OLDER_LISTING },
    query: [],
    request: S.IdsRequest,
    response: S.V1CompaniesResponse,
    cost: perCompany(1),
    priceText: "1 per company",
    summary: {
      en: "Management of many companies (older listing)",
      de: "Management vieler Firmen (ältere Schnittstelle)",
    },
  },
  {
    id: "v1.events",
    method: "GET",
    path: "/companies/{id}/events",
    version: "v1",
    billing: "credits",
    rateBucket: null,
    cacheDays: 1,
    hosts: { functions: ["EVENTS"] },
    query: ["type", "category", "since", "size"],
    response: S.EventsResponse,
    cost: fixed(1),
    priceText: "1",
    summary: { en: "News and social media (older listing)", de: "News und Social Media (ältere Schnittstelle)" },
  },
  {
    id: "v1.eventsMany",
    method: "POST",
    path: "/companies/events",
    version: "v1",
    billing: "credits",
    rateBucket: null,
    cacheDays: 1,
    hosts: { absent: OLDER_LISTING },
    query: [],
    request: S.IdsRequest,
    response: S.V1CompaniesResponse,
    cost: perCompany(1),
    priceText: "1 per company",
    summary: { en: "News of many companies (older listing)", de: "News vieler Firmen (ältere Schnittstelle)" },
  },
  {
    id: "v1.jobs",
    method: "GET",
    path: "/companies/{id}/jobs",
    version: "v1",
    billing: "credits",
    rateBucket: null,
    cacheDays: 1,
    hosts: { functions: ["JOBS"] },
    query: ["since", "size"],
    response: S.JobsResponse,
    cost: fixed(1),
    priceText: "1",
    summary: { en: "Job advertisements (older listing)", de: "Stellenanzeigen (ältere Schnittstelle)" },
  },
  {
    id: "v1.jobsMany",
    method: "POST",
    path: "/companies/jobs",
    version: "v1",
    billing: "credits",
    rateBucket: null,
    cacheDays: 1,
    hosts: { absent: OLDER_LISTING },
    query: [],
    request: S.IdsRequest,
    response: S.V1CompaniesResponse,
    cost: perCompany(1),
    priceText: "1 per company",
    summary: {
      en: "Job ads of many companies (older listing)",
      de: "Stellenanzeigen vieler Firmen (ältere Schnittstelle)",
    },
  },
  {
    id: "v1.financials",
    method: "GET",
    path: "/companies/{id}/financials",
    version: "v1",
    billing: "credits",
    rateBucket: null,
    cacheDays: 30,
    hosts: { absent: OLDER_LISTING },
    query: [],
    response: S.V1FinancialsResponse,
    cost: fixed(4),
    priceText: "4",
    summary: { en: "Key financial figures (older listing)", de: "Finanzkennzahlen (ältere Schnittstelle)" },
  },
  {
    id: "v1.financialsMany",
    method: "POST",
    path: "/companies/financials",
    version: "v1",
    billing: "credits",
    rateBucket: null,
    cacheDays: 30,
    hosts: { absent: OLDER_LISTING },
    query: [],
    request: S.IdsRequest,
    response: S.V1CompaniesResponse,
    cost: perCompany(4),
    priceText: "4 per company",
    summary: {
      en: "Financial figures of many companies (older listing)",
      de: "Finanzkennzahlen vieler Firmen (ältere Schnittstelle)",
    },
  },
  {
    id: "v1.lookup",
    method: "POST",
    path: "/lookup",
    version: "v1",
    billing: "rate-limited",
    rateBucket: "resolve",
    cacheDays: 0,
    hosts: { cli: ["enrich"], functions: ["RESOLVE"] },
    query: [],
    request: S.LookupRequest,
    response: S.V1CompaniesResponse,
    cost: fixed(0),
    priceText: "0",
    summary: {
      en: "Lookup by name, domain, VAT id or register (older listing)",
      de: "Suche über Name, Domain, USt-IdNr. oder Register (ältere Schnittstelle)",
    },
  },
  {
    id: "v1.financialsExists",
    method: "GET",
    path: "/companies/{id}/financials/exists",
    version: "v1",
    billing: "rate-limited",
    rateBucket: "availability",
    cacheDays: 0,
    hosts: { absent: OLDER_LISTING },
    query: [],
    response: S.FinancialsExistsResponse,
    cost: fixed(0),
    priceText: "0",
    summary: {
      en: "Which financial years exist (older listing)",
      de: "Welche Finanzjahre es gibt (ältere Schnittstelle)",
    },
  },
  {
    id: "v1.financialsExistsMany",
    method: "POST",
    path: "/companies/financials/exists",
    version: "v1",
    billing: "rate-limited",
    rateBucket: "availability",
    cacheDays: 0,
    hosts: { absent: OLDER_LISTING },
    query: [],
    request: S.IdsRequest,
    response: S.FinancialsExistsManyResponse,
    cost: fixed(0),
    priceText: "0",
    summary: {
      en: "Financial years of many companies (older listing)",
      de: "Finanzjahre vieler Firmen (ältere Schnittstelle)",
    },
  },
  {
    id: "v1.search",
    method: "POST",
    path: "/search",
    version: "v1",
    billing: "credits",
    rateBucket: null,
    cacheDays: 1,
    hosts: { absent: OLDER_LISTING },
    query: [],
    request: S.V1SearchRequest,
    response: S.V1CompaniesResponse,
    cost: fixed(1),
    priceText: "1",
    summary: { en: "Search (older listing)", de: "Suche (ältere Schnittstelle)" },
  },
  {
    id: "v1.suggest",
    method: "GET",
    path: "/suggest/{prefix}",
    version: "v1",
    billing: "rate-limited",
    rateBucket: "suggest",
    cacheDays: 0,
    hosts: { absent: OLDER_LISTING },
    query: ["size"],
    response: S.V1SuggestResponse,
    cost: fixed(0),
    priceText: "0",
    summary: { en: "Autocomplete (older listing)", de: "Autovervollständigung (ältere Schnittstelle)" },
  },
  {
    id: "v1.recommend",
    method: "POST",
    path: "/recommend",
    version: "v1",
    billing: "credits",
    rateBucket: null,
    cacheDays: 1,
    hosts: { absent: OLDER_LISTING },
    query: ["size", "explain"],
    request: S.RecommendRequest,
    response: S.V1CompaniesResponse,
    cost: fixed(2),
    priceText: "2",
    summary: {
      en: "Lookalike recommendations (older listing)",
      de: "Empfehlungen ähnlicher Firmen (ältere Schnittstelle)",
    },
  },
] as const satisfies readonly Endpoint[]);

export type EndpointId = (typeof ENDPOINTS)[number]["id"];

const BY_ID: ReadonlyMap<string, Endpoint> = new Map(ENDPOINTS.map((e) => [e.id, e as Endpoint]));

/** The catalogue entry; an id that is not in the catalogue is INVALID_INPUT naming `endpoint`, not undefined. */
export function endpoint(id: EndpointId): Endpoint {
  const e = typeof id === "string" ? BY_ID.get(id) : undefined;
  if (!e) throw invalid("endpoint", got({ de: "unbekannter Endpunkt", en: "unknown endpoint" }, id));
  return e;
}

/** Fill a path template; each value is URL-encoded (ids never need it, prefixes do). */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(v);
  });
}
