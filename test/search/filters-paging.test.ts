/**
 * Search filters and paging against the in-process emulator: the filters
 * reach the service and every hit satisfies them; a search past one page
 * costs exactly the price its plan showed, returns no company twice and
 * stops at the limit; COMPANY_SEARCH takes a filter text.
 */
import { describe, expect, it } from "vitest";
import { createEmulator } from "../../emulator/index.ts";
import { runSync } from "../../shared/core/drivers.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { FUNCTIONS, invoke, isCellError, type FunctionContext } from "../../shared/functions/index.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import {
  ACCEPTED,
  buildFilters,
  FEDERAL_STATES,
  filtersOfLists,
  parseFilterText,
  stateCode,
  wzCode,
} from "../../shared/operations/search-filters.ts";
import { LEGAL_FORMS } from "../../shared/operations/legal-form.ts";
import {
  searchFirstPage,
  searchPages,
  searchPlan,
  MAX_SEARCH_RESULTS,
  type PagedSearch,
} from "../../shared/operations/search-pages.ts";
import type { SearchResponse } from "../../shared/operations/company.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { nth } from "../helpers/indexed.ts";

const emulator = createEmulator({ companies: 3000, startDate: "2026-01-15" });
const NOW = Date.UTC(2026, 0, 15);

function setup(lang: "de" | "en" = "en") {
  const key = emulator.createKey(100_000);
  const d = emulatorDrivers(emulator);
  const ctx: OpContext = {
    client: {
      apiKey: key,
      baseUrl: "http://emulator.test",
      language: lang,
      now: () => NOW,
      random: () => 0.5,
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 3600,
    maxBatch: 100,
    scope: "search",
  };
  const spent = (f: () => void) => {
    const before = emulator.balance(key);
    f();
    return before - emulator.balance(key);
  };
  return { key, ctx, d, spent, run: <T>(op: Generator<unknown, T, unknown>) => runSync<T>(op as never, d.sync) };
}

const invalidField = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof CompanyDataError ? e.details.field : String(e);
  }
  return null;
};

describe("filters as users type them", () => {
  it("WZ codes with or without the section letter, states by code or name, size classes in either language", () => {
    expect(wzCode("62.01")).toBe("J62.01");
    expect(wzCode("j62")).toBe("J62");
    expect(wzCode("J62.01 Programmierungstätigkeiten")).toBe("J62.01");
    expect(wzCode("C")).toBe("C");
    expect(wzCode("K62")).toBeNull();
    expect(wzCode("Software")).toBeNull();
    const f = buildFilters(
      {
        industry: "62, C28",
        state: "BY, Nordrhein-Westfalen, de-be",
        sizeClass: "klein, MEDIUM",
        legalForm: "GmbH",
        activeOnly: true,
      },
      NOW,
    );
    // Legal forms become the API's filter value from the one legal-form table (shared/operations/legal-form.ts).
    expect(f).toEqual({
      industry: ["J62", "C28"],
      state: ["DE-BY", "DE-NW", "DE-BE"],
      size: ["SMALL", "MEDIUM"],
      legalForm: ["GMBH"],
      active: true,
    });
  });

  it("all sixteen states by ISO code, short code, German and English name, umlauts written any way", () => {
    for (const st of FEDERAL_STATES) {
      for (const spelling of [
        st.code,
        st.code.slice(3),
        st.code.toLowerCase(),
        st.de,
        st.en,
        st.de.toUpperCase(),
        st.de.replace(/ü/g, "ue").replace(/ä/g, "ae").replace(/ö/g, "oe"),
        st.de.replace(/ü/g, "u"),
      ]) {
        expect(stateCode(spelling), spelling).toBe(st.code);
      }
    }
    expect(buildFilters({ state: "Baden-Wuerttemberg, Thüringen, Thuringia, Bavaria, NRW" }, NOW)?.state).toEqual([
      "DE-BW",
      "DE-TH",
      "DE-BY",
      "DE-NW",
    ]);
    for (const bad of ["DE-XX", "XX", "Texas", "Bayer", ""]) expect(stateCode(bad), bad).toBeNull();
  });

  it("lists of values (the MCP tools) go through the same parsers; a refusal names every accepted value", () => {
    expect(
      filtersOfLists({
        state: ["Bayern", "Bavaria", "DE-BE"],
        industry: ["62.01"],
        size: ["SMALL"],
        legalForm: ["Aktiengesellschaft", "gmbh & co kg"],
        city: " Köln ",
        active: true,
        minAgeYears: 2,
      }),
    ).toEqual({
      state: ["DE-BY", "DE-BE"],
      industry: ["J62.01"],
      size: ["SMALL"],
      legalForm: ["AG", "GMBH_CO_KG"],
      city: "Köln",
      active: true,
      minAgeYears: 2,
    });
    expect(filtersOfLists({ state: [], industry: [] })).toBeUndefined();
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as CompanyDataError;
      }
      throw new Error("not refused");
    };
    const st = refusal(() => filtersOfLists({ state: ["DE-XX"] }));
    expect(st.details.field).toBe("filters.state");
    for (const x of FEDERAL_STATES) {
      expect(st.text("de")).toContain(`${x.code} ${x.de}`);
      expect(st.text("en")).toContain(`${x.code} ${x.en}`);
    }
    const lf = refusal(() => filtersOfLists({ legalForm: ["Quatsch"] }));
    expect(lf.details.field).toBe("filters.legalForm");
    for (const f of LEGAL_FORMS.filter((x) => x.filter !== null)) expect(lf.text("en")).toContain(f.short);
    expect(refusal(() => filtersOfLists({ legalForm: ["e.V."] })).text("en")).toMatch(
      /not a legal form the service filters by/,
    );
    expect(refusal(() => filtersOfLists({ industry: ["ZZZ"] })).text("de")).toMatch(
      /„ZZZ“: kein WZ-2008-Code; erlaubt: .*J 58–63/,
    );
    expect(refusal(() => filtersOfLists({ size: ["HUGE"] })).text("en")).toMatch(
      /size classes: MICRO, SMALL, MEDIUM, LARGE/,
    );
    expect(refusal(() => filtersOfLists({ minAgeYears: 9, maxAgeYears: 3 })).details.field).toBe("filters.maxAgeYears");
    expect(ACCEPTED.state.en).toMatch(/^federal states as ISO code/);
  });

  it("founded after/before become age bounds measured from now", () => {
    const f = buildFilters({ foundedAfter: "2016-01-15", foundedBefore: "2021" }, NOW)!;
    expect(f.maxAgeYears).toBeCloseTo(10, 1);
    expect(f.minAgeYears).toBeCloseTo(5.04, 1);
    expect(invalidField(() => buildFilters({ foundedAfter: "2021", foundedBefore: "2020" }, NOW))).toBe(
      "foundedBefore",
    );
    expect(invalidField(() => buildFilters({ foundedAfter: "2021-02-30" }, NOW))).toBe("foundedAfter");
  });

  it("a filter text in German or English; unknown keys and bad values are named", () => {
    expect(
      parseFilterText(
        "Branche=J62; Bundesland=Bayern; Größe=klein,mittel; Rechtsform=GmbH; gegründet_nach=2015; aktiv",
      ),
    ).toEqual({
      industry: "J62",
      state: "Bayern",
      sizeClass: "klein,mittel",
      legalForm: "GmbH",
      foundedAfter: "2015",
      activeOnly: true,
    });
    expect(parseFilterText("industry: C28\nfounded_before=2000; active=no")).toEqual({
      industry: "C28",
      foundedBefore: "2000",
      activeOnly: false,
    });
    let err: CompanyDataError | undefined;
    try {
      parseFilterText("colour=red");
    } catch (e) {
      err = e as CompanyDataError;
    }
    expect(err?.text("de")).toContain("unbekannter Filter „colour“");
    expect(err?.text("en")).toContain('unknown filter "colour"');
    expect(invalidField(() => buildFilters({ state: "Texas" }, NOW))).toBe("state");
    expect(invalidField(() => buildFilters({ sizeClass: "huge" }, NOW))).toBe("sizeClass");
  });
});

describe("filtered search against the emulator", () => {
  it("every hit satisfies industry, state, size, legal form and active", () => {
    const { ctx, run } = setup();
    const filters = buildFilters(
      { industry: "J62", state: "DE-BY, DE-BE", sizeClass: "MICRO,SMALL", legalForm: "GmbH", activeOnly: true },
      NOW,
    )!;
    const res = run(searchFirstPage(ctx, { query: "", filters }));
    expect(res.companies.length).toBeGreaterThan(0);
    for (const c of res.companies) {
      expect(c.industry?.code).toMatch(/^J62/);
      expect(["DE-BY", "DE-BE"]).toContain(c.state);
      expect(["MICRO", "SMALL"]).toContain(c.size?.code);
      expect(c.legalForm?.code).toBe("GMBH");
      expect(c.active).toBe(true);
    }
  });

  it("founded after a year: every hit was founded after it", () => {
    const { ctx, run } = setup();
    const filters = buildFilters({ foundedAfter: "2018" }, NOW)!;
    const res = run(searchFirstPage(ctx, { query: "", filters }));
    expect(res.companies.length).toBeGreaterThan(0);
    for (const c of res.companies.slice(0, 20)) {
      const founded = emulator.world.profile(emulator.world.byId(c.id)!, "en").foundingDate;
      expect(founded >= "2017-12").toBe(true);
    }
  });

  it("COMPANY_SEARCH takes a filter text; a bad filter is a cell error naming it, nothing spent", () => {
    const { run: _r, ctx, d, spent } = setup("de");
    const fctx: FunctionContext = { ctx, dailyBudget: null };
    const def = FUNCTIONS.find((f) => f.name === "SEARCH")!;
    const call = (args: unknown[]) => runSync(invoke(def, fctx, args), d.sync);
    let out: ReturnType<typeof call> = [];
    expect(spent(() => (out = call(["", 20, "", "", "Branche=62.01; Bundesland=BY"])))).toBe(1);
    expect(out.length).toBeGreaterThan(1);
    for (const row of out.slice(1)) expect(String(row[5])).toMatch(/Programmier/);
    let bad: ReturnType<typeof call> = [];
    expect(spent(() => (bad = call(["Software", 5, "", "", "Bundesland=Texas"])))).toBe(0);
    expect(isCellError(nth(bad, 0)[0])).toBe(true);
    expect(JSON.stringify(nth(bad, 0)[0])).toContain("Texas");
  });
});

describe("past one page", () => {
  it("the plan's price equals what paging spends; no company twice; stops at the limit", () => {
    const { ctx, run, spent } = setup();
    const criteria = { query: "", filters: { active: true } };
    let first!: SearchResponse;
    const firstCost = spent(() => (first = run(searchFirstPage(ctx, criteria))));
    expect(firstCost).toBe(1);
    const total = first.total!;
    expect(total).toBeGreaterThan(450);
    const plan = run(searchPlan(ctx, criteria, total, 450));
    // Page 1 is in the cache already: 5 pages, 4 to pay.
    expect(plan).toEqual({ results: 450, pages: 5, toPay: 4 });
    let res!: PagedSearch;
    expect(spent(() => (res = run(searchPages(ctx, criteria, 450))))).toBe(plan.toPay);
    expect(res.companies).toHaveLength(450);
    expect(new Set(res.companies.map((c) => c.id)).size).toBe(450);
    expect(res.complete).toBe(false);
    // Asked again: all from the cache.
    expect(run(searchPlan(ctx, criteria, total, 450)).toPay).toBe(0);
    expect(spent(() => run(searchPages(ctx, criteria, 450)))).toBe(0);
  });

  it("all results when fewer than the limit; excluded ids are left out and counted", () => {
    const { ctx, run, spent } = setup();
    const criteria = { query: "", filters: { industry: ["J62"], state: ["DE-BY"] } };
    const first = run(searchFirstPage(ctx, criteria));
    const total = first.total!;
    const plan = run(searchPlan(ctx, criteria, total, MAX_SEARCH_RESULTS));
    expect(plan.results).toBe(total);
    const exclude = new Set(first.companies.slice(0, 3).map((c) => c.id));
    let res!: PagedSearch;
    expect(
      spent(() => (res = run(searchPages(ctx, criteria, MAX_SEARCH_RESULTS, { exclude: (c) => exclude.has(c.id) })))),
    ).toBe(plan.toPay);
    expect(res.companies).toHaveLength(total - 3);
    expect(res.excluded).toBe(3);
    expect(res.complete).toBe(true);
    expect(res.companies.some((c) => exclude.has(c.id))).toBe(false);
  });

  it("a limit outside 1..10,100 is refused before anything is sent", () => {
    const { ctx, run, d } = setup();
    expect(invalidField(() => run(searchPages(ctx, { query: "x" }, 0)))).toBe("limit");
    expect(invalidField(() => run(searchPages(ctx, { query: "x" }, MAX_SEARCH_RESULTS + 1)))).toBe("limit");
    expect(d.requests).toHaveLength(0);
  });
});
