/**
 * The Monitor panel's alert section in real Chromium (the playground, which
 * has no e-mail: a webhook only): Slack and Teams are refused (they answer
 * no CORS to a browser); a receiver that allows CORS is saved and shown by its host
 * only; after the emulator's clock brings an insolvency the check posts it
 * once; a receiver that refuses shows "NOT delivered" with the reason and the
 * news waiting, and the next check delivers it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { startPlayground, type RunningPlayground } from "../../scripts/playground-server.ts";
import { PORTFOLIO } from "../../playground/data.ts";
import { skipWithoutChromium, launch, watchErrors, type Launched, openPlayground } from "./browser.ts";
import { FAST } from "../helpers/cli.ts";
import { nth } from "../helpers/indexed.ts";

describe.skipIf(skipWithoutChromium())("monitor alerts in Chromium", () => {
  let emu: Emulator;
  let api: RunningServer;
  let pg: RunningPlayground;
  let chrome: Launched;
  let page: Page;
  let errors: string[];
  const hookUrl = "https://alerts.example.com/hooks/secret-path";
  let status = 200;
  const bodies: string[] = [];

  beforeAll(async () => {
    // Rate limits high enough that no check waits (the panel's pausing is tested in playground.test.ts).
    emu = createEmulator({
      companies: 3000,
      rateLimits: { resolve: FAST, availability: FAST, account: FAST, suggest: FAST },
    });
    api = await startServer(emu, { port: 0 });
    pg = await startPlayground({
      port: 0,
      emulatorUrl: api.url,
      demoKey: emu.demoKey,
      ambiguousNames: [],
      rebuild: true,
    });
    chrome = await launch();
    page = await chrome.browser.newPage({ locale: "de-DE", viewport: { width: 1400, height: 900 } });
    errors = watchErrors(page);
    // The webhook receiver: an https address that allows CORS, answered here (the page may only connect
    // to https: and the emulator). A real Slack answers no CORS preflight (shared/monitor/README.md): refused below.
    await page.route("https://alerts.example.com/**", async (route) => {
      const cors = {
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Headers": "content-type",
        "Access-Control-Allow-Methods": "POST",
      };
      if (route.request().method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
      bodies.push(route.request().postData() ?? "");
      return route.fulfill({ status, headers: cors, body: "" });
    });
    await openPlayground(page, pg.url);
  }, 120_000);

  afterAll(async () => {
    await chrome?.close();
    await pg?.close();
    await api?.close();
  });

  // The waits poll on a timer, not on animation frames: after the check, headless Chromium may paint no frame
  // until the next input, and a requestAnimationFrame poll then never runs again.
  const checkNow = async () => {
    // "Check now" spends at most the price on screen (issue 12): price the check as it is now first.
    await page.click("#monitor-price");
    await page.waitForFunction(
      () =>
        document.querySelector("#monitor-price:not([aria-busy])") !== null &&
        document.querySelector("#monitor-cost[data-credits]") !== null,
      null,
      { timeout: 60_000, polling: 200 },
    );
    // This check's own end: the status line loses the previous outcome, then shows this one's.
    await page.evaluate(() => document.querySelector("#cd-status-monitor")?.classList.remove("is-success"));
    // One click, even while the panel's own automatic price re-renders it: a click is never lost (shared/ui/app.ts).
    await page.click("#monitor-check");
    await page.waitForFunction(
      () => {
        const b = document.querySelector("#monitor-check");
        return (
          b !== null && !b.hasAttribute("aria-busy") && document.querySelector("#cd-status-monitor.is-success") !== null
        );
      },
      null,
      { timeout: 60_000, polling: 200 },
    );
    // The status (with the alert channels) is asked again after the check.
    await page.waitForSelector("#monitor-alert-status");
  };
  const webhookLine = () => page.textContent("#monitor-alert-status li[data-channel='webhook']");

  it("saves a webhook, alerts the insolvency once, shows a refused delivery and sends it with the next check", async () => {
    await page.click("#cd-tab-monitor");
    await page.waitForSelector("#monitor-alerts");
    // No e-mail outside Google Sheets.
    expect(await page.$("#monitor-alert-email")).toBeNull();
    // No Slack or Teams from the page itself: not offered, and refused with the ways out.
    expect(await page.getAttribute("#monitor-alert-webhook", "placeholder")).not.toContain("slack");
    await page.fill("#monitor-alert-webhook", "https://hooks.slack.com/services/T0/B0/x");
    await page.click("#monitor-alert-save");
    await page.waitForFunction(() =>
      /kein CORS|no CORS/.test(document.querySelector("#cd-status-monitor")?.textContent ?? ""),
    );
    expect(await page.textContent("#cd-status-monitor")).toMatch(
      /Slack und Teams nehmen keine|Slack and Teams accept no/,
    );
    expect(await page.$("#monitor-alert-status li[data-channel='webhook']")).toBeNull();
    await page.fill("#monitor-alert-webhook", hookUrl);
    await page.click("#monitor-alert-save");
    await page.waitForSelector("#monitor-alert-status li[data-channel='webhook']");
    const saved = (await webhookLine())!;
    expect(saved).toContain("alerts.example.com/…");
    expect(saved).not.toContain("secret-path");
    expect(await page.getAttribute("#monitor-alert-webhook", "placeholder")).not.toContain("secret-path");

    await checkNow(); // the first check: history, nothing to send
    expect(bodies).toHaveLength(0);

    const target = nth(PORTFOLIO, 2);
    emu.scheduleEvent(target.id, { day: emu.clock.day() + 1, kind: "INSOLVENCY" });
    emu.clock.advance(1);
    await checkNow();
    expect(bodies).toHaveLength(1);
    const digest = JSON.parse(nth(bodies, 0));
    expect(digest.companies.find((c: { id: string }) => c.id === target.id)).toMatchObject({ to: "risk" });
    await page.waitForFunction(() =>
      /zuletzt zugestellt|last delivered/.test(
        document.querySelector("#monitor-alert-status li[data-channel='webhook']")?.textContent ?? "",
      ),
    );

    // The receiver refuses: the panel says so and why, and that it waits.
    const other = nth(PORTFOLIO, 4);
    emu.scheduleEvent(other.id, { day: emu.clock.day() + 1, kind: "ADDRESS" });
    emu.clock.advance(1);
    status = 503;
    await checkNow();
    await page.waitForFunction(
      () =>
        document
          .querySelector("#monitor-alert-status li[data-channel='webhook']")
          ?.classList.contains("cd-alert-failed") === true,
    );
    expect(await webhookLine()).toMatch(
      /NICHT zugestellt.*HTTP 503.*nächsten Lauf.*1 Firma wartet|NOT delivered.*HTTP 503.*next run.*1 company is waiting/,
    );

    // The next check (nothing new) sends what waited; the insolvency is not in it again.
    status = 200;
    await checkNow();
    await page.waitForFunction(() =>
      /zuletzt zugestellt|last delivered/.test(
        document.querySelector("#monitor-alert-status li[data-channel='webhook']")?.textContent ?? "",
      ),
    );
    const last = JSON.parse(bodies.at(-1)!);
    expect(last.companies.map((c: { id: string }) => c.id)).toContain(other.id);
    expect(bodies.filter((b) => b.includes(target.id))).toHaveLength(1);
    // The browser logs the refused post itself; nothing else went wrong.
    expect(errors.filter((e) => !/status of 503/.test(e))).toEqual([]);
  }, 180_000);
});
