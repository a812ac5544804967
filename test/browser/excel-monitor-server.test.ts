/**
 * Issue 24, "a portfolio check on the server while no workbook is open", in
 * real Chromium, as Excel runs the add-in: the task pane and the functions'
 * page (one page: the shared runtime) from the add-in's origin, the API
 * (the emulator) on another origin behind a proxy that answers no CORS at
 * all, and a team server between them whose own scheduler loop runs the
 * check (a short tick; its clock is the emulator's day at 08:00 UTC).
 *
 * Day 0: the user connects to the team server and switches the portfolio
 * schedule on in the pane: the portfolio sheet's ids are registered with the
 * server, which makes its first run (the baseline) through "run now". The
 * workbook is closed (the page closed; its settings, OfficeRuntime.storage
 * and cells are kept, as the file and the device keep them). Day 3: a
 * portfolio company goes insolvent; the server's loop runs the check with no
 * page open. Day 4: the workbook opens again; the runtime's start fetches
 * the server's runs and the portfolio sheet shows the insolvency in the
 * company's row and the change log the change, without the task pane being
 * used; the Monitor panel shows the server's last run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Server } from "node:http";
import { rmSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { OFFICE_JS } from "../../excel-addin/build/html.ts";
import { setScheduleConfig } from "../../server/schedules/config.ts";
import { FAST } from "../helpers/cli.ts";
import { uniqueCompanies } from "../support/lists.ts";
import { launch, screenshot, skipWithoutChromium, watchErrors, type Launched } from "./browser.ts";
import { closeServer, excelWorkbookScript, fakeOffice, noCorsProxy, serveBuiltAddin } from "./excel-page.ts";
import { startTestTeamServer, type TestTeamServer } from "./team-server.ts";

const START = "2026-03-02";

describe.skipIf(skipWithoutChromium())(
  "Excel add-in with a team server: the portfolio schedule runs on the server while the workbook is closed (Chromium)",
  () => {
    let tmp = "";
    let emu: Emulator;
    let api: RunningServer;
    let proxy: { url: string; server: Server; hits: () => number };
    let addin: Server;
    let addinUrl = "";
    let team: TestTeamServer;
    let token = "";
    let chrome: Launched;
    let realAtDayStart = Date.now();
    // The team server's clock: the emulator's "today" at 08:00 UTC, moving with real time within the day.
    const serverNow = () => Date.parse(`${emu.clock.today()}T08:00:00Z`) + (Date.now() - realAtDayStart);

    beforeAll(async () => {
      ({ tmp, server: addin, url: addinUrl } = await serveBuiltAddin("excel-monitor-server-"));
      emu = createEmulator({
        companies: 2000,
        startDate: START,
        rateLimits: { resolve: FAST, availability: FAST, account: FAST, suggest: FAST },
      });
      api = await startServer(emu, { port: 0 });
      proxy = await noCorsProxy(api.url);
      // Before the team server starts: its scheduler loop takes this clock and a short tick.
      setScheduleConfig({ now: serverNow, tickMs: 200, leaseMs: 60_000, webhookTimeoutMs: 5_000, mailer: undefined });
      team = await startTestTeamServer(proxy.url, emu.createKey(5000), [addinUrl]);
      token = await team.token("anna", 500);
      chrome = await launch();
    }, 180_000);

    afterAll(async () => {
      await chrome?.close();
      await team?.close();
      setScheduleConfig(undefined);
      await Promise.all([closeServer(addin), closeServer(proxy?.server), api?.close()]);
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    /** The emulator's control endpoints, as a tester would call them. */
    async function control(path: string, body: unknown) {
      const res = await fetch(`${api.url.replace(/\/+$/, "")}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBeLessThan(300);
    }

    /** The team server's runs of the schedule, as its owner sees them. */
    async function serverRuns(name: string): Promise<{ id: number; status: string }[]> {
      const res = await fetch(`${team.url}/schedules/${name}/runs?after=0`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      return ((await res.json()) as { runs?: { id: number; status: string }[] }).runs ?? [];
    }

    async function waitForRuns(name: string, n: number) {
      for (let k = 0; k < 600; k++) {
        const runs = await serverRuns(name);
        if (runs.length >= n) return runs;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the team server's loop did not run ${name} ${n} times`);
    }

    /** Open the workbook: the page with the persistent Office fake and Excel.run over the kept cells. */
    async function openWorkbook(context: BrowserContext, script: string): Promise<Page> {
      const page = await context.newPage();
      await page.route(OFFICE_JS, (route) =>
        route.fulfill({ status: 200, contentType: "text/javascript", body: `${fakeOffice(true)}\n${script}` }),
      );
      await page.goto(`${addinUrl}/taskpane.html`);
      await page.waitForSelector("#cd-tab-settings");
      return page;
    }

    const cellsOf = (page: Page, sheet: string) =>
      page.evaluate((name) => {
        const wb = (window as unknown as { __workbook: { sheets: Map<string, { cells: unknown[][] }> } }).__workbook;
        return wb.sheets.get(name)?.cells ?? null;
      }, sheet);

    it("day 0 switched on in the pane, day 3 checked on the server with no page open, day 4 the sheet shows the insolvency and the change", async () => {
      const companies = uniqueCompanies(emu, 6, 11);
      const active = new Set(emu.companies.withStatus("ACTIVE"));
      const target = companies.find((c) => active.has(c.id)) ?? companies[0]!;
      const script = await excelWorkbookScript({
        Portfolio: [["ID", "Firma"], ...companies.map((c) => [c.id, c.name])],
      });
      const context = await chrome.browser.newContext({ viewport: { width: 350, height: 1000 } });

      // ---- day 0: connect to the team server, switch the schedule on
      const first = await openWorkbook(context, script);
      const errors = watchErrors(first);
      await first.click("#cd-tab-settings");
      await first.click("#settings-connection-server");
      await first.fill("#settings-server-url", team.url);
      await first.fill("#settings-token", token);
      await first.click("#settings-save");
      await first.waitForFunction(() =>
        /Gespeichert/.test(document.querySelector("#cd-status-settings")?.textContent ?? ""),
      );
      await first.click("#cd-tab-monitor");
      await first.waitForSelector("#monitor-server");
      // The server sends the alerts: Slack and Teams are offered; this server has no SMTP, so no e-mail field.
      expect(await first.getAttribute("#monitor-alert-webhook", "placeholder")).toContain("hooks.slack.com");
      expect(await first.$("#monitor-alert-email")).toBeNull();
      expect(await first.textContent("#monitor-host-note")).toMatch(/auf dem Team-Server.*geschlossen/);
      await first.click("#monitor-estimate");
      await first.waitForSelector("#monitor-estimate-view", { timeout: 60_000 });
      await first.click("#monitor-toggle");
      await first.waitForFunction(
        () => /eingeschaltet/.test(document.querySelector("#monitor-server-state")?.textContent ?? ""),
        null,
        { timeout: 60_000 },
      );
      await screenshot(first, "excel-monitor-server-on");
      // Starting with the workbook (issue 42, item 3): with a team server it is off until someone chooses it; the
      // panel says what it would mean for colleagues without the add-in, and the switch turns it on for this workbook.
      await first.waitForSelector("#monitor-startup");
      expect(await first.getAttribute("#monitor-startup-note", "data-startup")).toBe("off");
      expect(await first.textContent("#monitor-startup-note")).toMatch(/ohne das Add-in.*keinen Fehler/);
      await first.click("#monitor-startup-toggle");
      await first.waitForFunction(
        () => document.querySelector("#monitor-startup-note")?.getAttribute("data-startup") === "on",
      );
      expect(await first.textContent("#monitor-startup-note")).toMatch(/ADD-IN ERROR/);
      expect(await first.textContent("#monitor-startup-toggle")).toBe("Nicht mehr beim Öffnen starten");
      expect(await first.evaluate(() => localStorage.getItem("__startupBehavior"))).toBe("Load");
      // Shared with the team read-only (issue 42, item 1): on when the workbook links it, said, and switchable.
      const sharedNote = () => first.getAttribute("#monitor-server-shared", "data-shared");
      expect(await sharedNote()).toBe("on");
      expect(await first.textContent("#monitor-server-shared")).toMatch(/Mit dem Team geteilt \(nur lesen\)/);
      await first.click("#monitor-server-share");
      await first.waitForFunction(
        () => document.querySelector("#monitor-server-shared")?.getAttribute("data-shared") === "off",
      );
      expect(await first.textContent("#monitor-server-share")).toBe("Mit dem Team teilen (nur lesen)");
      const sharedOnServer = async () =>
        (
          (await (await fetch(`${team.url}/schedules`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
            schedules: { shared: boolean }[];
          }
        ).schedules[0]!.shared;
      expect(await sharedOnServer()).toBe(false);
      await first.click("#monitor-server-share");
      await first.waitForFunction(
        () => document.querySelector("#monitor-server-shared")?.getAttribute("data-shared") === "on",
      );
      expect(await sharedOnServer()).toBe(true);
      const { schedules } = (await (
        await fetch(`${team.url}/schedules`, { headers: { Authorization: `Bearer ${token}` } })
      ).json()) as { schedules: { name: string; companies: string[] }[] };
      expect(schedules).toHaveLength(1);
      const name = schedules[0]!.name;
      expect(schedules[0]!.companies.sort()).toEqual(companies.map((c) => c.id).sort());
      // The first run (the baseline of watermarks), made due now and run by the server's loop.
      expect(
        (
          await fetch(`${team.url}/schedules/${name}/run`, {
            method: "POST",
            headers: { Authorization: `Bearer ${token}` },
          })
        ).status,
      ).toBe(202);
      await waitForRuns(name, 1);
      expect(errors).toEqual([]);
      // The workbook is closed.
      await first.close();
      expect(context.pages()).toHaveLength(0);

      // ---- days 1–3 with no page open: the insolvency on day 3, the server's loop checks at 07:00
      await control("/_emulator/schedule", { id: target.id, kind: "INSOLVENCY", day: emu.clock.day() + 3 });
      await control("/_emulator/clock", { days: 3 });
      realAtDayStart = Date.now();
      const afterDay3 = await waitForRuns(name, 2);
      expect(afterDay3.at(-1)!.status).toBe("done");
      // ---- day 4: the day's run too, still with no page open
      await control("/_emulator/clock", { days: 1 });
      realAtDayStart = Date.now();
      await waitForRuns(name, 3);
      expect(context.pages()).toHaveLength(0);

      // ---- the workbook opens again: its start writes what the server found, without the pane being used
      const requests: string[] = [];
      context.on("request", (r) => void requests.push(r.url()));
      const again = await openWorkbook(context, script);
      const errorsAgain = watchErrors(again);
      await again.waitForFunction(
        (id) => {
          const wb = (window as unknown as { __workbook: { sheets: Map<string, { cells: unknown[][] }> } }).__workbook;
          const rows = wb.sheets.get("Portfolio")?.cells ?? [];
          return rows.some((r) => r[0] === id && r.some((c) => c === "Risiko"));
        },
        target.id,
        { timeout: 60_000 },
      );
      const sheet = (await cellsOf(again, "Portfolio"))!;
      const header = sheet[0]!.map(String);
      const flag = header.indexOf("Hinweis");
      const row = sheet.find((r) => r[0] === target.id)!;
      expect(String(row[flag])).toMatch(/[Ii]nsolvenz|[Ii]nsolvent/);
      for (const other of sheet.slice(1).filter((r) => r[0] !== target.id))
        expect(String(other[flag])).not.toMatch(/[Ii]nsolvenz/);
      const log = (await cellsOf(again, "Änderungen"))!;
      expect(log[0]).toEqual(["Datum", "Firmen-ID", "Firma", "Art", "Text", "Quelle", "Schlüssel"]);
      const lines = log.slice(1).filter((l) => l[1] === target.id);
      expect(lines.length).toBeGreaterThanOrEqual(1);
      expect(String(lines[0]![0]).slice(0, 10)).toBe(
        new Date(Date.parse(`${START}T00:00:00Z`) + 3 * 86_400_000).toISOString().slice(0, 10),
      );
      // The schedule asked Excel to start the runtime with the document (Office.addin.setStartupBehavior).
      expect(await again.evaluate(() => localStorage.getItem("__startupBehavior"))).toBe("Load");

      // The Monitor panel: the schedule on the server and its last run.
      await again.click("#cd-tab-monitor");
      await again.waitForSelector("#monitor-server-last", { timeout: 60_000 });
      expect(await again.textContent("#monitor-server-state")).toMatch(/eingeschaltet/);
      await screenshot(again, "excel-monitor-server-day4");
      // Nothing went to the API's origin from the page: every request to the add-in's origin or the team server.
      const origins = new Set(requests.filter((u) => u !== OFFICE_JS).map((u) => new URL(u).origin));
      expect([...origins].sort()).toEqual([new URL(addinUrl).origin, new URL(team.url).origin].sort());
      const shown = (await again.content()).replace(/<script[\s\S]*?<\/script>/g, "");
      expect(shown).not.toContain(token);

      // A colleague with a token of their own (issue 42, item 1): the panel says whose schedule it is, read-only,
      // and offers no share switch; fetching works (the owner shares it).
      const colleague = await team.token("ben", 100);
      await again.click("#cd-tab-settings");
      await again.fill("#settings-token", colleague);
      await again.click("#settings-save");
      await again.waitForFunction(() =>
        /Gespeichert/.test(document.querySelector("#cd-status-settings")?.textContent ?? ""),
      );
      await again.click("#cd-tab-monitor");
      await again.waitForSelector("#monitor-server-owner", { timeout: 60_000 });
      expect(await again.textContent("#monitor-server-owner")).toMatch(
        /gehört anna und ist mit dem Team geteilt \(nur lesen\)/,
      );
      expect(await again.$("#monitor-server-share")).toBeNull();
      await again.click("#monitor-server-sync");
      await again.waitForFunction(() =>
        /Keine neuen Läufe/.test(document.querySelector("#cd-status-monitor")?.textContent ?? ""),
      );
      expect(errorsAgain).toEqual([]);
      await context.close();
    }, 300_000);
  },
);
