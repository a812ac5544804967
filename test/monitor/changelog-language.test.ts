/**
 * The change log is "Änderungen" for German users and "Changes" for English
 * ones; a user who switches language keeps writing to the log that exists,
 * under whichever name, and no line is logged twice.
 */
import { describe, expect, it } from "vitest";
import { runSync } from "../../shared/core/drivers.ts";
import { checkPortfolio } from "../../shared/monitor/check.ts";
import { CHANGES_HEADERS, CHANGES_SHEETS } from "../../shared/monitor/changelog.ts";
import type { Language } from "../../shared/i18n/language.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { harness, type Harness } from "./harness.ts";
import portfolio from "../../emulator/data/reference/portfolio.json" with { type: "json" };
import { nth } from "../helpers/indexed.ts";

const ids = portfolio.portfolio.map((c) => c.id);

function setup(language: Language): Harness {
  const h = harness({ language });
  h.sheets.set("Portfolio", [["ID", "Company"], ...portfolio.portfolio.map((c) => [c.id, c.name])]);
  return h;
}
const as = (h: Harness, language: Language): OpContext => ({ ...h.ctx, client: { ...h.ctx.client, language } });
const check = (h: Harness, language: Language) => runSync(checkPortfolio(as(h, language), {}), h.driver);
const has = (h: Harness, name: string) => h.sheets.values.has(name);
const keysIn = (h: Harness, name: string) =>
  h.sheets
    .get(name)
    .slice(1)
    .map((r) => String(r[6]));

/** A day with a new register change for `id`, then a check in `language`. */
function dayWithChange(
  h: Harness,
  id: string,
  language: Language,
  kind: "ADDRESS" | "INSOLVENCY" | "CAPITAL" = "ADDRESS",
) {
  h.emu.scheduleEvent(id, { day: h.emu.clock.day() + 1, kind });
  h.advance(1);
  return check(h, language);
}

describe("change log name per language", () => {
  it("a German user's log is „Änderungen“ with a German header; an English user's is \"Changes\"", () => {
    expect(CHANGES_SHEETS).toEqual({ de: "Änderungen", en: "Changes" });
    const de = setup("de");
    check(de, "de");
    dayWithChange(de, nth(ids, 0), "de");
    expect(has(de, "Änderungen")).toBe(true);
    expect(has(de, "Changes")).toBe(false);
    expect(de.sheets.get("Änderungen")[0]).toEqual(CHANGES_HEADERS.de);
    expect(keysIn(de, "Änderungen").some((k) => k.startsWith(nth(ids, 0)))).toBe(true);

    const en = setup("en");
    check(en, "en");
    dayWithChange(en, nth(ids, 0), "en");
    expect(has(en, "Changes")).toBe(true);
    expect(has(en, "Änderungen")).toBe(false);
    expect(en.sheets.get("Changes")[0]).toEqual(CHANGES_HEADERS.en);
  });

  for (const [first, second] of [
    ["de", "en"],
    ["en", "de"],
  ] as const) {
    it(`switching ${first} → ${second} keeps the one log and logs no line twice`, () => {
      const h = setup(first);
      const log = CHANGES_SHEETS[first];
      check(h, first);
      dayWithChange(h, nth(ids, 0), first);
      const before = keysIn(h, log);
      expect(before.length).toBeGreaterThan(0);

      // The same day checked again in the other language: nothing new, no second sheet.
      check(h, second);
      expect(has(h, CHANGES_SHEETS[second])).toBe(false);
      expect(keysIn(h, log)).toEqual(before);

      // A new change, checked in the other language: appended to the existing log.
      dayWithChange(h, nth(ids, 1), second, "CAPITAL");
      expect(has(h, CHANGES_SHEETS[second])).toBe(false);
      const after = keysIn(h, log);
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.some((k) => k.startsWith(nth(ids, 1)))).toBe(true);
      expect(new Set(after).size).toBe(after.length);
      // The header stays as the log was created.
      expect(h.sheets.get(log)[0]).toEqual(CHANGES_HEADERS[first]);

      // And back: still one log, still no duplicates.
      check(h, first);
      expect(keysIn(h, log)).toEqual(after);
    });
  }

  it("a sheet named by the caller is used as given", () => {
    const h = setup("de");
    h.sheets.set("Änderungen", [CHANGES_HEADERS.de]);
    runSync(checkPortfolio(h.ctx, { changesSheet: "Mein Log" }), h.driver);
    h.emu.scheduleEvent(nth(ids, 0), { day: h.emu.clock.day() + 1, kind: "ADDRESS" });
    h.advance(1);
    runSync(checkPortfolio(h.ctx, { changesSheet: "Mein Log" }), h.driver);
    expect(keysIn(h, "Mein Log").some((k) => k.startsWith(nth(ids, 0)))).toBe(true);
    expect(keysIn(h, "Änderungen")).toEqual([]);
  });
});
