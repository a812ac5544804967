/**
 * Issue 13, points 3 and 7, in real Chromium with pages on other origins:
 *
 * 3. Excel on the web loads functions.json from its own origin
 *    (OfficeDev/office-js#3970): a page on a second origin fetches the
 *    add-in's files from the dev server (excel-addin/build/static.ts) and
 *    can read them; the same fetch from a server without the CORS header
 *    is refused, so the test can fail.
 * 7. The task pane calls the API from the add-in's origin with an
 *    Authorization header, so the API must answer the CORS preflight.
 *    Settings › Test connection tells "the service refused this origin"
 *    (an API that answers but sends no CORS headers) apart from "no
 *    connection" (nothing listening), and works where CORS is allowed
 *    (the emulator).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { staticHandler } from "../../excel-addin/build/static.ts";
import { OFFICE_JS } from "../../excel-addin/build/html.ts";
import { launch, screenshot, serveDir, skipWithoutChromium, watchErrors, type Launched } from "./browser.ts";
import { closeServer as close, FAKE_OFFICE, listen } from "./excel-page.ts";

describe.skipIf(skipWithoutChromium())("Excel add-in across origins (CORS) in Chromium", () => {
  let tmp = "";
  let out = "";
  let emu: Emulator;
  let api: RunningServer;
  let chrome: Launched;
  let addin: Server; // the dev server's handler: the add-in's origin
  let addinUrl = "";
  let excelWeb: Server; // a page on another origin, as Excel on the web is
  let excelWebUrl = "";
  let plain: { url: string; close(): Promise<void> }; // the same files without CORS headers
  let noCorsApi: Server; // the API's answers without any CORS header
  let noCorsApiUrl = "";
  let closedUrl = "";

  beforeAll(async () => {
    const { build } = await import("../../scripts/build-excel.ts");
    tmp = mkdtempSync(join(tmpdir(), "excel-cors-"));
    out = (await build({ outDir: join(tmp, "excel-addin"), quiet: true })).outDir;
    const handle = staticHandler(out);
    addin = createServer((req, res) => void handle(req, res));
    addinUrl = await listen(addin, "127.0.0.1");
    excelWeb = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>excel</title><p>other origin</p>"),
    );
    excelWebUrl = await listen(excelWeb, "localhost");
    plain = await serveDir(out);
    emu = createEmulator({ companies: 500 });
    api = await startServer(emu, { port: 0 });
    // A real-API stand-in that answers everything but sends no CORS headers (preflight included).
    noCorsApi = createServer((req, res) => {
      if (req.method === "OPTIONS") return void res.writeHead(204).end();
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
        const r = emu.handle({
          method: req.method as "GET" | "POST",
          url: `http://api.test${req.url}`,
          headers,
          body: chunks.length ? Buffer.concat(chunks).toString() : undefined,
        });
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(r.headers)) if (!k.toLowerCase().startsWith("access-control")) h[k] = v;
        res.writeHead(r.status, h).end(r.body);
      });
    });
    noCorsApiUrl = await listen(noCorsApi, "127.0.0.1");
    // A port with nothing listening: opened, then closed.
    const gone = createServer();
    closedUrl = await listen(gone, "127.0.0.1");
    await close(gone);
    chrome = await launch();
  }, 120_000);

  afterAll(async () => {
    await chrome?.close();
    await Promise.all([close(addin), close(excelWeb), close(noCorsApi), plain?.close(), api?.close()]);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("3: a page on another origin reads functions.json and the bundles from the dev server; without the header it cannot", async () => {
    const page = await chrome.browser.newPage();
    await page.goto(excelWebUrl);
    const read = (url: string) =>
      page.evaluate(async (u) => {
        try {
          const res = await fetch(u);
          return { ok: res.ok, text: (await res.text()).slice(0, 200) };
        } catch (e) {
          return { error: String(e) };
        }
      }, url);
    const json = await read(`${addinUrl}/functions.json`);
    expect(json).toMatchObject({ ok: true });
    expect((json as { text: string }).text).toContain("allowCustomDataForDataTypeAny");
    for (const f of ["functions-de.json", "functions.js", "taskpane.html", "assets/icon-32.png"])
      expect(await read(`${addinUrl}/${f}`), f).toMatchObject({ ok: true });
    // The control: the same file from a server that sends no Access-Control-Allow-Origin is refused.
    expect(await read(`${plain.url}functions.json`)).toHaveProperty("error");
    await page.close();
  });

  it("7: Test connection says when the API refuses the add-in's origin, tells it apart from no connection, and passes where CORS is allowed", async () => {
    const page = await chrome.browser.newPage({ viewport: { width: 350, height: 900 } });
    const errors = watchErrors(page);
    await page.route(OFFICE_JS, (route) =>
      route.fulfill({ status: 200, contentType: "text/javascript", body: FAKE_OFFICE }),
    );
    await page.goto(`${addinUrl}/taskpane.html`);
    await page.click("#cd-tab-settings");
    await page.waitForSelector("#settings-key");
    await page.fill("#settings-key", emu.demoKey);
    let previous = "";
    const test = async (baseUrl: string) => {
      await page.fill("#settings-base-url", baseUrl);
      await page.click("#settings-test");
      // The new answer: a status that is not the previous one.
      await page.waitForFunction((before) => {
        const el = document.querySelector("#cd-status-settings");
        const text = el?.textContent?.trim() ?? "";
        return !!el && /is-(success|error)/.test(el.className) && !!text && text !== before;
      }, previous);
      const status = await page.$eval("#cd-status-settings", (el) => ({
        cls: el.className,
        text: el.textContent ?? "",
      }));
      previous = status.text.trim();
      return status;
    };

    const refused = await test(noCorsApiUrl);
    expect(refused.cls).toMatch(/is-error/);
    expect(refused.text).toContain("CORS");
    expect(refused.text).toContain(addinUrl); // the origin the API must allow
    expect(refused.text).toMatch(/Proxy/);
    await screenshot(page, "excel-settings-cors-refused");

    const down = await test(closedUrl);
    expect(down.cls).toMatch(/is-error/);
    expect(down.text).toMatch(/Keine Verbindung/);
    expect(down.text).not.toContain("CORS");

    const ok = await test(api.url);
    expect(ok.cls).toMatch(/is-success/);
    expect(ok.text).toMatch(/Verbindung in Ordnung/);
    // The key never appears on the page, whatever the outcome.
    expect((await page.content()).replace(/<script[\s\S]*?<\/script>/g, "")).not.toContain(emu.demoKey);
    // Failed fetches log console errors in Chromium (CORS, refused): those are the point here; nothing else may.
    expect(
      errors.filter((e) => !/CORS|Failed to load resource|net::ERR|Access-Control|Failed to fetch/i.test(e)),
    ).toEqual([]);
    await page.close();
  });
});
