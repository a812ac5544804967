/**
 * Resolve a company from a name and optional hints (city, postcode, register
 * number), the way a register search with fuzzy matching behaves. This is the
 * emulator's model, a test tool, not a claim about how the real service scores:
 *
 * 1. the exact normalised name (legal-form spellings folded, search/normalize.ts)
 *    → 1; a former name of the company (data/history.ts) → FORMER_SCORE;
 * 2. the name without its legal form → 0.92, or 0.85 when the query names
 *    another form (the service still offers it; the client decides, see
 *    shared/operations/contradiction.ts);
 * 3. when nothing matched: words no company name has are read as the closest
 *    name word one or two edits away (search/typos.ts), and 1–2 are asked with
 *    the corrected name, the score scaled by TYPO_FACTOR × (1 − edits / word
 *    length) per corrected word ("Siemns AG" → Siemens AG at ≈ 0.75);
 * 4. else a rarity-weighted token overlap (≤ 0.9), which ignores word order
 *    ("Bosch Robert GmbH" finds Robert Bosch GmbH).
 *
 * Hints confirm or contradict. Several equally good candidates make the
 * answer "ambiguous": a name is never guessed.
 */
import type { World } from "../world.ts";
import { CITIES } from "../data/places.ts";
import { LEGAL_TOKENS, coreName, fold, normName, parseRegister } from "./normalize.ts";
import { nth } from "../indexed.ts";
import type { SearchIndex } from "./index.ts";

export interface ResolveInput {
  name?: string;
  city?: string;
  zip?: string;
  register?: string;
}
export interface Resolution {
  status: "matched" | "ambiguous" | "not_found";
  match: number | null;
  confidence: number | null;
  candidates: { idx: number; score: number }[];
}

export const MATCH_THRESHOLD = 0.6;
/** An exact former name: found, a little below the current name, so a company now of that name wins. */
export const FORMER_SCORE = 0.93;
/** What a typo costs at most: a corrected name is a guess, never as sure as the name itself. */
export const TYPO_FACTOR = 0.9;
/** Two candidates closer than this are a tie. */
export const AMBIGUITY_MARGIN = 0.05;

export function resolve(world: World, q: ResolveInput): Resolution {
  const idx = world.index;
  const cand = new Map<number, number>();
  const offer = (i: number, s: number) => cand.set(i, Math.max(cand.get(i) ?? 0, s));
  const name = q.name ? normName(q.name) : "";
  const core = q.name ? coreName(q.name) : "";
  if (name) {
    byName(idx, name, core, offer);
    if (cand.size === 0) {
      const typo = corrected(idx, name);
      if (typo) {
        const scaled = (i: number, s: number) => offer(i, s * typo.factor);
        byName(idx, typo.name, coreName(typo.name), scaled);
        if (cand.size === 0) fuzzy(world, typo.name, scaled);
      } else fuzzy(world, name, offer);
    }
  }
  const reg = q.register ? parseRegister(q.register) : null;
  if (reg) {
    for (const i of idx.register.get(`${reg.type}:${reg.number}`) ?? []) {
      const c = nth(world.companies, i);
      const courtOk =
        !reg.court ||
        fold(nth(CITIES, c.city).court).includes(reg.court) ||
        reg.court.includes(fold(nth(CITIES, c.city).court)) ||
        fold(nth(CITIES, c.city).name) === reg.court;
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
  if (!best || best.score < MATCH_THRESHOLD)
    return { status: "not_found", match: null, confidence: null, candidates: candidates.filter((c) => c.score >= 0.3) };
  const second = scored[1];
  if (second && second.score >= best.score - AMBIGUITY_MARGIN) {
    return {
      status: "ambiguous",
      match: null,
      confidence: round(best.score),
      candidates: scored
        .filter((x) => x.score >= best.score - AMBIGUITY_MARGIN)
        .slice(0, 10)
        .map((x) => ({ idx: x.idx, score: round(x.score) })),
    };
  }
  return { status: "matched", match: best.idx, confidence: round(best.score), candidates: [] };
}

/** Exact name, former name, name without its legal form. */
function byName(idx: SearchIndex, name: string, core: string, offer: (i: number, s: number) => void): void {
  for (const i of idx.exact.get(name) ?? []) offer(i, 1);
  for (const i of idx.former.get(name) ?? []) offer(i, FORMER_SCORE);
  const queryHasForm = name !== core;
  for (const i of idx.core.get(core) ?? []) offer(i, queryHasForm ? 0.85 : 0.92);
}

/** The name with its unknown words corrected, and what the corrections cost; null when none applies. */
function corrected(idx: SearchIndex, name: string): { name: string; factor: number } | null {
  let factor = TYPO_FACTOR;
  let changed = false;
  const words = name.split(" ").map((t) => {
    if (LEGAL_TOKENS.has(t) || idx.nameIdx.has(t)) return t;
    const c = idx.typos.correct(t);
    if (!c) return t;
    changed = true;
    factor *= 1 - c.edits / t.length;
    return c.word;
  });
  return changed ? { name: words.join(" "), factor } : null;
}

/** Token overlap weighted by rarity (a weighted Dice coefficient), over companies sharing a rare token. */
function fuzzy(world: World, name: string, offer: (i: number, s: number) => void): void {
  const idx = world.index;
  const qt = [...new Set(name.split(" ").filter(Boolean))];
  const w = (t: string) => idx.weightOfNameToken(t);
  const qWeight = qt.reduce((s, t) => s + w(t), 0);
  if (qWeight === 0) return;
  const rare = qt
    .filter((t) => !LEGAL_TOKENS.has(t) && idx.nameIdx.has(t))
    .sort((a, b) => idx.nameIdx.get(a)!.length - idx.nameIdx.get(b)!.length)
    .slice(0, 2);
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
    let common = 0,
      cWeight = 0;
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
