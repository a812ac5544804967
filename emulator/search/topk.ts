import { nth } from "../indexed.ts";

/** Keeps the k best items by score (ties: lower tie-break value first) without sorting everything. */
export class TopK {
  private items: { idx: number; score: number; tie: number }[] = [];
  constructor(private k: number) {}
  private worse(a: { score: number; tie: number }, b: { score: number; tie: number }): boolean {
    return a.score < b.score || (a.score === b.score && a.tie > b.tie);
  }
  private swap(i: number, j: number): void {
    const h = this.items;
    const a = nth(h, i);
    h[i] = nth(h, j);
    h[j] = a;
  }
  push(idx: number, score: number, tie = 0): void {
    const h = this.items;
    if (h.length < this.k) {
      h.push({ idx, score, tie });
      let i = h.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(nth(h, i), nth(h, p))) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    if (this.k === 0 || !this.worse(nth(h, 0), { score, tie })) return;
    h[0] = { idx, score, tie };
    let i = 0;
    for (;;) {
      const l = 2 * i + 1,
        r = l + 1;
      let m = i;
      if (l < h.length && this.worse(nth(h, l), nth(h, m))) m = l;
      if (r < h.length && this.worse(nth(h, r), nth(h, m))) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
  /** Best first. */
  result(): { idx: number; score: number }[] {
    return [...this.items].sort((a, b) => b.score - a.score || a.tie - b.tie);
  }
}
