/**
 * The playground (the same UI, a browser host like Excel) connected to a
 * team server: Settings › Connection › Team server with a personal token,
 * Test connection, a paid search through the server; the team's key pays,
 * the ledger names the user, and the token is never on the page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { FAST } from "../helpers/cli.ts";
import { playgroundWorld, skipWithoutChromium, type PlaygroundWorld } from "./browser.ts";
import { startTestTeamServer, type TestTeamServer } from "./team-server.ts";

describe.skipIf(skipWithoutChromium())("playground through a team server (Chromium)", () => {
  let emu: Emulator;
  let world: PlaygroundWorld;
  let team: TestTeamServer;
  let teamKey = "";

  beforeAll(async () => {
    emu = createEmulator({
      companies: 2000,
      rateLimits: { resolve: FAST, availability: FAST, account: FAST, suggest: FAST },
    });
    world = await playgroundWorld(emu, { rebuild: true });
    teamKey = emu.createKey(1000);
    team = await startTestTeamServer(world.api.url, teamKey, [world.pg.url.replace(/\/+$/, "")]);
  }, 180_000);

  afterAll(async () => {
    await world?.close();
    await team?.close();
  });

  it("switches to the team server, tests it and searches through it; the team's key pays, the ledger names the user", async () => {
    const { page } = world;
    const token = await team.token("ben", 50);
    const demoBefore = emu.balance(emu.demoKey);
    await page.click("#cd-tab-settings");
    await page.click("#settings-connection-server");
    await page.fill("#settings-server-url", team.url);
    await page.fill("#settings-token", token);
    await page.click("#settings-test");
    await page.waitForFunction(() =>
      /Verbindung in Ordnung|Connection works/.test(
        document.querySelector("#cd-status-settings.is-success")?.textContent ?? "",
      ),
    );
    expect(await page.textContent("#cd-status-settings")).toMatch(/50/);
    await page.click("#settings-save");
    await page.waitForFunction(() =>
      /Gespeichert|Saved/.test(document.querySelector("#cd-status-settings")?.textContent ?? ""),
    );
    // Issue 39: "My usage" opens the team server's console, a user's own page; the token is never in the link.
    expect(await page.getAttribute("#settings-my-usage-link", "href")).toBe(`${team.url}/console#me`);

    await page.click("#cd-tab-search");
    await page.fill("#search-query", "Logistik");
    await page.press("#search-query", "Enter");
    await page.waitForSelector("#search-table tbody tr", { timeout: 60_000 });
    expect(emu.balance(emu.demoKey)).toBe(demoBefore);
    const spent = await team.spentByUser();
    expect(spent.ben).toBeGreaterThan(0);
    expect(spent.ben).toBe(1000 - emu.balance(teamKey));

    expect((await page.content()).replace(/<script id="pg-config"[\s\S]*?<\/script>/, "")).not.toContain(token);
    expect(world.errors).toEqual([]);
  }, 180_000);
});
