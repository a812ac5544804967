/**
 * Issue 39 in real Chromium: the team console at /console on a team server
 * (PGlite) against the emulator, the server's clock on the emulator's day.
 * An admin signs in and sees two users' spend as `server report --json`
 * prints it; sets a soft limit that alerts once to a loopback webhook when
 * a user's spend crosses it; grants a temporary increase that lapses when
 * the emulator's clock passes its end; creates, rotates and revokes a token;
 * transfers a schedule, runs it (its price shown first) and sees the run in
 * the history. A user signs in and sees only their own figures; a user's
 * token on an admin route gets 403. At 1280×720 and narrow, by keyboard,
 * every control labelled, no token in the page, its address, its storage
 * (but the tab's session) or the server's log; nothing spent but by the
 * purchases of the test and the run confirmed.
 * UPDATE_DOCS_SCREENSHOT=1 copies the screenshots to docs/console/.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monthOf } from "../../server/ledger/budget.ts";
import { serverNow } from "../../server/clock.ts";
import { buildConsole } from "../../scripts/build-ui.ts";
import { buyProfile, call, startConsoleWorld, type ConsoleWorld } from "../support/console-world.ts";
import { pgliteDatabase, serverCommand, type TestDatabase } from "../support/team-server.ts";
import { launch, ROOT, screenshot, skipWithoutChromium, tabOrder, watchErrors, type Launched } from "./browser.ts";

const shot = async (page: Page, name: string) => {
  const file = await screenshot(page, `console-${name}`);
  if (process.env.UPDATE_DOCS_SCREENSHOT) {
    mkdirSync(join(ROOT, "docs", "console"), { recursive: true });
    copyFileSync(file, join(ROOT, "docs", "console", `${name}.png`));
  }
};

async function until<T>(f: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe.skipIf(skipWithoutChromium())("the team console (Chromium)", () => {
  let database: TestDatabase;
  let w: ConsoleWorld;
  let chrome: Launched;
  let page: Page;
  let errors: string[];
  const requests: string[] = [];
  /** Credits the test itself bought, per user. */
  const bought: Record<string, number> = { anna: 0, ben: 0 };
  const buy = async (user: "anna" | "ben", n = 1) => {
    for (let i = 0; i < n; i++) bought[user]! += await buyProfile(w.srv.url, w[user], w.freshCompany());
  };
  let runCredits = 0;
  const shownSpend: Record<string, number> = {};

  const tab = async (id: string) => {
    await page.click(`#tab-${id}`);
    await page.waitForSelector("main .cc-view");
  };
  const signIn = async (token: string) => {
    await page.fill("#signin-token", token);
    await page.keyboard.press("Enter");
    await page.waitForSelector("#who");
  };

  beforeAll(async () => {
    await buildConsole();
    database = pgliteDatabase();
    // The loop and the soft limits' check look every 400 ms: "run now" and an alert happen while the test waits.
    w = await startConsoleWorld(database, { tickMs: 400 });
    chrome = await launch();
    page = await chrome.browser.newPage({ viewport: { width: 1280, height: 720 } });
    errors = watchErrors(page);
    page.on("request", (r) => void requests.push(r.url()));
    await buy("anna", 2);
    await buy("ben", 3);
  }, 120_000);

  afterAll(async () => {
    await chrome?.close();
    await w?.close();
    await database?.drop();
  });

  it("a user's token on an admin route gets 403; signed in, the user sees only their own figures", async () => {
    await page.goto(`${w.srv.url}/console`);
    await page.waitForSelector("#signin-token");
    const status = await page.evaluate(
      async (token) =>
        (await fetch("/console/api/admin/report", { headers: { Authorization: `Bearer ${token}` } })).status,
      w.anna,
    );
    expect(status).toBe(403);
    await shot(page, "sign-in");
    await signIn(w.anna);
    await page.waitForSelector("#me-spent");
    expect(await page.$$eval(".cd-tab", (els) => els.map((e) => e.id))).toEqual(["tab-me"]);
    expect(Number(await page.getAttribute("#me-spent", "data-spent"))).toBe(bought.anna);
    const text = await page.textContent("main");
    expect(text).not.toContain("ben");
    await shot(page, "my-usage");
    await page.click("#sign-out");
    await page.waitForSelector("#signin-token");
  });

  it("the admin signs in by keyboard and sees both users' spend, per endpoint and per day", async () => {
    await page.focus("#signin-token");
    await page.keyboard.type(w.admin);
    await page.keyboard.press("Enter");
    await page.waitForSelector("#spend-users");
    for (const u of ["anna", "ben"]) {
      shownSpend[u] = Number(await page.getAttribute(`#spend-users tr[data-user="${u}"]`, "data-spent"));
      expect(shownSpend[u]).toBe(bought[u]);
    }
    expect(await page.$$("#spend-chart rect.cc-bar")).not.toHaveLength(0);
    expect(await page.textContent("#spend-unsettled-none")).toBeTruthy();
    // Every control is labelled; focus is visible.
    const unlabelled = await page.$$eval("main input, main select, main textarea", (els) =>
      els.filter((e) => !(e as HTMLInputElement).labels?.length && !e.getAttribute("aria-label")).map((e) => e.id),
    );
    expect(unlabelled).toEqual([]);
    const order = await tabOrder(page, 60);
    expect(order.map((o) => o.id)).toEqual(
      expect.arrayContaining(["tab-spend", "tab-budgets", "spend-month", "csv-download"]),
    );
    await page.focus("#tab-budgets");
    const outline = await page.$eval("#tab-budgets", (e) => getComputedStyle(e).outlineStyle);
    expect(outline).not.toBe("none");
    expect(page.url()).not.toContain("cdt_");
    expect(await page.content()).not.toContain(w.admin);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await shot(page, "spend");
    // Narrow: the same view still reads (no horizontal overflow of the page itself).
    await page.setViewportSize({ width: 420, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await shot(page, "spend-narrow");
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  it("a soft limit fires one alert to the loopback webhook when anna's spend crosses it", async () => {
    await tab("budgets");
    await page.selectOption("#soft-who", "anna");
    const threshold = Math.floor(((bought.anna! + 1) * 100) / 100) + 1; // the next purchase crosses it
    await page.fill("#soft-percent", String(threshold));
    await page.fill("#soft-webhooks", `${w.hooks.url}/ok/budget?sig=HOOKSECRET`);
    await page.click("#soft-save");
    await page.waitForSelector("#status.is-success");
    expect(w.hooks.posts).toHaveLength(0);
    while (bought.anna! < threshold) await buy("anna");
    await until(async () => w.hooks.posts.length > 0);
    await new Promise((r) => setTimeout(r, 1_200)); // three more looks: still one alert
    await buy("anna");
    await new Promise((r) => setTimeout(r, 1_000));
    expect(w.hooks.posts).toHaveLength(1);
    expect(JSON.parse(w.hooks.posts[0]!.body).text).toMatch(/anna/);
    await tab("spend");
    await tab("budgets");
    await page.waitForSelector('#budgets-table tr[data-budget="anna"]');
    expect(await page.textContent('#budgets-table tr[data-budget="anna"]')).toMatch(/sent/);
    expect(await page.content()).not.toContain("HOOKSECRET");
  });

  it("a temporary increase lets ben buy until the emulator's clock passes its end", async () => {
    const base = bought.ben!;
    await page.selectOption("#budget-who", "ben");
    await page.fill("#budget-value", String(base));
    await page.click("#budget-save");
    await page.waitForSelector("#status.is-success");
    await expect(buy("ben")).rejects.toThrow(/402/);
    await page.selectOption("#increase-who", "ben");
    await page.fill("#increase-credits", "20");
    const tomorrow = new Date(serverNow() + 86_400_000).toISOString().slice(0, 10);
    await page.fill("#increase-end", tomorrow);
    await page.click("#increase-grant");
    await page.waitForSelector("#status.is-success");
    expect(await page.getAttribute('#budgets-table tr[data-budget="ben"]', "data-effective")).toBe(String(base + 20));
    await buy("ben");
    await shot(page, "budgets");
    w.advance(2);
    await tab("spend");
    await tab("budgets");
    await page.waitForSelector('#budgets-table tr[data-budget="ben"]');
    // Lapsed: the budget is the month's again, and ben has spent it.
    expect(await page.getAttribute('#budgets-table tr[data-budget="ben"]', "data-effective")).toBe(String(base));
    await expect(buy("ben")).rejects.toThrow(/402/);
    const history = await page.textContent("#budget-history");
    expect(history).toMatch(/root/);
    await page.selectOption("#budget-who", "ben");
    await page.fill("#budget-value", "1000");
    await page.click("#budget-save");
    await page.waitForSelector("#status.is-success");
  });

  it("creates a token (shown once, with a copy button), rotates and revokes it", async () => {
    await tab("tokens");
    await page.fill("#create-user", "carl");
    await page.click("#create-token");
    await page.waitForSelector("#fresh-token");
    const first = await page.inputValue("#fresh-token");
    expect(first).toMatch(/^cdt_/);
    expect((await call(w.srv.url, first, "/console/api/me")).status).toBe(200);
    await shot(page, "tokens");
    await page.click("#fresh-hide");
    // Rotation with the default grace: the old token still works for a day, and the list says until when.
    await page.click("#rotate-carl");
    await page.waitForSelector("#fresh-token");
    const second = await page.inputValue("#fresh-token");
    expect(second).not.toBe(first);
    expect((await call(w.srv.url, first, "/console/api/me")).status).toBe(200);
    expect(await page.textContent('#tokens-users tr[data-user="carl"]')).toMatch(
      /rotated, valid until|erneuert, gilt noch bis/,
    );
    await page.click("#fresh-hide");
    // Rotation without grace: the token it replaces ends at once.
    await page.selectOption("#rotate-grace", "0");
    await page.click("#rotate-carl");
    await page.waitForSelector("#fresh-token");
    const third = await page.inputValue("#fresh-token");
    // (The first token keeps the grace its own rotation gave it.)
    expect((await call(w.srv.url, second, "/console/api/me")).status).toBe(401);
    expect((await call(w.srv.url, third, "/console/api/me")).status).toBe(200);
    await page.click("#fresh-hide");
    await page.click("#revoke-carl");
    await page.click("#revoke-yes-carl");
    await page.waitForSelector("#status.is-success");
    // Revoking ends every token of the user, a rotation's grace included.
    for (const k of [first, second, third]) expect((await call(w.srv.url, k, "/console/api/me")).status).toBe(401);
    expect(await page.textContent('#tokens-users tr[data-user="carl"]')).toMatch(/none valid|keine gültigen/);
  });

  it("transfers anna's schedule to ben, runs it with its price shown first, and sees the run in the history", async () => {
    const companies = [w.freshCompany(), w.freshCompany()];
    const reg = await call(w.srv.url, w.anna, "/schedules/watch", { companies, frequency: "weekly", hour: 5 });
    expect(reg.status, reg.text).toBe(200);
    await tab("schedules");
    const row = 'tr[data-name="watch"]';
    await page.waitForSelector(row);
    const id = await page.getAttribute(row, "data-schedule");
    await page.selectOption(`#transfer-to-${id}`, "ben");
    await page.click(`#transfer-${id}`);
    await page.waitForSelector(`${row}[data-owner="ben"]`);
    await page.click(`#run-${id}`);
    await page.waitForSelector("#run-price-text");
    const priceText = await page.textContent("#run-price-text");
    expect(priceText).toMatch(/costs at most \d+ credits|kostet höchstens \d+ Credits/);
    await shot(page, "schedules-price");
    await page.click("#run-confirm");
    await page.waitForSelector("#status.is-success");
    await until(async () => {
      await page.click("#schedules-refresh");
      await page.waitForSelector(row);
      return (await page.$(`#runs-table tr[data-schedule="${id}"]`)) !== null;
    });
    const runs = (await call(w.srv.url, w.admin, "/console/api/admin/runs")).body.runs;
    expect(runs[0]).toMatchObject({ owner: "ben", schedule: "watch" });
    runCredits = runs[0].credits;
    const price = Number(/(\d+)/.exec(priceText!.replace(/[.,\s]/g, ""))?.[1]);
    expect(runCredits).toBeLessThanOrEqual(price);
    await shot(page, "schedules");
  });

  it("health: version, database, the doctor's verdict; then the spend is what was bought and what the run confirmed", async () => {
    await tab("health");
    await page.waitForSelector("#health-version");
    expect(await page.textContent("#health-db")).toMatch(/pglite/);
    await shot(page, "health");
    await tab("spend");
    const total =
      Number(await page.getAttribute('#spend-users tr[data-user="anna"]', "data-spent")) +
      Number(await page.getAttribute('#spend-users tr[data-user="ben"]', "data-spent"));
    // No request of the console spent a credit: the ledger holds the test's purchases and the confirmed run only.
    expect(total).toBe(bought.anna! + bought.ben! + runCredits);
    for (const r of requests) expect(r).not.toMatch(/cdt_/);
    expect(w.srv.logs.join("\n")).not.toMatch(/cdt_[A-Za-z0-9_-]{20}/);
    expect(w.srv.logs.join("\n")).not.toContain("HOOKSECRET");
    expect(errors.filter((e) => !/status of 40[23]/.test(e))).toEqual([]);
  });

  it("the figures shown are those of `server report --json`", async () => {
    const month = monthOf(serverNow());
    const shown = {
      anna: Number(await page.getAttribute('#spend-users tr[data-user="anna"]', "data-spent")),
      ben: Number(await page.getAttribute('#spend-users tr[data-user="ben"]', "data-spent")),
    };
    await w.closeServer();
    const cli = await serverCommand(database, ["report", "--json", "--month", month]);
    expect(cli.code, cli.stderr).toBe(0);
    const byUser = Object.fromEntries(
      (JSON.parse(cli.stdout) as { byUser: { user: string; spent: number }[] }).byUser.map((u) => [u.user, u.spent]),
    );
    expect(byUser).toMatchObject(shown);
    expect(shownSpend.anna).toBeGreaterThan(0);
  }, 60_000);
});
