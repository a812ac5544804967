/**
 * The shipped Sheets sidebar pages (built like dist/apps-script/*.html, into a temp dir) in Chromium,
 * with a fake google.script.run whose uiCall runs the real app service
 * (shared/app uiCall, JSON in and out) against the in-process emulator and a
 * workbook model standing in for the spreadsheet.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { asyncStores, memoryStores, runAsync, type AsyncDriver } from "../../shared/core/drivers.ts";
import { uiCall } from "../../shared/app/dispatch.ts";
import { Workbook } from "../../shared/sheet/workbook.ts";
import { HOSTILE_NAME } from "./browser.ts";
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
import { Pacer } from "../../shared/api/pacing.ts";

/** Built into a temporary directory, so a test run never rewrites the real dist/apps-script. */
let TMP = "";
let OUT = "";
const PAGES = ["search", "enrich", "similar", "monitor", "settings", "help"];

describe.skipIf(skipWithoutChromium())("Sheets sidebars (dist/apps-script) in Chromium", () => {
  let emu: Emulator;
  let chrome: Launched;
  let files: { url: string; close(): Promise<void> };
  const workbook = new Workbook([
    {
      name: "Tabelle1",
      cells: [
        ["Firma", "Ort"],
        ["SAP SE", "Walldorf"],
        ["BASF SE", "Ludwigshafen"],
      ],
    },
  ]);
  const stores = memoryStores();
  const calls: string[] = [];

  beforeAll(async () => {
    // The shipped pages come from the Sheets build (it embeds buildSidebarHtml's output); built afresh so they match the code.
    const { buildWithReport } = await import("../../scripts/build-apps-script.ts");
    TMP = mkdtempSync(join(tmpdir(), "sheets-sidebar-"));
    OUT = join(TMP, "apps-script");
    await buildWithReport(OUT);
    for (const p of PAGES) expect(existsSync(join(OUT, `sidebar-${p}.html`)), `sidebar-${p}.html`).toBe(true);
    emu = createEmulator({ companies: 2000 });
    stores.storePut({ "user:apiKey": emu.demoKey, "user:baseUrl": "https://emulator.test" });
    files = await serveDir(OUT);
    chrome = await launch();
  }, 120_000);

  afterAll(async () => {
    await chrome?.close();
    await files?.close();
    if (TMP) rmSync(TMP, { recursive: true, force: true });
  });

  const driver: AsyncDriver = {
    http: async (reqs) =>
      reqs.map((r) => {
        if (r.url.endsWith("/v2/search") && JSON.parse(r.body ?? "{}").query === "hostile") {
          return {
            status: 200,
            headers: {},
            body: JSON.stringify({ total: 1, companies: [{ id: "DEAAAAAAAAAA", name: HOSTILE_NAME, city: "=1+1" }] }),
          };
        }
        const res = emu.handle(r);
        return { status: res.status, headers: res.headers, body: res.body };
      }),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    ...asyncStores(stores),
    sheet: async (req) => workbook.handle(req),
  };

  const pacer = new Pacer();
  async function open(panel: string): Promise<{ page: Page; errors: string[] }> {
    const page = await chrome.browser.newPage({ viewport: { width: 320, height: 800 } });
    const errors = watchErrors(page);
    await page.exposeFunction("__uiCall", async (method: string, json: string) => {
      calls.push(method);
      return runAsync(
        uiCall(
          { host: "sheets", now: Date.now, random: Math.random, deadline: Date.now() + 20_000, pacer },
          method,
          json,
        ),
        driver,
      );
    });
    // The shape of google.script.run: chained handlers, then the server function by name; answers are async.
    await page.addInitScript(() => {
      const runner = (ok?: (v: unknown) => void, fail?: (e: unknown) => void): any => ({
        withSuccessHandler: (f: (v: unknown) => void) => runner(f, fail),
        withFailureHandler: (f: (e: unknown) => void) => runner(ok, f),
        uiCall: (m: string, j: string) =>
          void (window as any).__uiCall(m, j).then(
            (v: unknown) => ok?.(v),
            (e: unknown) => fail?.(e),
          ),
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
    expect(await page.textContent("#search-radius-hint")).toBe("Ohne Angabe 10 km, wie bei der Formel COMPANY_SEARCH.");
    await page.fill("#search-query", "Software");
    await page.fill("#search-place", "München");
    await page.press("#search-query", "Enter");
    await page.waitForSelector("#search-table tbody tr");
    // The sidebar's 300 px: the list fits without scrolling sideways; the distance moves under the city.
    await page.setViewportSize({ width: 300, height: 800 });
    const overflow = await page.$eval(
      "#search-table",
      (t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth,
    );
    expect(overflow).toBe(0);
    expect(await page.isVisible("#search-table th.cd-col-distance")).toBe(false);
    expect(await page.isVisible("#search-table tbody tr .cd-distance-inline")).toBe(true);
    expect(await page.textContent("#search-table tbody tr .cd-distance-inline")).toMatch(/^\d+(,\d+)? km$/);
    await screenshot(page, "sheets-sidebar-search-results");
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
    expect(await page.$eval("#search-table td.cd-name span", (s) => [s.textContent, s.children.length])).toEqual([
      HOSTILE_NAME,
      0,
    ]);
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
    // Start without a preview: the first press shows the price and spends nothing, the second starts.
    await page.click("#enrich-start");
    await page.waitForFunction(() =>
      /^Starten – höchstens \d+ Credits?$/.test(document.querySelector("#enrich-start")?.textContent ?? ""),
    );
    expect(await page.textContent("#cd-status-enrich")).toMatch(
      /^Erst der Preis: Dieser Lauf kostet höchstens \d+ Credits?\. Nichts ist ausgegeben/,
    );
    expect(calls).not.toContain("enrichStart");
    await page.click("#enrich-start");
    await page.waitForFunction(
      () => /abgeschlossen/.test(document.querySelector("#cd-status-enrich")?.textContent ?? ""),
      null,
      { timeout: 30_000 },
    );
    expect(workbook.get("Tabelle1", 2, 3)).toBe("gefunden");
    // The start runs the first step in its own call (firstStep): this small list needs no further step.
    expect(calls.filter((c) => c === "enrichStart")).toHaveLength(1);
    expect(calls.filter((c) => c === "enrichStep")).toHaveLength(0);
    await page.close();
  });

  it("enrich sidebar: a run left unfinished by a closed sidebar is offered with its progress, and continues", async () => {
    stores.storePut({ "user:language": "de" });
    const names = [
      "SAP SE",
      "Siemens AG",
      "BASF SE",
      "Allianz SE",
      "Zalando SE",
      "Bayer AG",
      "Continental AG",
      "Knorr-Bremse AG",
      "HelloFresh SE",
      "Celonis SE",
      "N26 SE",
      "adidas AG",
      "Deutsche Bahn AG",
      "Deutsche Telekom AG",
      "Henkel AG & Co. KGaA",
      "Delivery Hero SE",
      "Miele & Cie. KG",
      "Festo SE & Co. KG",
      "Vorwerk SE & Co. KG",
      "Robert Bosch GmbH",
      "Personio Group SE",
      "Trade Republic Bank GmbH",
      "Merck KGaA",
    ];
    workbook.addSheet("Lang", [["Firma"], ...names.map((n) => [n])]);
    // The earlier sidebar: started the run, did one step that met its time limit after the first chunk, then was closed.
    let fake = Date.now();
    const slow: AsyncDriver = { ...driver, http: async (reqs) => ((fake += 2000), driver.http(reqs)) };
    const server = (method: string, input: unknown, deadline?: number) =>
      runAsync(
        uiCall(
          { host: "sheets", now: () => fake, random: Math.random, deadline, pacer: new Pacer() },
          method,
          JSON.stringify(input),
        ),
        slow,
      ).then((j) => JSON.parse(j).value);
    const config = {
      sheet: "Lang",
      headerRow: 1,
      col: 1,
      rows: names.length,
      cols: 1,
      mapping: { name: 0, city: null, zip: null, register: null, id: null },
      fields: ["id", "name"],
      mode: "batch",
      rerun: { kind: "all" },
    };
    const started = await server("enrichStart", config);
    const step = await server("enrichStep", { jobId: started.jobId }, fake + 1500);
    expect(step.finished).toBe(false);
    expect(step.processed).toBeGreaterThan(0);
    expect(step.processed).toBeLessThan(names.length);

    const { page, errors } = await open("enrich");
    await page.waitForSelector("#enrich-continue");
    expect(await page.textContent("#enrich-continue")).toBe(
      `Unterbrochenen Lauf fortsetzen (${step.processed} von ${names.length} Zeilen erledigt)`,
    );
    await screenshot(page, "sheets-sidebar-enrich-unfinished");
    await page.click("#enrich-continue");
    await page.waitForFunction(
      () => /abgeschlossen/.test(document.querySelector("#cd-status-enrich")?.textContent ?? ""),
      null,
      { timeout: 30_000 },
    );
    expect(
      await page.$eval("#enrich-progress-bar", (p) => [
        (p as HTMLProgressElement).value,
        (p as HTMLProgressElement).max,
      ]),
    ).toEqual([names.length, names.length]);
    for (let r = 2; r <= names.length + 1; r++) expect(workbook.get("Lang", r, 2), `row ${r}`).not.toBe("");
    expect(errors).toEqual([]);
    await page.close();
    // Finished: a sidebar opened now offers nothing to continue.
    const again = await open("enrich");
    await again.page.waitForSelector("#enrich-read");
    await again.page.waitForTimeout(300);
    expect(await again.page.$$("#enrich-continue")).toHaveLength(0);
    await again.page.close();
  });

  it("monitor sidebar: the schedule form shows the saved schedule, not the defaults of the first render", async () => {
    // An earlier sidebar saved the schedule: hourly, sheet "Kunden", at most 40 credits a run (switched off).
    const schedule = { enabled: false, frequency: "hourly", hour: 5, budget: 40, sheet: "Kunden" };
    const answer = await runAsync(
      uiCall(
        { host: "sheets", now: Date.now, random: Math.random, deadline: Date.now() + 20_000, pacer },
        "monitorSaveSchedule",
        JSON.stringify({ schedule }),
      ),
      driver,
    );
    expect(JSON.parse(answer).value.schedule).toMatchObject(schedule);

    const { page } = await open("monitor");
    await page.waitForSelector("#monitor-host-note"); // the saved status has arrived
    // Kept, the defaults (daily at 7, "Portfolio") would be what "Switch schedule on/off" saves over the user's.
    expect(await page.inputValue("#monitor-sheet")).toBe("Kunden");
    expect(await page.inputValue("#monitor-frequency")).toBe("hourly");
    expect(await page.inputValue("#monitor-hour")).toBe("5");
    expect(await page.inputValue("#monitor-budget")).toBe("40");
    await page.close();
  });

  it("enrich sidebar: the refresh form shows the saved schedule, and the estimate is of the figures typed", async () => {
    workbook.addSheet("Aktuell", [
      ["Firma", "Ort"],
      ["SAP SE", "Walldorf"],
      ["BASF SE", "Ludwigshafen"],
      ["Siemens AG", "München"],
    ]);
    const table = {
      sheet: "Aktuell",
      row: 1,
      col: 1,
      rows: 4,
      cols: 2,
      mapping: { name: 0, city: 1 },
      fields: ["id", "name"],
      mode: "batch",
    };
    // An earlier sidebar saved the schedule: 7 days, daily at 5, at most 50 credits a month.
    const saved = { table, olderThanDays: 7, frequency: "daily", hour: 5, monthCeiling: 50, enabled: false };
    const answer = await runAsync(
      uiCall(
        { host: "sheets", now: Date.now, random: Math.random, deadline: Date.now() + 20_000, pacer },
        "refreshSaveSettings",
        JSON.stringify({ refresh: saved }),
      ),
      driver,
    );
    expect(JSON.parse(answer).value.settings.monthCeiling).toBe(50);

    const { page, errors } = await open("enrich");
    await page.waitForSelector("#refresh-host-note"); // the saved status has arrived
    // The form is the saved schedule, not the defaults (which "Refresh now" would otherwise save over it).
    expect(await page.inputValue("#refresh-days")).toBe("7");
    expect(await page.inputValue("#refresh-frequency")).toBe("daily");
    expect(await page.inputValue("#refresh-hour")).toBe("5");
    expect(await page.inputValue("#refresh-ceiling")).toBe("50");
    expect(await page.textContent("#refresh-table")).toMatch(/Aktuell/);

    // A figure typed without a re-render (valid before and after, no estimate shown yet) is the one estimated:
    // three rows due now cost more than 1 credit, so "per month at most" is the ceiling of 1 typed, not 50.
    await page.fill("#refresh-ceiling", "1");
    await page.click("#refresh-estimate");
    await page.waitForSelector("#refresh-estimate-view", { timeout: 30_000 });
    expect(await page.getAttribute("#refresh-estimate-view", "data-per-month")).toBe("1");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("help sidebar: formulas in the Sheets spelling", async () => {
    const { page } = await open("help");
    const text = await page.textContent("#help-formulas");
    expect(text).toContain("=COMPANY_RESOLVE(A2)");
    expect(text).not.toContain("COMPANY.RESOLVE");
    await page.close();
  });
});
