/**
 * The shipped Sheets sidebar pages (dist/apps-script/*.html) in Chromium,
 * with a fake google.script.run whose uiCall runs the real app service
 * (shared/app uiCall, JSON in and out) against the in-process emulator and a
 * workbook model standing in for the spreadsheet.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { memoryStores, runAsync, type AsyncDriver } from "../../shared/core/drivers.ts";
import { uiCall } from "../../shared/app/dispatch.ts";
import { Workbook } from "../../playground/workbook.ts";
import { HOSTILE_NAME } from "../../playground/data.ts";
import { controlsIn, hasChromium, launch, ROOT, screenshot, serveDir, tabOrder, watchErrors, type Launched } from "./browser.ts";

const OUT = join(ROOT, "dist", "apps-script");
const PAGES = ["search", "enrich", "similar", "monitor", "settings", "help"];

describe.skipIf(!hasChromium)("Sheets sidebars (dist/apps-script) in Chromium", () => {
  let emu: Emulator;
  let chrome: Launched;
  let files: { url: string; close(): Promise<void> };
  const workbook = new Workbook([{ name: "Tabelle1", cells: [["Firma", "Ort"], ["SAP SE", "Walldorf"], ["BASF SE", "Ludwigshafen"]] }]);
  const stores = memoryStores();
  const calls: string[] = [];

  beforeAll(async () => {
    // The shipped pages come from the Sheets build (it embeds buildSidebarHtml's output); built afresh so they match the code.
    const { build } = await import("../../scripts/build-apps-script.ts");
    await build();
    for (const p of PAGES) expect(existsSync(join(OUT, `sidebar-${p}.html`)), `sidebar-${p}.html`).toBe(true);
    emu = createEmulator({ companies: 2000 });
    stores.storePut({ "user:apiKey": emu.demoKey, "user:baseUrl": "http://emulator.test" });
    files = await serveDir(OUT);
    chrome = await launch();
  }, 120_000);

  afterAll(async () => {
    await chrome?.close();
    await files?.close();
  });

  const driver: AsyncDriver = {
    http: async (reqs) => reqs.map((r) => {
      if (r.url.endsWith("/v2/search") && JSON.parse(r.body ?? "{}").query === "hostile") {
        return { status: 200, headers: {}, body: JSON.stringify({ total: 1, companies: [{ id: "DEAAAAAAAAAA", name: HOSTILE_NAME, city: "=1+1" }] }) };
      }
      const res = emu.handle(r);
      return { status: res.status, headers: res.headers, body: res.body };
    }),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    cacheGet: async (k) => stores.cacheGet(k),
    cachePut: async (e, t) => stores.cachePut(e, t),
    storeGet: async (k) => stores.storeGet(k),
    storePut: async (e) => stores.storePut(e),
    sheet: async (req) => workbook.handle(req),
  };

  async function open(panel: string): Promise<{ page: Page; errors: string[] }> {
    const page = await chrome.browser.newPage({ viewport: { width: 320, height: 800 } });
    const errors = watchErrors(page);
    await page.exposeFunction("__uiCall", async (method: string, json: string) => {
      calls.push(method);
      return runAsync(uiCall({ host: "sheets", now: Date.now, random: Math.random, deadline: Date.now() + 20_000 }, method, json), driver);
    });
    // The shape of google.script.run: chained handlers, then the server function by name; answers are async.
    await page.addInitScript(() => {
      const runner = (ok?: (v: unknown) => void, fail?: (e: unknown) => void): any => ({
        withSuccessHandler: (f: (v: unknown) => void) => runner(f, fail),
        withFailureHandler: (f: (e: unknown) => void) => runner(ok, f),
        uiCall: (m: string, j: string) => void (window as any).__uiCall(m, j).then((v: unknown) => ok?.(v), (e: unknown) => fail?.(e)),
      });
      (window as any).google = { script: { run: runner(), host: { close: () => ((window as any).__closed = true) } } };
    });
    await page.goto(`${files.url}sidebar-${panel}.html`);
    await page.waitForSelector(".cd-panel-title");
    return { page, errors };
  }

  it("every sidebar page loads with its one panel, no tab list, and is keyboard usable", async () => {
    for (const panel of PAGES) {
      const { page, errors } = await open(panel);
      await page.waitForTimeout(150);
      expect(await page.$$(".cd-tabs")).toHaveLength(0);
      expect(await page.getAttribute("body", "data-panel")).toBe(panel);
      const must = await controlsIn(page, ".cd-app");
      const reached = new Set((await tabOrder(page)).map((o) => o.id));
      for (const c of must) expect(reached, `${panel}: ${c}`).toContain(c);
      await screenshot(page, `sheets-sidebar-${panel}`);
      expect(errors, panel).toEqual([]);
      await page.close();
    }
  });

  it("search sidebar: searches through google.script.run and inserts at the cursor", async () => {
    const { page, errors } = await open("search");
    await page.fill("#search-query", "Software");
    await page.press("#search-query", "Enter");
    await page.waitForSelector("#search-table tbody tr");
    workbook.selection = { r1: 6, c1: 1, r2: 6, c2: 1 };
    await page.click("#search-insert");
    await page.waitForSelector("#cd-status-search.is-success");
    expect(workbook.get("Tabelle1", 6, 1)).toBe("Firmen-ID");
    expect(String(workbook.get("Tabelle1", 7, 1))).toMatch(/^DE[A-Z0-9]{10}$/);
    expect(calls).toContain("search");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("search sidebar: a hostile company name stays inert text", async () => {
    const { page } = await open("search");
    await page.fill("#search-query", "hostile");
    await page.click("#search-run");
    await page.waitForSelector("#search-table tbody tr[data-id=DEAAAAAAAAAA]");
    expect(await page.$eval("#search-table td.cd-name span", (s) => [s.textContent, s.children.length])).toEqual([HOSTILE_NAME, 0]);
    expect(await page.$$("img")).toHaveLength(0);
    expect(await page.title()).not.toBe("pwned");
    await page.close();
  });

  it("settings sidebar: the key is masked, never sent to the page, and the connection test works", async () => {
    const { page } = await open("settings");
    await page.waitForSelector("#settings-key");
    expect(await page.content()).not.toContain(emu.demoKey);
    expect(await page.getAttribute("#settings-key", "type")).toBe("password");
    await page.click("#settings-test");
    await page.waitForSelector("#cd-status-settings.is-success");
    await page.selectOption("#settings-language", "en");
    await page.click("#settings-save");
    await page.waitForFunction(() => document.querySelector(".cd-panel-title")?.textContent === "Settings");
    expect(stores.store.get("user:language")).toBe("en");
    await page.close();
  });

  it("enrich sidebar: reads the selection, enriches it and writes status beside it", async () => {
    stores.storePut({ "user:language": "de" });
    const { page } = await open("enrich");
    workbook.selection = { r1: 1, c1: 1, r2: 3, c2: 2 };
    await page.click("#enrich-read");
    await page.waitForSelector("#enrich-col-name");
    await page.waitForSelector("#enrich-field-id");
    await page.click("#enrich-start");
    await page.waitForFunction(() => /abgeschlossen/.test(document.querySelector("#cd-status-enrich")?.textContent ?? ""), null, { timeout: 30_000 });
    expect(workbook.get("Tabelle1", 2, 3)).toBe("gefunden");
    expect(calls.filter((c) => c === "enrichStep").length).toBeGreaterThan(0);
    await page.close();
  });
});
