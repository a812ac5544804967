/**
 * The enrichment's review list in a real browser: each candidate shows what
 * tells it apart (street, postcode, register, industry, status), fetched the
 * free way, the row says why it is unsure, and each detail line sits under
 * its own radio label.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { skipWithoutChromium, playgroundWorld, type PlaygroundWorld } from "./browser.ts";
import { nth } from "../helpers/indexed.ts";

describe.skipIf(skipWithoutChromium())("review list in Chromium", () => {
  let emu: Emulator;
  let world: PlaygroundWorld;
  let page: Page;
  let errors: string[];
  let ambiguous: { name: string; ids: string[] };

  beforeAll(async () => {
    emu = createEmulator({ companies: 3000 });
    ambiguous = nth(emu.companies.duplicateNames(1), 0);
    world = await playgroundWorld(emu, { rebuild: false, ambiguousNames: [ambiguous.name] });
    ({ page, errors } = world);
  }, 120_000);

  afterAll(() => world?.close());

  it("shows each candidate's distinguishing facts and the reason, under its own label, without spending on them", async () => {
    await page.click(`.pg-sheet-tab[data-sheet="Firmenliste"]`);
    await page.click("#pg-c-2-1");
    await page.click("#cd-tab-enrich");
    await page.click("#enrich-read");
    await page.waitForSelector("#enrich-field-address");
    await page.click("#enrich-preview-btn");
    await page.waitForSelector("#enrich-start");
    await page.click("#enrich-start");
    await page.waitForFunction(
      () => /abgeschlossen|finished/.test(document.querySelector("#cd-status-enrich")?.textContent ?? ""),
      null,
      { timeout: 60_000 },
    );
    await page.waitForSelector("fieldset.cd-review");
    const row = Number((await page.getAttribute("fieldset.cd-review", "id"))!.replace("review-row-", ""));
    expect(await page.textContent(`#review-reason-${row}`)).toBe("Unsicher, weil: Mehrere Firmen passen zum Namen.");

    // Showing the review again asks the run's cached resolve answer: nothing is paid for the details.
    const balance = emu.balance(emu.demoKey);
    const details = await page.$$eval(`#review-row-${row} .cd-review-choice`, (ls) =>
      ls.map((l) => ({ id: l.getAttribute("data-id")!, detail: l.querySelector(".cd-sub")!.textContent })),
    );
    expect(details.map((d) => d.id).sort()).toEqual([...ambiguous.ids].sort());
    for (const d of details) {
      const c = (await (
        await fetch(`${world.api.url.replace(/\/$/, "")}/v2/companies/${d.id}`, {
          headers: { Authorization: `Bearer ${emu.demoKey}` },
        })
      ).json()) as { street: string; zip: string; register: { number: string } };
      expect(d.detail).toContain(c.street);
      expect(d.detail).toContain(c.zip);
      expect(d.detail).toContain(c.register.number);
      expect(d.detail).toContain(d.id);
    }
    // Two candidates of the same name no longer look the same.
    expect(new Set(details.map((d) => d.detail)).size).toBe(details.length);
    // The profile fetches above were this test's own; the panel spent nothing on the details.
    expect(emu.balance(emu.demoKey)).toBe(balance - details.length);

    // The detail line starts where its label's name starts, right of the radio.
    const boxes = await page.$eval(`#review-row-${row} .cd-review-choice`, (l) => ({
      radio: l.querySelector("input")!.getBoundingClientRect(),
      name: l.querySelector(".cd-name")!.getBoundingClientRect(),
      sub: l.querySelector(".cd-sub")!.getBoundingClientRect(),
    }));
    expect(boxes.sub.left).toBe(boxes.name.left);
    expect(boxes.sub.left).toBeGreaterThanOrEqual(boxes.radio.right);
    expect(boxes.sub.top).toBeGreaterThanOrEqual(boxes.name.bottom - 1);

    await page.click("#cd-lang-en");
    expect(await page.textContent(`#review-reason-${row}`)).toBe("Unsure because: Several companies fit the name.");
    expect(errors).toEqual([]);
  }, 120_000);
});
