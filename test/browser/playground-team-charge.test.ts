/**
 * Issue 37 item 5 in the playground (Chromium), connected to a team server:
 * two users enrich lists of 10 names sharing 6 (the first through the CLI,
 * the second in the page, as new users would). The price the page shows
 * before the spend is the team's (what it holds at 0: at most 2 credits above
 * what the emulator billed for the run), and the spend the page reports is
 * exactly that bill, never the list price.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { FAST } from "../helpers/cli.ts";
import { uniqueCompanies } from "../support/lists.ts";
import { companyDataCommand } from "../support/team-server.ts";
import { playgroundWorld, skipWithoutChromium, type PlaygroundWorld } from "./browser.ts";
import { startTestTeamServer, type TestTeamServer } from "./team-server.ts";

describe.skipIf(skipWithoutChromium())(
  "playground through a team server: the team's price, the charge (Chromium)",
  () => {
    let emu: Emulator;
    let world: PlaygroundWorld;
    let team: TestTeamServer;
    let teamKey = "";
    let dir = "";

    beforeAll(async () => {
      emu = createEmulator({
        companies: 2000,
        seed: 17,
        rateLimits: { resolve: FAST, availability: FAST, account: FAST, suggest: FAST },
      });
      world = await playgroundWorld(emu, { rebuild: true });
      teamKey = emu.createKey(10_000);
      team = await startTestTeamServer(world.api.url, teamKey, [world.pg.url.replace(/\/+$/, "")]);
      dir = mkdtempSync(join(tmpdir(), "pg-team-charge-"));
    }, 180_000);

    afterAll(async () => {
      await world?.close();
      await team?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("two users sharing 6 of 10 names: the page's price is the team's, its spend exactly the bill", async () => {
      const { page } = world;
      const names = uniqueCompanies(emu, 14, 77).map((c) => c.name);
      const bill = () => 10_000 - emu.balance(teamKey);

      // The first user, with the CLI: a new team's first list.
      const input = join(dir, "ann.csv");
      writeFileSync(input, ["Firma", ...names.slice(0, 10).map((n) => `"${n}"`)].join("\n") + "\n");
      const ann = await team.token("ann");
      const a = await companyDataCommand(
        ["enrich", "--in", input, "--out", input + ".out.csv", "--fields", "name,city,url", "--yes", "--lang", "en"],
        { COMPANY_DATA_SERVER: team.url, COMPANY_DATA_TOKEN: ann, COMPANY_DATA_API_KEY: "" },
      );
      expect(a.code, a.stderr).toBe(0);

      // The second user, in the page: the team server as the connection.
      const ben = await team.token("ben");
      await page.click("#cd-tab-settings");
      await page.click("#settings-connection-server");
      await page.fill("#settings-server-url", team.url);
      await page.fill("#settings-token", ben);
      await page.click("#settings-save");
      await page.waitForFunction(() =>
        /Gespeichert|Saved/.test(document.querySelector("#cd-status-settings")?.textContent ?? ""),
      );
      const list = [...names.slice(0, 6), ...names.slice(10, 14)];
      await page.evaluate((rows) => {
        const wb = (window as any).__playground.workbook;
        wb.addSheet("Ben", [["Firma"], ...rows.map((n) => [n])]);
        wb.changed();
      }, list);
      await page.click(`.pg-sheet-tab[data-sheet="Ben"]`);
      await page.click("#pg-c-2-1");
      await page.click("#cd-tab-enrich");
      await page.click("#enrich-read");
      await page.waitForFunction(() =>
        /Ben: 10 Zeilen/.test(document.querySelector("#enrich-selection")?.textContent ?? ""),
      );
      // The fields the first user's list was bought with: its profiles are the team's to share.
      await page.waitForSelector("#enrich-field-address");
      await page.click("#enrich-preview-btn");
      await page.waitForSelector("#enrich-preview");
      const preview = (await page.textContent("#enrich-preview")) ?? "";
      const price = Number(/Schnell: höchstens (\d+) Credits?/.exec(preview)?.[1]);
      const before = bill();
      await page.click("#enrich-start");
      await page.waitForFunction(
        () => /abgeschlossen|finished/.test(document.querySelector("#cd-status-enrich")?.textContent ?? ""),
        null,
        { timeout: 90_000 },
      );
      const charged = bill() - before;
      expect(charged).toBeGreaterThan(0);
      // The list price of 10 names would be 1 + 10 profiles at least: the team's price is what the team lacks.
      expect(price, preview).toBeGreaterThanOrEqual(charged);
      expect(price - charged, preview).toBeLessThanOrEqual(2);
      const counts = (await page.textContent("#enrich-counts")) ?? "";
      expect(counts).toMatch(new RegExp(`· ${charged} Credits?$`));
      expect(world.errors).toEqual([]);
    }, 240_000);
  },
);
