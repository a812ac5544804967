/**
 * Issue 42 item 2 in Chromium: the Excel task pane on a public-looking
 * origin reaches a team server on this computer only if the browser's Local
 * Network Access lets it, and Test connection tells that block apart from a
 * server that answers but does not allow the add-in's origin (CORS) and from
 * a server that is down, each with what to do (DE and EN).
 *
 * How it is made testable without any traffic off loopback (Chromium's own
 * switches): `--host-resolver-rules` maps the name addin.example to
 * 127.0.0.1; `--ip-address-space-overrides` puts the add-in's port in the
 * public address space, so a request to another loopback port crosses from
 * public to loopback, as from an add-in on the internet to a server on the
 * user's computer; `--unsafely-treat-insecure-origin-as-secure` makes the
 * http page a secure context, as the https add-in is. Headless Chromium
 * cannot show the permission prompt: the request is refused and the
 * permission reads "denied", as after a user's "Block". A second browser
 * context where the permission is granted (as after "Allow", or the
 * LocalNetworkAccessAllowedForUrls policy) reaches the same server, and
 * there a server without the origin allowed (CORS) and a closed port (down)
 * are told apart. A custom function's failed fetch says the same in its
 * cell, short (excel-addin/functions/network.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { rmSync } from "node:fs";
import type { Page } from "playwright-core";
import { createEmulator } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { OFFICE_JS } from "../../excel-addin/build/html.ts";
import { FAST } from "../helpers/cli.ts";
import { launch, screenshot, skipWithoutChromium, watchErrors, type Launched } from "./browser.ts";
import { closeServer, FAKE_OFFICE, listen, serveBuiltAddin } from "./excel-page.ts";
import { startTestTeamServer, type TestTeamServer } from "./team-server.ts";

const portOf = (url: string) => Number(new URL(url).port);

describe.skipIf(skipWithoutChromium())("Local Network Access: Test connection names the block (Chromium)", () => {
  let tmp = "";
  let addin: Server;
  let addinPort = 0;
  let api: RunningServer;
  let team: TestTeamServer;
  let noCors: Server;
  let noCorsUrl = "";
  let closedUrl = "";
  let token = "";
  let chrome: Launched;
  let origin = "";

  beforeAll(async () => {
    let addinUrl = "";
    ({ tmp, server: addin, url: addinUrl } = await serveBuiltAddin("lna-"));
    addinPort = portOf(addinUrl);
    origin = `http://addin.example:${addinPort}`;
    const emu = createEmulator({ companies: 200, rateLimits: { account: FAST, availability: FAST, resolve: FAST } });
    api = await startServer(emu, { port: 0 });
    team = await startTestTeamServer(api.url, emu.createKey(500), [origin]);
    token = await team.token("anna", 100);
    // A server that answers everything and allows no origin: a team server started without this --allow-origin.
    noCors = createServer((_req, res) => res.writeHead(401, { "content-type": "application/json" }).end("{}"));
    noCorsUrl = await listen(noCors, "127.0.0.1");
    const gone = createServer();
    closedUrl = await listen(gone, "127.0.0.1");
    await closeServer(gone);
    chrome = await launch([
      "--host-resolver-rules=MAP addin.example 127.0.0.1",
      `--ip-address-space-overrides=127.0.0.1:${addinPort}=public`,
      `--unsafely-treat-insecure-origin-as-secure=${origin}`,
    ]);
  }, 180_000);

  afterAll(async () => {
    await chrome?.close();
    await team?.close();
    await Promise.all([closeServer(addin), closeServer(noCors), api?.close()]);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** Settings › Team server with `url` and `tok`, Test connection; the status once it has answered anew. */
  async function testServer(page: Page, url: string, tok: string, before: string) {
    await page.fill("#settings-server-url", url);
    await page.fill("#settings-token", tok);
    await page.click("#settings-test");
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
  }

  /** The task pane on the public-looking origin in a fresh context (`grant`: the user allowed local network access), at Settings › Team server. */
  async function openSettings(grant: boolean, lang: "de" | "en") {
    const context = await chrome.browser.newContext({ viewport: { width: 400, height: 900 } });
    if (grant) await context.grantPermissions(["local-network-access"], { origin });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.route(OFFICE_JS, (route) =>
      route.fulfill({ status: 200, contentType: "text/javascript", body: FAKE_OFFICE }),
    );
    await page.goto(`${origin}/taskpane.html`);
    expect(await page.evaluate(() => isSecureContext)).toBe(true);
    await page.click(`#cd-lang-${lang}`);
    await page.click("#cd-tab-settings");
    await page.click("#settings-connection-server");
    return { context, page, errors };
  }

  /** Failed requests log console errors (LNA, CORS, refused): those are the point here; nothing else may. */
  const unexpected = (errors: string[]) =>
    errors.filter(
      (e) => !/CORS|Failed to load resource|net::ERR|Access-Control|Failed to fetch|address space/i.test(e),
    );

  it("not granted: a team server on this computer, from the add-in on a public origin, is blocked, and the message says so and what to do", async () => {
    const { context, page, errors } = await openSettings(false, "de");
    const blocked = await testServer(page, team.url, token, "");
    expect(blocked.cls).toMatch(/is-error/);
    expect(blocked.text).toContain(`Der Browser hat die Verbindung zu ${team.url} blockiert`);
    expect(blocked.text).toContain("auf diesem Rechner (localhost)");
    expect(blocked.text).toContain("Local Network Access");
    expect(blocked.text).toContain("öffentlichen https-Namen");
    expect(blocked.text).not.toContain("CORS");
    await screenshot(page, "excel-settings-lna-blocked");
    await page.click("#cd-lang-en");
    const en = await testServer(page, team.url, token, blocked.text);
    expect(en.text).toContain(`The browser blocked the connection to ${team.url}`);
    expect(en.text).toContain("public https name");
    // The custom functions (issue 42, item 2): a formula's failed fetch says the same in its cell, short.
    // The connection in the device's storage, under the keys Save writes (set directly: Save is not the subject here).
    await page.evaluate(
      ([url, tok]) =>
        (
          window as unknown as { OfficeRuntime: { storage: { setItems(e: object): Promise<void> } } }
        ).OfficeRuntime.storage.setItems({
          "cd:user:connection": "server",
          "cd:user:serverUrl": url,
          "cd:user:serverToken": tok,
        }),
      [team.url, token],
    );
    const cell = await page.evaluate(async () => {
      const fns = (window as unknown as { __customFunctions: Map<string, (...a: unknown[]) => Promise<unknown>> })
        .__customFunctions;
      return fns.get("RESOLVE")!("Alpha GmbH").then(
        () => null,
        (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message }),
      );
    });
    expect(cell?.code).toBe("#N/A");
    expect(cell?.message).toMatch(
      new RegExp(
        `^Blocked by the browser \\(Local Network Access\\): ${team.url.replace(/[.]/g, "\\.")} is on this computer`,
      ),
    );
    expect(cell?.message).not.toContain(token);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  }, 120_000);

  it("granted: the same server works; a server without the origin allowed (CORS) and a closed port (down) are told apart", async () => {
    const { context, page, errors } = await openSettings(true, "de");
    const works = await testServer(page, team.url, token, "");
    expect(works.cls).toMatch(/is-success/);
    expect(works.text).toMatch(/Verbindung in Ordnung\. Benutzer: anna\./);

    const cors = await testServer(page, noCorsUrl, token, works.text);
    expect(cors.cls).toMatch(/is-error/);
    expect(cors.text).toContain(`Der Team-Server unter ${noCorsUrl} antwortet, erlaubt aber keine Aufrufe`);
    expect(cors.text).toContain(`--allow-origin ${origin}`);
    expect(cors.text).not.toContain("Local Network Access");

    const down = await testServer(page, closedUrl, token, cors.text);
    expect(down.cls).toMatch(/is-error/);
    expect(down.text).toContain(`Keine Verbindung zum Team-Server unter ${closedUrl}`);
    expect(down.text).not.toMatch(/CORS|Local Network Access/);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  }, 120_000);
});
