/** Handlers of the version 2 endpoints (spec 4.1). */
import { schemas as S } from "../../shared/api/index.ts";
import { MAX_SIZE } from "../../shared/api/index.ts";
import { search, suggest, makeFilter } from "../search/search.ts";
import { resolve, type Resolution } from "../search/resolve.ts";
import { similarTo } from "../search/similar.ts";
import { ROLES, personName } from "../data/people.ts";
import { ROLE_LABELS, label } from "../i18n.ts";
import { ApiError, invalid, notFound } from "../respond.ts";
import { checkPersonId, includeParam, intParam, numParam, parseBody, sinceParam } from "../validate.ts";
import { company, param, type Ctx, type Handler } from "./context.ts";
import { nth } from "../indexed.ts";

/** Default look-back of changes without `since` (decision). */
export const DEFAULT_CHANGES_DAYS = 30;
/** Largest `from` offset of changes paging (like search's). */
export const MAX_CHANGES_FROM = 10_000;
export const DEFAULT_NEARBY_RADIUS_KM = 10;

export function resolutionView(ctx: Ctx, r: Resolution) {
  const w = ctx.world;
  return {
    status: r.status,
    match: r.match === null ? null : w.summary(nth(w.companies, r.match), ctx.lang),
    confidence: r.confidence,
    candidates: r.candidates.map((c) => w.summary(nth(w.companies, c.idx), ctx.lang, { score: c.score })),
  };
}

export function runSearch(ctx: Ctx, req: S.SearchRequest) {
  const w = ctx.world;
  let center: { lat: number; lon: number } | undefined;
  if (req.near) {
    if (req.near.place !== undefined) {
      const g = w.index.geocode(req.near.place);
      if (!g) throw notFound(req.near.place, "near.place");
      center = g;
    } else if (req.near.lat !== undefined && req.near.lon !== undefined) {
      center = { lat: req.near.lat, lon: req.near.lon };
    } else {
      throw invalid(req.near.lat === undefined ? "near.lat" : "near.lon");
    }
  }
  const r = search(w, req, center);
  const from = req.from ?? 0;
  return {
    total: r.total,
    companies: r.hits
      .slice(from)
      .map((h) => w.summary(nth(w.companies, h.idx), ctx.lang, { score: h.score, distanceKm: h.distanceKm })),
  };
}

export const v2 = {
  search(ctx) {
    const req = parseBody(S.SearchRequest, ctx.body);
    return { body: runSearch(ctx, req) };
  },

  resolve(ctx) {
    const req = parseBody(S.ResolveRequest, ctx.body);
    return { body: resolutionView(ctx, resolve(ctx.world, req)) };
  },

  batchResolve(ctx) {
    const req = parseBody(S.BatchResolveRequest, ctx.body);
    const results = req.companies.map((q, index) => ({
      index,
      ...(q.ref !== undefined ? { ref: q.ref } : {}),
      ...resolutionView(ctx, resolve(ctx.world, q)),
    }));
    return { body: { results }, cost: { count: req.companies.length } };
  },

  suggest(ctx) {
    const size = intParam(ctx.query, "size", 10);
    const prefix = param(ctx, "prefix");
    if (!prefix.trim() || prefix.length > 100) throw invalid("prefix");
    const w = ctx.world;
    const ids = suggest(w, prefix, size);
    return {
      body: {
        prefix,
        suggestions: ids.map((i) => ({
          id: nth(w.companies, i).id,
          name: nth(w.companies, i).name,
          city: w.summary(nth(w.companies, i), ctx.lang).city,
        })),
      },
    };
  },

  profile(ctx) {
    const include = includeParam(ctx.query);
    const c = company(ctx, param(ctx, "id"));
    return { body: ctx.world.profile(c, ctx.lang, include), cost: { include } };
  },

  availability(ctx) {
    const c = company(ctx, param(ctx, "id"));
    return { body: ctx.world.availability(c) };
  },

  changes(ctx) {
    const w = ctx.world;
    const today = w.today();
    const sinceMs = sinceParam(ctx.query, Date.parse(today + "T00:00:00Z") - DEFAULT_CHANGES_DAYS * 86_400_000);
    const size = intParam(ctx.query, "size", MAX_SIZE);
    // Paging (decision, see README): an offset into the newest-first list after `since`.
    const from = intParam(ctx.query, "from", 0, 0, MAX_CHANGES_FROM);
    const c = company(ctx, param(ctx, "id"));
    return {
      body: {
        id: c.id,
        since: new Date(sinceMs).toISOString(),
        // Everything up to the end of the emulator's today is included: pass `until` as the next `since`.
        until: `${today}T23:59:59Z`,
        changes: w.changesView(c, ctx.lang, sinceMs).slice(from, from + size),
      },
    };
  },

  nearby(ctx) {
    const radiusKm = numParam(ctx.query, "radiusKm", DEFAULT_NEARBY_RADIUS_KM, 0, 500);
    const size = intParam(ctx.query, "size", 10);
    const c = company(ctx, param(ctx, "id"));
    const w = ctx.world;
    const found: { idx: number; km: number }[] = [];
    w.index.geo.within(c.lat, c.lon, radiusKm, (i, km) => {
      if (i !== c.idx) found.push({ idx: i, km });
    });
    found.sort((a, b) => a.km - b.km || a.idx - b.idx);
    return {
      body: {
        companies: found.slice(0, size).map((f) => w.summary(nth(w.companies, f.idx), ctx.lang, { distanceKm: f.km })),
      },
    };
  },

  people(ctx) {
    const c = company(ctx, param(ctx, "id"));
    return { body: { id: c.id, people: ctx.world.peopleView(c, ctx.lang) } };
  },

  announcements(ctx) {
    const sinceMs = ctx.query.has("since") ? sinceParam(ctx.query, 0) : undefined;
    const size = intParam(ctx.query, "size", MAX_SIZE);
    const c = company(ctx, param(ctx, "id"));
    return { body: { id: c.id, announcements: ctx.world.announcementsView(c, ctx.lang, sinceMs).slice(0, size) } };
  },

  financials(ctx) {
    const c = company(ctx, param(ctx, "id"));
    return { body: { id: c.id, years: ctx.world.financials(c) } };
  },

  peers(ctx) {
    const size = intParam(ctx.query, "size", 10);
    const c = company(ctx, param(ctx, "id"));
    const w = ctx.world;
    return {
      body: {
        companies: similarTo(w, [c], size).map((h) => w.summary(nth(w.companies, h.idx), ctx.lang, { score: h.score })),
      },
    };
  },

  similar(ctx) {
    const req = parseBody(S.SimilarRequest, ctx.body);
    const seeds = req.ids.map((id, k) => company(ctx, id, `ids[${k}]`));
    const w = ctx.world;
    const accept = makeFilter(w, req.filters);
    return {
      body: {
        companies: similarTo(w, seeds, req.size ?? 10, accept).map((h) =>
          w.summary(nth(w.companies, h.idx), ctx.lang, { score: h.score }),
        ),
      },
    };
  },

  personCompanies(ctx) {
    const pid = param(ctx, "personId");
    checkPersonId(pid);
    const w = ctx.world;
    const found = w.personCompanies(pid);
    if (!found) throw notFound(pid, "personId");
    const companies = found.companies.map((i) => {
      const c = nth(w.companies, i);
      const entry = w.peopleEntries(c).find((e) => e.person === found.person);
      return { ...w.summary(c, ctx.lang), role: entry ? label(ROLE_LABELS, nth(ROLES, entry.role), ctx.lang) : null };
    });
    return { body: { person: { personId: pid, name: personName(w.seed, found.person) }, companies } };
  },

  account() {
    // Filled by the pipeline, which knows the account; see index.ts.
    throw new ApiError("SERVER_ERROR", "serverError");
  },
} satisfies Record<string, Handler>;
