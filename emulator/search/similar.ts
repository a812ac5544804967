/**
 * Similarity over industry, size, region and name text, for peers and
 * similar companies. Candidates come from the same WZ division first; the
 * pool widens to the section when the division is small.
 */
import type { World } from "../world.ts";
import { CITIES } from "../data/places.ts";
import { industryOf } from "../data/details.ts";
import { SIZE_ORDER, type CompanyRec } from "../data/model.ts";
import { INDUSTRIES } from "../data/industries.ts";
import { distanceKm } from "./geo.ts";
import { TopK } from "./topk.ts";
import { LEGAL_TOKENS } from "./normalize.ts";

export const SIMILARITY_WEIGHTS = { industry: 0.45, size: 0.2, region: 0.25, text: 0.1 };

export function similarity(world: World, a: CompanyRec, b: CompanyRec): number {
  const ia = industryOf(a).code, ib = industryOf(b).code;
  const ind = ia && ia === ib ? 1 : ia.slice(0, 3) === ib.slice(0, 3) && ia ? 0.6 : ia[0] === ib[0] && ia ? 0.3 : 0;
  const sd = Math.abs(SIZE_ORDER.indexOf(a.size) - SIZE_ORDER.indexOf(b.size));
  const size = sd === 0 ? 1 : sd === 1 ? 0.5 : sd === 2 ? 0.15 : 0;
  const km = distanceKm(a.lat, a.lon, b.lat, b.lon);
  const region = a.city === b.city ? 1 : CITIES[a.city].state === CITIES[b.city].state ? Math.max(0.5, 1 - km / 300) : Math.max(0, 0.5 - km / 1000);
  const ta = world.index.nameTokensOf(a.idx).filter((t) => !LEGAL_TOKENS.has(t));
  const tb = new Set(world.index.nameTokensOf(b.idx).filter((t) => !LEGAL_TOKENS.has(t)));
  const common = ta.filter((t) => tb.has(t)).length;
  const text = ta.length + tb.size ? (2 * common) / (ta.length + tb.size) : 0;
  const W = SIMILARITY_WEIGHTS;
  return W.industry * ind + W.size * size + W.region * region + W.text * text;
}

export function similarTo(world: World, seeds: CompanyRec[], size: number, accept: (c: CompanyRec) => boolean = () => true): { idx: number; score: number }[] {
  const pool = new Set<number>();
  for (const s of seeds) {
    const code = industryOf(s).code;
    const division = code.slice(0, 3);
    INDUSTRIES.forEach((ind, k) => {
      if (code && ind.code.slice(0, 3) === division) for (const i of world.index.byIndustry[k]) pool.add(i);
    });
    if (pool.size < size * 5) {
      INDUSTRIES.forEach((ind, k) => {
        if (code && ind.code[0] === code[0]) for (const i of world.index.byIndustry[k]) pool.add(i);
      });
    }
    // Companies without a catalogued industry (some reference ones) compare against their city.
    if (pool.size < size * 5) for (const i of world.index.byCity[s.city]) pool.add(i);
  }
  const seedIds = new Set(seeds.map((s) => s.idx));
  const top = new TopK(size);
  for (const i of pool) {
    if (seedIds.has(i)) continue;
    const c = world.companies[i];
    if (!accept(c)) continue;
    let sum = 0;
    for (const s of seeds) sum += similarity(world, s, c);
    top.push(i, (sum / seeds.length) * (world.active(c) ? 1 : 0.8), i);
  }
  return top.result().map((h) => ({ idx: h.idx, score: Math.round(h.score * 10_000) / 10_000 }));
}
