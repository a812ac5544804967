/**
 * Typo tolerance for resolve: a word of the query that no company name has
 * ("siemns", "bosh") is read as the name word closest to it, one or two
 * edits away (insert, delete, replace, swap two neighbours: optimal string
 * alignment distance). Short words allow one edit, words of eight letters or
 * more two, as register searches with fuzzy matching commonly do; a word of
 * three letters or fewer is never corrected ("ag" is not "ac").
 *
 * The name vocabulary is small (names are built from a few thousand words),
 * so words are kept by length and a correction scans only the lengths within
 * reach, with a bounded distance that stops as soon as it cannot win: a
 * fraction of a millisecond per unknown word at 200,000 companies.
 */

/** Most edits allowed for a word of this length. */
export function maxEdits(length: number): number {
  return length < 4 ? 0 : length < 8 ? 1 : 2;
}

/** Rows of the distance table, reused (resolve runs one query at a time). */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Optimal string alignment distance of a and b, or max + 1 when it exceeds max. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  if (rows[0]!.length <= n) rows = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  let prev2 = rows[0]!,
    prev = rows[1]!,
    cur = rows[2]!;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj)
        v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[n]! <= max ? prev[n]! : max + 1;
}

export interface Correction {
  word: string;
  edits: number;
}

export class TypoIndex {
  private readonly byLength = new Map<number, string[]>();

  /** `frequency` orders equally close words: the more common one wins (a register search ranks by hits). */
  constructor(
    words: Iterable<string>,
    private readonly frequency: (w: string) => number,
  ) {
    for (const w of words) {
      if (w.length < 4) continue;
      const l = this.byLength.get(w.length);
      if (l) l.push(w);
      else this.byLength.set(w.length, [w]);
    }
  }

  /** The closest known word within the word's edit allowance, or null. */
  correct(word: string): Correction | null {
    const max = maxEdits(word.length);
    if (max === 0) return null;
    let best: Correction | null = null;
    let bestFreq = -1;
    for (let len = word.length - max; len <= word.length + max; len++) {
      for (const w of this.byLength.get(len) ?? []) {
        const limit = best ? best.edits : max;
        const d = editDistance(word, w, limit);
        if (d > limit) continue;
        const f = this.frequency(w);
        if (!best || d < best.edits || f > bestFreq) {
          best = { word: w, edits: d };
          bestFreq = f;
        }
      }
    }
    return best;
  }
}
