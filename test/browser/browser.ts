/**
 * Debian's Chromium driven by playwright-core: headless, no sandbox (CI runs
 * as root), no background networking, a fresh profile per launch.
 */
import { chromium, type Browser, type Page } from "playwright-core";
import type { Emulator } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { startPlayground, type RunningPlayground } from "../../scripts/playground-server.ts";
import { existsSync, mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { nth } from "../helpers/indexed.ts";

/** An injection probe: must stay inert text in every UI, grid and export (never in the playground's demo list). */
export const HOSTILE_NAME = `<img src=x onerror="document.title='pwned'">=HYPERLINK("http://example.invalid","klick")`;

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SCREENSHOTS = join(ROOT, "test-artifacts", "screenshots");

export const hasChromium = existsSync(CHROMIUM);

/**
 * Whether a browser suite skips: only outside CI. Under CI a missing
 * Chromium is a hard failure (the suite would otherwise pass having run
 * nothing); the error says how to install it.
 */
export function skipWithoutChromium(
  env: Record<string, string | undefined> = process.env,
  present = hasChromium,
  path = CHROMIUM,
): boolean {
  if (present) return false;
  if (env.CI && env.CI !== "false" && env.CI !== "0") {
    throw new Error(
      `Chromium not found at ${path}, and CI is set: the browser tests must run in CI. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
  }
  return true;
}

export const LAUNCH_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--metrics-recording-only",
];

export interface Launched {
  browser: Browser;
  close(): Promise<void>;
}

/** `extraArgs`: switches a test needs beyond LAUNCH_ARGS (e.g. Local Network Access's address-space overrides). */
export async function launch(extraArgs: string[] = []): Promise<Launched> {
  // playwright gives every launch a fresh temporary profile (user-data-dir) and removes it on close.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...LAUNCH_ARGS, ...extraArgs],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** Errors the page threw or logged: a test fails on any. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error" && !isDoctorProbe(m.text(), m.location().url)) errors.push(m.text());
  });
  return errors;
}

/**
 * Test connection runs the free self-test, which provokes three error
 * answers on purpose (shared/doctor/probes.ts: an unknown id's availability,
 * 404; an empty body to resolve and an unknown field to the older lookup,
 * 400). Chromium logs each as "Failed to load resource"; those three, and
 * only those, are not errors of the page.
 */
function isDoctorProbe(text: string, url: string): boolean {
  if (!text.startsWith("Failed to load resource")) return false;
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, "").replace(/\?.*$/, "");
  if (/status of 404/.test(text)) return /\/v2\/companies\/DE0000000000\/availability$/.test(path);
  if (/status of 400/.test(text)) return /\/(v2\/resolve|lookup)$/.test(path);
  return false;
}

/**
 * Press Tab until focus comes back round; the ids (or labels) of everything
 * that took focus, in order.
 */
export async function tabOrder(page: Page, max = 200): Promise<{ id: string; tag: string; name: string }[]> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const seen: { id: string; tag: string; name: string }[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const info = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const labelled = (el as HTMLInputElement).labels?.[0]?.textContent ?? "";
      const name = el.getAttribute("aria-label") || labelled || el.textContent || el.getAttribute("title") || "";
      return {
        id: el.id || el.getAttribute("data-sheet") || el.outerHTML.slice(0, 60),
        tag: el.tagName.toLowerCase(),
        name: name.trim(),
      };
    });
    if (!info) continue;
    if (seen.length && nth(seen, 0).id === info.id) break;
    seen.push(info);
  }
  return seen;
}

/** Every enabled control in `root` (selector) that a keyboard user must reach. */
export async function controlsIn(page: Page, root: string): Promise<string[]> {
  return page.$$eval(
    `${root} button:not([disabled]), ${root} input:not([disabled]), ${root} select:not([disabled]), ${root} textarea:not([disabled])`,
    (els) =>
      els
        .filter(
          (e) =>
            (e as HTMLElement).offsetParent !== null &&
            (e as HTMLElement).tabIndex >= 0 &&
            !(e as HTMLInputElement).type?.match(/^radio$/),
        )
        .map((e) => e.id || (e as HTMLElement).outerHTML.slice(0, 60)),
  );
}

/** A static file server on 127.0.0.1 for built pages (dist/…). */
export async function serveDir(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const http = await import("node:http");
  const { readFile } = await import("node:fs/promises");
  const { join: j, normalize } = await import("node:path");
  const types: Record<string, string> = {
    html: "text/html; charset=utf-8",
    js: "text/javascript; charset=utf-8",
    json: "application/json",
    png: "image/png",
    xml: "application/xml",
  };
  // node:http ignores what the handler returns; this one answers every request itself.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  const server = http.createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(
      /^(\.\.[/\\])+/,
      "",
    );
    if (path === "/favicon.ico") return void res.writeHead(204).end();
    try {
      const body = await readFile(j(dir, path));
      res
        .writeHead(200, { "content-type": types[path.split(".").pop() ?? ""] ?? "application/octet-stream" })
        .end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as import("node:net").AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** Open the playground page and wait until its UI has loaded its first state (window.__playground.ready). */
export async function openPlayground(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __playground?: unknown }).__playground !== undefined);
  await page.evaluate(() => (window as unknown as { __playground: { ready: Promise<unknown> } }).__playground.ready);
}

/** The emulator's server, the playground on it, and a page of Chromium showing it: what every playground test starts with. */
export interface PlaygroundWorld {
  api: RunningServer;
  pg: RunningPlayground;
  chrome: Launched;
  page: Page;
  /** Errors the page threw or logged. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Serve `emu` on loopback, the playground on it (`rebuild`: bundle it first), and open it in a fresh Chromium page.
 * The browser's language is German unless `locale` says otherwise: the playground starts in it (playground/language.ts),
 * and these tests were written for a German first view.
 */
export async function playgroundWorld(
  emu: Emulator,
  opts: { rebuild?: boolean; ambiguousNames?: string[]; locale?: string } = {},
): Promise<PlaygroundWorld> {
  const api = await startServer(emu, { port: 0 });
  const pg = await startPlayground({
    port: 0,
    emulatorUrl: api.url,
    demoKey: emu.demoKey,
    rebuild: opts.rebuild ?? false,
    ...(opts.ambiguousNames ? { ambiguousNames: opts.ambiguousNames } : {}),
  });
  const chrome = await launch();
  const page = await chrome.browser.newPage({ viewport: { width: 1400, height: 900 }, locale: opts.locale ?? "de-DE" });
  const errors = watchErrors(page);
  await openPlayground(page, pg.url);
  return {
    api,
    pg,
    chrome,
    page,
    errors,
    async close() {
      await chrome.close();
      await pg.close();
      await api.close();
    },
  };
}
