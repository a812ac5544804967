/**
 * The MCP server's tools: the specification's six actions (section 4.3) plus
 * estimate_credits and account, each a thin binding of core operations —
 * resolve, profiles, search, similar, changes, person network, the risk
 * screening — so an agent gets exactly what a spreadsheet user gets: the
 * price before spending, caching, pacing, retries, never a guessed match.
 *
 * A tool's input schema (zod, listed as JSON Schema) states what the server
 * enforces: types, bounds, enums, defaults, which fields are required; its
 * field descriptions are written from the same constants as its checks. The
 * server parses the arguments with it before the tool runs (mcp/arguments.ts)
 * and the core's validators check the values (ids, dates, filter values),
 * each naming the field in German and English, before anything is paid. Each
 * paid tool calls `pay` with its price once the price is known (after the
 * free steps: resolve, availability) and before anything is paid; the server
 * refuses at the next paid request when the budget would be exceeded.
 */
import * as z from "zod";
import { endpoint, INCLUDES, profileCost, type Include } from "../shared/api/index.ts";
import { SEARCH_DEFAULTS } from "../shared/api/index.ts";
import { schemas as S } from "../shared/api/index.ts";
import { CompanyDataError, invalid } from "../shared/core/index.ts";
import type { Operation } from "../shared/core/index.ts";
import { estimate, type PlannedOperation } from "../shared/app/index.ts";
import type { Estimate } from "../shared/credits/index.ts";
import { fillPrices } from "../shared/credits/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { got, rule } from "../shared/i18n/index.ts";
import { GROUP_LABEL, SCREENING_NOTE, type RiskFlag, type RiskGroup } from "../shared/monitor/index.ts";
import { screenIds, type ScreenedCompany } from "../shared/monitor/index.ts";
import { changedSince } from "../shared/monitor/index.ts";
import {
  checked,
  getAccount,
  getAnnouncements,
  getAvailability,
  getChanges,
  getPersonCompanies,
  getProfile,
  getSimilar,
  MAX_SIMILAR_IDS,
  search,
  type Availability,
} from "../shared/operations/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import { doubtText, noteText, type MatchNote } from "../shared/operations/index.ts";
import { resolveMany, resolveOne, type ResolveMode, type ResolvedRow } from "../shared/operations/index.ts";
import { validate as V } from "../shared/api/index.ts";
import { ACCEPTED, filtersOfLists, MAX_AGE_YEARS } from "../shared/operations/index.ts";
import { countText, NOUNS } from "../shared/credits/index.ts";
import { MCP_NOUNS, ambiguousText } from "./i18n.ts";
import { parseArguments } from "./arguments.ts";

/** How a price is meant: exactly this, at most this (less when data is missing or cached), or at least this. */
export type Bound = "exact" | "atMost" | "atLeast";
/**
 * Name the price of what the tool pays for next; before the next paid request
 * goes out the server checks it against the budget and refuses there.
 */
export type Pay = (credits: number, bound: Bound) => Operation<void>;

export interface ToolAnswer {
  /** The structured result (the server adds `spent` and `budget`). */
  data: Record<string, unknown>;
  /** A short summary for the model, in the server's language. */
  text: (lang: Language) => string;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  /** The arguments: a strict object schema (unknown fields are refused). */
  input: z.ZodObject;
  /** Talks to the company data service (false: answers from this server alone). */
  openWorld: boolean;
  /** The price before anything is sent (what estimate_credits answers); validates the arguments. */
  price?: (args: Record<string, unknown>) => { min: Estimate; max: Estimate };
  run: (ctx: OpContext, args: Record<string, unknown>, pay: Pay) => Operation<ToolAnswer>;
}

const PROFILE_INCLUDE_DEFAULT: Include[] = ["people", "financials"];
/** Pages of changes recent_changes fetches at most unless asked otherwise (100 changes a page, 1 credit each). */
export const DEFAULT_CHANGE_PAGES = 3;
export const MAX_CHANGE_PAGES = 20;
/** portfolio_risk's largest list (the provider's own tool takes up to 100 entries per call). */
export const MAX_PORTFOLIO = 100;

/** JSON Schema for "exactly one of these fields" (the tool checks it too, naming both). */
const EXACTLY_ONE = (a: string, b: string) => ({ oneOf: [{ required: [a] }, { required: [b] }] });
const ID_TEXT = "Company id: DE + 10 letters or digits, e.g. DEJK7QV0PK24";
const SIZE_TEXT = `Results wanted, 1–${S.MAX_SIZE}`;
/** A count of results: 1 to the API's page size. */
const resultCount = () => z.int().min(1).max(S.MAX_SIZE);

const same = (e: Estimate) => ({ min: e, max: e });
const label = (c: { id: string; name?: string | null; city?: string | null }) =>
  `${c.name ?? "?"} (${c.id}${c.city ? ", " + c.city : ""})`;
const listText = (cs: { id: string; name?: string | null; city?: string | null }[], max = 10) =>
  cs.length === 0 ? "–" : cs.slice(0, max).map(label).join("; ") + (cs.length > max ? "; …" : "");
const T = (de: string, en: string) => (lang: Language) => (lang === "de" ? de : en);

// ------------------------------------------------------------ company_profile

function profileIncludes(args: Record<string, unknown>): Include[] {
  return args.include === undefined ? PROFILE_INCLUDE_DEFAULT : V.includes(args.include);
}

function profileTarget(args: Record<string, unknown>): { id: string } | { query: S.ResolveQuery } {
  const hasId = args.id !== undefined && args.id !== "";
  const hasName = args.name !== undefined && args.name !== "";
  if (hasId === hasName)
    throw invalid("id", { de: "bitte genau eines angeben: id oder name", en: "please give exactly one of id or name" });
  if (hasId) return { id: V.companyId(args.id) };
  return { query: V.resolveQuery({ name: args.name, city: args.city, zip: args.zip, register: args.register }) };
}

/** An include is paid for only where the free availability check does not rule it out. */
function available(a: Availability | null, inc: Include): boolean {
  if (!a) return true;
  if (inc === "financials") return a.financials === true && (a.financialYears?.length ?? 0) > 0;
  return a[inc] !== false;
}

function* availabilityOf(ctx: OpContext, id: string): Operation<Availability | null> {
  const a = (yield* getAvailability(ctx, [id])).get(id);
  if (a instanceof CompanyDataError) {
    if (a.code === "NOT_FOUND" || a.code === "INVALID_INPUT") throw a;
    return null; // a passing failure of the free check: pay for what was asked, as without it
  }
  return a ?? null;
}

const companyProfile: ToolDef = {
  name: "company_profile",
  title: "Company profile",
  description: fillPrices(
    "Full profile of one German company: master data (name, legal form, address, register, status, industry, size), " +
      "plus people (management) and financials by default. Give `id` (DE + 10 characters) or `name` (+ city, zip, register). " +
      "A name that fits several companies answers status 'ambiguous' with its candidates and costs nothing: pick one and call again with its id; " +
      "it is never guessed. Price: {credits:profile} for the profile, people +{n:people}, announcements +{n:announcements}, financials +{n:financials} (default {credits:card}); " +
      "resolving a name and the availability check are free, and includes the company has no data for are not bought. " +
      "Answers this server fetched in the last 6 hours cost nothing.",
    "en",
  ),
  openWorld: true,
  input: z
    .strictObject({
      id: z.string().optional().describe(`${ID_TEXT}; give either id or name`),
      name: z.string().max(500).optional().describe("Company name, when no id is known; give either id or name"),
      city: z.string().max(200).optional().describe("City, to tell companies of the same name apart (with name)"),
      zip: z.string().max(10).optional().describe("Postcode (with name)"),
      register: z.string().max(200).optional().describe("Register entry, e.g. 'HRB 6684 München' (with name)"),
      include: z
        .array(z.enum(INCLUDES as [Include, ...Include[]]))
        .default(PROFILE_INCLUDE_DEFAULT)
        .describe(
          fillPrices(
            `Extra data: people (+{n:people}), announcements (+{n:announcements}), financials (+{n:financials}); default ${PROFILE_INCLUDE_DEFAULT.join(" and ")}. [] for the master data alone ({credits:profile}).`,
            "en",
          ),
        ),
    })
    .meta(EXACTLY_ONE("id", "name")),
  price(args) {
    const target = profileTarget(args);
    const include = profileIncludes(args);
    const free: PlannedOperation[] = [{ kind: "availability", count: 1 }];
    if ("query" in target) free.unshift({ kind: "resolve", rows: 1, mode: "free" });
    return {
      min: estimate({ kind: "all", parts: [...free, { kind: "profile", count: 1 }] }),
      max: estimate({ kind: "all", parts: [...free, { kind: "profile", count: 1, include }] }),
    };
  },
  *run(ctx, args, pay) {
    const target = profileTarget(args);
    const include = profileIncludes(args);
    let id: string;
    let confidence: number | null = null;
    let note: MatchNote | null = null;
    if ("id" in target) id = target.id;
    else {
      const row = yield* resolveOne(ctx, target.query);
      if (row.status === "error") throw row.error ?? new CompanyDataError("INTERNAL");
      if (row.status === "ambiguous") {
        const candidates = row.candidates;
        // A match refused by the one verdict (shared/operations/contradiction.ts) says why, as every host does.
        const reason = row.doubt ? { de: doubtText(row.doubt, "de"), en: doubtText(row.doubt, "en") } : null;
        return {
          data: {
            status: "ambiguous",
            query: target.query,
            candidates,
            ...(reason ? { reason, confidence: row.confidence } : {}),
          },
          text: (lang) =>
            reason
              ? lang === "de"
                ? `Nicht übernommen (${reason.de}): ${listText(candidates)}. Bitte mit der id der richtigen Firma erneut fragen.`
                : `Not taken (${reason.en}): ${listText(candidates)}. Please ask again with the id of the right company.`
              : ambiguousText(candidates.length, target.query.name, listText(candidates), lang),
        };
      }
      if (row.status === "not_found" || !row.match) {
        return {
          data: { status: "not_found", query: target.query },
          text: T(`Keine Firma zu „${target.query.name}“ gefunden.`, `No company found for "${target.query.name}".`),
        };
      }
      id = row.match.id;
      confidence = row.confidence;
      note = row.note ?? null;
    }
    const a = yield* availabilityOf(ctx, id);
    const bought = include.filter((inc) => available(a, inc));
    const notAvailable = include.filter((inc) => !bought.includes(inc));
    yield* pay(profileCost(bought), "exact");
    const company = yield* getProfile(ctx, id, bought);
    const people = company.people?.length ?? 0;
    const years = company.financials?.map((f) => f.year) ?? [];
    return {
      data: {
        status: "matched",
        confidence,
        ...(note ? { note: { ...note, de: noteText(note, "de"), en: noteText(note, "en") } } : {}),
        company,
        notAvailable,
      },
      text: (lang) => {
        const head = `${label(company)}${note ? ` (${noteText(note, lang)})` : ""}${company.legalForm?.name ? ", " + company.legalForm.name : ""}${company.status?.name ? ", " + company.status.name : ""}`;
        const parts = [head];
        if (bought.includes("people")) parts.push(countText(people, MCP_NOUNS.person, lang));
        if (bought.includes("financials"))
          parts.push(
            lang === "de"
              ? `Finanzjahre: ${years.join(", ") || "keine"}`
              : `financial years: ${years.join(", ") || "none"}`,
          );
        if (notAvailable.length)
          parts.push(
            lang === "de"
              ? `nicht vorhanden (nicht bezahlt): ${notAvailable.join(", ")}`
              : `not available (not paid for): ${notAvailable.join(", ")}`,
          );
        return parts.join("; ");
      },
    };
  },
};

// ------------------------------------------------------------ search_companies

/** The largest offset the service pages to (SearchRequest.from). */
const MAX_FROM = 10_000;

const filterList = (kind: keyof typeof ACCEPTED, example: string) =>
  z
    .array(z.string().max(200))
    .max(50)
    .optional()
    .describe(`A list of ${ACCEPTED[kind].en}. E.g. ${example}; [] filters nothing`);

const FiltersInput = z.strictObject({
  industry: filterList("industry", '["J62"] or ["62.01", "C28"]'),
  state: filterList("state", '["Bayern"], ["Bavaria"], ["BY"] or ["DE-BY", "DE-BE"]'),
  size: z
    .array(z.enum(S.SIZE_CLASSES))
    .optional()
    .describe(`Size classes, a list of ${S.SIZE_CLASSES.join(", ")}; e.g. ["SMALL", "MEDIUM"]`),
  legalForm: filterList("legalForm", '["GmbH"] or ["AG", "SE"]'),
  city: z.string().max(200).optional().describe("City name"),
  active: z.boolean().optional().describe("true: active companies only; false: inactive only"),
  minAgeYears: z.number().min(0).max(MAX_AGE_YEARS).optional().describe("Company age at least this many years"),
  maxAgeYears: z.number().min(0).max(MAX_AGE_YEARS).optional().describe("Company age at most this many years"),
});

const NearInput = z
  .strictObject({
    place: z.string().min(1).max(200).optional().describe("City or postcode the service geocodes; or give lat and lon"),
    lat: z.number().min(-90).max(90).optional().describe("Latitude, with lon"),
    lon: z.number().min(-180).max(180).optional().describe("Longitude, with lat"),
    radiusKm: z
      .number()
      .gt(0)
      .max(500)
      .default(SEARCH_DEFAULTS.radiusKm)
      .describe(`Radius in km, above 0 and at most 500 (default ${SEARCH_DEFAULTS.radiusKm})`),
  })
  .meta({ oneOf: [{ required: ["place"] }, { required: ["lat", "lon"] }] });

function nearArg(n: z.infer<typeof NearInput> | undefined): S.SearchRequest["near"] {
  if (!n) return undefined;
  const hasPoint = n.lat !== undefined || n.lon !== undefined;
  if ((n.place !== undefined) === hasPoint || (hasPoint && (n.lat === undefined || n.lon === undefined)))
    throw invalid("near", rule.exactlyOneOf(["place", "lat + lon"]));
  return n.place !== undefined
    ? { place: n.place, radiusKm: n.radiusKm }
    : { lat: n.lat, lon: n.lon, radiusKm: n.radiusKm };
}

function searchRequest(args: Record<string, unknown>): S.SearchRequest {
  const a = args as {
    query?: string;
    filters?: z.infer<typeof FiltersInput>;
    near?: z.infer<typeof NearInput>;
    size?: number;
    from?: number;
  };
  const req: Record<string, unknown> = { query: a.query ?? "" };
  const filters = a.filters ? filtersOfLists(a.filters) : undefined;
  if (filters) req.filters = filters;
  const near = nearArg(a.near);
  if (near) req.near = near;
  if (a.size !== undefined) req.size = a.size;
  if (a.from !== undefined) req.from = a.from;
  const body = checked(S.SearchRequest, req, "search");
  if (body.query.trim() === "" && !body.filters && !body.near)
    throw invalid("query", {
      de: "bitte einen Suchtext, einen Filter oder einen Ort angeben",
      en: "please give a search text, a filter or a place",
    });
  return body;
}

const searchCompanies: ToolDef = {
  name: "search_companies",
  title: "Search companies",
  description: fillPrices(
    "Search German companies by name or free text (`query`), by filters (`filters`: " +
      Object.keys(FiltersInput.shape).join(", ") +
      "; each list filter takes a list, " +
      'e.g. {"state": ["Bayern"], "industry": ["J62"]}), and near a place or point within a radius in km (`near`, default ' +
      String(SEARCH_DEFAULTS.radiusKm) +
      " km). " +
      "Give at least one of query, filters, near. A filter value the server does not know is refused before anything is paid, with the values it accepts. " +
      `Price: {credits:search} per call (a repeated identical search within 6 hours is free). \`size\` 1–${S.MAX_SIZE} results (default ${SEARCH_DEFAULTS.size}), \`from\` for the next page.`,
    "en",
  ),
  openWorld: true,
  input: z
    .strictObject({
      query: z.string().max(500).optional().describe("Name or free text; may be empty when filters or near are given"),
      filters: FiltersInput.optional().describe(
        "Filters, all optional; several values of one filter mean any of them, several filters all of them",
      ),
      near: NearInput.optional().describe(
        `A place (city or postcode) or a point (lat, lon), and radiusKm (default ${SEARCH_DEFAULTS.radiusKm})`,
      ),
      size: resultCount().default(SEARCH_DEFAULTS.size).describe(`${SIZE_TEXT} (default ${SEARCH_DEFAULTS.size})`),
      from: z.int().min(0).max(MAX_FROM).optional().describe(`Offset of the first result, for paging (0–${MAX_FROM})`),
    })
    .meta({ anyOf: [{ required: ["query"] }, { required: ["filters"] }, { required: ["near"] }] }),
  price(args) {
    searchRequest(args);
    return same(estimate({ kind: "search" }));
  },
  *run(ctx, args, pay) {
    const body = searchRequest(args);
    yield* pay(endpoint("search").cost(), "exact");
    const res = yield* search(ctx, body);
    const total = res.total ?? res.companies.length;
    return {
      data: { total, companies: res.companies },
      text: (lang) => `${countText(total, MCP_NOUNS.hit, lang)}: ${listText(res.companies)}`,
    };
  },
};

// ------------------------------------------------------------ similar_companies

function similarIds(args: Record<string, unknown>): string[] {
  const list = V.batch<unknown>(args.ids, "ids", MAX_SIMILAR_IDS, 1).map((id, i) => V.companyId(id, `ids[${i}]`));
  V.size(args.size);
  return list;
}

const similarCompanies: ToolDef = {
  name: "similar_companies",
  title: "Similar companies",
  description: fillPrices(
    `Peers or competitors: companies similar to one or more given companies (ids, 1–${MAX_SIMILAR_IDS}; e.g. example customers), by embedding- and graph-based similarity, ` +
      `with a score 0–1. Price: {credits:similar} per call, whatever the number of ids. \`size\` 1–${S.MAX_SIZE} results.`,
    "en",
  ),
  openWorld: true,
  input: z.strictObject({
    ids: z
      .array(z.string())
      .min(1)
      .max(MAX_SIMILAR_IDS)
      .describe(`Company ids (DE + 10 letters or digits), 1–${MAX_SIMILAR_IDS}`),
    size: resultCount().optional().describe(SIZE_TEXT),
  }),
  price(args) {
    similarIds(args);
    return same(estimate({ kind: "call", endpoint: "similar" }));
  },
  *run(ctx, args, pay) {
    const ids = similarIds(args);
    yield* pay(endpoint("similar").cost(), "exact");
    const res = yield* getSimilar(ctx, ids, args.size as number | undefined);
    return {
      data: { ids, companies: res.companies },
      text: (lang) => `${countText(res.companies.length, MCP_NOUNS.similarCompany, lang)}: ${listText(res.companies)}`,
    };
  },
};

// ------------------------------------------------------------ recent_changes

/** The arguments of recent_changes; a start after `now` is refused (nothing can have changed since then). */
function changesArgs(args: Record<string, unknown>, now: number) {
  const id = V.companyId(args.id);
  const since = V.isoDate(args.since, "since");
  if (Date.parse(since) > now) {
    const today = new Date(now).toISOString().slice(0, 10);
    throw invalid(
      "since",
      got(
        {
          de: `darf nicht in der Zukunft liegen (heute ist ${today})`,
          en: `must not be in the future (today is ${today})`,
        },
        args.since,
      ),
    );
  }
  const maxPages =
    args.maxPages === undefined ? DEFAULT_CHANGE_PAGES : V.integer(args.maxPages, "maxPages", 1, MAX_CHANGE_PAGES);
  const announcements = args.announcements === undefined ? true : args.announcements;
  if (typeof announcements !== "boolean") throw invalid("announcements", got(rule.type("boolean"), announcements));
  return { id, since, maxPages, announcements };
}

const recentChanges: ToolDef = {
  name: "recent_changes",
  title: "Recent changes",
  description: fillPrices(
    "Changes to a company (name, address, management, capital, status, legal form, purpose) and its official announcements since a date (YYYY-MM-DD, not in the future). " +
      "A free availability check comes first: when nothing changed or was announced since the date, nothing is bought and the call costs nothing; " +
      "neither is a kind the company has no entries of. " +
      `Price: changes {credits:changes} per page of 100 (at most \`maxPages\`, default ${DEFAULT_CHANGE_PAGES}), announcements {credits:announcementsCall}; at most maxPages + 1.`,
    "en",
  ),
  openWorld: true,
  input: z.strictObject({
    id: z.string().describe(ID_TEXT),
    since: z.string().describe("Date (YYYY-MM-DD) or ISO 8601 date-time with zone; not in the future"),
    announcements: z
      .boolean()
      .default(true)
      .describe(
        fillPrices("Also the official announcements since the date (default true, {credits:announcementsCall})", "en"),
      ),
    maxPages: z
      .int()
      .min(1)
      .max(MAX_CHANGE_PAGES)
      .default(DEFAULT_CHANGE_PAGES)
      .describe(
        `Pages of 100 changes at most (1–${MAX_CHANGE_PAGES}, default ${DEFAULT_CHANGE_PAGES}); \`complete: false\` says when older changes were left out`,
      ),
  }),
  price(args) {
    const a = changesArgs(args, Date.now());
    const free: PlannedOperation = { kind: "availability", count: 1 };
    const ann: PlannedOperation[] = a.announcements ? [{ kind: "call", endpoint: "announcements" }] : [];
    return {
      min: estimate({ kind: "all", parts: [free] }),
      max: estimate({ kind: "all", parts: [free, { kind: "call", endpoint: "changes", count: a.maxPages }, ...ann] }),
    };
  },
  *run(ctx, args, pay) {
    const a = changesArgs(args, ctx.client.now());
    const avail = yield* availabilityOf(ctx, a.id);
    // The free check's newest change or announcement (emulator/README.md: lastChangeDate covers both) says
    // whether anything happened since the date; without a date it can still say a kind has no entries at all.
    const nothingSince = avail?.lastChangeDate ? !changedSince(avail.lastChangeDate, a.since) : false;
    const wantChanges =
      !avail || (!nothingSince && avail.changes !== false && changedSince(avail.lastChangeDate, a.since));
    const wantAnn = a.announcements && (!avail || (!nothingSince && avail.announcements !== false));
    const price =
      (wantChanges ? a.maxPages * endpoint("changes").cost() : 0) + (wantAnn ? endpoint("announcements").cost() : 0);
    yield* pay(price, wantChanges && a.maxPages > 1 ? "atMost" : "exact");
    const changes = wantChanges ? yield* getChanges(ctx, a.id, a.since, undefined, { maxPages: a.maxPages }) : null;
    const ann = wantAnn ? yield* getAnnouncements(ctx, a.id, a.since, S.MAX_SIZE) : null;
    const list = changes?.changes ?? [];
    const anns = ann?.announcements ?? [];
    const complete = changes ? changes.complete : true;
    return {
      data: {
        id: a.id,
        since: a.since,
        until: changes?.until ?? null,
        changes: list,
        announcements: anns,
        complete,
        lastChangeDate: avail?.lastChangeDate ?? null,
      },
      text: (lang) => {
        const counts = `${countText(list.length, MCP_NOUNS.change, lang)} ${lang === "de" ? "und" : "and"} ${countText(anns.length, MCP_NOUNS.announcement, lang)}`;
        return lang === "de"
          ? `${a.id}: ${counts} seit ${a.since}${complete ? "" : " (unvollständig: mehr Seiten mit maxPages)"}${nothingSince ? " (laut der kostenlosen Prüfung nichts Neues seit dem Datum; nichts gekauft)" : ""}.`
          : `${a.id}: ${counts} since ${a.since}${complete ? "" : " (incomplete: more pages with maxPages)"}${nothingSince ? " (the free check shows nothing new since the date; nothing bought)" : ""}.`;
      },
    };
  },
};

// ------------------------------------------------------------ person_network

const personNetwork: ToolDef = {
  name: "person_network",
  title: "Person network",
  description: fillPrices(
    "Every company a person is involved in (manager, shareholder, …), with the role. The person id (P + 10 characters) comes from the people of company_profile. " +
      "Price: {credits:personCompanies} per call.",
    "en",
  ),
  openWorld: true,
  input: z.strictObject({ personId: z.string().describe("Person id: P + 10 letters or digits, e.g. P1234567890") }),
  price(args) {
    V.personId(args.personId);
    return same(estimate({ kind: "call", endpoint: "personCompanies" }));
  },
  *run(ctx, args, pay) {
    const personId = V.personId(args.personId);
    yield* pay(endpoint("personCompanies").cost(), "exact");
    const res = yield* getPersonCompanies(ctx, personId);
    const who = res.person?.name ?? personId;
    return {
      data: { person: res.person ?? { personId }, companies: res.companies },
      text: (lang) =>
        `${who}: ${countText(res.companies.length, NOUNS.company, lang)}: ${res.companies
          .slice(0, 10)
          .map((c) => `${label(c)}${c.role?.name ? " – " + c.role.name : ""}`)
          .join("; ")}`,
    };
  },
};

// ------------------------------------------------------------ portfolio_risk

type Entry = { kind: "id"; id: string } | { kind: "name"; query: S.ResolveQuery };

function portfolioEntries(args: Record<string, unknown>): { entries: Entry[]; mode: ResolveMode } {
  const list = V.batch<unknown>(args.companies, "companies", MAX_PORTFOLIO, 1);
  const mode = args.resolve === undefined ? "batch" : args.resolve;
  if (mode !== "batch" && mode !== "free") throw invalid("resolve", got(rule.oneOf(["batch", "free"]), mode));
  const entries = list.map((v, i): Entry => {
    const field = `companies[${i}]`;
    if (typeof v === "string") {
      const t = v.trim().toUpperCase();
      if (S.COMPANY_ID_PATTERN.test(t)) return { kind: "id", id: t };
      return { kind: "name", query: V.resolveQuery({ name: v }, field) };
    }
    if (typeof v === "object" && v !== null && "id" in v && v.id !== undefined)
      return { kind: "id", id: V.companyId(v.id, `${field}.id`) };
    return { kind: "name", query: V.resolveQuery(v, field) };
  });
  return { entries, mode };
}

type RiskCounts = Record<RiskGroup | "ambiguous" | "notFound" | "error", number>;

/**
 * Resolve the entries given by name (one row per entry, null for those given
 * by id). The price is named first: at least the resolution and one credit
 * per company given by id, so a hopeless call is refused before anything is paid.
 */
function* resolveNamedEntries(
  ctx: OpContext,
  entries: Entry[],
  mode: ResolveMode,
  pay: Pay,
): Operation<(ResolvedRow | null)[]> {
  const named = entries.map((e, i) => ({ e, i })).filter((x) => x.e.kind === "name");
  const rows: (ResolvedRow | null)[] = entries.map(() => null);
  if (!named.length) return rows;
  const resolvePrice = estimate({ kind: "resolve", rows: named.length, mode }).credits;
  yield* pay(
    resolvePrice + (entries.length - named.length) * profileCost([]),
    resolvePrice > 0 || named.length < entries.length ? "atLeast" : "exact",
  );
  const resolved = yield* resolveMany(
    ctx,
    named.map((x) => (x.e as { query: S.ResolveQuery }).query),
    { mode },
  );
  named.forEach((x, k) => {
    rows[x.i] = resolved[k] ?? null;
  }); // one answer per query, in order
  return rows;
}

/** The company id an entry stands for: its own, or its name's unambiguous match; null otherwise. */
function entryId(e: Entry, row: ResolvedRow | null | undefined): string | null {
  if (e.kind === "id") return e.id;
  return row?.status === "matched" && row.match ? row.match.id : null;
}

/** The answer for an entry without a company id: ambiguous (with candidates), an error, or not found. */
function unmatchedResult(input: string | S.ResolveQuery, r: ResolvedRow | null | undefined, groups: RiskCounts) {
  if (r?.status === "ambiguous") {
    groups.ambiguous++;
    // Why the service's match was refused (shared/operations/contradiction.ts); null when several fit.
    const reason = r.doubt ? { de: doubtText(r.doubt, "de"), en: doubtText(r.doubt, "en") } : null;
    return {
      input,
      status: "ambiguous",
      candidates: r.candidates,
      reason,
      confidence: reason ? r.confidence : null,
    };
  }
  if (r?.status === "error" && r.error) {
    groups.error++;
    return {
      input,
      status: "error",
      error: { code: r.error.code, de: r.error.text("de"), en: r.error.text("en") },
    };
  }
  groups.notFound++;
  return { input, status: "not_found" };
}

/** One entry's answer, counted in `groups`: its screening, or why there is none. */
function portfolioResult(
  e: Entry,
  r: ResolvedRow | null | undefined,
  screened: Map<string, ScreenedCompany | CompanyDataError>,
  groups: RiskCounts,
) {
  const input = e.kind === "id" ? e.id : e.query;
  const id = entryId(e, r);
  if (!id) return unmatchedResult(input, r, groups);
  const s = screened.get(id);
  if (!s || s instanceof CompanyDataError) {
    const err = s instanceof CompanyDataError ? s : new CompanyDataError("INTERNAL");
    if (err.code === "NOT_FOUND") {
      groups.notFound++;
      return { input, status: "not_found", id };
    }
    groups.error++;
    return { input, status: "error", id, error: { code: err.code, de: err.text("de"), en: err.text("en") } };
  }
  groups[s.risk.group]++;
  return {
    input,
    status: "matched",
    id,
    name: s.profile.name ?? null,
    city: s.profile.city ?? null,
    confidence: r?.confidence ?? null,
    note: r?.note ? { de: noteText(r.note, "de"), en: noteText(r.note, "en") } : null,
    group: s.risk.group,
    reason: s.risk.flag,
    flags: s.risk.flags,
    keyFigure: s.risk.keyFigure,
  };
}

/** The summary for the model: counts per group, then one line per flagged company. */
function portfolioText(
  groups: RiskCounts,
  results: readonly { status: string; id?: string; name?: string | null; group?: RiskGroup; flags?: RiskFlag[] }[],
  lang: Language,
): string {
  const head = (["risk", "watch", "none"] as const).map((g) => `${GROUP_LABEL[g][lang]}: ${groups[g]}`).join(", ");
  const other =
    lang === "de"
      ? `; mehrdeutig: ${groups.ambiguous}, nicht gefunden: ${groups.notFound}, Fehler: ${groups.error}`
      : `; ambiguous: ${groups.ambiguous}, not found: ${groups.notFound}, errors: ${groups.error}`;
  const flagged = results
    .filter((x) => x.status === "matched" && x.group !== "none")
    .map(
      (x) =>
        `${x.name ?? x.id} (${x.id}): ${GROUP_LABEL[x.group as RiskGroup][lang]} – ${(x.flags ?? []).map((f: RiskFlag) => f.text[lang]).join(", ")}`,
    );
  return `${head}${other}. ${SCREENING_NOTE[lang]}.` + (flagged.length ? "\n" + flagged.join("\n") : "");
}

const portfolioRisk: ToolDef = {
  name: "portfolio_risk",
  title: "Portfolio risk",
  description: fillPrices(
    "Risk screening of up to 100 companies (ids, names, or {name, city, zip, register}): each entry gets group risk (insolvent, being deleted, " +
      "in liquidation, not active, a register warning), watch (latest net income negative, or no financials) or none, with every reason, as the " +
      "portfolio monitor groups them. " +
      SCREENING_NOTE.en +
      ". Names are resolved first; a name that fits several companies answers its candidates " +
      "and is not screened (never guessed). Price: resolving names in batches ceil(names/{n:batchGroup}) credits (resolve: 'free' is free but rate-limited and slow), " +
      "a free availability check, then {credits:profile} per company, {n:profileWithFinancials} with financials (only where financials exist). The exact price is checked against the budget before paying.",
    "en",
  ),
  openWorld: true,
  input: z.strictObject({
    companies: z
      .array(
        z.union([
          z.string(),
          z.strictObject({
            id: z.string().optional(),
            name: z.string().optional(),
            city: z.string().optional(),
            zip: z.string().optional(),
            register: z.string().optional(),
          }),
        ]),
      )
      .min(1)
      .max(MAX_PORTFOLIO)
      .describe(
        `1–${MAX_PORTFOLIO} entries: a company id (DE + 10 letters or digits), a name, or {id} or {name, city, zip, register}`,
      ),
    resolve: z
      .enum(["batch", "free"])
      .default("batch")
      .describe(
        fillPrices(
          "How names are resolved: batch ({credits:batchResolve} per {n:batchGroup} names, fast; default) or free (rate-limited, slow)",
          "en",
        ),
      ),
  }),
  price(args) {
    const { entries, mode } = portfolioEntries(args);
    const names = entries.filter((e) => e.kind === "name").length;
    const resolve: PlannedOperation = { kind: "resolve", rows: names, mode };
    const avail: PlannedOperation = { kind: "availability", count: entries.length };
    return {
      min: estimate({ kind: "all", parts: [resolve, avail, { kind: "profile", count: entries.length - names }] }),
      max: estimate({
        kind: "all",
        parts: [resolve, avail, { kind: "profile", count: entries.length, include: ["financials"] }],
      }),
    };
  },
  *run(ctx, args, pay) {
    const { entries, mode } = portfolioEntries(args);
    const rows = yield* resolveNamedEntries(ctx, entries, mode, pay);
    const ids = entries.map((e, i) => entryId(e, rows[i])).filter((x): x is string => x !== null);
    const screened: Map<string, ScreenedCompany | CompanyDataError> = ids.length
      ? yield* screenIds(ctx, ids, (plan) => pay(plan.credits, "exact"))
      : new Map<string, ScreenedCompany | CompanyDataError>();
    const groups: RiskCounts = { risk: 0, watch: 0, none: 0, ambiguous: 0, notFound: 0, error: 0 };
    const results = entries.map((e, i) => portfolioResult(e, rows[i], screened, groups));
    return {
      data: { note: SCREENING_NOTE, groups, results },
      text: (lang) => portfolioText(groups, results, lang),
    };
  },
};

// ------------------------------------------------------------ account

const account: ToolDef = {
  name: "account",
  title: "Account",
  description:
    "The account's credit balance, plan and usage, and this server's budget (limit, spent, remaining). Free.",
  openWorld: true,
  input: z.strictObject({}),
  *run(ctx) {
    const a = yield* getAccount(ctx);
    return {
      data: { credits: a.credits, plan: a.plan ?? null, usage: a.usage ?? null },
      // Through a team server `credits` is what its budgets let this user spend (server/account.ts), not a balance.
      text: (lang) =>
        `${ctx.client.credential === "serverToken" ? (lang === "de" ? "Über den Team-Server noch verfügbar" : "Left to spend through the team server") : lang === "de" ? "Guthaben" : "Balance"}: ${countText(a.credits, NOUNS.credit, lang)}${a.plan ? (lang === "de" ? `, Tarif ${a.plan}` : `, plan ${a.plan}`) : ""}.`,
    };
  },
};

export const ACTION_TOOLS: readonly ToolDef[] = [
  companyProfile,
  searchCompanies,
  similarCompanies,
  recentChanges,
  personNetwork,
  portfolioRisk,
];

// ------------------------------------------------------------ estimate_credits

const estimateCredits: ToolDef = {
  name: "estimate_credits",
  title: "Estimate credits",
  description:
    "The price of a call before making it, from the same price table the tools pay by: credits (min and max) and requests, with a breakdown. " +
    "Sends nothing and costs nothing. `tool` is one of " +
    ACTION_TOOLS.map((t) => t.name).join(", ") +
    "; `arguments` as that tool takes them.",
  openWorld: false,
  input: z.strictObject({
    tool: z.enum(ACTION_TOOLS.map((t) => t.name) as [string, ...string[]]).describe("The tool to price"),
    arguments: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("The arguments the call would have, checked as that tool checks them"),
  }),
  *run(ctx, args) {
    const tool = ACTION_TOOLS.find((t) => t.name === args.tool);
    if (!tool?.price) throw invalid("tool", got(rule.oneOf(ACTION_TOOLS.map((t) => t.name)), args.tool));
    const { min, max } = tool.price(parseArguments(tool.input, args.arguments, "arguments."));
    const lines = (e: Estimate) => e.breakdown.filter((l) => l.credits > 0 || l.requests > 0);
    return {
      data: {
        tool: tool.name,
        credits: { min: min.credits, max: max.credits },
        requests: { min: min.requests, max: max.requests },
        breakdown: lines(max).map((l) => ({ label: l.label, credits: l.credits, requests: l.requests })),
      },
      text: (lang) => {
        const range =
          min.credits === max.credits
            ? countText(max.credits, NOUNS.credit, lang)
            : `${min.credits}–${countText(max.credits, NOUNS.credit, lang)}`;
        const detail = lines(max)
          .map((l) => `${l.label[lang]}: ${l.credits}`)
          .join("; ");
        return `${tool.name}: ${range} (${detail})`;
      },
    };
  },
};

/** Every tool the server lists, in that order. */
export const TOOLS: readonly ToolDef[] = [...ACTION_TOOLS, estimateCredits, account];

/** Tools that never spend a credit (they run without a budget check and need no key for estimate_credits). */
export const FREE_TOOLS: ReadonlySet<string> = new Set([estimateCredits.name, account.name]);
