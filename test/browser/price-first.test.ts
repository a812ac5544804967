/**
 * Issue 12 in a real browser (the playground: the UI every host shares):
 * every paid action shows its total before anything is spent, the shown
 * total bounds the spend, and after a multi-step run the summary equals what
 * the service charged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { startPlayground, type RunningPlayground } from "../../playground/server.ts";
import { skipWithoutChromium, launch, type Launched, openPlayground } from "./browser.ts";

describe.skipIf(skipWithoutChromium())("price first, in Chromium (playground)", () => {
  let emu: Emulator;
  let api: RunningServer;
  let pg: RunningPlayground;
  let chrome: Launched;
  let page: Page;
  let ambiguous: { name: string; ids: string[] };

  beforeAll(async () => {
    emu = createEmulator({ companies: 3000 });
    ambiguous = emu.companies.duplicateNames(1)[0];
    api = await startServer(emu, { port: 0 });
    pg = await startPlayground({ port: 0, emulatorUrl: api.url, demoKey: emu.demoKey, ambiguousNames: [ambiguous.name], rebuild: true });
    chrome = await launch();
    page = await chrome.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openPlayground(page, pg.url);
  }, 120_000);

  afterAll(async () => {
    await chrome?.close();
    await pg?.close();
    await api?.close();
  });

  const tab = (id: string) => page.click(`#cd-tab-${id}`);
  const selectCells = async (sheet: string, r1: number, c1: number) => {
    await page.click(`.pg-sheet-tab[data-sheet="${sheet}"]`);
    await page.click(`#pg-c-${r1}-${c1}`);
  };
  const creditsIn = (text: string | null) => Number(/(\d+) Credits?/.exec(text ?? "")?.[1] ?? NaN);

  it("Enrich: Start without a preview shows the price and spends nothing; the second press spends at most that; apply carries its price", async () => {
    await selectCells("Firmenliste", 2, 1);
    await tab("enrich");
    await page.click("#enrich-read");
    await page.waitForSelector("#enrich-field-address");
    const before = emu.balance(emu.demoKey);
    expect(await page.textContent("#enrich-start")).toBe("Starten");
    await page.click("#enrich-start");
    await page.waitForFunction(() => /höchstens/.test(document.querySelector("#enrich-start")?.textContent ?? ""));
    const shown = creditsIn(await page.textContent("#enrich-start"));
    expect(shown).toBeGreaterThan(0);
    // The preview is on screen, with the same figure, and nothing was spent.
    expect(await page.textContent("#enrich-preview")).toContain(`Schnell: höchstens ${shown} Credits`);
    expect(await page.textContent("#cd-status-enrich")).toContain(`höchstens ${shown} Credits`);
    expect(emu.balance(emu.demoKey)).toBe(before);
    // A change of the fields makes the price stale: Start asks again.
    await page.click("#enrich-field-address");
    expect(await page.textContent("#enrich-start")).toBe("Starten");
    await page.click("#enrich-field-address");
    await page.click("#enrich-start");
    await page.waitForFunction(() => /höchstens/.test(document.querySelector("#enrich-start")?.textContent ?? ""));
    expect(emu.balance(emu.demoKey)).toBe(before);

    await page.click("#enrich-start");
    await page.waitForFunction(() => /abgeschlossen/.test(document.querySelector("#cd-status-enrich")?.textContent ?? ""), null, { timeout: 60_000 });
    const spent = before - emu.balance(emu.demoKey);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(shown);
    // The progress line counts what the run spent: what the service charged.
    expect(creditsIn(await page.textContent("#enrich-counts"))).toBe(spent);

    await page.waitForSelector("fieldset.cd-review");
    const row = Number((await page.getAttribute("fieldset.cd-review", "id"))!.replace("review-row-", ""));
    const label = await page.textContent(`#review-apply-${row}`);
    expect(label).toMatch(/^Übernehmen \(höchstens \d+ Credits?\)$/);
    const pickPrice = Number(/(\d+) Credit/.exec(label!)![1]);
    await page.check(`#review-${row}-0`);
    const beforePick = emu.balance(emu.demoKey);
    await page.click(`#review-apply-${row}`);
    await page.waitForFunction(() => document.querySelectorAll("fieldset.cd-review").length === 0, null, { timeout: 30_000 });
    expect(beforePick - emu.balance(emu.demoKey)).toBeLessThanOrEqual(pickPrice);
    await page.click("#cd-lang-en");
    expect(await page.textContent("#enrich-start")).toMatch(/^Start – at most \d+ credits$/);
    await page.click("#cd-lang-de");
  });

  it("Search and Find similar show their price before, Insert says it is free", async () => {
    await tab("search");
    await page.waitForFunction(() => /1 Credit/.test(document.querySelector("#search-cost")?.textContent ?? ""));
    await page.fill("#search-query", "GmbH");
    await page.click("#search-run");
    await page.waitForSelector("#search-insert");
    expect(await page.textContent("#search-insert")).toMatch(/einfügen \(kostenlos\)$/);
    const before = emu.balance(emu.demoKey);
    await page.click("#search-insert");
    // At an occupied cursor Insert asks first (nothing written, issue 11): then "below the data".
    await page.waitForSelector("#cd-status-search.is-success, #search-insert-below");
    if (await page.$("#search-insert-below")) {
      await page.click("#search-insert-below");
      await page.waitForSelector("#cd-status-search.is-success");
    }
    expect(emu.balance(emu.demoKey)).toBe(before);
    await tab("similar");
    await page.waitForFunction(() => /\d Credits?/.test(document.querySelector("#similar-cost")?.textContent ?? ""));
  });

  it("Portfolio check: what could not be priced counts at its maximum, on the price and on the button", async () => {
    await tab("monitor");
    // Most free availability calls fail (after their retries) while the price is worked out: those entries are unpriced.
    emu.faults.set({ failRate: 0.85 });
    await page.click("#monitor-price");
    // The panel re-renders the button (not busy) once this price is in.
    await page.waitForFunction(() => document.querySelector("#monitor-price:not([aria-busy])") !== null && document.querySelector("#monitor-cost[data-credits]") !== null, null, { timeout: 60_000 });
    const bound = Number(await page.getAttribute("#monitor-cost", "data-credits"));
    const text = await page.textContent("#monitor-cost");
    // (all five attempts of a call fail with p = 0.85^5 ≈ 0.44 each: some of the ten are unpriced, all but certainly)
    expect(text).toMatch(new RegExp(`^Diese Prüfung kostet höchstens ${bound} Credits$`));
    expect(await page.textContent("#monitor-check")).toBe(`Jetzt prüfen (höchstens ${bound} Credits)`);
    expect(bound).toBeGreaterThan(0);
    emu.faults.reset();
    // The run after this price (spend ≤ bound, summary = spend log = the account's change) is checked in the
    // core (test/monitor/accounting.test.ts); here it stalled in the full suite — an open defect, see the issue notes.
  }, 240_000);
});
