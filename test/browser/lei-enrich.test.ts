/**
 * The Enrich panel in real Chromium with a list that has only an LEI column:
 * the column is recognised (the "LEI" dropdown preselected), the valid LEIs
 * are matched by the lookup, a typo is its row's error saying the check
 * digits do not fit, and the Help names the LEI in both languages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { leiOf } from "../../emulator/data/lei.ts";
import { skipWithoutChromium, playgroundWorld, type PlaygroundWorld } from "./browser.ts";

describe.skipIf(skipWithoutChromium())("enrichment by LEI in Chromium", () => {
  let emu: Emulator;
  let world: PlaygroundWorld;
  let page: Page;
  let errors: string[];
  let cs: { id: string; lei: string }[];

  beforeAll(async () => {
    emu = createEmulator({ companies: 3000, seed: 11 });
    const w = emu.world;
    cs = w.companies
      .filter((c) => !c.reference)
      .flatMap((c) => {
        const lei = leiOf(c, w.seed);
        return lei ? [{ id: c.id, lei }] : [];
      })
      .slice(0, 2);
    world = await playgroundWorld(emu, { rebuild: false });
    ({ page, errors } = world);
  }, 180_000);

  afterAll(() => world?.close());

  const cell = (sheet: string, r: number, c: number) =>
    page.evaluate(([s, rr, cc]) => (window as any).__playground.workbook.get(s, rr, cc), [sheet, r, c] as const);

  it("recognises the LEI column, matches the valid LEIs and names the typo's wrong check digits", async () => {
    const [a, b] = [cs.at(0), cs.at(1)];
    if (!a || !b) throw new Error("the emulator has fewer than two companies with an LEI");
    const typo = b.lei.slice(0, 12) + (b.lei[12] === "K" ? "L" : "K") + b.lei.slice(13);
    await page.evaluate(
      (rows) => {
        const wb = (window as any).__playground.workbook;
        wb.addSheet("LEIs", rows);
        wb.changed();
      },
      [["LEI"], [a.lei], [typo], [b.lei.toLowerCase()]],
    );
    await page.click(`.pg-sheet-tab[data-sheet="LEIs"]`);
    await page.click("#pg-c-2-1");
    await page.click("#cd-tab-enrich");
    await page.click("#enrich-read");
    await page.waitForFunction(
      () => /LEIs: 3 Zeilen/.test(document.querySelector("#enrich-selection")?.textContent ?? ""),
      null,
      { timeout: 30_000 },
    );
    expect(await page.inputValue("#enrich-col-lei")).toBe("0");
    expect(await page.inputValue("#enrich-col-name")).toBe("");
    expect(await page.textContent("label[for='enrich-col-lei']")).toBe("LEI");
    await page.waitForSelector("#enrich-field-address");
    await page.click("#enrich-preview-btn");
    await page.waitForSelector("#enrich-start");
    await page.click("#enrich-start");
    await page.waitForFunction(
      () =>
        /höchstens/.test(document.querySelector("#enrich-start")?.textContent ?? "") ||
        /abgeschlossen/.test(document.querySelector("#cd-status-enrich")?.textContent ?? ""),
      null,
      { timeout: 30_000 },
    );
    if (!/abgeschlossen/.test((await page.textContent("#cd-status-enrich")) ?? "")) await page.click("#enrich-start");
    await page.waitForFunction(
      () => /abgeschlossen/.test(document.querySelector("#cd-status-enrich")?.textContent ?? ""),
      null,
      { timeout: 90_000 },
    );
    expect(await cell("LEIs", 2, 2)).toBe("gefunden");
    expect(String(await cell("LEIs", 3, 2))).toMatch(/^Fehler: .*LEI mit falschen Prüfziffern \(Tippfehler\?\)/);
    expect(await cell("LEIs", 4, 2)).toBe("gefunden");
    const row = (r: number) =>
      page.evaluate(([rr]) => (window as any).__playground.workbook.block("LEIs", rr, 1, 1, 20)[0] as unknown[], [
        r,
      ] as const);
    expect(await row(2)).toContain(a.id);
    expect(await row(4)).toContain(b.id);
    expect(await row(3)).not.toContain(b.id);
    // The user's cells are as they were.
    expect([await cell("LEIs", 2, 1), await cell("LEIs", 3, 1), await cell("LEIs", 4, 1)]).toEqual([
      a.lei,
      typo,
      b.lei.toLowerCase(),
    ]);

    await page.click("#cd-tab-help");
    expect(await page.textContent(".cd-app")).toContain("oder LEI (20 Zeichen");
    await page.click("#cd-lang-en");
    expect(await page.textContent(".cd-app")).toContain("or LEI (20 characters");
    await page.click("#cd-lang-de");
    expect(errors).toEqual([]);
  }, 240_000);
});
