/** The search_companies and similar_companies tools: a search with its filters and place, and the companies like given ones. */
import * as z from "zod";
import { endpoint } from "../shared/api/index.ts";
import { SEARCH_DEFAULTS } from "../shared/api/index.ts";
import { schemas as S } from "../shared/api/index.ts";
import { invalid } from "../shared/core/index.ts";
import { estimate } from "../shared/app/index.ts";
import { fillPrices } from "../shared/credits/index.ts";
import { rule } from "../shared/i18n/index.ts";
import { checked, getSimilar, MAX_SIMILAR_IDS, search } from "../shared/operations/index.ts";
import { validate as V } from "../shared/api/index.ts";
import { ACCEPTED, filtersOfLists, MAX_AGE_YEARS } from "../shared/operations/index.ts";
import { countText } from "../shared/credits/index.ts";
import { MCP_NOUNS } from "./i18n.ts";
import { type ToolDef, SIZE_TEXT, resultCount, same, listText } from "./tool-kit.ts";

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

export const searchCompanies: ToolDef = {
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

export const similarCompanies: ToolDef = {
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
