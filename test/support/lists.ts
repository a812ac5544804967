/**
 * The input lists of the benchmarks and the reliability tests, drawn from the
 * emulator's own companies so every expected answer is known: distinct
 * companies written the ways a spreadsheet holds them (case, white space,
 * umlauts spelled out, legal form written in full), exact duplicate rows, and
 * names no company has; and the CLI's large CSV made of them.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import type { Emulator } from "../../emulator/index.ts";
import { normaliseKey } from "../../shared/batch/normalise.ts";
import { itemAt } from "./item-at.ts";

export interface ListRow {
  name: string;
  /** The company the row means; null for unknown names. */
  expectId: string | null;
}

export interface BenchList {
  rows: ListRow[];
  /** Companies the list names (= profiles a minimal run pays for). */
  companies: number;
  /** Distinct queries after normalisation (= what a minimal run resolves). */
  distinctQueries: number;
}

/** A small deterministic generator (mulberry32), so every run uses the same list. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FULL_FORMS: [RegExp, string][] = [
  [/\bGmbH$/, "Gesellschaft mit beschränkter Haftung"],
  [/\bAG$/, "Aktiengesellschaft"],
  [/\bKG$/, "Kommanditgesellschaft"],
];

/** Another way of writing a name that means the same company. */
export function variant(name: string, k: number): string {
  switch (k % 5) {
    case 0:
      return name.toUpperCase();
    case 1:
      return "  " + name.replace(/ /g, "  ") + " ";
    case 2:
      return name.toLowerCase();
    case 3: {
      const spelled = name
        .replace(/ä/g, "ae")
        .replace(/ö/g, "oe")
        .replace(/ü/g, "ue")
        .replace(/ß/g, "ss")
        .replace(/Ä/g, "Ae")
        .replace(/Ö/g, "Oe")
        .replace(/Ü/g, "Ue");
      return spelled !== name ? spelled : name.toUpperCase();
    }
    default: {
      for (const [re, full] of FULL_FORMS) if (re.test(name)) return name.replace(re, full);
      return name.toLowerCase();
    }
  }
}

/**
 * Companies whose names resolve to exactly themselves in this emulator (their
 * normalised name is unique), in a fixed pseudo-random order.
 */
export function uniqueCompanies(emu: Emulator, n: number, seed = 1): { id: string; name: string }[] {
  const r = rng(seed);
  const all = emu.world.companies;
  const picked: { id: string; name: string }[] = [];
  const seen = new Set<string>();
  const start = Math.floor(r() * all.length);
  for (let k = 0; k < all.length && picked.length < n; k++) {
    const c = itemAt(all, (start + k * 7919) % all.length, "company");
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    // Case changes must not change the letters (Turkish dotless i does).
    if (c.name.toUpperCase().toLowerCase() !== c.name.toLowerCase()) continue;
    if (emu.companies.findByName(c.name).length !== 1) continue;
    picked.push({ id: c.id, name: c.name });
  }
  if (picked.length < n) throw new Error(`only ${picked.length} companies with unique names`);
  return picked;
}

/** Names no company in any emulator world has. */
export const unknownName = (k: number) => `Zqxvw Nichtvorhanden ${k} Handelsgesellschaft GmbH`;

/**
 * The list: `distinct` companies written in varied ways (some of them
 * twice, in two spellings), `duplicates` exact copies of earlier rows, and
 * `unknown` names no company has; `total` rows in all, shuffled.
 */
export function benchList(
  emu: Emulator,
  opts: { total?: number; distinct?: number; duplicates?: number; unknown?: number; seed?: number } = {},
): BenchList {
  const total = opts.total ?? 1000;
  const distinct = opts.distinct ?? 700;
  const duplicates = opts.duplicates ?? 100;
  const unknown = opts.unknown ?? 50;
  const r = rng(opts.seed ?? 7);
  const companies = uniqueCompanies(emu, distinct, opts.seed ?? 7);
  const rows: ListRow[] = companies.map((c, k) => ({
    name: k % 3 === 0 ? c.name : variant(c.name, k),
    expectId: c.id,
  }));
  // Second spellings of some companies, up to the rows left for them.
  const second = total - distinct - duplicates - unknown;
  if (second < 0) throw new Error("the parts add up to more than the total");
  for (let k = 0; k < second; k++) {
    const c = itemAt(companies, k % companies.length, "company for a second spelling");
    rows.push({ name: variant(c.name, k + 1 + Math.floor(k / companies.length)), expectId: c.id });
  }
  for (let k = 0; k < unknown; k++) rows.push({ name: unknownName(k), expectId: null });
  const base = rows.length;
  for (let k = 0; k < duplicates; k++) rows.push({ ...itemAt(rows, Math.floor(r() * base), "row to duplicate") });
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [rows[i], rows[j]] = [itemAt(rows, j, "row"), itemAt(rows, i, "row")];
  }
  const distinctQueries = new Set(rows.map((x) => normaliseKey({ name: x.name }))).size;
  return { rows, companies: companies.length, distinctQueries };
}

/** A CSV of `rows` company names (about one distinct company in ten rows, some written differently, 5 % unknown). */
export async function writeCsv(
  path: string,
  emu: Emulator,
  rows: number,
  seed = 3,
  distinct = Math.min(10_000, Math.max(10, Math.ceil(rows / 10))),
): Promise<void> {
  const r = rng(seed);
  const companies = uniqueCompanies(emu, distinct, seed);
  const out = createWriteStream(path);
  out.write("Firma;Ort\n");
  for (let i = 0; i < rows; i++) {
    const x = r();
    const name =
      x < 0.05
        ? unknownName(i % 500)
        : (() => {
            const c = itemAt(companies, Math.floor(r() * companies.length), "company");
            return x < 0.6 ? c.name : variant(c.name, i);
          })();
    if (!out.write(`"${name.replace(/"/g, '""')}";\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}
