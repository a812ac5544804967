/**
 * The doctor's calls: only endpoints the one price table
 * (shared/api/endpoints.ts) prices at 0 credits, and only about companies
 * whose real answer is known (SAP SE from the provider's reference data,
 * `DEJK7QV0PK24`). Spec 8.1 prices single resolve, suggest, availability,
 * account and the older listing's lookup at 0; the paid endpoints (search,
 * profile, batch resolve, …) are never called: their shapes are inferred
 * from the free answers, which carry the same company fields.
 */
import * as z from "zod/mini";
import { schemas as S } from "../api/index.ts";
import { endpoint, ENDPOINTS, type EndpointId } from "../api/index.ts";

/** The known company: SAP SE, Walldorf (the reference data's id). */
export const KNOWN = { id: "DEJK7QV0PK24", name: "SAP SE", city: "Walldorf", prefix: "SAP" } as const;
/** An id of the right form that names no company (asked for a free 404). */
export const UNKNOWN_ID = "DE0000000000";

/**
 * The older listing's company as the client reads it: the short form's
 * fields (shared/operations/identifiers.ts reads it with CompanySummary,
 * `industries.wz2008` and `externalIds.hr` mapped), plus the v1 field names
 * known from the older listing (../shared/spec/known-service-facts.md, copied
 * here), which the client does not read but which are not news either.
 */
const V1_FIELDS = [
  "capital",
  "foundingDate",
  "purpose",
  "representation",
  "statutorySeat",
  "historicalNames",
  "phone",
  "email",
  "url",
  "socialMedia",
  "profile",
  "snippets",
  "timestamp",
  "employees",
  "revenue",
  "industries",
  "externalIds",
] as const;
const V1Company = z.object({
  ...S.CompanySummary.shape,
  ...Object.fromEntries(V1_FIELDS.map((k) => [k, z.optional(z.unknown())])),
});
const LookupAsRead = z.object({ companies: S.list(V1Company) });

export interface Probe {
  id: string;
  endpoint: EndpointId;
  path?: Record<string, string>;
  body?: unknown;
  /** The schema the client reads this answer with. */
  schema: z.ZodMiniType;
  /** Optional fields the known company's answer should carry (dotted, `[]` for list elements). */
  expectPresent: readonly string[];
  /** An error probe: the status the request provokes (the answer's body is checked as ErrorBody). */
  provokes?: number;
}

/** Fields the known company has in every source: a summary carrying them (resolve match, lookup hit). */
const SUMMARY_FIELDS = ["name", "legalForm", "street", "zip", "city", "active"] as const;
const under = (prefix: string, names: readonly string[]) => names.map((n) => `${prefix}.${n}`);

/** The plan is optional for the client, but an answer without it shows a renamed field (info only). */
export const ACCOUNT: Probe = {
  id: "account",
  endpoint: "account",
  schema: S.AccountResponse,
  expectPresent: ["plan"],
};

/** Run in this order, between the account before and the account after. */
export const PROBES: readonly Probe[] = [
  {
    id: "suggest",
    endpoint: "suggest",
    path: { prefix: KNOWN.prefix },
    schema: S.SuggestResponse,
    expectPresent: ["suggestions[].name"],
  },
  {
    id: "availability",
    endpoint: "availability",
    path: { id: KNOWN.id },
    schema: S.AvailabilityResponse,
    expectPresent: ["profile", "people", "announcements", "financials", "financialYears", "changes"],
  },
  {
    id: "resolve",
    endpoint: "resolve",
    body: { name: KNOWN.name, city: KNOWN.city },
    schema: S.ResolveResult,
    expectPresent: [
      "match",
      "confidence",
      ...under("match", [...SUMMARY_FIELDS, "state", "status", "register", "industry", "size"]),
    ],
  },
  {
    id: "lookup",
    endpoint: "v1.lookup",
    body: { name: KNOWN.name, city: KNOWN.city },
    schema: LookupAsRead,
    expectPresent: under("companies[]", SUMMARY_FIELDS),
  },
  // Provoked errors, free: an unknown id, a body without its required name, a body with a field the service does not take.
  {
    id: "error.unknownId",
    endpoint: "availability",
    path: { id: UNKNOWN_ID },
    schema: S.ErrorBody,
    expectPresent: ["error.message"],
    provokes: 404,
  },
  {
    id: "error.resolveBody",
    endpoint: "resolve",
    body: {},
    schema: S.ErrorBody,
    expectPresent: ["error.message", "error.field"],
    provokes: 400,
  },
  {
    id: "error.lookupBody",
    endpoint: "v1.lookup",
    body: { unknownField: 1 },
    schema: S.ErrorBody,
    expectPresent: ["error.message", "error.field"],
    provokes: 400,
  },
];

/** The paid endpoints: named in the report as not called. */
export const NOT_CHECKED: readonly string[] = ENDPOINTS.filter((e) => e.billing === "credits").map((e) => e.id);

/** The price table's word on a probe: it must be 0, or the doctor refuses to send it. */
export const priceOf = (p: Probe): number => endpoint(p.endpoint).cost();
