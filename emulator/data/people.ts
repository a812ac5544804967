/**
 * Who manages which company. Built once at start-up as compact arrays
 * (company -> people, person -> companies) because a person's network is a
 * reverse lookup that cannot be derived lazily. People are reused within a
 * city, so networks are real: a managing director often sits in several
 * companies of the same town.
 */
import { FIRST_NAMES, SURNAMES } from "./names.ts";
import { Rng, hash32 } from "../rng.ts";
import type { CompanyRec } from "./model.ts";
import { nth } from "../indexed.ts";

export interface PeopleIndex {
  /** companyStart[i]..companyStart[i+1] index into person/role. */
  companyStart: Int32Array;
  person: Int32Array;
  role: Uint8Array;
  /** personStart[p]..personStart[p+1] index into personCompany. */
  personStart: Int32Array;
  personCompany: Int32Array;
  count: number;
}

export const ROLES = [
  "MANAGING_DIRECTOR",
  "BOARD_MEMBER",
  "CHAIR",
  "SUPERVISORY_BOARD",
  "PROKURIST",
  "GENERAL_PARTNER",
  "OWNER",
  "PARTNER",
  "LIQUIDATOR",
] as const;
export type Role = (typeof ROLES)[number];
const R = (r: Role) => ROLES.indexOf(r);

function rolesFor(form: string, size: string, r: Rng): number[] {
  const big = size === "MEDIUM" || size === "LARGE";
  switch (form) {
    case "AG":
    case "SE":
    case "KGAA":
      return [
        R("CHAIR"),
        ...Array<number>(r.int(1, 3)).fill(R("BOARD_MEMBER")),
        ...Array<number>(r.int(1, 3)).fill(R("SUPERVISORY_BOARD")),
      ];
    case "EK":
      return [R("OWNER")];
    case "OHG":
      return [R("GENERAL_PARTNER"), R("GENERAL_PARTNER")];
    case "KG":
    case "GMBH_CO_KG":
      return [R("GENERAL_PARTNER"), ...(r.chance(0.5) ? [R("MANAGING_DIRECTOR")] : [])];
    case "PARTG":
      return Array<number>(r.int(2, 4)).fill(R("PARTNER"));
    case "EG":
      return [R("BOARD_MEMBER"), R("BOARD_MEMBER")];
    default:
      return [
        ...Array<number>(big ? r.int(2, 3) : r.int(1, 2)).fill(R("MANAGING_DIRECTOR")),
        ...(big && r.chance(0.6) ? [R("PROKURIST")] : []),
      ];
  }
}

export function buildPeople(companies: readonly CompanyRec[], seed: number, cityCount: number): PeopleIndex {
  const n = companies.length;
  const companyStart = new Int32Array(n + 1);
  const persons: number[] = [];
  const roles: number[] = [];
  const recent: number[][] = Array.from({ length: cityCount }, () => []);
  let next = 0;
  for (let i = 0; i < n; i++) {
    const c = nth(companies, i);
    const r = Rng.for(seed, "people:" + c.id);
    companyStart[i] = persons.length;
    const pool = nth(recent, c.city);
    const used = new Set<number>();
    for (const role of rolesFor(c.legalForm, c.size, r)) {
      let p: number;
      if (pool.length > 0 && r.chance(0.18)) p = nth(pool, r.int(0, pool.length - 1));
      else p = next++;
      if (used.has(p)) p = next++;
      used.add(p);
      persons.push(p);
      roles.push(role);
      if (pool.length < 64) pool.push(p);
      else pool[r.int(0, 63)] = p;
    }
  }
  companyStart[n] = persons.length;
  // Reverse index by counting sort.
  const personStart = new Int32Array(next + 1);
  for (const p of persons) personStart[p + 1] = nth(personStart, p + 1) + 1;
  for (let p = 0; p < next; p++) personStart[p + 1] = nth(personStart, p + 1) + nth(personStart, p);
  const fill = personStart.slice(0, next);
  const personCompany = new Int32Array(persons.length);
  for (let i = 0; i < n; i++) {
    for (let k = nth(companyStart, i); k < nth(companyStart, i + 1); k++) {
      const p = nth(persons, k);
      const slot = nth(fill, p);
      personCompany[slot] = i;
      fill[p] = slot + 1;
    }
  }
  return {
    companyStart,
    person: Int32Array.from(persons),
    role: Uint8Array.from(roles),
    personStart,
    personCompany,
    count: next,
  };
}

// Person ids encode the person's number through an invertible 32-bit mix, so
// no id -> person map is stored: P + 3 check characters + 7 base-36 digits.
const MUL = 0x2c1b3c6d | 1;
const INV = (() => {
  let x = MUL;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(MUL, x));
  return x >>> 0;
})();
const B36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export function personId(seed: number, p: number): string {
  const mixed = Math.imul((p ^ (seed & 0xffff)) >>> 0, MUL) >>> 0;
  const body = mixed.toString(36).toUpperCase().padStart(7, "0");
  const h = hash32(seed, body);
  return "P" + B36[h % 36] + B36[(h >>> 6) % 36] + B36[(h >>> 12) % 36] + body;
}

/** The person number of an id, or -1 if the id was not made by personId. */
export function personNumber(seed: number, id: string): number {
  if (!/^P[A-Z0-9]{10}$/.test(id)) return -1;
  const mixed = parseInt(id.slice(4), 36);
  if (!Number.isFinite(mixed) || mixed > 0xffffffff) return -1;
  const p = ((Math.imul(mixed, INV) >>> 0) ^ (seed & 0xffff)) >>> 0;
  return personId(seed, p) === id ? p : -1;
}

export function personName(seed: number, p: number): string {
  const r = Rng.for(seed, "pn:" + p);
  return `${r.pick(FIRST_NAMES)} ${r.pick(SURNAMES)}`;
}
