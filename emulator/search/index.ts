/**
 * Indexes built once at start-up: an inverted index of name tokens, token ->
 * industry and token -> city tables (an industry's or a city's words apply to
 * all its companies, so they are not repeated per company), exact-name and
 * register maps for resolve, a sorted name list for suggest and a geo grid.
 */
import { CITIES } from "../data/places.ts";
import { INDUSTRIES } from "../data/industries.ts";
import type { CompanyRec } from "../data/model.ts";
import { GeoGrid } from "./geo.ts";
import { LEGAL_TOKENS, coreName, fold, nameTokens, normName, tokens } from "./normalize.ts";
import { nth } from "../indexed.ts";
import { TypoIndex } from "./typos.ts";

export class SearchIndex {
  readonly n: number;
  readonly names: string[]; // normalised full names, by company
  readonly nameIdx = new Map<string, Int32Array>();
  readonly textIdx = new Map<string, Int32Array>(); // reference companies' own industry text and summary
  readonly vocab: string[];
  readonly industryTok = new Map<string, { ind: number; w: number }[]>();
  readonly cityTok = new Map<string, number[]>();
  readonly byIndustry: Int32Array[];
  readonly byCity: Int32Array[];
  readonly exact = new Map<string, number[]>();
  readonly core = new Map<string, number[]>();
  /** Normalised former names (data/history.ts) → companies. */
  readonly former = new Map<string, number[]>();
  readonly register = new Map<string, number[]>();
  readonly sorted: Int32Array; // company indices sorted by normalised name
  readonly geo: GeoGrid;
  readonly cityNorm: string[] = CITIES.map((c) => fold(c.name));

  constructor(readonly companies: readonly CompanyRec[]) {
    const n = (this.n = companies.length);
    this.names = new Array<string>(n);
    const post = new Map<string, number[]>();
    const text = new Map<string, number[]>();
    const indLists: number[][] = INDUSTRIES.map(() => []);
    const cityLists: number[][] = CITIES.map(() => []);
    const lat = new Float64Array(n),
      lon = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const c = nth(companies, i);
      const nn = normName(c.name);
      this.names[i] = nn;
      const seen = new Set<string>();
      for (const t of nn.split(" ")) {
        if (!t || seen.has(t)) continue;
        seen.add(t);
        let l = post.get(t);
        if (!l) post.set(t, (l = []));
        l.push(i);
      }
      if (c.reference) {
        const ts = new Set([...tokens(c.reference.industry), ...tokens(c.reference.summary)]);
        for (const t of ts) {
          if (t.length < 3) continue;
          let l = text.get(t);
          if (!l) text.set(t, (l = []));
          l.push(i);
        }
      }
      push(this.exact, nn, i);
      push(this.core, coreName(c.name), i);
      for (const f of c.formerNames ?? []) push(this.former, normName(f.name), i);
      push(this.register, `${c.registerType}:${c.registerNumber}`, i);
      nth(indLists, c.industry).push(i);
      nth(cityLists, c.city).push(i);
      lat[i] = c.lat;
      lon[i] = c.lon;
    }
    for (const [t, l] of post) this.nameIdx.set(t, Int32Array.from(l));
    for (const [t, l] of text) this.textIdx.set(t, Int32Array.from(l));
    this.byIndustry = indLists.map((l) => Int32Array.from(l));
    this.byCity = cityLists.map((l) => Int32Array.from(l));
    INDUSTRIES.forEach((ind, k) => {
      const w = new Map<string, number>();
      for (const t of tokens(ind.de + " " + ind.en)) if (t.length > 2) w.set(t, 1.5);
      for (const t of tokens(ind.purpose + " " + ind.words.join(" "))) if (t.length > 2 && !w.has(t)) w.set(t, 1);
      w.set(fold(ind.code), 2);
      for (const [t, weight] of w) pushObj(this.industryTok, t, { ind: k, w: weight });
    });
    CITIES.forEach((c, k) => {
      for (const t of tokens(c.name)) pushArr(this.cityTok, t, k);
      pushArr(this.cityTok, String(c.zipFrom).padStart(5, "0"), k);
    });
    this.vocab = [
      ...new Set([...post.keys(), ...text.keys(), ...this.industryTok.keys(), ...this.cityTok.keys()]),
    ].sort();
    const order = Array.from({ length: n }, (_, i) => i);
    const names = this.names;
    order.sort((a, b) => {
      const x = nth(names, a),
        y = nth(names, b);
      return x < y ? -1 : x > y ? 1 : a - b;
    });
    this.sorted = Int32Array.from(order);
    this.geo = new GeoGrid(lat, lon);
  }

  /** Vocabulary words starting with a prefix (for German compounds: "software" finds "softwareentwicklung"). */
  expand(prefix: string, limit = 40): string[] {
    const v = this.vocab;
    let lo = 0,
      hi = v.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (nth(v, mid) < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < v.length && out.length < limit; i++) {
      const word = nth(v, i);
      if (!word.startsWith(prefix)) break;
      if (word !== prefix) out.push(word);
    }
    return out;
  }

  /** Companies whose normalised name starts with the prefix, in name order. */
  prefixRange(prefix: string): [number, number] {
    const names = this.names,
      s = this.sorted;
    let lo = 0,
      hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (nth(names, nth(s, mid)) < prefix) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < s.length && nth(names, nth(s, end)).startsWith(prefix)) end++;
    return [lo, end];
  }

  /** A city by name or postcode, for the proximity filter's `place`. */
  geocode(place: string): { lat: number; lon: number } | null {
    const p = place.trim();
    if (/^\d{5}$/.test(p)) {
      const z = Number(p);
      const c = CITIES.find((x) => z >= x.zipFrom && z <= x.zipTo);
      return c ? { lat: c.lat, lon: c.lon } : null;
    }
    const f = fold(p);
    const k = this.cityNorm.findIndex((x) => x === f || x.split(" ")[0] === f);
    return k >= 0 ? { lat: nth(CITIES, k).lat, lon: nth(CITIES, k).lon } : null;
  }

  idf(df: number): number {
    return Math.log(1 + this.n / (1 + df));
  }

  weightOfNameToken(t: string): number {
    if (LEGAL_TOKENS.has(t)) return 0.2;
    const df = this.nameIdx.get(t)?.length ?? 0;
    return this.idf(df);
  }

  private typoIndex: TypoIndex | null = null;
  /** Name words by length for typo correction; built on the first query that needs it (start-up stays as it was). */
  get typos(): TypoIndex {
    return (this.typoIndex ??= new TypoIndex(this.nameIdx.keys(), (w) => this.nameIdx.get(w)?.length ?? 0));
  }

  nameTokensOf(i: number): string[] {
    return nth(this.names, i).split(" ");
  }
}

export { nameTokens, normName, coreName };

function push(m: Map<string, number[]>, k: string, v: number) {
  if (!k) return;
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}
const pushArr = push;
function pushObj<T>(m: Map<string, T[]>, k: string, v: T) {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}
