/**
 * Issue 42 item 9 in Chromium: every panel of the one UI (search, enrich,
 * similar, monitor, settings, help), with the playground around it (header,
 * grid, sheet tabs), passes axe-core (the npm package, evaluated into the
 * page: test/browser/axe.ts) with no serious or critical violation, in
 * German and in English, each panel in a state with content (search
 * results, a list read for enrichment, the connection test's report); one
 * test per panel. And by keyboard alone: every control of a panel takes
 * focus by Tab with a visible focus ring, and the main actions run from the
 * keyboard (a search by Enter, Test connection by Enter on the button).
 * Before these fixes the playground's first view had 6 violations, 2 of
 * them serious (colour contrast in the header; the language buttons' label
 * without their visible text) and no main landmark or level-one heading.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createEmulator } from "../../emulator/index.ts";
import { controlsIn, playgroundWorld, skipWithoutChromium, type PlaygroundWorld } from "./browser.ts";
import { axeViolations, serious, type AxeViolation } from "./axe.ts";

const LANGS = ["de", "en"] as const;

/** Readable in a failure: rule, impact, the first offending element and axe's summary. */
const describeAll = (vs: AxeViolation[]) =>
  vs.map((v) => `${v.id} (${v.impact}): ${v.nodes[0]?.target ?? ""} – ${v.nodes[0]?.summary ?? ""}`);

/** Tab from the panel's tab to the end of the panel: each control reached and whether its focus is visible. */
async function focusWalk(page: Page, panel: string): Promise<{ id: string; visible: boolean }[]> {
  await page.focus(`#cd-tab-${panel}`);
  const seen: { id: string; visible: boolean }[] = [];
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press("Tab");
    const at = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || !document.getElementById("pg-side")?.contains(el)) return null;
      const s = getComputedStyle(el);
      const ring = (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none";
      return { id: el.id || el.outerHTML.slice(0, 60), visible: ring && el.matches(":focus-visible") };
    });
    if (!at) break;
    seen.push(at);
  }
  return seen;
}

describe.skipIf(skipWithoutChromium())("panels anyone can use: axe-core and the keyboard (Chromium)", () => {
  let world: PlaygroundWorld;
  let page: Page;

  beforeAll(async () => {
    world = await playgroundWorld(createEmulator({ companies: 800 }), { rebuild: true });
    page = world.page;
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  /** The page in each language: no serious or critical violation; what else axe finds is in the message. */
  async function passesAxe(what: string): Promise<void> {
    for (const lang of LANGS) {
      await page.click(`#cd-lang-${lang}`);
      await page.waitForFunction((l) => document.documentElement.lang === l, lang);
      const found = await axeViolations(page);
      expect(describeAll(serious(found)), `${what} (${lang}); all: ${describeAll(found).join(" | ")}`).toEqual([]);
    }
    await page.click("#cd-lang-de");
  }

  /** Every control of the panel is reached by Tab, each with a visible focus ring. */
  async function keyboardReaches(panel: string): Promise<void> {
    const must = await controlsIn(page, "#pg-side .cd-panel");
    const walked = await focusWalk(page, panel);
    const reached = new Set(walked.map((w) => w.id));
    for (const c of must) expect(reached, `${panel}: ${c} not reached by Tab`).toContain(c);
    for (const w of walked) expect(w.visible, `${panel}: focus on ${w.id} is not visible`).toBe(true);
  }

  it("the playground's first view: a main landmark, a level-one heading, nothing serious", async () => {
    expect(await page.$$eval("main", (m) => m.length)).toBe(1);
    expect(await page.textContent("h1")).toBe("Company data · Playground");
    await passesAxe("first view");
  });

  it("search, with results; a search runs from the keyboard", async () => {
    await page.click("#cd-tab-search");
    await page.focus("#search-query");
    await page.keyboard.type("Software");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#search-table tbody tr", { timeout: 60_000 });
    await passesAxe("search");
    await keyboardReaches("search");
  }, 120_000);

  it("enrich, with a list read from the selection", async () => {
    await page.click('.pg-sheet-tab[data-sheet="Firmenliste"]');
    await page.click("#pg-c-1-1");
    await page.click("#pg-c-8-2", { modifiers: ["Shift"] });
    await page.click("#cd-tab-enrich");
    await page.focus("#enrich-read");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#enrich-col-name");
    await passesAxe("enrich");
    await keyboardReaches("enrich");
  }, 120_000);

  it("similar", async () => {
    await page.click("#cd-tab-similar");
    await passesAxe("similar");
    await keyboardReaches("similar");
  });

  it("monitor", async () => {
    await page.click("#cd-tab-monitor");
    await passesAxe("monitor");
    await keyboardReaches("monitor");
  });

  it("settings, with the connection test's report; Test connection runs from the keyboard", async () => {
    await page.click("#cd-tab-settings");
    await page.focus("#settings-test");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#cd-status-settings.is-success", { timeout: 60_000 });
    await page.waitForSelector("#settings-doctor-verdict");
    await passesAxe("settings");
    await keyboardReaches("settings");
  }, 120_000);

  it("help", async () => {
    await page.click("#cd-tab-help");
    await passesAxe("help");
    await keyboardReaches("help");
    expect(world.errors).toEqual([]);
  });
});
