/**
 * Ranked free-text search over name, industry, purpose and place, with
 * filters and a proximity filter in the same request, and autocomplete.
 */
import { legalFormOf } from "../../shared/operations/index.ts";
import type { World } from "../world.ts";
import type { SearchRequest } from "../../shared/api/index.ts";
import { CITIES } from "../data/places.ts";
import { INDUSTRIES } from "../data/industries.ts";
import { industryOf } from "../data/details.ts";
import { SIZE_ORDER, type CompanyRec } from "../data/model.ts";
import { LEGAL_TOKENS, fold, normName } from "./normalize.ts";
import { TopK } from "./topk.ts";
import { nth } from "../indexed.ts";

type Filters = NonNullable<SearchRequest["filters"]>;

export interface Hit {
  idx: number;
  score: number;
  distanceKm?: number;
}

const NAME_W = 3,
  CITY_W = 2,
  TEXT_W = 1.2,
  PREFIX_FACTOR = 0.6;

/** No text: rank by distance when a point is given (`radiusKm`), else by size and name. */
function rankWithoutText(
  world: World,
  pass: (c: CompanyRec) => boolean,
  dist: Map<number, number>,
  radiusKm: number | undefined,
  top: TopK,
): { total: number; hits: Hit[] } {
  let total = 0;
  const consider = (i: number) => {
    const c = nth(world.companies, i);
    if (!pass(c)) return;
    total++;
    const d = dist.get(i);
    const score = d !== undefined ? 1 - d / ((radiusKm ?? 0) + 1e-9) : (SIZE_ORDER.indexOf(c.size) + 1) / 4;
    top.push(i, score, i);
  };
  if (radiusKm !== undefined) for (const i of dist.keys()) consider(i);
  else for (let i = 0; i < world.index.n; i++) consider(i);
  return { total, hits: top.result().map((h) => ({ ...h, distanceKm: dist.get(h.idx) })) };
}

export function search(
  world: World,
  req: { query: string; size?: number; from?: number; filters?: Filters; near?: SearchRequest["near"] },
  center?: { lat: number; lon: number },
): { total: number; hits: Hit[] } {
  const idx = world.index;
  const size = req.size ?? 10,
    from = req.from ?? 0;
  const pass = makeFilter(world, req.filters);
  const dist = new Map<number, number>();
  if (req.near && center) idx.geo.within(center.lat, center.lon, req.near.radiusKm, (i, km) => dist.set(i, km));
  const nearOk = (i: number) => !req.near || dist.has(i);

  const qTokens = [...new Set(normName(req.query).split(" ").filter(Boolean))];
  const top = new TopK(from + size);
  let total = 0;
  if (qTokens.length === 0) return rankWithoutText(world, pass, dist, req.near?.radiusKm, top);

  const scores = new Float32Array(idx.n);
  const touched: number[] = [];
  let maxPossible = 0;
  const add = (i: number, w: number) => {
    const s = nth(scores, i);
    if (s === 0) touched.push(i);
    scores[i] = s + w;
  };
  for (const t of qTokens) {
    let best = 0;
    const legal = LEGAL_TOKENS.has(t);
    const words: [string, number][] = [[t, 1]];
    if (t.length >= 4 && !legal) for (const x of idx.expand(t, 30)) words.push([x, PREFIX_FACTOR]);
    for (const [w, f] of words) {
      const posting = idx.nameIdx.get(w);
      if (posting) {
        const wt = (legal ? 0.2 : idx.idf(posting.length)) * NAME_W * f;
        best = Math.max(best, wt);
        for (const i of posting) add(i, wt);
      }
      const text = idx.textIdx.get(w);
      if (text) {
        const wt = idx.idf(text.length) * TEXT_W * f;
        best = Math.max(best, wt);
        for (const i of text) add(i, wt);
      }
      for (const { ind, w: iw } of idx.industryTok.get(w) ?? []) {
        const list = nth(idx.byIndustry, ind);
        const wt = idx.idf(list.length) * iw * f * 0.8;
        best = Math.max(best, wt);
        for (const i of list) add(i, wt);
      }
      for (const ci of idx.cityTok.get(w) ?? []) {
        const list = nth(idx.byCity, ci);
        const wt = idx.idf(list.length) * CITY_W * f * 0.5;
        best = Math.max(best, wt);
        for (const i of list) add(i, wt);
      }
    }
    maxPossible += best;
  }
  for (const i of touched) {
    if (!nearOk(i)) continue;
    const c = nth(world.companies, i);
    if (!pass(c)) continue;
    total++;
    // Active and larger companies first among equal text scores.
    const boost = (world.active(c) ? 0.02 : 0) + SIZE_ORDER.indexOf(c.size) * 0.005;
    top.push(i, Math.min(1, nth(scores, i) / (maxPossible || 1)) * 0.95 + boost, i);
  }
  return {
    total,
    hits: top.result().map((h) => ({ idx: h.idx, score: Math.min(1, h.score), distanceKm: dist.get(h.idx) })),
  };
}

export function makeFilter(world: World, f?: Filters): (c: CompanyRec) => boolean {
  if (!f) return () => true;
  const today = world.today();
  const industries = f.industry?.map((x) => x.toUpperCase().replace(/\s+/g, ""));
  const sizes = f.size ? new Set<string>(f.size) : null;
  const states = f.state ? new Set(f.state.map((s) => s.toUpperCase())) : null;
  const city = f.city ? fold(f.city) : null;
  const forms = f.legalForm ? new Set(f.legalForm.map(legalFormCode)) : null;
  const todayYear = Number(today.slice(0, 4)) + Number(today.slice(5, 7)) / 12;
  return (c) => {
    if (industries) {
      const code = industryOf(c).code.toUpperCase();
      if (!industries.some((p) => code.startsWith(p))) return false;
    }
    if (sizes && !sizes.has(c.size)) return false;
    if (states && !states.has((c.reference?.federalState ?? nth(CITIES, c.city).state).toUpperCase())) return false;
    if (city && world.index.cityNorm[c.city] !== city) return false;
    if (forms && !forms.has(c.legalForm)) return false;
    if (f.active !== undefined && world.active(c) !== f.active) return false;
    if (f.minAgeYears !== undefined || f.maxAgeYears !== undefined) {
      const age = todayYear - (Number(c.foundingDate.slice(0, 4)) + Number(c.foundingDate.slice(5, 7)) / 12);
      if (f.minAgeYears !== undefined && age < f.minAgeYears) return false;
      if (f.maxAgeYears !== undefined && age > f.maxAgeYears) return false;
    }
    return true;
  };
}

/**
 * "GmbH", "gmbh", "GMBH", "GmbH & Co. KG", "GMBH_CO_KG", "UG (haftungsbeschränkt)",
 * "Aktiengesellschaft" all name their form: any spelling of the shared table
 * (shared/operations/legal-form.ts) becomes its filter value; other text is
 * folded as before (and matches no company).
 */
export function legalFormCode(s: string): string {
  const known = legalFormOf(s)?.filter;
  if (known) return known;
  const n = normName(s).replace(/\s+/g, "_").toUpperCase();
  if (n === "GMBH_CO_KG" || n === "GMBH_CO__KG") return "GMBH_CO_KG";
  return n;
}

export function suggest(world: World, prefix: string, size: number): number[] {
  const idx = world.index;
  const p = normName(prefix);
  if (!p) return [];
  const [lo, hi] = idx.prefixRange(p);
  // Rank a bounded window: active before inactive, larger before smaller, then name order.
  const top = new TopK(size);
  const end = Math.min(hi, lo + 5000);
  for (let k = lo; k < end; k++) {
    const i = nth(idx.sorted, k);
    const c = nth(world.companies, i);
    top.push(i, (world.active(c) ? 10 : 0) + SIZE_ORDER.indexOf(c.size) + (c.reference ? 5 : 0), k);
  }
  return top.result().map((h) => h.idx);
}

export { INDUSTRIES };
