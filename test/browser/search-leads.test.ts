/**
 * The Search panel's lead-list features in real Chromium against the
 * emulator: filters with the WZ picker, "insert all N" with the price shown
 * first and equal to what is spent, and leaving out companies a sheet
 * already lists.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { skipWithoutChromium, screenshot, playgroundWorld, type PlaygroundWorld } from "./browser.ts";

describe.skipIf(skipWithoutChromium())("Search panel: filters and insert all, in Chromium", () => {
  let emu: Emulator;
  let world: PlaygroundWorld;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    emu = createEmulator({ companies: 3000 });
    world = await playgroundWorld(emu, { rebuild: true });
    ({ page, errors } = world);
  }, 120_000);

  afterAll(() => world?.close());

  const cell = (sheet: string, r: number, c: number) =>
    page.evaluate(([s, rr, cc]) => (window as any).__playground.workbook.get(s, rr, cc), [sheet, r, c] as const);
  const selectCell = async (sheet: string, r: number, c: number) => {
    await page.click(`.pg-sheet-tab[data-sheet="${sheet}"]`);
    await page.click(`#pg-c-${r}-${c}`);
  };
  const spentDuring = async (f: () => Promise<void>) => {
    const before = emu.balance(emu.demoKey);
    await f();
    return before - emu.balance(emu.demoKey);
  };

  it("filters: the WZ picker lists titles in the UI's language; every result satisfies the filters", async () => {
    await page.click("#cd-tab-search");
    await page.waitForSelector("#search-filters");
    const options = await page.$$eval("#search-wz-list option", (o) => o.map((x) => (x as HTMLOptionElement).value));
    expect(options).toContain("J62.01 Programmierungstätigkeiten");
    await page.fill("#search-industry", "J62.01 Programmierungstätigkeiten");
    await page.selectOption("#search-state", "DE-BY");
    await page.check("#search-active");
    await page.fill("#search-size", "50");
    const spent = await spentDuring(async () => {
      await page.click("#search-run");
      await page.waitForSelector("#search-table tbody tr");
    });
    expect(spent).toBe(1);
    const ids = await page.$$eval("#search-table tbody tr", (r) => r.map((x) => x.getAttribute("data-id")!));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const p = emu.world.profile(emu.world.byId(id)!, "de") as Record<string, any>;
      expect(p.industry.code).toBe("J62.01");
      expect(p.state).toBe("DE-BY");
      expect(p.active).toBe(true);
    }
    // A wrong filter value is named in the UI's language, and nothing is spent.
    await page.fill("#search-founded-after", "2020");
    await page.fill("#search-founded-before", "2010");
    const bad = await spentDuring(async () => {
      await page.click("#search-run");
      await page.waitForSelector("#cd-status-search.is-error");
    });
    expect(bad).toBe(0);
    expect(await page.textContent("#cd-status-search")).toMatch(/gegründet nach|founded after/);
    await page.fill("#search-founded-after", "");
    await page.fill("#search-founded-before", "");
  });

  it("insert all N: the price is shown first and equals what is spent; ids already in a sheet are left out", async () => {
    // Clear the filters: a broad search with many pages.
    await page.fill("#search-industry", "");
    await page.selectOption("#search-state", "");
    await page.uncheck("#search-active");
    await page.fill("#search-query", "");
    await page.fill("#search-industry", "J62");
    await page.fill("#search-size", "10");
    await page.click("#search-run");
    await page.waitForSelector("#search-table tbody tr");
    const total = emu.world.companies.filter((c) =>
      (emu.world.profile(c, "de") as any).industry.code.startsWith("J62"),
    ).length;
    expect(total).toBeGreaterThan(100);
    await page.waitForSelector("#search-insert-all:not([disabled])");
    const pages = Math.ceil(total / 100);
    expect(await page.textContent("#search-all-cost")).toContain(`${pages} Seiten zu 100`);
    const label = (await page.textContent("#search-insert-all"))!;
    const price = Number(/\((\d+) Credits?\)/.exec(label)![1]);
    expect(price).toBe(pages);
    await screenshot(page, "panel-search-insert-all");

    // A standing list in another sheet with three of the companies; the new list goes to an empty area.
    const first3 = await page.$$eval("#search-table tbody tr", (r) =>
      r.slice(0, 3).map((x) => x.getAttribute("data-id")!),
    );
    await page.evaluate((ids) => {
      const w = (window as any).__playground.workbook;
      w.set("Firmenliste", 1, 20, "Firmen-ID");
      ids.forEach((id: string, i: number) => w.set("Firmenliste", i + 2, 20, id));
      w.changed();
    }, first3);
    await page.check("#search-exclude");
    await page.fill("#search-exclude-sheet", "Firmenliste");
    await selectCell("Firmenliste", 1, 21);
    const spent = await spentDuring(async () => {
      await page.click("#search-insert-all");
      await page.waitForSelector("#cd-status-search.is-success");
    });
    expect(spent).toBe(price);
    expect(await page.textContent("#cd-status-search")).toContain("3 ausgelassen");
    expect(await cell("Firmenliste", 1, 21)).toBe("Firmen-ID");
    const written: string[] = await page.evaluate((n) => {
      const w = (window as any).__playground.workbook;
      const out: string[] = [];
      for (let r = 2; r <= n + 2; r++) out.push(String(w.get("Firmenliste", r, 21) ?? ""));
      return out;
    }, total);
    const ids = written.filter(Boolean);
    expect(ids.length).toBe(total - 3);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of first3) expect(ids).not.toContain(id);
    // Asked again, every page is in the cache: the price says so, and nothing is spent.
    await page.waitForFunction(() =>
      /\(0 Credits\)/.test(document.querySelector("#search-insert-all")?.textContent ?? ""),
    );
    expect(errors).toEqual([]);
  });
  it("saved searches: save the form, run it (everything), run again (only what is new since), delete; 1 credit a run", async () => {
    await page.fill("#search-query", "Software");
    await page.fill("#search-industry", "");
    await page.fill("#search-save-name", "Software-Leads");
    await page.click("#search-save");
    await page.waitForSelector('#search-saved-list li[data-name="Software-Leads"]');
    expect(await page.textContent('#search-saved-list li[data-name="Software-Leads"]')).toContain(
      "noch nie ausgeführt",
    );
    const first = await spentDuring(async () => {
      await page.click("#search-saved-run-0");
      await page.waitForSelector("#search-table tbody tr");
      await page.waitForFunction(() =>
        /zuletzt \d{4}-\d{2}-\d{2}/.test(document.querySelector("#search-saved-list")?.textContent ?? ""),
      );
    });
    expect(first).toBe(1);
    expect(await page.textContent("#search-saved-run-0")).toContain("Neue seit letztem Lauf (1 Credit)");
    const again = await spentDuring(async () => {
      await page.click("#search-saved-run-0");
      await page.waitForFunction(() =>
        /neu seit \d{4}-\d{2}-\d{2}/.test(document.querySelector("#cd-status-search")?.textContent ?? ""),
      );
    });
    expect(again).toBe(1);
    await page.click("#search-saved-delete-0");
    await page.waitForFunction(() => !document.querySelector('#search-saved-list li[data-name="Software-Leads"]'));
    expect(errors).toEqual([]);
  });
});
