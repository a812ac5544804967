/**
 * The shipped Excel task pane (dist/excel-addin/taskpane.html with its
 * functions.js and taskpane.js) in Chromium, with a fake Office
 * served in place of Microsoft's CDN script. The app service runs in the page
 * (the Excel host) and talks to the emulator over the network.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import {
  controlsIn,
  skipWithoutChromium,
  launch,
  screenshot,
  serveDir,
  tabOrder,
  watchErrors,
  type Launched,
} from "./browser.ts";
import { FAKE_OFFICE, fakeOffice } from "./excel-page.ts";

/** Built into a temporary directory: a test run never rewrites the real dist/excel-addin. */
let TMP = "";
let OUT = "";
const OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";

describe.skipIf(skipWithoutChromium())(
  "Excel task pane (built like dist/excel-addin, into a temp dir) in Chromium",
  () => {
    let emu: Emulator;
    let api: RunningServer;
    let chrome: Launched;
    let files: { url: string; close(): Promise<void> };

    beforeAll(async () => {
      // Built afresh so the shipped page matches the code under test.
      const { build } = await import("../../scripts/build-excel.ts");
      // The build keeps generated sources beside its output (../.excel-addin-gen): both inside TMP.
      TMP = mkdtempSync(join(tmpdir(), "excel-taskpane-"));
      OUT = join(TMP, "excel-addin");
      const built = await build({ outDir: OUT });
      expect(built.outDir).toBe(OUT);
      for (const f of ["taskpane.html", "taskpane.js", "functions.js"]) expect(existsSync(join(OUT, f)), f).toBe(true);
      emu = createEmulator({ companies: 2000 });
      api = await startServer(emu, { port: 0 });
      files = await serveDir(OUT);
      chrome = await launch();
    }, 120_000);

    afterAll(async () => {
      await chrome?.close();
      await files?.close();
      await api?.close();
      if (TMP) rmSync(TMP, { recursive: true, force: true });
    });

    it("opens in Excel's display language while no language is saved, and stays in it once the settings answer", async () => {
      const page = await chrome.browser.newPage({ viewport: { width: 350, height: 800 } });
      const errors = watchErrors(page);
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url === OFFICE_JS)
          return route.fulfill({ status: 200, contentType: "text/javascript", body: fakeOffice(false, "en-US") });
        if (url.startsWith(files.url)) return route.continue();
        return route.abort();
      });
      await page.goto(`${files.url}taskpane.html`);
      await page.waitForSelector("#cd-tab-settings");
      // The settings answer (no language saved: the display language, shared/app/start-language.ts) …
      await page.click("#cd-tab-settings");
      await page.waitForSelector("#settings-key");
      await page.waitForTimeout(300);
      // … and the pane is still English (before, the settings' default switched it to German here).
      expect(await page.textContent("#cd-tab-search")).toBe("Search");
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
      expect(errors).toEqual([]);
      await page.close();
    });

    it("starts the shared UI with the Excel host, saves a key, tests the connection, searches, switches language, and is keyboard usable", async () => {
      const page = await chrome.browser.newPage({ viewport: { width: 350, height: 800 } });
      const errors = watchErrors(page);
      const outside: string[] = [];
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url === OFFICE_JS) return route.fulfill({ status: 200, contentType: "text/javascript", body: FAKE_OFFICE });
        if (url.startsWith(files.url) || url.startsWith(api.url.replace(/\/$/, ""))) return route.continue();
        outside.push(url);
        return route.abort();
      });
      await page.goto(`${files.url}taskpane.html`);
      await page.waitForSelector("#cd-tab-settings");
      expect(await page.textContent("#cd-tab-search")).toBe("Suche");

      await page.click("#cd-tab-settings");
      await page.waitForSelector("#settings-key");
      await page.fill("#settings-key", emu.demoKey);
      await page.fill("#settings-base-url", api.url);
      await page.click("#settings-test");
      await page.waitForSelector("#cd-status-settings.is-success");
      await page.click("#settings-save");
      await page.waitForFunction(() => /\d/.test(document.querySelector("#cd-balance")?.textContent ?? ""));
      // The key went to OfficeRuntime.storage (per user), and is not shown again.
      expect(await page.inputValue("#settings-key")).toBe("");
      expect(
        await page.evaluate(
          (k) => [...(window as any).__officeStorage.values()].some((v: string) => String(v).includes(k)),
          emu.demoKey,
        ),
      ).toBe(true);
      const shown = (await page.content()).replace(/<script[\s\S]*?<\/script>/g, "");
      expect(shown).not.toContain(emu.demoKey);
      await screenshot(page, "excel-taskpane-settings");

      await page.click("#cd-tab-search");
      expect(await page.textContent("#search-radius-hint")).toBe(
        "Ohne Angabe 10 km, wie bei der Formel COMPANY.SEARCH.",
      );
      await page.fill("#search-query", "Logistik");
      await page.press("#search-query", "Enter");
      await page.waitForSelector("#search-table tbody tr");
      await screenshot(page, "excel-taskpane-search");

      await page.click("#cd-lang-en");
      expect(await page.textContent("#cd-tab-search")).toBe("Search");

      // Help speaks Excel: dotted function names.
      await page.click("#cd-tab-help");
      const help = await page.textContent("#help-formulas");
      expect(help).toContain("=COMPANY.RESOLVE(A2)");
      expect(help).not.toContain("COMPANY_RESOLVE");

      for (const id of ["search", "enrich", "similar", "monitor", "settings", "help"]) {
        await page.click(`#cd-tab-${id}`);
        await page.waitForTimeout(100);
        const must = await controlsIn(page, ".cd-app");
        const reached = new Set((await tabOrder(page)).map((o) => o.id));
        for (const c of must) expect(reached, `${id}: ${c}`).toContain(c);
      }
      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });
  },
);
