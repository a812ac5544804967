/**
 * Issue 42 item 9 in the Excel task pane (the built add-in, Office.js
 * faked): where the UI is the whole page it is the page's `main` with the
 * app's title as the level-one heading, and every panel passes axe-core
 * (test/browser/axe.ts) with no serious or critical violation, in German
 * and English.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Server } from "node:http";
import { rmSync } from "node:fs";
import { OFFICE_JS } from "../../excel-addin/build/html.ts";
import { launch, skipWithoutChromium, type Launched } from "./browser.ts";
import { closeServer, FAKE_OFFICE, serveBuiltAddin } from "./excel-page.ts";
import { axeViolations, serious } from "./axe.ts";

const PANELS = ["search", "enrich", "similar", "monitor", "settings", "help"];

describe.skipIf(skipWithoutChromium())("Excel task pane passes axe-core (Chromium)", () => {
  let tmp = "";
  let addin: Server;
  let url = "";
  let chrome: Launched;

  beforeAll(async () => {
    ({ tmp, server: addin, url } = await serveBuiltAddin("excel-a11y-"));
    chrome = await launch();
  }, 180_000);

  afterAll(async () => {
    await chrome?.close();
    await closeServer(addin);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("one main, the title as h1, every panel without a serious or critical violation (DE, EN)", async () => {
    const page = await chrome.browser.newPage({ viewport: { width: 350, height: 900 } });
    await page.route(OFFICE_JS, (r) => r.fulfill({ status: 200, contentType: "text/javascript", body: FAKE_OFFICE }));
    await page.goto(`${url}/taskpane.html`);
    await page.waitForSelector("#cd-tab-settings");
    expect(await page.$$eval("main", (m) => m.length)).toBe(1);
    expect(await page.$$eval("h1", (hs) => hs.map((x) => x.className))).toEqual(["cd-title"]);
    for (const lang of ["de", "en"]) {
      await page.click(`#cd-lang-${lang}`);
      for (const id of PANELS) {
        await page.click(`#cd-tab-${id}`);
        await page.waitForSelector(`#cd-tab-${id}[aria-selected="true"]`);
        const found = serious(await axeViolations(page));
        expect(
          found.map((v) => `${v.id}: ${v.nodes[0]?.target ?? ""}`),
          `${id} (${lang})`,
        ).toEqual([]);
      }
    }
    await page.close();
  }, 120_000);
});
