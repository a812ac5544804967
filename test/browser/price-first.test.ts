/**
 * Issue 12 in a real browser (the playground: the UI every host shares):
 * every paid action shows its total before anything is spent, the shown
 * total bounds the spend, and after a multi-step run the summary equals what
 * the service charged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { skipWithoutChromium, playgroundWorld, type PlaygroundWorld } from "./browser.ts";
import { nth } from "../helpers/indexed.ts";

describe.skipIf(skipWithoutChromium())("price first, in Chromium (playground)", () => {
  let emu: Emulator;
  let world: PlaygroundWorld;
  let page: Page;
  let ambiguous: { name: string; ids: string[] };

  beforeAll(async () => {
    emu = createEmulator({ companies: 3000 });
    ambiguous = nth(emu.companies.duplicateNames(1), 0);
    world = await playgroundWorld(emu, { rebuild: true, ambiguousNames: [ambiguous.name] });
    ({ page } = world);
  }, 120_000);

  afterAll(() => world?.close());

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
    await page.waitForFunction(
      () => /abgeschlossen/.test(document.querySelector("#cd-status-enrich")?.textContent ?? ""),
      null,
      { timeout: 60_000 },
    );
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
    await page.waitForFunction(() => document.querySelectorAll("fieldset.cd-review").length === 0, null, {
      timeout: 30_000,
    });
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

  it("a click is never lost when the panel re-renders between the press and the release", async () => {
    await tab("search");
    await page.fill("#search-query", "Bau");
    const box = (await page.locator("#search-run").boundingBox())!;
    const before = emu.balance(emu.demoKey);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    // An automatic price, a finished call: anything that re-renders the panel while the button is held.
    await page.evaluate(() =>
      (window as unknown as { __playground: { ui: { rerender(): void } } }).__playground.ui.rerender(),
    );
    await page.mouse.up();
    await page.waitForFunction(
      () =>
        /Bau/.test(document.querySelector("#search-results, .cd-results")?.textContent ?? "") ||
        document.querySelector("#cd-status-search.is-success, #cd-status-search.is-info") !== null,
      null,
      { timeout: 30_000 },
    );
    expect(emu.balance(emu.demoKey)).toBeLessThan(before);
  });

  it("Portfolio check: what could not be priced counts at its maximum, the run stays within the shown price, and the summary counts every step", async () => {
    // Every free availability call fails (after its retries) while the price is worked out, the automatic
    // price of the opening panel included: every entry is unpriced and counts at its maximum.
    emu.faults.set({ failRate: 1 });
    await tab("monitor");
    await page.waitForFunction(() => document.querySelector("#monitor-cost[data-credits]") !== null, null, {
      timeout: 120_000,
    });
    await page.click("#monitor-price");
    // The panel re-renders the button (not busy) once this price is in.
    await page.waitForFunction(
      () =>
        document.querySelector("#monitor-price:not([aria-busy])") !== null &&
        document.querySelector("#monitor-cost[data-credits]") !== null,
      null,
      { timeout: 120_000 },
    );
    const bound = Number(await page.getAttribute("#monitor-cost", "data-credits"));
    expect(await page.textContent("#monitor-cost")).toBe(`Diese Prüfung kostet höchstens ${bound} Credits`);
    expect(await page.textContent("#monitor-check")).toBe(`Jetzt prüfen (höchstens ${bound} Credits)`);
    expect(bound).toBeGreaterThan(0);
    // Some calls of the run fail too: it pauses and the panel continues it, step by step.
    emu.faults.set({ failRate: 0.5 });
    const before = emu.balance(emu.demoKey);
    expect(await page.$("#monitor-last-spent")).toBeNull();
    // One click, right after the price re-rendered the panel: a click is never lost to a re-render (shared/ui/app.ts).
    await page.click("#monitor-check");
    await page.waitForFunction(
      () => {
        const b = document.querySelector("#monitor-check");
        return b !== null && !b.hasAttribute("aria-busy") && document.querySelector("#monitor-last-spent") !== null;
      },
      null,
      { timeout: 180_000 },
    );
    emu.faults.reset();
    const charged = before - emu.balance(emu.demoKey);
    expect(charged).toBeLessThanOrEqual(bound);
    expect(await page.textContent("#monitor-last-spent")).toBe(
      `Verbraucht: ${charged === 1 ? "1 Credit" : `${charged} Credits`}`,
    );
    // The spend log (Settings → account) has the same figure for the monitor.
    const ledger: { operation: string; credits: number }[] = await page.evaluate(() =>
      (window as any).__playground.ui.call("account", {}).then((a: any) => a.ledger),
    );
    expect(ledger.filter((e) => /monitor/.test(e.operation)).reduce((n, e) => n + e.credits, 0)).toBe(charged);
    // Every call failing five times with back-off (the price), then half of them (the run): more than the default 90 s.
  }, 420_000);
});
