/**
 * Issue 37 item 6 in the Excel add-in (real Chromium, the built task pane
 * and custom functions on one page): a user over the team server's budget
 * reads the budget, what is left, the price and "ask your team's admin" in
 * the task pane (a search) and from a paid custom function, never a top-up.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Server } from "node:http";
import { rmSync } from "node:fs";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { OFFICE_JS } from "../../excel-addin/build/html.ts";
import { startTestTeamServer, type TestTeamServer } from "./team-server.ts";
import { FAST } from "../helpers/cli.ts";
import { launch, skipWithoutChromium, type Launched } from "./browser.ts";
import { closeServer, FAKE_OFFICE, serveBuiltAddin } from "./excel-page.ts";

describe.skipIf(skipWithoutChromium())("Excel add-in over a team server's budget (Chromium)", () => {
  let tmp = "";
  let emu: Emulator;
  let api: RunningServer;
  let addin: Server;
  let addinUrl = "";
  let team: TestTeamServer;
  let teamKey = "";
  let chrome: Launched;

  beforeAll(async () => {
    ({ tmp, server: addin, url: addinUrl } = await serveBuiltAddin("excel-team-budget-"));
    emu = createEmulator({
      companies: 2000,
      rateLimits: { resolve: FAST, availability: FAST, account: FAST, suggest: FAST },
    });
    api = await startServer(emu, { port: 0 });
    teamKey = emu.createKey(5000);
    team = await startTestTeamServer(api.url, teamKey, [addinUrl]);
    chrome = await launch();
  }, 180_000);

  afterAll(async () => {
    await chrome?.close();
    await team?.close();
    await Promise.all([closeServer(addin), api?.close()]);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("the task pane and a custom function name the budget and the admin", async () => {
    const token = await team.token("otto", 0);
    const page = await chrome.browser.newPage({ viewport: { width: 350, height: 900 } });
    await page.route(OFFICE_JS, (route) =>
      route.fulfill({ status: 200, contentType: "text/javascript", body: FAKE_OFFICE }),
    );
    await page.goto(`${addinUrl}/taskpane.html`);
    await page.click("#cd-tab-settings");
    await page.click("#settings-connection-server");
    await page.waitForSelector("#settings-server-url");
    await page.fill("#settings-server-url", team.url);
    await page.fill("#settings-token", token);
    await page.click("#settings-save");
    await page.waitForFunction(() =>
      /Gespeichert/.test(document.querySelector("#cd-status-settings")?.textContent ?? ""),
    );

    // The task pane: a search costs a credit, the budget is 0.
    await page.click("#cd-tab-search");
    await page.fill("#search-query", "Logistik");
    await page.press("#search-query", "Enter");
    await page.waitForSelector("#cd-status-search.is-error", { timeout: 60_000 });
    const status = (await page.textContent("#cd-status-search")) ?? "";
    expect(status).toMatch(
      /Ihr Monatsbudget auf dem Team-Server reicht nicht: Budget 0 Credits, übrig 0, diese Abfrage kostet 1 Credit/,
    );
    expect(status).toMatch(/Bitte wenden Sie sich an den Admin Ihres Teams\./);
    expect(status).not.toMatch(/aufladen/i);

    // A paid custom function, from the same page (the shared runtime).
    const target = emu.world.companies[11]!;
    const said = await page.evaluate(async (id) => {
      try {
        return JSON.stringify(await (window as any).__customFunctions.get("PROFILE")([[id]], [["name"]]));
      } catch (e) {
        return String((e as Error).message ?? e);
      }
    }, target.id);
    expect(said).toMatch(/Budget 0 Credits, übrig 0/);
    expect(said).toMatch(/Admin Ihres Teams/);
    expect(said).not.toMatch(/aufladen/i);
    expect(emu.balance(teamKey)).toBe(5000);
    await page.close();
  }, 240_000);
});
