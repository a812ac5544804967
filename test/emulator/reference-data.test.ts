/**
 * The reference companies speak the caller's language like every other
 * company, their "last change" is plausible, and peers/similar rank by
 * industry level first with scores that actually differ.
 */
import { describe, expect, it } from "vitest";
import { INDUSTRIES } from "../../emulator/data/industries.ts";
import { REFERENCE } from "../../emulator/data/generate.ts";
import { RECENT_YEARS, addDays } from "../../emulator/data/details.ts";
import { industryLevel, INDUSTRY_LEVELS } from "../../emulator/search/similar.ts";
import { START, caller, makeEmulator } from "./helpers.ts";
import { nth } from "../helpers/indexed.ts";

const emu = makeEmulator();
const en = caller(emu, emu.demoKey, "EN");
const de = caller(emu, emu.demoKey, "DE");
const DE_TITLES = new Set(INDUSTRIES.map((i) => i.de));
const EN_TITLES = new Set(INDUSTRIES.map((i) => i.en));
const CLASS = /^[A-U]\d{2}\.\d{2}$/;

describe("reference companies: industry labels per language", () => {
  for (const ref of REFERENCE) {
    it(`${ref.name}: class code, EN and DE titles from the bilingual table`, () => {
      const e = en("GET", `/v2/companies/${ref.id}`).json;
      const d = de("GET", `/v2/companies/${ref.id}`).json;
      expect(e.industry.code).toMatch(CLASS);
      const row = INDUSTRIES.find((i) => i.code === e.industry.code)!;
      expect(row).toBeDefined();
      expect(e.industry.title).toBe(row.en);
      expect(d.industry.title).toBe(row.de);
      for (const t of e.industries.map((x: { title: string }) => x.title)) {
        expect(DE_TITLES.has(t) && !EN_TITLES.has(t)).toBe(false);
        expect(t).toBe(row.en);
      }
      for (const t of d.industries.map((x: { title: string }) => x.title)) expect(t).toBe(row.de);
      // The older listing labels the same way.
      const v1 = en("GET", `/v1/companies/${ref.id}`);
      if (v1.status === 200) expect(JSON.stringify(v1.json)).not.toContain(row.de);
    });
  }

  it("the audit's examples are English in EN", () => {
    expect(en("GET", "/v2/companies/DEJ8FPOA9115").json.industry.title).toBe("Wholesale of clothing and footwear");
    const henkel = en("GET", "/v2/companies/DEKQJ5DZDN52").json.industry;
    expect(henkel.code).toBe("C20.41");
    expect(henkel.title).not.toMatch(/Chemische|Erzeugnisse/);
    expect(en("GET", "/v2/companies/DEICNHGK6D59").json.industry.title).not.toContain("Bereifungen");
  });
});

describe("last change date", () => {
  const today = emu.world.today();
  const oldest = addDays(today, -Math.round(RECENT_YEARS * 365.25) - 1);
  const check = (id: string) => {
    const p = en("GET", `/v2/companies/${id}`).json;
    const changes = en("GET", `/v2/companies/${id}/changes?since=1800-01-01`).json.changes as { date: string }[];
    const ann = en("GET", `/v2/companies/${id}/announcements`).json.announcements as { date: string }[];
    const newest = [...changes.map((c) => c.date.slice(0, 10)), ...ann.map((a) => a.date)].sort().at(-1) ?? null;
    expect(p.lastChangeDate).toBe(newest);
    return p;
  };

  it("is the newest change or announcement, within the register window for active companies", () => {
    const trumpf = check("DEMWUYW5R962");
    expect(trumpf.lastChangeDate >= oldest).toBe(true);
    for (const ref of REFERENCE) {
      const p = check(ref.id);
      if (p.active && p.foundingDate < oldest)
        expect(p.lastChangeDate >= oldest, `${ref.name} ${p.lastChangeDate}`).toBe(true);
    }
    for (const c of emu.world.companies.slice(REFERENCE.length, REFERENCE.length + 300)) {
      const p = check(c.id);
      if (p.active && p.foundingDate < oldest)
        expect(p.lastChangeDate >= oldest, `${c.id} ${p.lastChangeDate}`).toBe(true);
    }
  });

  it("follows the clock: a change the clock makes becomes the last change", () => {
    const emu2 = makeEmulator();
    const call = caller(emu2);
    const applied = emu2.clock.advance(20);
    const ids = [...new Set(applied.map((e) => e.id))].slice(0, 30);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const p = call("GET", `/v2/companies/${id}`).json;
      expect(p.lastChangeDate > START).toBe(true);
      expect(p.lastChangeDate <= emu2.clock.today()).toBe(true);
    }
  });
});

describe("peers and similar rank by industry level, then size, region and text", () => {
  const level = (a: string, b: string) => INDUSTRY_LEVELS[industryLevel(a, b)];

  it("industry levels: class > group > division > section > none", () => {
    expect(industryLevel("C28.41", "C28.41")).toBe("class");
    expect(industryLevel("C28.41", "C28.49")).toBe("group");
    expect(industryLevel("C28.41", "C28.29")).toBe("division");
    expect(industryLevel("C28.41", "C10.71")).toBe("section");
    expect(industryLevel("C28.41", "J62.01")).toBe("none");
  });

  for (const id of ["DEMWUYW5R962", "DEJK7QV0PK24", "DEICNHGK6D59", "DEKQJ5DZDN52", "DEYQWR13CZ20"]) {
    it(`peers of ${id}: never a lower industry level above a higher one; scores spread`, () => {
      const seed = en("GET", `/v2/companies/${id}`).json.industry.code as string;
      const peers = en("GET", `/v2/companies/${id}/peers?size=20`).json.companies as {
        industry: { code: string };
        score: number;
      }[];
      expect(peers.length).toBe(20);
      const levels = peers.map((p) => level(seed, p.industry.code));
      for (let k = 1; k < levels.length; k++) expect(levels[k]).toBeLessThanOrEqual(nth(levels, k - 1));
      const scores = peers.map((p) => p.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      expect(new Set(scores).size).toBeGreaterThan(scores.length / 2);
    });
  }

  it("a same-class peer outscores a same-division one, which outscores a same-section one", () => {
    const peers = en("GET", `/v2/companies/DEMWUYW5R962/peers?size=100`).json.companies as {
      industry: { code: string };
      score: number;
    }[];
    const best = (lvl: number) =>
      Math.max(...peers.filter((p) => level("C28.41", p.industry.code) === lvl).map((p) => p.score));
    const worst = (lvl: number) =>
      Math.min(...peers.filter((p) => level("C28.41", p.industry.code) === lvl).map((p) => p.score));
    expect(nth(peers, 0).industry.code).toBe("C28.41");
    const divisionPeers = peers.filter((p) => level("C28.41", p.industry.code) === INDUSTRY_LEVELS.division);
    if (divisionPeers.length) expect(worst(INDUSTRY_LEVELS.class)).toBeGreaterThan(best(INDUSTRY_LEVELS.division));
    expect(Math.max(...peers.map((p) => p.score)) - Math.min(...peers.map((p) => p.score))).toBeGreaterThan(0.02);
  });

  it("similar for two software companies returns software companies first", () => {
    const sim = en("POST", "/v2/similar", { ids: ["DEJK7QV0PK24", "DE8R9NWF3Y01"], size: 10 }).json.companies as {
      industry: { code: string };
      score: number;
    }[];
    expect(sim.length).toBe(10);
    for (const c of sim) expect(c.industry.code.slice(0, 3)).toBe("J62");
    expect(new Set(sim.map((c) => c.score)).size).toBeGreaterThan(5);
  });
});
