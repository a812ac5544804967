/**
 * Issue 12 item 2 in a real browser (the playground: the UI every host
 * shares): a large list is matched first, then the panel shows the exact
 * price of the profiles and asks again; Continue spends at most that figure,
 * Cancel spends nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { skipWithoutChromium, playgroundWorld, type PlaygroundWorld } from "./browser.ts";
import { uniqueNames } from "../helpers/names.ts";
import { CONFIRM_AFTER_MATCHING } from "../../shared/app/enrich-preview.ts";
import type { Cell } from "../../shared/core/sheet-protocol.ts";

describe.skipIf(skipWithoutChromium())("the price after matching, in Chromium (playground)", () => {
  let emu: Emulator;
  let world: PlaygroundWorld;
  let page: Page;

  beforeAll(async () => {
    emu = createEmulator({ companies: 3000 });
    world = await playgroundWorld(emu, { rebuild: true });
    ({ page } = world);
  }, 180_000);

  afterAll(() => world?.close());

  /** A sheet of `n` names found once each, a few twice, and ten that exist nowhere; selected, and read by the panel. */
  async function openList(sheet: string, n: number, skip: number): Promise<number> {
    const names = uniqueNames(emu, n, skip);
    const cells: Cell[][] = [
      ["Firma"],
      ...names.map((x) => [x]),
      ...names.slice(0, 5).map((x) => [x]),
      ...Array.from({ length: 10 }, (_, i) => [`Phantasiefirma ${i} Nirgendwo GmbH`]),
    ];
    await page.evaluate(
      ({ sheet, cells }) => {
        const pgw = (
          window as unknown as {
            __playground: {
              workbook: {
                addSheet(n: string, c: unknown[][]): void;
                changed(): void;
                active: string;
                selection: unknown;
              };
            };
          }
        ).__playground;
        pgw.workbook.addSheet(sheet, cells);
        pgw.workbook.active = sheet;
        pgw.workbook.selection = { r1: 2, c1: 1, r2: 2, c2: 1 };
        pgw.workbook.changed();
      },
      { sheet, cells },
    );
    await page.click("#cd-tab-enrich");
    await page.click("#enrich-read");
    await page.waitForFunction(
      (rows) => (document.querySelector("#enrich-selection")?.textContent ?? "").includes(String(rows)),
      cells.length - 1,
    );
    await page.waitForSelector("#enrich-field-address");
    return cells.length - 1;
  }

  /** Start as a user does: the first press shows the price, the second runs; the run stops after matching. */
  async function startAndMatch(): Promise<{ shown: number; before: number }> {
    await page.click("#enrich-start");
    await page.waitForFunction(
      () => /höchstens/.test(document.querySelector("#enrich-start")?.textContent ?? ""),
      null,
      { timeout: 60_000 },
    );
    const first = Number(/(\d+) Credits?/.exec((await page.textContent("#enrich-start")) ?? "")?.[1]);
    const before = emu.balance(emu.demoKey);
    await page.click("#enrich-start");
    await page.waitForSelector("#enrich-after-matching", { timeout: 180_000 });
    const shown = Number(await page.getAttribute("#enrich-after-matching-text", "data-credits"));
    expect(shown).toBeGreaterThan(0);
    // The matching cost what the first price's resolve part said, and no profile was bought yet.
    expect(before - emu.balance(emu.demoKey)).toBeLessThan(first - shown);
    return { shown, before: emu.balance(emu.demoKey) };
  }

  it("a large list shows the second confirmation with the exact figure; Continue spends at most it", async () => {
    const rows = await openList("Groß", 220, 0);
    expect(rows).toBeGreaterThanOrEqual(CONFIRM_AFTER_MATCHING.rows);
    const { shown, before } = await startAndMatch();
    const text = await page.textContent("#enrich-after-matching-text");
    expect(text).toBe(
      `Abgleich fertig: 225 von ${rows} Firmen gefunden, 220 verschiedene. Die Profile kosten ${shown} Credits (vorher höchstens 230 Credits). Weiter?`,
    );
    expect(await page.textContent("#enrich-confirm-go")).toBe(`Weiter – ${shown} Credits`);
    expect(await page.textContent("#enrich-confirm-cancel")).toBe("Abbrechen");
    // Nothing is bought while the question is open, and no "Resume" competes with it.
    expect(await page.$("#enrich-resume")).toBeNull();
    await page.waitForTimeout(1500);
    expect(emu.balance(emu.demoKey)).toBe(before);
    await page.click("#cd-lang-en");
    expect(await page.textContent("#enrich-after-matching-text")).toBe(
      `Matching done: 225 of ${rows} companies found, 220 distinct. The profiles cost ${shown} credits (before: at most 230 credits). Continue?`,
    );
    await page.click("#cd-lang-de");

    await page.click("#enrich-confirm-go");
    await page.waitForFunction(
      () => /abgeschlossen/.test(document.querySelector("#cd-status-enrich")?.textContent ?? ""),
      null,
      { timeout: 180_000 },
    );
    const spent = before - emu.balance(emu.demoKey);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(shown);
    expect(await page.$("#enrich-after-matching")).toBeNull();
  }, 400_000);

  it("Cancel spends nothing more and says what stays in the table", async () => {
    await openList("Abbruch", 210, 400);
    const { before } = await startAndMatch();
    await page.click("#enrich-confirm-cancel");
    await page.waitForFunction(
      () => /Abgebrochen/.test(document.querySelector("#cd-status-enrich")?.textContent ?? ""),
      null,
      { timeout: 60_000 },
    );
    expect(await page.$("#enrich-after-matching")).toBeNull();
    await page.waitForTimeout(1500);
    expect(emu.balance(emu.demoKey)).toBe(before);
    const status = await page.evaluate(() =>
      (
        window as unknown as { __playground: { workbook: { get(s: string, r: number, c: number): unknown } } }
      ).__playground.workbook.get("Abbruch", 2, 2),
    );
    expect(status).toBe("abgeglichen, Profil nicht gekauft");
  }, 400_000);
});
