/**
 * The one module that names the API's fields.
 *
 * The real v2 field names are not published (see ../shared/spec/known-service-facts.md);
 * every name below follows the v1 fields and the provider's MCP tools where
 * they are known, and is a project decision where not (marked "decision").
 * The core and the emulator both import these schemas: one definition, two users.
 *
 * Responses are parsed leniently: unknown fields are dropped, a missing or
 * mistyped optional field becomes null instead of throwing (`opt`). Only the
 * fields without which a record is useless (a company's id) are required.
 * Requests are strict: the emulator rejects unknown body fields, the core
 * validates what it is about to send.
 */
import * as z from "zod/mini";

// Company ids: the one pattern set lives in a module without zod, so the UI bundle can use it too.
export { COMPANY_ID_AT_START, COMPANY_ID_IN_TEXT, COMPANY_ID_PATTERN, companyIdsIn } from "./company-id.ts";
import { COMPANY_ID_PATTERN } from "./company-id.ts";

/** Person ids (decision): P + 10 upper-case letters or digits. */
export const PERSON_ID_PATTERN = /^P[A-Z0-9]{10}$/;
/** Largest `size` any list endpoint accepts (decision). */
export const MAX_SIZE = 100;
/** Largest number of companies in one batch resolve / one many-company POST (decision). */
export const MAX_BATCH = 100;

/**
 * `z.catch` with its fallback made by a function. zod/mini's own `z.catch` wraps a constant
 * fallback through `core.util.constantCatch`, a nested namespace access esbuild cannot
 * tree-shake: it pulls all of zod's util module (9 KiB minified) into the Apps Script
 * bundle, which Apps Script evaluates on every call. Same schema class, same parse result.
 */
const caught = <T extends z.core.$ZodType>(s: T, fallback: () => z.output<T>): z.ZodMiniCatch<T> =>
  new z.ZodMiniCatch({ type: "catch", innerType: s, catchValue: fallback }) as z.ZodMiniCatch<T>;
const opt = <T extends z.core.$ZodType>(s: T) => z.optional(caught(z.nullable(s), () => null));
/** A list that reads as empty when the answer's field is missing or malformed. */
export const list = <T extends z.core.$ZodType>(s: T) => caught(z.array(s), () => []);

export const CompanyId = z.string().check(z.regex(COMPANY_ID_PATTERN));

/** A coded value with a label in the request's language (Accept-Language). */
export const Label = z.object({ code: z.string(), name: opt(z.string()) });
export type Label = z.infer<typeof Label>;

export const Geo = z.object({ lat: z.number(), lon: z.number() });

/** Register entry: court + type + number, e.g. Amtsgericht München HRB 6684. */
export const RegisterEntry = z.object({
  court: opt(z.string()),
  type: opt(z.string()), // HRA | HRB | GnR | PR
  number: opt(z.string()),
});

export const Industry = z.object({ code: z.string(), title: opt(z.string()) });

/** Company status codes (decision; v1 had only `active`). */
export const COMPANY_STATUS = ["ACTIVE", "IN_LIQUIDATION", "INSOLVENT", "DELETED", "INACTIVE"] as const;
export const SIZE_CLASSES = ["MICRO", "SMALL", "MEDIUM", "LARGE"] as const;

/** The short form of a company used in lists (search, nearby, peers, resolve candidates). */
export const CompanySummary = z.object({
  id: z.string(),
  name: opt(z.string()),
  legalForm: opt(Label),
  street: opt(z.string()),
  zip: opt(z.string()),
  city: opt(z.string()),
  state: opt(z.string()), // ISO 3166-2, DE-BY
  active: opt(z.boolean()),
  status: opt(Label),
  register: opt(RegisterEntry),
  industry: opt(Industry),
  size: opt(Label),
  geo: opt(Geo),
  /** search / peers / similar: relevance 0..1 */
  score: opt(z.number()),
  /** nearby and proximity search: distance from the reference point */
  distanceKm: opt(z.number()),
  /**
   * Former names (v1 `historicalNames[]`, known-service-facts). Decision: a
   * resolve answer's companies may carry them (the emulator's do); where they
   * are absent (null), matching asks the free lookup, whose v1 companies carry
   * them (operations/resolve.ts).
   */
  historicalNames: opt(z.array(z.string())),
});
export type CompanySummary = z.infer<typeof CompanySummary>;

export const Person = z.object({
  personId: z.string(),
  name: opt(z.string()),
  role: opt(Label),
  since: opt(z.string()),
  until: opt(z.string()),
  city: opt(z.string()),
});
export type Person = z.infer<typeof Person>;

export const Announcement = z.object({
  id: opt(z.string()),
  date: opt(z.string()),
  type: opt(Label), // NEW_ENTRY, CHANGE, MANAGEMENT_CHANGE, CAPITAL_CHANGE, LIQUIDATION, INSOLVENCY, DELETION
  text: opt(z.string()),
  court: opt(z.string()),
});
export type Announcement = z.infer<typeof Announcement>;

/** One year of key figures, as the provider's financial summaries (known-service-facts). */
export const FinancialYear = z.object({
  year: z.number(),
  revenue: opt(z.number()),
  profit: opt(z.number()), // net income
  equity: opt(z.number()),
  equityRatio: opt(z.number()),
  balanceSheetTotal: opt(z.number()),
  employees: opt(z.number()),
  reportType: opt(z.string()), // company | concern
});
export type FinancialYear = z.infer<typeof FinancialYear>;

export const Company = z.object({
  ...CompanySummary.shape,
  foundingDate: opt(z.string()),
  capital: opt(z.object({ amount: z.number(), currency: opt(z.string()) })),
  purpose: opt(z.string()),
  summary: opt(z.string()),
  phone: opt(z.string()),
  email: opt(z.string()),
  url: opt(z.string()),
  vatId: opt(z.string()),
  /**
   * Legal Entity Identifier (ISO 17442). Decision: known-service-facts says the
   * provider's lookup accepts an LEI but no document names the field; the
   * profile carries it as `lei` beside `vatId` (the older form inside
   * `externalIds` as `lei`, beside `vat`), null for a company without one.
   */
  lei: opt(z.string()),
  employees: opt(z.object({ count: z.number(), year: opt(z.number()) })),
  industries: opt(z.array(Industry)),
  liquidationDate: opt(z.string()),
  insolvencyDate: opt(z.string()),
  deletionDate: opt(z.string()),
  /** The provider's risk screening flag (portfolio_risk: warning_exists). */
  warningExists: opt(z.boolean()),
  lastChangeDate: opt(z.string()),
  /** Data as of (decision: the emulator's "today" at answer time). */
  asOf: opt(z.string()),
  // Present only when asked for with include=…
  people: opt(z.array(Person)),
  announcements: opt(z.array(Announcement)),
  financials: opt(z.array(FinancialYear)),
});
export type Company = z.infer<typeof Company>;

export const Change = z.object({
  date: z.string(), // ISO date-time
  kind: opt(Label), // NAME, ADDRESS, MANAGEMENT, CAPITAL, STATUS, LEGAL_FORM, PURPOSE, ANNOUNCEMENT
  field: opt(z.string()),
  oldValue: opt(z.string()),
  newValue: opt(z.string()),
  text: opt(z.string()),
  source: opt(z.string()),
});
export type Change = z.infer<typeof Change>;

export const NewsEvent = z.object({
  type: opt(z.string()), // NEWS, BLOG, SOCIAL
  category: opt(z.string()),
  title: opt(z.string()),
  text: opt(z.string()),
  source: opt(z.string()),
  publisher: opt(z.string()),
  timestamp: opt(z.string()),
});
export const JobAd = z.object({
  title: opt(z.string()),
  text: opt(z.string()),
  source: opt(z.string()),
  publisher: opt(z.string()),
  timestamp: opt(z.string()),
  city: opt(z.string()),
});

// ---------------------------------------------------------------- requests

const Size = z.int().check(z.minimum(1), z.maximum(MAX_SIZE));

export const SearchFilters = z.strictObject({
  industry: z.optional(z.array(z.string())), // WZ codes or prefixes, e.g. "J62"
  size: z.optional(z.array(z.enum(SIZE_CLASSES))),
  state: z.optional(z.array(z.string())),
  city: z.optional(z.string()),
  legalForm: z.optional(z.array(z.string())),
  active: z.optional(z.boolean()),
  minAgeYears: z.optional(z.number()),
  maxAgeYears: z.optional(z.number()),
});

/** Proximity filter: a point, or a place (city or postcode) the service geocodes, plus a radius. */
export const Near = z.strictObject({
  lat: z.optional(z.number().check(z.gte(-90), z.lte(90))),
  lon: z.optional(z.number().check(z.gte(-180), z.lte(180))),
  place: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  radiusKm: z.number().check(z.gt(0), z.lte(500)),
});

export const SearchRequest = z.strictObject({
  query: z.string().check(z.maxLength(500)),
  size: z.optional(Size),
  from: z.optional(z.int().check(z.minimum(0), z.maximum(10_000))),
  filters: z.optional(SearchFilters),
  near: z.optional(Near),
});
export type SearchRequest = z.infer<typeof SearchRequest>;

/** What identifies a company for resolve: a name plus optional hints. */
export const ResolveQuery = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(500)),
  city: z.optional(z.string().check(z.maxLength(200))),
  zip: z.optional(z.string().check(z.maxLength(10))),
  /** Free text such as "HRB 6684 München" or "München HRB 6684". */
  register: z.optional(z.string().check(z.maxLength(200))),
});
export type ResolveQuery = z.infer<typeof ResolveQuery>;

export const ResolveRequest = ResolveQuery;
export const BatchResolveRequest = z.strictObject({
  companies: z
    .array(z.strictObject({ ...ResolveQuery.shape, ref: z.optional(z.string().check(z.maxLength(100))) }))
    .check(z.minLength(1), z.maxLength(MAX_BATCH)),
});
export type BatchResolveRequest = z.infer<typeof BatchResolveRequest>;

export const SimilarRequest = z.strictObject({
  ids: z.array(CompanyId).check(z.minLength(1), z.maxLength(20)),
  size: z.optional(Size),
  filters: z.optional(SearchFilters),
});
export type SimilarRequest = z.infer<typeof SimilarRequest>;

// Older listing (section 4.2)
export const IdsRequest = z.strictObject({ ids: z.array(CompanyId).check(z.minLength(1), z.maxLength(MAX_BATCH)) });
export const LookupRequest = z.strictObject({
  name: z.optional(z.string().check(z.maxLength(500))),
  city: z.optional(z.string()),
  zip: z.optional(z.string()),
  url: z.optional(z.string()),
  vatId: z.optional(z.string()),
  register: z.optional(z.string()),
  /** Decision (the spec names no field): `lei`, the 20-character LEI in its normal form (shared/api/lei.ts). */
  lei: z.optional(z.string().check(z.maxLength(40))),
});
export const V1SearchRequest = z.strictObject({
  query: z.string().check(z.maxLength(500)),
  from: z.optional(z.int().check(z.minimum(0), z.maximum(10_000))),
  size: z.optional(Size),
});
export const RecommendRequest = z.strictObject({
  baseCompanies: z.array(CompanyId).check(z.minLength(1), z.maxLength(20)),
  locationsFilter: z.optional(z.array(z.strictObject({ type: z.string(), code: z.string() }))),
});

// --------------------------------------------------------------- responses

export const MatchStatus = z.enum(["matched", "ambiguous", "not_found"]);
export type MatchStatus = z.infer<typeof MatchStatus>;

export const ResolveResult = z.object({
  /**
   * An unknown status reads as not_found (a guess is never taken); a missing
   * one makes the answer unreadable (MALFORMED_RESPONSE, a clear message in
   * the row) instead of every name reading "not found": a service that
   * renamed the field must not look like one that knows no company
   * (issue 31, the drifted emulator).
   */
  status: z.union([
    MatchStatus,
    z.pipe(
      z.string(),
      z.transform((): MatchStatus => "not_found"),
    ),
  ]),
  /** Null unless status is matched: ambiguous names are never guessed. */
  match: opt(CompanySummary),
  /** 0..1 */
  confidence: opt(z.number()),
  candidates: list(CompanySummary),
});
export type ResolveResult = z.infer<typeof ResolveResult>;

export const SearchResponse = z.object({ total: opt(z.number()), companies: list(CompanySummary) });
export const SuggestResponse = z.object({
  prefix: opt(z.string()),
  suggestions: list(z.object({ id: z.string(), name: opt(z.string()), city: opt(z.string()) })),
});
export const BatchResolveResponse = z.object({
  results: list(z.object({ ...ResolveResult.shape, ref: opt(z.string()), index: opt(z.number()) })),
});
export const CompanyListResponse = z.object({ companies: list(CompanySummary) });
export const AvailabilityResponse = z.object({
  id: opt(z.string()),
  profile: opt(z.boolean()),
  people: opt(z.boolean()),
  announcements: opt(z.boolean()),
  financials: opt(z.boolean()),
  financialYears: opt(z.array(z.number())),
  changes: opt(z.boolean()),
  events: opt(z.boolean()),
  jobs: opt(z.boolean()),
  lastChangeDate: opt(z.string()),
});
export type Availability = z.infer<typeof AvailabilityResponse>;
export const ChangesResponse = z.object({
  id: opt(z.string()),
  since: opt(z.string()),
  until: opt(z.string()),
  changes: list(Change),
});
export const PeopleResponse = z.object({ id: opt(z.string()), people: list(Person) });
export const AnnouncementsResponse = z.object({ id: opt(z.string()), announcements: list(Announcement) });
export const FinancialsResponse = z.object({ id: opt(z.string()), years: list(FinancialYear) });
export const PersonCompaniesResponse = z.object({
  person: opt(z.object({ personId: z.string(), name: opt(z.string()) })),
  companies: list(z.object({ ...CompanySummary.shape, role: opt(Label) })),
});
export const AccountResponse = z.object({
  /** Remaining balance (the issue fixes this name: a top-level number). */
  credits: z.number(),
  usage: opt(
    z.object({
      today: opt(z.number()),
      month: opt(z.number()),
      total: opt(z.number()),
      byEndpoint: opt(z.record(z.string(), z.number())),
    }),
  ),
  plan: opt(z.string()),
  /** A team server's own figures (server/account.ts): this user's monthly budget and spend, the team's budget. */
  budget: opt(
    z.object({
      month: opt(z.string()),
      user: opt(z.number()),
      userSpent: opt(z.number()),
      team: opt(z.number()),
    }),
  ),
});
export type AccountResponse = z.infer<typeof AccountResponse>;
// Older listing responses
export const V1CompaniesResponse = z.object({ companies: list(z.looseObject({ id: z.string() })) });
export const V1CompanyResponse = z.looseObject({ id: z.string() });
export const EventsResponse = z.object({ events: list(NewsEvent) });
export const JobsResponse = z.object({ jobs: list(JobAd) });
export const FinancialsExistsResponse = z.object({
  id: opt(z.string()),
  years: opt(z.record(z.string(), z.array(z.number()))),
});
export const FinancialsExistsManyResponse = z.object({ results: list(FinancialsExistsResponse) });
export const V1FinancialsResponse = z.object({
  id: opt(z.string()),
  financials: opt(z.record(z.string(), z.array(z.object({ year: z.number(), value: z.number() })))),
});
export const V1SuggestResponse = SuggestResponse;

/** Error body of every 4xx/5xx (decision; the spec shows none). */
export const ErrorBody = z.object({
  error: z.object({
    code: z.string(), // INVALID_INPUT, UNAUTHORIZED, INSUFFICIENT_CREDITS, NOT_FOUND, RATE_LIMITED, PAYLOAD_TOO_LARGE, SERVER_ERROR, UNAVAILABLE
    message: opt(z.string()),
    field: opt(z.string()),
    retryAfterSeconds: opt(z.number()),
    /** A team server's 402 over a budget (server/errors.ts overBudgetAnswer): which budget, its size, what is left, the price. */
    budget: opt(
      z.object({
        scope: z.enum(["user", "team"]),
        budget: z.number(),
        spent: z.number(),
        remaining: z.number(),
        price: z.number(),
      }),
    ),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
