/**
 * Similarity for peers and similar companies. Industry decides first (same WZ
 * class > same group > same division > same section), then size, region and
 * text refine the order within an industry tier: the tiers are spaced further
 * apart than the refinement can move a score, so a peer of the same class
 * always outranks one that only shares the division. Candidates come from the
 * same division first; the pool widens to the section, then the city, when
 * the division is small.
 */
import type { World } from "../world.ts";
import { CITIES } from "../data/places.ts";
import { industryOf, purposeOf } from "../data/details.ts";
import { SIZE_ORDER, type CompanyRec } from "../data/model.ts";
import { INDUSTRIES } from "../data/industries.ts";
import { distanceKm } from "./geo.ts";
import { TopK } from "./topk.ts";
import { LEGAL_TOKENS, tokens } from "./normalize.ts";
import { nth } from "../indexed.ts";

/** Industry share of the score, and how the rest splits between size, region and text. */
export const SIMILARITY_WEIGHTS = { industry: 0.78, size: 0.077, region: 0.088, text: 0.055 };
/** Industry level by how much of the WZ code two companies share. Steps of 0.3 × 0.78 > 0.22 (the rest). */
export const INDUSTRY_LEVELS = { class: 1, group: 0.7, division: 0.4, section: 0.1, none: 0 };

export type IndustryLevel = keyof typeof INDUSTRY_LEVELS;

/** "C28.41" vs "C28.49" → group; the WZ code is section letter + division (2) + "." + group digit + class digit. */
export function industryLevel(a: string, b: string): IndustryLevel {
  if (!a || !b) return "none";
  if (a === b) return "class";
  if (a.slice(0, 5) === b.slice(0, 5)) return "group";
  if (a.slice(0, 3) === b.slice(0, 3)) return "division";
  if (a[0] === b[0]) return "section";
  return "none";
}

// Purpose words per industry (synthetic companies share their class's purpose) and per reference company.
const STOP = new Set([
  "und",
  "von",
  "der",
  "die",
  "das",
  "des",
  "den",
  "dem",
  "mit",
  "fuer",
  "sowie",
  "alle",
  "aller",
  "damit",
  "zusammenhaengenden",
  "geschaefte",
  "art",
  "auf",
  "dem",
  "mit",
  "sitz",
  "ein",
  "eine",
  "einer",
]);
const purposeCache = new Map<string, Set<string>>();
function purposeWords(c: CompanyRec): Set<string> {
  const key = c.reference ? c.id : `i${c.industry}`;
  let s = purposeCache.get(key);
  if (!s) {
    const text = c.reference ? purposeOf(c) : nth(INDUSTRIES, c.industry).purpose;
    s = new Set(tokens(text).filter((t) => t.length > 3 && !STOP.has(t)));
    purposeCache.set(key, s);
  }
  return s;
}

function dice(a: ReadonlySet<string> | readonly string[], b: ReadonlySet<string>): number {
  const list = [...a];
  if (!list.length && !b.size) return 0;
  let common = 0;
  for (const t of list) if (b.has(t)) common++;
  return (2 * common) / (list.length + b.size);
}

export function similarity(world: World, a: CompanyRec, b: CompanyRec): number {
  const ind = INDUSTRY_LEVELS[industryLevel(industryOf(a).code, industryOf(b).code)];
  // Size class first, head count (log scale) within it, so equal classes still differ.
  const sd = Math.abs(SIZE_ORDER.indexOf(a.size) - SIZE_ORDER.indexOf(b.size));
  const headcount = Math.max(0, 1 - Math.abs(Math.log10(a.employees + 1) - Math.log10(b.employees + 1)) / 4);
  const size = 0.7 * (sd === 0 ? 1 : sd === 1 ? 0.5 : sd === 2 ? 0.15 : 0) + 0.3 * headcount;
  const km = distanceKm(a.lat, a.lon, b.lat, b.lon);
  const sameState = nth(CITIES, a.city).state === nth(CITIES, b.city).state;
  const region = a.city === b.city ? 1 - Math.min(km, 20) / 200 : Math.max(0, 1 - km / 600) * (sameState ? 0.85 : 0.7);
  const ta = world.index.nameTokensOf(a.idx).filter((t) => t && !LEGAL_TOKENS.has(t));
  const tb = new Set(world.index.nameTokensOf(b.idx).filter((t) => t && !LEGAL_TOKENS.has(t)));
  const text = 0.5 * dice(ta, tb) + 0.5 * dice(purposeWords(a), purposeWords(b));
  const W = SIMILARITY_WEIGHTS;
  return W.industry * ind + W.size * size + W.region * region + W.text * text;
}

export function similarTo(
  world: World,
  seeds: CompanyRec[],
  size: number,
  accept: (c: CompanyRec) => boolean = () => true,
): { idx: number; score: number }[] {
  const pool = new Set<number>();
  for (const s of seeds) {
    const code = industryOf(s).code;
    const division = code.slice(0, 3);
    INDUSTRIES.forEach((ind, k) => {
      if (ind.code.slice(0, 3) === division) for (const i of nth(world.index.byIndustry, k)) pool.add(i);
    });
    if (pool.size < size * 5) {
      INDUSTRIES.forEach((ind, k) => {
        if (ind.code[0] === code[0]) for (const i of nth(world.index.byIndustry, k)) pool.add(i);
      });
    }
    if (pool.size < size * 5) for (const i of nth(world.index.byCity, s.city)) pool.add(i);
  }
  const seedIds = new Set(seeds.map((s) => s.idx));
  const top = new TopK(size);
  const rest = 1 - SIMILARITY_WEIGHTS.industry;
  for (const i of pool) {
    if (seedIds.has(i)) continue;
    const c = nth(world.companies, i);
    if (!accept(c)) continue;
    let sum = 0;
    for (const s of seeds) sum += similarity(world, s, c);
    let score = sum / seeds.length;
    // Inactive companies lose part of the refinement share only, so they stay in their industry tier.
    if (!world.active(c)) score -= rest * 0.3;
    top.push(i, score, i);
  }
  return top.result().map((h) => ({ idx: h.idx, score: Math.round(h.score * 10_000) / 10_000 }));
}
