/**
 * The portfolio check on the three sheet adapters: a sort while the check
 * runs (after it read the table, before it wrote) never puts an id or a
 * result into another company's row; an id already in a row that belongs to
 * another company than the row's name is shown as such (DE/EN), never
 * trusted silently; a missing portfolio sheet is the same error everywhere.
 */
import { describe, expect, it } from "vitest";
import { runAsync, type AsyncDriver } from "../../shared/core/drivers.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import type { Language } from "../../shared/i18n/language.ts";
import { checkPortfolio } from "../../shared/monitor/check.ts";
import { noSuchSheet, type Cell } from "../../shared/core/sheet-protocol.ts";
import { world } from "../enrich/world.ts";
import { ADAPTERS } from "./adapters.ts";
import { COMPANIES } from "./kit.ts";
import { nth } from "../helpers/indexed.ts";

const ID_OF = new Map(COMPANIES.map((c) => [c.name, c.id]));

function session(adapter: (typeof ADAPTERS)[number], rows: Cell[][], lang: Language = "de") {
  const w = world(COMPANIES);
  const ctx = { ...w.ctx, client: { ...w.ctx.client, language: lang } };
  const wb = adapter.open({ Portfolio: [[lang === "de" ? "Firma" : "Company", "ID"], ...rows] });
  let during: (() => void) | null = null;
  const driver: AsyncDriver = {
    ...w.async,
    http: async (r) => {
      // After the table was read and its names resolved: the first paid profile request.
      if (during && r.some((x) => /\/v2\/companies\/DE[A-Z0-9]{10}$/.test(new URL(x.url).pathname))) {
        const act = during;
        during = null;
        act();
      }
      return w.async.http(r);
    },
    sheet: (req) => wb.handle(req),
  };
  return {
    wb,
    w,
    async check(o: { during?: () => void; sheet?: string } = {}) {
      during = o.during ?? null;
      try {
        return await runAsync(checkPortfolio(ctx, { sheet: o.sheet ?? "Portfolio", windowRows: 4 }), driver);
      } finally {
        wb.endStep();
      }
    },
    user(edit: (rows: Cell[][]) => Cell[][]) {
      const g = wb.grid("Portfolio");
      wb.setGrid("Portfolio", [nth(g, 0), ...edit(g.slice(1))]);
    },
  };
}

const names = (n: number): Cell[][] => COMPANIES.slice(0, n).map((c) => [c.name, ""]);

describe.each(ADAPTERS)("portfolio rows stay with their company: $name", (adapter) => {
  it("a sort during the check: every id and result is in its own company's row", async () => {
    const s = session(adapter, names(10));
    await s.check({ during: () => s.user((rows) => [...rows].reverse()) });
    const g = s.wb.grid("Portfolio");
    const risk = nth(g, 0).findIndex((h) => String(h).startsWith("Risiko"));
    for (const r of g.slice(1, 11)) {
      expect(r[1], String(r[0])).toBe(ID_OF.get(String(r[0])));
      expect(String(r[risk] ?? "")).not.toBe("");
    }
    // The next check trusts those ids: still each row's own company, nothing flagged.
    await s.check();
    const again = s.wb.grid("Portfolio");
    for (const r of again.slice(1, 11)) expect(r[1], String(r[0])).toBe(ID_OF.get(String(r[0])));
    expect(JSON.stringify(again)).not.toMatch(/ID prüfen/);
  });

  it.each(["de", "en"] as const)(
    "an id that belongs to another company than the row's name is shown (%s)",
    async (lang) => {
      const rows = names(4);
      rows[1] = [nth(COMPANIES, 1).name, nth(COMPANIES, 2).id]; // the id of Firma 2 beside the name Firma 1
      const s = session(adapter, rows, lang);
      await s.check();
      const g = s.wb.grid("Portfolio");
      const text = JSON.stringify(g[2]);
      expect(text).toContain(lang === "de" ? "ID prüfen" : "Check ID");
      expect(text).toContain(nth(COMPANIES, 2).name);
      // The other rows are not flagged.
      expect(JSON.stringify([g[1], g[3], g[4]])).not.toMatch(/ID prüfen|Check ID/);
    },
  );

  it("a missing portfolio sheet: the same clear error everywhere", async () => {
    const s = session(adapter, names(2));
    const err = await s.check({ sheet: "Weg" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CompanyDataError);
    expect((err as CompanyDataError).text("de")).toBe(noSuchSheet("Weg").text("de"));
  });
});
