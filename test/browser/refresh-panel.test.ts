/**
 * The Enrich panel's "Keep current" section in Chromium (the playground):
 * the switch and "Refresh now" stay disabled until the estimate (next run,
 * 30 days, ceiling) is on screen; then the schedule can be switched on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { skipWithoutChromium, playgroundWorld, type PlaygroundWorld } from "./browser.ts";

describe.skipIf(skipWithoutChromium())("scheduled refresh section, in Chromium (playground)", () => {
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

  it("the estimate is shown before the switch is enabled; then it switches on", async () => {
    await page.click('.pg-sheet-tab[data-sheet="Firmenliste"]');
    await page.click("#pg-c-2-1");
    await page.click("#cd-tab-enrich");
    await page.click("#enrich-read");
    await page.waitForSelector("#enrich-refresh #refresh-table");
    await page.waitForFunction(
      () => !/^(Noch keine|No table)/.test(document.querySelector("#refresh-table")?.textContent ?? ""),
    );
    expect(await page.isDisabled("#refresh-toggle")).toBe(true);
    expect(await page.isDisabled("#refresh-run")).toBe(true);
    expect(await page.$("#refresh-estimate-view")).toBeNull();

    await page.fill("#refresh-days", "7");
    await page.fill("#refresh-ceiling", "50");
    await page.click("#refresh-estimate");
    await page.waitForSelector("#refresh-estimate-view", { timeout: 60_000 });
    const next = Number(await page.getAttribute("#refresh-estimate-view", "data-next-run"));
    const perMonth = Number(await page.getAttribute("#refresh-estimate-view", "data-per-month"));
    expect(next).toBeGreaterThan(0);
    expect(perMonth).toBeLessThanOrEqual(50);
    expect(await page.isDisabled("#refresh-toggle")).toBe(false);
    expect(await page.textContent("#refresh-run")).toMatch(new RegExp(`${next}`));

    await page.click("#refresh-toggle");
    await page.waitForFunction(
      () => /eingeschaltet|is on/.test(document.querySelector("#refresh-state")?.textContent ?? ""),
      null,
      { timeout: 60_000 },
    );
    expect(await page.textContent("#refresh-month")).toMatch(/50/);
    expect(errors).toEqual([]);
  }, 180_000);
});
