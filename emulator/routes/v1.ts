/**
 * Handlers of the older unversioned listing (spec 4.2), in the v1 field names
 * known from the provider's older API (known-service-facts.md).
 */
import { schemas as S } from "../../shared/api/index.ts";
import { MAX_SIZE } from "../../shared/api/index.ts";
import { resolve } from "../search/resolve.ts";
import { similarTo } from "../search/similar.ts";
import { CITIES } from "../data/places.ts";
import type { CompanyRec } from "../data/model.ts";
import { companyByLei } from "../data/lei.ts";
import { normaliseLei } from "../../shared/api/index.ts";
import type { FinYear } from "../data/details.ts";
import type { World } from "../world.ts";
import { boolParam, intParam, parseBody, sinceParam } from "../validate.ts";
import { company, param, type Ctx, type Handler } from "./context.ts";
import { runSearch, v2 } from "./v2.ts";
import { nth } from "../indexed.ts";

/** The many-company POST forms bill per distinct company (decision). */
function many(ctx: Ctx, each: (c: CompanyRec) => Record<string, unknown>) {
  const req = parseBody(S.IdsRequest, ctx.body);
  const ids = [...new Set(req.ids)];
  const list = ids.map((id) => company(ctx, id, `ids[${req.ids.indexOf(id)}]`));
  return { body: { companies: list.map((c) => ({ id: c.id, ...each(c) })) }, cost: { count: ids.length } };
}

const V1_FIN_KEYS: [string, keyof FinYear][] = [
  ["revenue", "revenue"],
  ["netIncome", "profit"],
  ["equity", "equity"],
  ["balanceSheetTotal", "balanceSheetTotal"],
  ["numberOfEmployees", "employees"],
];
function v1Financials(w: World, c: CompanyRec): Record<string, { year: number; value: number }[]> {
  const years = w.financials(c);
  const out: Record<string, { year: number; value: number }[]> = {};
  for (const [k, f] of V1_FIN_KEYS) {
    const vals = years.filter((y) => typeof y[f] === "number").map((y) => ({ year: y.year, value: y[f] as number }));
    if (vals.length) out[k] = vals;
  }
  return out;
}
function v1Exists(w: World, c: CompanyRec) {
  const fin = v1Financials(w, c);
  return { id: c.id, years: Object.fromEntries(Object.entries(fin).map(([k, v]) => [k, v.map((x) => x.year)])) };
}

function events(ctx: Ctx, c: CompanyRec) {
  const type = ctx.query.get("type")?.toUpperCase();
  const category = ctx.query.get("category")?.toUpperCase();
  const sinceMs = ctx.query.has("since") ? sinceParam(ctx.query, 0) : -Infinity;
  const size = intParam(ctx.query, "size", MAX_SIZE);
  return ctx.world
    .news(c)
    .filter(
      (e) => (!type || e.type === type) && (!category || e.category === category) && Date.parse(e.timestamp) > sinceMs,
    )
    .slice(0, size);
}

export const v1: Record<string, Handler> = {
  "v1.data": (ctx) => ({ body: ctx.world.v1Company(company(ctx, param(ctx, "id")), ctx.lang) }),
  "v1.dataMany": (ctx) => many(ctx, (c) => ctx.world.v1Company(c, ctx.lang)),
  "v1.people": (ctx) => v2.people(ctx),
  "v1.peopleMany": (ctx) => many(ctx, (c) => ({ people: ctx.world.peopleView(c, ctx.lang) })),
  "v1.events": (ctx) => {
    const c = company(ctx, param(ctx, "id"));
    return { body: { events: events(ctx, c) } };
  },
  "v1.eventsMany": (ctx) => many(ctx, (c) => ({ events: ctx.world.news(c) })),
  "v1.jobs": (ctx) => {
    const sinceMs = ctx.query.has("since") ? sinceParam(ctx.query, 0) : -Infinity;
    const size = intParam(ctx.query, "size", MAX_SIZE);
    const c = company(ctx, param(ctx, "id"));
    return {
      body: {
        jobs: ctx.world
          .jobs(c)
          .filter((j) => Date.parse(j.timestamp) > sinceMs)
          .slice(0, size),
      },
    };
  },
  "v1.jobsMany": (ctx) => many(ctx, (c) => ({ jobs: ctx.world.jobs(c) })),
  "v1.financials": (ctx) => {
    const c = company(ctx, param(ctx, "id"));
    return { body: { id: c.id, financials: v1Financials(ctx.world, c) } };
  },
  "v1.financialsMany": (ctx) => many(ctx, (c) => ({ financials: v1Financials(ctx.world, c) })),
  "v1.financialsExists": (ctx) => ({ body: v1Exists(ctx.world, company(ctx, param(ctx, "id"))) }),
  "v1.financialsExistsMany": (ctx) => {
    const req = parseBody(S.IdsRequest, ctx.body);
    return { body: { results: req.ids.map((id, k) => v1Exists(ctx.world, company(ctx, id, `ids[${k}]`))) } };
  },
  "v1.lookup": (ctx) => {
    const req = parseBody(S.LookupRequest, ctx.body);
    const w = ctx.world;
    let hits: CompanyRec[] = [];
    if (req.lei !== undefined) {
      // An LEI is unique: one company or none (a malformed one is simply not found).
      const idx = companyByLei(w.companies, w.seed, normaliseLei(req.lei));
      const found = idx === undefined ? undefined : w.companies[idx];
      hits = found ? [found] : [];
    } else if (req.vatId || req.url) {
      // Contact data is derived, so lookup by VAT id or domain scans; fine for an emulator.
      const want = (req.url ?? "")
        .replace(/^https?:\/\//, "")
        .replace(/^www\./, "")
        .replace(/\/.*$/, "")
        .toLowerCase();
      hits = w.companies
        .filter((c) => {
          const p = w.profile(c, ctx.lang);
          return (
            (req.vatId && p.vatId === req.vatId.replace(/\s+/g, "")) || (want && p.url.toLowerCase().includes(want))
          );
        })
        .slice(0, 10);
    } else if (req.name || req.register) {
      const r = resolve(w, { name: req.name, city: req.city, zip: req.zip, register: req.register });
      hits = (r.match !== null ? [r.match] : r.candidates.map((x) => x.idx)).map((i) => nth(w.companies, i));
    }
    return { body: { companies: hits.map((c) => w.v1Company(c, ctx.lang)) } };
  },
  "v1.search": (ctx) => {
    const req = parseBody(S.V1SearchRequest, ctx.body);
    const res = runSearch(ctx, { query: req.query, size: req.size, from: req.from });
    return {
      body: {
        total: res.total,
        companies: res.companies.map((c) => ({
          id: c.id,
          name: c.name,
          street: c.street,
          zip: c.zip,
          city: c.city,
          active: c.active,
          url: null,
          profile: null,
          score: c.score,
          explanation: [],
          snippets: [c.industry?.title ?? ""],
        })),
      },
    };
  },
  "v1.suggest": (ctx) => v2.suggest(ctx),
  "v1.recommend": (ctx) => {
    const req = parseBody(S.RecommendRequest, ctx.body);
    const size = intParam(ctx.query, "size", 10);
    const explain = boolParam(ctx.query, "explain", false);
    const seeds = req.baseCompanies.map((id, k) => company(ctx, id, `baseCompanies[${k}]`));
    const states = req.locationsFilter
      ?.filter((l) => l.type.toLowerCase() === "state")
      .map((l) => l.code.toUpperCase());
    const w = ctx.world;
    const accept = (c: CompanyRec) =>
      !states?.length || states.includes((c.reference?.federalState ?? nth(CITIES, c.city).state).toUpperCase());
    const hits = similarTo(w, seeds, size, accept);
    return {
      body: {
        companies: hits.map((h) => {
          const c = nth(w.companies, h.idx);
          const s = w.summary(c, ctx.lang);
          return {
            id: c.id,
            name: c.name,
            street: s.street,
            zip: s.zip,
            city: s.city,
            active: s.active,
            score: h.score,
            ...(explain ? { explanation: [s.industry.title, s.size.name, s.city] } : {}),
          };
        }),
      },
    };
  },
};
