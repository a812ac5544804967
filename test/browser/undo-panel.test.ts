/**
 * The Runs section of the Enrich panel in Chromium (the playground): after
 * an enrichment, ten rows are made due (their as-of date set back) and
 * "Refresh now" changes those 10 values; the user sorts the list and edits 2
 * of them; "Undo this run" restores exactly the other 8 and lists the 2; the
 * undo is a run of its own, and undoing it restores the refresh's values.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { skipWithoutChromium, playgroundWorld, type PlaygroundWorld } from "./browser.ts";

type Cell = string | number | boolean | null;
interface PlaygroundPage {
  workbook: { sheet(n: string): { cells: Cell[][] }; changed(): void };
}

describe.skipIf(skipWithoutChromium())("Runs section: undo a run, in Chromium (playground)", () => {
  let emu: Emulator;
  let world: PlaygroundWorld;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    emu = createEmulator({ companies: 3000 });
    world = await playgroundWorld(emu, { rebuild: true });
    ({ page, errors } = world);
  }, 180_000);

  afterAll(() => world?.close());

  const cells = () =>
    page.evaluate(() =>
      (window as unknown as { __playground: PlaygroundPage }).__playground.workbook
        .sheet("Firmenliste")
        .cells.map((r) => [...r]),
    );

  it("a refresh changes 10 values; after a sort and 2 edits undo restores 8 and lists 2; the undo is undone", async () => {
    await page.click('.pg-sheet-tab[data-sheet="Firmenliste"]');
    await page.click("#pg-c-2-1");
    await page.click("#cd-tab-enrich");
    await page.click("#enrich-read");
    await page.waitForSelector("#enrich-start");
    await page.click("#enrich-start");
    await page.waitForFunction(
      () => {
        const b = document.querySelector<HTMLButtonElement>("#enrich-start");
        if (
          b &&
          /höchstens|at most/.test(b.textContent ?? "") &&
          !b.disabled &&
          !document.querySelector("#enrich-progress")
        )
          b.click();
        return /abgeschlossen|finished/.test(document.querySelector("#cd-status-enrich")?.textContent ?? "");
      },
      null,
      { timeout: 120_000, polling: 500 },
    );

    // Ten found rows made due: their as-of date set back years (as if enriched long ago).
    const asOf = await page.evaluate(() => {
      const wb = (window as unknown as { __playground: PlaygroundPage }).__playground.workbook;
      const rows = wb.sheet("Firmenliste").cells;
      const col = (rows[0] ?? []).indexOf("Stand");
      let n = 0;
      for (const r of rows.slice(1))
        if (n < 10 && /^\d{4}-/.test(String(r[col] ?? ""))) {
          r[col] = "2020-01-01";
          n++;
        }
      wb.changed();
      return col;
    });
    expect(asOf).toBeGreaterThan(0);
    const before = await cells();

    await page.fill("#refresh-days", "7");
    await page.fill("#refresh-ceiling", "1000");
    await page.click("#refresh-estimate");
    await page.waitForSelector("#refresh-estimate-view", { timeout: 60_000 });
    await page.click("#refresh-run");
    await page.waitForSelector("#refresh-last", { timeout: 120_000 });
    const after = await cells();

    await page.click("#runs-reload");
    await page.waitForSelector('#runs-list li[data-kind="refresh"]', { timeout: 30_000 });
    const first = await page.textContent("#runs-list li:first-child");
    expect(first).toMatch(/Aktualisierung|Refresh/);
    expect(first).toMatch(/10 (Zellen|cells)/);
    expect(await page.textContent("#runs-size")).toMatch(/\d/);

    // The user sorts the list (descending, whole rows) and edits 2 of the refreshed as-of cells.
    const edited = await page.evaluate((col) => {
      const wb = (window as unknown as { __playground: PlaygroundPage }).__playground.workbook;
      const rows = wb.sheet("Firmenliste").cells;
      const [head, ...body] = rows;
      body.sort((a, b) => String(b[0] ?? "").localeCompare(String(a[0] ?? "")));
      rows.splice(0, rows.length, head!, ...body);
      const refreshed = rows.filter((r, i) => i > 0 && /^\d{4}-/.test(String(r[col] ?? "")) && r[col] !== "2020-01-01");
      const picked = [refreshed[1]!, refreshed[3]!];
      picked.forEach((r, i) => (r[col] = `by hand ${i}`));
      wb.changed();
      return picked.map((r) => String(r[0]));
    }, asOf);

    await page.click("#runs-list li:first-child button");
    await page.waitForSelector("#runs-kept", { timeout: 30_000 });
    expect(await page.$$eval("#runs-kept li", (li) => li.length)).toBe(2);
    const undone = await cells();
    const byName = (rows: Cell[][]) => new Map(rows.slice(1).map((r) => [String(r[0]), r]));
    const want = byName(before);
    let restored = 0;
    for (const r of undone.slice(1)) {
      const name = String(r[0]);
      if (edited.includes(name)) expect(String(r[asOf])).toMatch(/^by hand/);
      else {
        expect(r[asOf], name).toEqual(want.get(name)?.[asOf]);
        if (r[asOf] === "2020-01-01") restored++;
      }
    }
    expect(restored).toBe(8);

    // The undo is the newest run; undoing it restores the refresh's values (the 2 edits stay).
    await page.waitForSelector('#runs-list li:first-child[data-kind="undo"]', { timeout: 30_000 });
    await page.click("#runs-list li:first-child button");
    await page.waitForFunction(() => document.querySelectorAll('#runs-list li[data-kind="undo"]').length === 2, null, {
      timeout: 30_000,
    });
    const redone = byName(await cells());
    for (const [name, r] of byName(after))
      if (!edited.includes(name)) expect(redone.get(name)?.[asOf], name).toEqual(r[asOf]);
    expect(errors).toEqual([]);
  }, 300_000);
});
