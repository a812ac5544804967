/**
 * Issue 24, "test it the way Excel runs it", in real Chromium: the task pane
 * and the custom functions' page (one page: the shared runtime) come from
 * the add-in's origin; the API (the emulator) sits behind a proxy on another
 * origin that answers no CORS at all (preflights refused, no
 * Access-Control-* header on any answer), as the real service may.
 *
 * - Direct mode: Test connection says this API does not allow calls from
 *   Excel and points to a team server (not a generic "no connection"), and a
 *   custom function cannot reach the API either.
 * - Team server mode: the same page with the team server's URL and a
 *   personal token: Test connection, a custom function (free and paid) and
 *   a task pane search all work; every request of the page goes to the add-in's
 *   origin or the team server, the team server calls the no-CORS API with the
 *   team's key (server to server: CORS binds browsers only), the ledger
 *   records the user's spend, and neither the key nor the token appears on
 *   the page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Server } from "node:http";
import { rmSync } from "node:fs";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { OFFICE_JS } from "../../excel-addin/build/html.ts";
import { startTestTeamServer, type TestTeamServer } from "./team-server.ts";
import { FAST } from "../helpers/cli.ts";
import { launch, screenshot, skipWithoutChromium, watchErrors, type Launched } from "./browser.ts";
import { closeServer, FAKE_OFFICE, noCorsProxy, serveBuiltAddin } from "./excel-page.ts";

describe.skipIf(skipWithoutChromium())(
  "Excel add-in with an API that answers no CORS: direct mode explains, a team server works (Chromium)",
  () => {
    let tmp = "";
    let emu: Emulator;
    let api: RunningServer;
    let proxy: { url: string; server: Server; hits: () => number };
    let addin: Server;
    let addinUrl = "";
    let team: TestTeamServer;
    let teamKey = "";
    let userKey = "";
    let token = "";
    let chrome: Launched;

    beforeAll(async () => {
      ({ tmp, server: addin, url: addinUrl } = await serveBuiltAddin("excel-team-"));
      emu = createEmulator({
        companies: 2000,
        rateLimits: { resolve: FAST, availability: FAST, account: FAST, suggest: FAST },
      });
      api = await startServer(emu, { port: 0 });
      proxy = await noCorsProxy(api.url);
      teamKey = emu.createKey(5000);
      userKey = emu.createKey(300);
      // The team server reaches the API through the same no-CORS proxy the page cannot use.
      team = await startTestTeamServer(proxy.url, teamKey, [addinUrl]);
      token = await team.token("anna", 200);
      chrome = await launch();
    }, 180_000);

    afterAll(async () => {
      await chrome?.close();
      await team?.close();
      await Promise.all([closeServer(addin), closeServer(proxy?.server), api?.close()]);
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    it("direct: Test connection and the functions fail with the CORS message; team server: connection, functions and task pane work through the server", async () => {
      const page = await chrome.browser.newPage({ viewport: { width: 350, height: 900 } });
      const errors = watchErrors(page);
      const requests: string[] = [];
      page.on("request", (r) => void requests.push(r.url()));
      await page.route(OFFICE_JS, (route) =>
        route.fulfill({ status: 200, contentType: "text/javascript", body: FAKE_OFFICE }),
      );
      await page.goto(`${addinUrl}/taskpane.html`);
      await page.click("#cd-tab-settings");
      await page.waitForSelector("#settings-key");
      const status = async (before: string) => {
        await page.waitForFunction(
          (b) => {
            const el = document.querySelector("#cd-status-settings");
            const text = el?.textContent?.trim() ?? "";
            return !!el && /is-(success|error)/.test(el.className) && !!text && text !== b;
          },
          before,
          { timeout: 60_000 },
        );
        return page.$eval("#cd-status-settings", (el) => ({ cls: el.className, text: el.textContent?.trim() ?? "" }));
      };

      // Direct mode against the API that answers no CORS.
      await page.fill("#settings-key", userKey);
      await page.fill("#settings-base-url", proxy.url);
      await page.click("#settings-test");
      const refused = await status("");
      expect(refused.cls).toMatch(/is-error/);
      expect(refused.text).toContain("erlaubt aber keine Aufrufe aus Excel");
      expect(refused.text).toContain(addinUrl);
      expect(refused.text).toContain("Team-Server");
      expect(refused.text).toContain("excel-addin/README.md#team-server");
      expect(refused.text).not.toMatch(/Keine Verbindung zum Dienst/);
      // The page did reach the API (a preflight, or with Playwright's routing on, the request itself) and could read nothing.
      expect(proxy.hits()).toBeGreaterThan(0);
      await screenshot(page, "excel-direct-cors-refused");
      // Saved, the functions use it too, and fail the same way (no answer can be read).
      await page.click("#settings-save");
      await page.waitForFunction(() =>
        /Gespeichert/.test(document.querySelector("#cd-status-settings")?.textContent ?? ""),
      );
      const direct = await page.evaluate(async () => {
        try {
          return { ok: await (window as any).__customFunctions.get("CREDITS")() };
        } catch (e) {
          return { error: String((e as Error).message ?? e) };
        }
      });
      expect(direct).toHaveProperty("error");
      expect(emu.balance(userKey)).toBe(300);

      // Team server: its URL and the personal token, tested before saving.
      await page.click("#settings-connection-server");
      await page.waitForSelector("#settings-server-url");
      expect(await page.$("#settings-key")).toBeNull();
      await page.fill("#settings-server-url", team.url);
      await page.fill("#settings-token", token);
      const before = (await page.textContent("#cd-status-settings"))?.trim() ?? "";
      await page.click("#settings-test");
      const ok = await status(before);
      expect(ok.cls).toMatch(/is-success/);
      // Through the server the balance is what this user may still spend: her monthly budget (200), not the key's 5,000.
      expect(ok.text).toMatch(/Verbindung in Ordnung\. Benutzer: anna\. Guthaben: 200 Credits/);
      await page.click("#settings-save");
      await page.waitForFunction(() => /\d/.test(document.querySelector("#cd-balance")?.textContent ?? ""));
      expect(await page.inputValue("#settings-token")).toBe("");
      await screenshot(page, "excel-team-server-settings");

      // The functions, from the same page: a free one and a paid one.
      const target = emu.world.companies[7]!;
      const results = await page.evaluate(async (id) => {
        const f = (window as any).__customFunctions;
        return { credits: await f.get("CREDITS")(), profile: await f.get("PROFILE")([[id]], [["name"]]) };
      }, target.id);
      expect(results.credits[1][0]).toBe(200);
      expect(JSON.stringify(results.profile)).toContain(target.name);

      // The task pane: a search (1 credit), through the server.
      await page.click("#cd-tab-search");
      await page.fill("#search-query", "Logistik");
      await page.press("#search-query", "Enter");
      await page.waitForSelector("#search-table tbody tr", { timeout: 60_000 });

      // Everything the page asked went to its own origin or the team server; the team paid, the user's key nothing.
      const origins = new Set(requests.filter((u) => !u.startsWith(OFFICE_JS)).map((u) => new URL(u).origin));
      const serverPhase = requests.slice(requests.findIndex((u) => u.startsWith(team.url)));
      expect(serverPhase.filter((u) => !u.startsWith(addinUrl) && !u.startsWith(team.url) && u !== OFFICE_JS)).toEqual(
        [],
      );
      expect([...origins].sort()).toEqual(
        [addinUrl, new URL(proxy.url).origin, team.url].map((u) => new URL(u).origin).sort(),
      );
      expect(emu.balance(userKey)).toBe(300);
      expect(emu.balance(teamKey)).toBeLessThan(5000);
      expect(await team.spentByUser()).toEqual({ anna: 5000 - emu.balance(teamKey) });
      const shown = (await page.content()).replace(/<script[\s\S]*?<\/script>/g, "");
      for (const secret of [token, userKey, teamKey]) expect(shown).not.toContain(secret);
      expect(requests.some((u) => u.includes(token) || u.includes(teamKey))).toBe(false);
      // Failed cross-origin fetches log console errors in Chromium (the direct phase): those are the point; nothing else may.
      expect(
        errors.filter((e) => !/CORS|Failed to load resource|net::ERR|Access-Control|Failed to fetch/i.test(e)),
      ).toEqual([]);
      await page.close();
    }, 240_000);
  },
);
