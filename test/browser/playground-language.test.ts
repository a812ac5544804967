/**
 * The playground's first language (issue 42, the one language rule:
 * shared/i18n/locale.ts pageLanguage, playground/language.ts), in Chromium:
 * an English browser gets an English playground (header, panels, Settings'
 * language, <html lang>), a German one a German playground, a French one
 * English; a language the user chose (the header's DE/EN) wins on the next
 * visit, whatever the browser says. The unit half: pageLanguage's order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext } from "playwright-core";
import { createEmulator } from "../../emulator/index.ts";
import { pageLanguage } from "../../shared/i18n/index.ts";
import { openPlayground, playgroundWorld, skipWithoutChromium, watchErrors, type PlaygroundWorld } from "./browser.ts";

describe("pageLanguage", () => {
  it("a saved de or en wins; else the first German or English of the browser's languages; else English", () => {
    expect(pageLanguage("de", ["en-US"])).toBe("de");
    expect(pageLanguage(" EN ", ["de-DE"])).toBe("en");
    expect(pageLanguage(null, ["de-AT", "en"])).toBe("de");
    expect(pageLanguage(undefined, ["en-GB", "de"])).toBe("en");
    expect(pageLanguage("fr", ["fr-FR", "de-CH"])).toBe("de");
    expect(pageLanguage(null, ["fr-FR", "it"])).toBe("en");
    expect(pageLanguage(null, [])).toBe("en");
  });
});

describe.skipIf(skipWithoutChromium())("the playground starts in the browser's language (Chromium)", () => {
  let world: PlaygroundWorld;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    world = await playgroundWorld(createEmulator({ companies: 300 }), { rebuild: true, locale: "en-US" });
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await world?.close();
  });

  /** The playground in a fresh context whose browser language is `locale` (a context: its own localStorage). */
  async function visit(locale: string, context?: BrowserContext) {
    const ctx = context ?? (await world.chrome.browser.newContext({ locale, viewport: { width: 1400, height: 900 } }));
    if (!context) contexts.push(ctx);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await openPlayground(page, world.pg.url);
    const shown = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      connection: document.getElementById("pg-connection-label")?.textContent,
      tabs: [...document.querySelectorAll('[role="tab"]')].map((t) => t.textContent?.trim()),
    }));
    return { ctx, page, errors, shown };
  }

  it("English browser: English; German browser: German; French browser: English", async () => {
    // The world's own page: a browser set to en-US.
    expect(await world.page.getAttribute("html", "lang")).toBe("en");
    expect(await world.page.textContent("#pg-connection-label")).toBe("Connection");
    await world.page.click("#cd-tab-settings");
    expect(await world.page.inputValue("#settings-language")).toBe("en");

    const de = await visit("de-DE");
    expect(de.shown.lang).toBe("de");
    expect(de.shown.connection).toBe("Verbindung");
    const fr = await visit("fr-FR");
    expect(fr.shown.lang).toBe("en");
    expect(fr.shown.connection).toBe("Connection");
    expect(fr.shown.tabs.join(" ")).not.toBe(de.shown.tabs.join(" "));
    expect([...de.errors, ...fr.errors, ...world.errors]).toEqual([]);
  }, 120_000);

  it("a language the user chose wins on the next visit, whatever the browser's", async () => {
    const first = await visit("en-US");
    expect(first.shown.lang).toBe("en");
    await first.page.click("#cd-lang-de");
    await first.page.waitForFunction(() => document.documentElement.lang === "de");
    await first.page.close();
    // The same browser (its localStorage), opened again: German, as chosen.
    const again = await visit("en-US", first.ctx);
    expect(again.shown.lang).toBe("de");
    expect(again.shown.connection).toBe("Verbindung");
    await again.page.click("#cd-tab-settings");
    expect(await again.page.inputValue("#settings-language")).toBe("de");
    expect(again.errors).toEqual([]);
  }, 120_000);
});
