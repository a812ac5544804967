/**
 * Resolve a company from a name and optional hints (city, postcode, register
 * number). Exact normalised names score highest, names without the legal form
 * next, fuzzy token overlap last; hints confirm or contradict. Several equally
 * good candidates make the answer "ambiguous": a name is never guessed.
 */
import type { World } from "../world.ts";
import { CITIES } from "../data/places.ts";
import { LEGAL_TOKENS, coreName, fold, normName, parseRegister } from "./normalize.ts";
import { nth } from "../indexed.ts";

export interface ResolveInput { name?: string; city?: string; zip?: string; register?: string }
export interface Resolution {
  status: "matched" | "ambiguous" | "not_found";
  match: number | null;
  confidence: number | null;
  candidates: { idx: number; score: number }[];
}

export const MATCH_THRESHOLD = 0.6;
/** Two candidates closer than this are a tie. */
export const AMBIGUITY_MARGIN = 0.05;

export function resolve(world: World, q: ResolveInput): Resolution {
  const idx = world.index;
  const cand = new Map<number, number>();
  const offer = (i: number, s: number) => cand.set(i, Math.max(cand.get(i) ?? 0, s));
  const name = q.name ? normName(q.name) : "";
  const core = q.name ? coreName(q.name) : "";
  if (name) {
    for (const i of idx.exact.get(name) ?? []) offer(i, 1);
    const queryHasForm = name !== core;
    for (const i of idx.core.get(core) ?? []) offer(i, queryHasForm ? 0.85 : 0.92);
    if (cand.size === 0) fuzzy(world, name, offer);
  }
  const reg = q.register ? parseRegister(q.register) : null;
  if (reg) {
    for (const i of idx.register.get(`${reg.type}:${reg.number}`) ?? []) {
      const c = nth(world.companies, i);
      const courtOk = !reg.court || fold(nth(CITIES, c.city).court).includes(reg.court) || reg.court.includes(fold(nth(CITIES, c.city).court)) || fold(nth(CITIES, c.city).name) === reg.court;
      if (courtOk) offer(i, name ? Math.max(cand.get(i) ?? 0, 0.5) : 0.9);
    }
  }
  const city = q.city ? fold(q.city) : "";
  const zip = q.zip?.trim() ?? "";
  const scored: { idx: number; score: number }[] = [];
  for (const [i, base] of cand) {
    const c = nth(world.companies, i);
    let s = base;
    if (city) {
      const cn = nth(idx.cityNorm, c.city);
      s += cn === city || cn.split(" ")[0] === city ? 0.06 : -0.3;
    }
    if (zip) s += zip === c.zip ? 0.06 : zip.slice(0, 2) === c.zip.slice(0, 2) ? 0 : -0.2;
    if (reg) {
      const same = c.registerType === reg.type && c.registerNumber === reg.number;
      s += same ? 0.15 : -0.3;
    }
    scored.push({ idx: i, score: Math.max(0, Math.min(1, s)) });
  }
  scored.sort((a, b) => b.score - a.score || a.idx - b.idx);
  const candidates = scored.slice(0, 5).map((x) => ({ idx: x.idx, score: round(x.score) }));
  const best = scored[0];
  if (!best || best.score < MATCH_THRESHOLD) return { status: "not_found", match: null, confidence: null, candidates: candidates.filter((c) => c.score >= 0.3) };
  const second = scored[1];
  if (second && second.score >= best.score - AMBIGUITY_MARGIN) {
    return { status: "ambiguous", match: null, confidence: round(best.score), candidates: scored.filter((x) => x.score >= best.score - AMBIGUITY_MARGIN).slice(0, 10).map((x) => ({ idx: x.idx, score: round(x.score) })) };
  }
  return { status: "matched", match: best.idx, confidence: round(best.score), candidates: [] };
}

/** Token overlap weighted by rarity (a weighted Dice coefficient), over companies sharing a rare token. */
function fuzzy(world: World, name: string, offer: (i: number, s: number) => void): void {
  const idx = world.index;
  const qt = [...new Set(name.split(" ").filter(Boolean))];
  const w = (t: string) => idx.weightOfNameToken(t);
  const qWeight = qt.reduce((s, t) => s + w(t), 0);
  if (qWeight === 0) return;
  const rare = qt.filter((t) => !LEGAL_TOKENS.has(t) && idx.nameIdx.has(t)).sort((a, b) => idx.nameIdx.get(a)!.length - idx.nameIdx.get(b)!.length).slice(0, 2);
  const pool = new Set<number>();
  for (const t of rare) {
    const p = idx.nameIdx.get(t)!;
    for (const i of p) {
      if (pool.size >= 3000) break;
      pool.add(i);
    }
  }
  const qs = new Set(qt);
  for (const i of pool) {
    const ct = idx.nameTokensOf(i);
    let common = 0, cWeight = 0;
    for (const t of ct) {
      const x = w(t);
      cWeight += x;
      if (qs.has(t)) common += x;
    }
    const dice = (2 * common) / (qWeight + cWeight);
    if (dice > 0.3) offer(i, dice * 0.9);
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;
