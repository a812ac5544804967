/**
 * Issue 19's messages and state in a real browser: old statuses do not stay
 * beside new ones, a form that cannot run says why with the field's label and
 * its buttons wait, counts read "1 Zeile", the spend log names operations in
 * words, a radius search reads nearest first, and zero results offer no
 * insert button.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { skipWithoutChromium, playgroundWorld, type PlaygroundWorld } from "./browser.ts";

describe.skipIf(skipWithoutChromium())("messages and state in Chromium", () => {
  let emu: Emulator;
  let world: PlaygroundWorld;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    emu = createEmulator({ companies: 3000 });
    world = await playgroundWorld(emu, { rebuild: false });
    ({ page, errors } = world);
  }, 120_000);

  afterAll(() => world?.close());

  const status = (panel: string) => page.textContent(`#cd-status-${panel}`);

  it("a refused settings value replaces the last 'Gespeichert.' and names the field", async () => {
    await page.click("#cd-tab-settings");
    await page.waitForSelector("#settings-save");
    await page.click("#settings-save");
    await page.waitForFunction(() => document.querySelector("#cd-status-settings")?.textContent === "Gespeichert.");
    await page.fill("#settings-budget", "-5");
    await page.click("#settings-save");
    await page.waitForFunction(() => document.querySelector("#cd-status-settings")?.classList.contains("is-error"));
    expect(await status("settings")).toBe(
      "Tagesbudget für Formeln (Credits): bitte eine ganze Zahl von 0 bis 100000 eingeben. Nicht gespeichert.",
    );
    await page.fill("#settings-budget", "100");
    await page.click("#settings-save");
    await page.waitForFunction(() => document.querySelector("#cd-status-settings")?.textContent === "Gespeichert.");
  });

  it("a header row alone says the selection has no data rows, and offers no preview", async () => {
    await page.click(`.pg-sheet-tab[data-sheet="Firmenliste"]`);
    await page.click("#pg-c-1-1");
    await page.click("#pg-c-1-2", { modifiers: ["Shift"] });
    await page.click("#cd-tab-enrich");
    await page.click("#enrich-read");
    await page.waitForFunction(() => document.querySelector("#cd-status-enrich")?.classList.contains("is-error"));
    expect(await status("enrich")).toBe(
      "Die Auswahl enthält nur die Kopfzeile, keine Datenzeilen. Bitte die Tabelle mit ihren Zeilen markieren und erneut einlesen.",
    );
    expect(await page.$("#enrich-preview-btn")).toBeNull();
    // The whole table again: the message goes, the rows are counted in the right number.
    await page.click("#pg-c-2-1");
    await page.click("#enrich-read");
    await page.waitForSelector("#enrich-selection");
    expect(await status("enrich")).toBe("");
    expect(await page.textContent("#enrich-selection")).toMatch(/^Firmenliste: \d+ Zeilen, \d+ (Spalte|Spalten)$/);
    const cols = Number(/(\d+) Spalten?$/.exec((await page.textContent("#enrich-selection"))!)![1]);
    expect(await page.textContent("#enrich-selection")).toMatch(cols === 1 ? / 1 Spalte$/ : / Spalten$/);
  });

  it("an hour outside 0–23 is named beside its field and the schedule buttons wait", async () => {
    await page.click("#cd-tab-monitor");
    await page.waitForSelector("#monitor-hour");
    expect(await page.isDisabled("#monitor-estimate")).toBe(false);
    await page.fill("#monitor-hour", "25");
    await page.waitForSelector("#monitor-hour-error");
    expect(await page.textContent("#monitor-hour-error")).toBe(
      "Uhrzeit (Stunde): bitte eine ganze Zahl von 0 bis 23 eingeben.",
    );
    expect(await page.isDisabled("#monitor-estimate")).toBe(true);
    expect(await page.isDisabled("#monitor-toggle")).toBe(true);
    await page.fill("#monitor-hour", "6");
    await page.waitForSelector("#monitor-hour-error", { state: "detached" });
    expect(await page.isDisabled("#monitor-estimate")).toBe(false);
    expect(await page.getAttribute("#monitor-hour", "aria-invalid")).toBeNull();
  });

  it("a fresh monitor price clears the error of the price before it", async () => {
    await page.click("#cd-tab-monitor");
    await page.fill("#monitor-sheet", "Gibt es nicht");
    await page.press("#monitor-sheet", "Tab");
    await page.waitForFunction(() => document.querySelector("#cd-status-monitor")?.classList.contains("is-error"));
    await page.fill("#monitor-sheet", "Portfolio");
    await page.press("#monitor-sheet", "Tab");
    await page.waitForSelector("#monitor-cost[data-credits]");
    expect(await status("monitor")).toBe("");
  });

  it("a radius search lists the nearest first; the spend log says 'Suche', not an id", async () => {
    await page.click("#cd-tab-search");
    await page.fill("#search-query", "");
    await page.fill("#search-place", "München");
    await page.fill("#search-radius", "50");
    await page.click("#search-run");
    await page.waitForSelector("#search-table");
    const distances = await page.$$eval("#search-table tbody td.cd-col-distance", (tds) =>
      tds.map((td) => Number(td.textContent.replace(" km", "").replace(".", "").replace(",", "."))),
    );
    expect(distances.length).toBeGreaterThan(1);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    await page.click("#cd-tab-settings");
    await page.click("#settings-refresh");
    await page.waitForSelector("#settings-ledger");
    const ops = await page.$$eval("#settings-ledger tbody tr td:nth-child(2)", (tds) =>
      tds.map((td) => td.textContent),
    );
    expect(ops).toContain("Suche");
    expect(ops.filter((o) => /^[a-z]+$/.test(o ?? ""))).toEqual([]);
  });

  it("Find similar words the size rule as the search does, and sends nothing for a bad size", async () => {
    await page.click("#cd-tab-similar");
    await page.fill("#similar-ids", "DEA000000001");
    await page.fill("#similar-size", "0");
    const before = emu.balance(emu.demoKey);
    await page.click("#similar-run");
    await page.waitForFunction(() => document.querySelector("#cd-status-similar")?.classList.contains("is-error"));
    expect(await status("similar")).toBe("Anzahl Treffer: bitte eine ganze Zahl von 1 bis 100 eingeben.");
    expect(emu.balance(emu.demoKey)).toBe(before);
  });

  it("zero results: no insert button", async () => {
    await page.click("#cd-tab-search");
    await page.fill("#search-place", "");
    await page.fill("#search-query", "zzqxjwv nichts dergleichen");
    await page.click("#search-run");
    await page.waitForSelector(".cd-empty");
    expect(await page.$("#search-insert")).toBeNull();
    expect(errors).toEqual([]);
  });
});
