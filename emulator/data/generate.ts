/**
 * Builds the company table: the 29 real reference companies with their real
 * ids, then `count` synthetic ones that look like the German registers. Only
 * what search, resolve, filters and geo need is stored; heavier details are
 * derived on demand (details.ts).
 */
import referenceFile from "./reference/companies.json";
import { CITIES, CITY_WEIGHTS, STREETS, cityIndex, formatZip } from "./places.ts";
import { INDUSTRIES, INDUSTRY_WEIGHTS, referenceIndustry } from "./industries.ts";
import { BRAND_HEADS, BRAND_TAILS, FIRST_NAMES, SURNAMES } from "./names.ts";
import { Rng, makeId } from "../rng.ts";
import type { CompanyRec, ReferenceCompany, SizeCode, StatusCode } from "./model.ts";
import { nth } from "../indexed.ts";
import { formerNamesOf } from "./history.ts";

export const REFERENCE: readonly ReferenceCompany[] = (referenceFile as { companies: ReferenceCompany[] }).companies;

/** Legal forms with their share among synthetic companies, register type and written suffix. */
const FORMS = [
  { code: "GMBH", share: 52, reg: "HRB", suffix: "GmbH" },
  { code: "UG", share: 9, reg: "HRB", suffix: "UG (haftungsbeschränkt)" },
  { code: "GMBH_CO_KG", share: 12, reg: "HRA", suffix: "GmbH & Co. KG" },
  { code: "KG", share: 3, reg: "HRA", suffix: "KG" },
  { code: "AG", share: 2.5, reg: "HRB", suffix: "AG" },
  { code: "SE", share: 0.4, reg: "HRB", suffix: "SE" },
  { code: "OHG", share: 2.5, reg: "HRA", suffix: "OHG" },
  { code: "EK", share: 12, reg: "HRA", suffix: "e.K." },
  { code: "EG", share: 1.6, reg: "GnR", suffix: "eG" },
  { code: "PARTG", share: 2.5, reg: "PR", suffix: "PartG mbB" },
] as const;
const FORM_WEIGHTS = FORMS.map((f) => f.share);
const CITY_IDX = CITIES.map((_, k) => k);
// Only classes with a weight: the reference-only classes (weight 0) are never drawn.
const INDUSTRY_IDX = INDUSTRIES.map((_, k) => k).filter((k) => (INDUSTRY_WEIGHTS[k] ?? 0) > 0);
const SYNTHETIC_WEIGHTS = INDUSTRY_IDX.map((k) => nth(INDUSTRY_WEIGHTS, k));

const REF_FORM: Record<string, string> = {
  GmbH: "GMBH",
  AG: "AG",
  SE: "SE",
  KG: "KG",
  KGaA: "KGAA",
  UG: "UG",
  OHG: "OHG",
  eG: "EG",
};

/** Real register entries known from public sources (known-service-facts: Siemens). */
const REF_REGISTER: Record<string, [string, string]> = { DEPIYX8Y4M82: ["HRB", "6684"] };

/** Share of synthetic companies that reuse an earlier company's name in another city. */
export const DUPLICATE_NAME_SHARE = 0.02;

export interface Dataset {
  companies: CompanyRec[];
  byId: Map<string, number>;
  startYear: number;
}

/** A company of the reference sample (real name, id and city), filled in from its own random stream. */
function referenceRecord(
  ref: (typeof REFERENCE)[number],
  idx: number,
  seed: number,
  nextRegister: (court: string, type: string, r: Rng) => string,
): CompanyRec {
  const r = Rng.for(seed, "ref:" + ref.id);
  const ci = Math.max(0, cityIndex(ref.city));
  const city = nth(CITIES, ci);
  const known = referenceIndustry(ref.id, ref.industry);
  const [regType, regNum] = REF_REGISTER[ref.id] ?? [
    ref.legalForm === "KG" ? "HRA" : "HRB",
    nextRegister(city.court, ref.legalForm === "KG" ? "HRA" : "HRB", r),
  ];
  const size = (ref.size as SizeCode) ?? "LARGE";
  const rec: CompanyRec = {
    idx,
    id: ref.id,
    name: ref.name,
    legalForm: REF_FORM[ref.legalForm] ?? "GMBH",
    city: ci,
    zip: formatZip(city.zipFrom + r.int(0, Math.min(20, city.zipTo - city.zipFrom))),
    street: r.pick(STREETS) + " " + r.int(1, 120),
    lat: city.lat + (r.next() - 0.5) * 0.02,
    lon: city.lon + (r.next() - 0.5) * 0.03,
    industry: known,
    size,
    employees: employeesFor(size, r, ref.financials?.revenue),
    foundingDate: ref.foundingDate ?? `${r.int(1870, 1990)}-01-01`,
    registerType: regType,
    registerNumber: regNum,
    status: "ACTIVE",
    warning: false,
    capital: 1_000_000 * r.int(50, 2000),
    reference: ref,
  };
  return rec;
}

export function generate(count: number, seed: number, startDate: string): Dataset {
  const startYear = Number(startDate.slice(0, 4));
  const companies: CompanyRec[] = [];
  const byId = new Map<string, number>();
  const regCounters = new Map<string, number>();

  const nextRegister = (court: string, type: string, r: Rng): string => {
    const key = court + "|" + type;
    // Numbers grow per court and type, with gaps, like real registers.
    const n = (regCounters.get(key) ?? (type === "HRB" ? 1000 + r.int(0, 4000) : 100 + r.int(0, 900))) + r.int(1, 7);
    regCounters.set(key, n);
    return String(n);
  };

  for (const ref of REFERENCE) {
    const rec = referenceRecord(ref, companies.length, seed, nextRegister);
    companies.push(rec);
    byId.set(rec.id, rec.idx);
  }

  for (let i = 0; i < count; i++) {
    const r = Rng.for(seed, i);
    const ci = r.weighted(CITY_IDX, CITY_WEIGHTS);
    const city = nth(CITIES, ci);
    const form = r.weighted(FORMS, FORM_WEIGHTS);
    const indIdx = r.weighted(INDUSTRY_IDX, SYNTHETIC_WEIGHTS);
    const ind = nth(INDUSTRIES, indIdx);
    let name: string;
    const base = companies.length;
    if (i > 100 && r.chance(DUPLICATE_NAME_SHARE)) {
      // Same name, another city: real registers are full of these, and resolve must say "ambiguous".
      const other = nth(companies, base - 1 - r.int(0, Math.min(base - REFERENCE.length - 1, 5000)));
      name = other.name;
    } else {
      name = makeName(r, form.code, form.suffix, ind.words, city.name);
    }
    let id = makeId("DE", seed, "c" + i);
    while (byId.has(id)) id = makeId("DE", seed, "c" + i + "x" + r.int(0, 1e9));
    const size = sizeFor(r, form.code, ind.scale);
    const founding = foundingFor(r, form.code, startYear);
    // A company founded last year has had no time to fail.
    const st = Number(founding.slice(0, 4)) >= startYear - 1 ? "ACTIVE" : statusFor(r);
    const rec: CompanyRec = {
      idx: base,
      id,
      name,
      legalForm: form.code,
      city: ci,
      zip: formatZip(city.zipFrom + r.int(0, city.zipTo - city.zipFrom)),
      street: r.pick(STREETS) + " " + r.int(1, 180),
      // Spread around the centre; larger cities spread further.
      lat: city.lat + (r.next() - 0.5) * (0.04 + city.weight / 3000),
      lon: city.lon + (r.next() - 0.5) * (0.06 + city.weight / 2000),
      industry: indIdx,
      size,
      employees: employeesFor(size, r),
      foundingDate: founding,
      registerType: form.reg,
      registerNumber: nextRegister(city.court, form.reg, r),
      status: st,
      statusDate:
        st === "ACTIVE"
          ? undefined
          : dateBetween(r, Math.max(Number(founding.slice(0, 4)) + 1, startYear - 3), startYear, startYear - 1),
      warning: r.chance(0.015),
      capital: capitalFor(r, form.code, size),
    };
    companies.push(rec);
    byId.set(id, rec.idx);
  }
  // Former names come from a stream of their own: the companies above are the same with or without them.
  for (const c of companies) {
    const former = formerNamesOf(c, seed, startYear, c.reference !== undefined);
    if (former.length) c.formerNames = former;
  }
  return { companies, byId, startYear };
}

function makeName(r: Rng, form: string, suffix: string, words: readonly string[], city: string): string {
  const sur = () => r.pick(SURNAMES);
  const word = r.pick(words);
  const brand = () => r.pick(BRAND_HEADS) + r.pick(BRAND_TAILS);
  let core: string;
  switch (form) {
    case "EK":
      core = r.chance(0.5) ? `${word} ${sur()}` : `${r.pick(FIRST_NAMES)} ${sur()} ${word}`;
      return `${core} e.K.`;
    case "EG":
      return r.chance(0.5) ? `${word}genossenschaft ${city} eG` : `${brand()} ${word} eG`;
    case "PARTG":
      return `${sur()} & ${sur()} ${word} PartG mbB`;
    case "OHG":
      return `${sur()} & ${sur()} OHG`;
    case "KG":
      return `${sur()} ${word} KG`;
    case "GMBH_CO_KG":
      core = r.chance(0.5) ? `${sur()} ${word}` : `${brand()} ${word}`;
      return `${core} GmbH & Co. KG`;
    default: {
      const p = r.next();
      if (p < 0.35) core = `${sur()} ${word}`;
      else if (p < 0.6) core = `${brand()} ${word}`;
      else if (p < 0.75) core = `${word} ${city.split(" ")[0]}`;
      else if (p < 0.9) core = brand();
      else core = `${sur()} & ${sur()} ${word}`;
      return `${core} ${suffix}`;
    }
  }
}

function sizeFor(r: Rng, form: string, scale: number): SizeCode {
  if (form === "EK" || form === "UG") return r.chance(0.9) ? "MICRO" : "SMALL";
  if (form === "AG" || form === "SE") return r.weighted(["SMALL", "MEDIUM", "LARGE"] as SizeCode[], [3, 4, 3]);
  const w = scale === 0 ? [70, 23, 6, 1] : scale === 1 ? [55, 30, 12, 3] : [35, 35, 22, 8];
  return r.weighted(["MICRO", "SMALL", "MEDIUM", "LARGE"] as SizeCode[], w);
}

function employeesFor(size: SizeCode, r: Rng, revenue?: number): number {
  if (revenue && size === "LARGE") return Math.max(250, Math.round(revenue / 250_000));
  switch (size) {
    case "MICRO":
      return r.int(1, 9);
    case "SMALL":
      return r.int(10, 49);
    case "MEDIUM":
      return r.int(50, 249);
    default:
      return Math.round(250 * Math.pow(80, r.next()));
  }
}

function foundingFor(r: Rng, form: string, startYear: number): string {
  // Most registered companies are young; a long tail reaches back a century.
  let year = startYear - Math.floor(-Math.log(1 - r.next() * 0.999) * 14);
  if (form === "UG") year = Math.max(year, 2009);
  if (form === "PARTG") year = Math.max(year, 1995);
  year = Math.max(1880, Math.min(startYear - 1, year));
  return dateBetween(r, year, year + 1, startYear);
}

function statusFor(r: Rng): StatusCode {
  return r.weighted(
    ["ACTIVE", "IN_LIQUIDATION", "INSOLVENT", "DELETED", "INACTIVE"] as StatusCode[],
    [93, 2.5, 1.5, 1.5, 1.5],
  );
}

function capitalFor(r: Rng, form: string, size: SizeCode): number {
  if (form === "UG") return r.int(1, 5000);
  if (form === "AG") return 50_000 * r.int(1, 200);
  if (form === "SE") return 120_000 * r.int(1, 100);
  if (form === "GMBH" || form === "GMBH_CO_KG") return size === "MICRO" ? 25_000 : 25_000 * r.int(1, 40);
  if (form === "EG") return r.int(5, 500) * 1000;
  return r.int(1, 200) * 5000;
}

/** A random ISO date in [fromYear, toYear), never after Jan 1st of capYear + 1 day. */
function dateBetween(r: Rng, fromYear: number, toYear: number, capYear: number): string {
  const y = Math.min(r.int(fromYear, Math.max(fromYear, toYear - 1)), capYear);
  const m = r.int(1, y === capYear ? 1 : 12);
  const d = r.int(1, 28);
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}
