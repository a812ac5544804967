/**
 * Issue 42 item 9, over the team console too (/console on the team server):
 * axe-core (test/browser/axe.ts) finds no serious or critical violation on
 * the sign-in page, a user's own page and every admin view, in German and
 * in English.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { buildConsole } from "../../scripts/build-ui.ts";
import { buyProfile, startConsoleWorld, type ConsoleWorld } from "../support/console-world.ts";
import { pgliteDatabase, type TestDatabase } from "../support/team-server.ts";
import { launch, skipWithoutChromium, type Launched } from "./browser.ts";
import { axeViolations, serious } from "./axe.ts";

describe.skipIf(skipWithoutChromium())("the team console passes axe-core (Chromium)", () => {
  let database: TestDatabase;
  let w: ConsoleWorld;
  let chrome: Launched;
  let page: Page;

  beforeAll(async () => {
    await buildConsole();
    database = pgliteDatabase();
    w = await startConsoleWorld(database, { tickMs: 60_000 });
    await buyProfile(w.srv.url, w.anna, w.freshCompany());
    chrome = await launch();
    page = await chrome.browser.newPage({ viewport: { width: 1280, height: 720 } });
  }, 120_000);

  afterAll(async () => {
    await chrome?.close();
    await w?.close();
    await database?.drop();
  });

  /** The view as it is now, in both languages: nothing serious or critical. */
  async function passes(view: string): Promise<void> {
    for (const lang of ["de", "en"] as const) {
      await page.click(`#lang-${lang}`);
      await page.waitForFunction((l) => document.documentElement.lang === l, lang);
      if (view !== "sign-in") await page.waitForSelector("main .cc-view");
      const found = serious(await axeViolations(page));
      expect(
        found.map((v) => `${v.id}: ${v.nodes[0]?.target ?? ""}`),
        `${view} (${lang})`,
      ).toEqual([]);
    }
  }

  const signIn = async (token: string, ready: string) => {
    await page.goto(`${w.srv.url}/console`);
    await page.waitForSelector("#signin-token");
    await page.fill("#signin-token", token);
    await page.keyboard.press("Enter");
    await page.waitForSelector(ready);
  };

  it("sign-in and a user's own page", async () => {
    await page.goto(`${w.srv.url}/console`);
    await page.waitForSelector("#signin-token");
    await passes("sign-in");
    await signIn(w.anna, "#me-spent");
    await passes("my usage");
    await page.click("#sign-out");
    await page.waitForSelector("#signin-token");
  }, 60_000);

  it("every admin view", async () => {
    await signIn(w.admin, "#spend-users");
    for (const view of ["spend", "budgets", "tokens", "schedules", "health"]) {
      await page.click(`#tab-${view}`);
      await page.waitForSelector("main .cc-view");
      await passes(view);
    }
  }, 120_000);
});
