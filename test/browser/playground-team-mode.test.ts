/**
 * Issue 42 item 6 in Chromium: the playground tells the truth in team mode.
 * The header names the saved connection (the emulator, then the team
 * server with its address and user), the balance shown is that
 * connection's (the emulator key's until Save, the user's team balance
 * after), a typed token is said to be typed and not saved, a saved one is
 * said to be saved, and after Test connection the result and the Save
 * button are in view. UPDATE_DOCS_SCREENSHOT=1 copies the screenshots to
 * docs/playground/.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { FAST } from "../helpers/cli.ts";
import { playgroundWorld, ROOT, screenshot, skipWithoutChromium, type PlaygroundWorld } from "./browser.ts";
import { startTestTeamServer, type TestTeamServer } from "./team-server.ts";

const shot = async (page: Page, name: string) => {
  const file = await screenshot(page, `playground-${name}`);
  if (process.env.UPDATE_DOCS_SCREENSHOT) {
    mkdirSync(join(ROOT, "docs", "playground"), { recursive: true });
    copyFileSync(file, join(ROOT, "docs", "playground", `${name}.png`));
  }
};

/** Whether all of `sel` is inside the window and inside its scrolling side box (not below the fold). */
const inView = (page: Page, sel: string) =>
  page.$eval(sel, (el) => {
    const r = el.getBoundingClientRect();
    const box = document.getElementById("pg-side")!.getBoundingClientRect();
    return r.height > 0 && r.top >= Math.max(0, box.top) && r.bottom <= Math.min(window.innerHeight, box.bottom);
  });

const text = async (page: Page, sel: string) => ((await page.textContent(sel)) ?? "").replace(/\s+/g, " ").trim();
const credits = async (page: Page) => Number((await text(page, "#cd-balance")).replace(/\D/g, ""));

describe.skipIf(skipWithoutChromium())("playground in team mode tells the truth (Chromium)", () => {
  let emu: Emulator;
  let world: PlaygroundWorld;
  let team: TestTeamServer;
  let teamKey = "";

  beforeAll(async () => {
    emu = createEmulator({ companies: 500, rateLimits: { account: FAST, suggest: FAST } });
    world = await playgroundWorld(emu, { rebuild: true });
    teamKey = emu.createKey(1000);
    team = await startTestTeamServer(world.api.url, teamKey, [world.pg.url.replace(/\/+$/, "")]);
  }, 180_000);

  afterAll(async () => {
    await world?.close();
    await team?.close();
  });

  it("names the connection, shows its balance, says what is saved, and keeps Save and the result in view", async () => {
    const { page } = world;
    const emulatorUrl = world.api.url.replace(/\/+$/, "");
    const token = await team.token("ben", 50);
    await page.waitForFunction(() => /\d/.test(document.querySelector("#cd-balance")?.textContent ?? ""));
    expect(await text(page, "#pg-connection")).toBe(`Verbindung: Emulator ${emulatorUrl}`);
    expect(await credits(page)).toBe(emu.balance(emu.demoKey));

    await page.click("#cd-tab-settings");
    await page.click("#settings-connection-server");
    await page.fill("#settings-server-url", team.url);
    expect(await text(page, "#settings-token-hint")).toBe("Kein Token gespeichert.");
    await page.fill("#settings-token", token);
    // A filled field never stands above "no token saved".
    expect(await text(page, "#settings-token-hint")).toMatch(/^Token eingegeben, noch nicht gespeichert/);
    await page.click("#settings-test");
    await page.waitForSelector("#cd-status-settings.is-success", { timeout: 30_000 });
    const status = await text(page, "#cd-status-settings");
    expect(status).toMatch(/Verbindung in Ordnung\. Benutzer: ben\. Guthaben: 50 Credits\./);
    expect(status).toMatch(/Noch nicht gespeichert/);
    // Until Save the page uses the saved connection, and says so: the header names it, the balance is its.
    expect(await text(page, "#pg-connection")).toBe(`Verbindung: Emulator ${emulatorUrl}`);
    expect(await credits(page)).toBe(emu.balance(emu.demoKey));
    await shot(page, "team-tested");
    for (const sel of ["#cd-status-settings", "#settings-save", "#settings-doctor-verdict"])
      expect(await inView(page, sel), `${sel} in view after Test`).toBe(true);

    await page.click("#settings-save");
    await page.waitForFunction(() =>
      /Gespeichert/.test(document.querySelector("#cd-status-settings")?.textContent ?? ""),
    );
    await page.waitForFunction(() => /ben/.test(document.querySelector("#pg-connection")?.textContent ?? ""));
    expect(await text(page, "#pg-connection")).toBe(`Verbindung: Team-Server ${team.url} · Benutzer ben`);
    expect(await credits(page)).toBe(50);
    expect(await text(page, "#settings-token-hint")).toMatch(/^Ein Token ist gespeichert \(/);
    expect(await inView(page, "#cd-status-settings")).toBe(true);
    await shot(page, "team-saved");

    await page.click("#cd-lang-en");
    await page.waitForFunction(() =>
      /Connection: Team server/.test(document.querySelector("#pg-connection")?.textContent ?? ""),
    );
    expect(await text(page, "#pg-connection")).toBe(`Connection: Team server ${team.url} · user ben`);
    expect(await text(page, "#settings-token-hint")).toMatch(/^A token is saved \(/);
    expect((await page.content()).replace(/<script id="pg-config"[\s\S]*?<\/script>/, "")).not.toContain(token);
    expect(world.errors).toEqual([]);
  }, 180_000);
});
