/**
 * Issue 37 items 5 and 6 in the built Code.js (the Sheets sidebar's server
 * calls) with a team server as the connection: two users enrich lists of 10
 * names sharing 6 (the first through the CLI, the second in the sidebar, as
 * new users would); the sidebar's price is the team's (at most 2 credits
 * above what the emulator billed) and what the job says it spent is exactly
 * the bill. A user over the team server's budget reads the budget, what is
 * left, the price and "ask your team's admin", never a top-up. UrlFetchApp
 * is synchronous: the harness's fetch waits on a worker thread, and the
 * server and the emulator behind it run as processes of their own (this
 * thread, blocked in the fetch, could not answer the server's purchase).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MessageChannel, Worker, receiveMessageOnPort } from "node:worker_threads";
import { spawn, type ChildProcess } from "node:child_process";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import type { HttpRequest, HttpResponse } from "../../shared/core/http.ts";
import type { EnrichPreviewView, EnrichProgressView } from "../../shared/app/protocol.ts";
import { uniqueCompanies } from "../support/lists.ts";
import {
  companyDataCommand,
  pgliteDatabase,
  serverCommand,
  startServerProcess,
  type ServerProcess,
  type TestDatabase,
} from "../support/team-server.ts";
import { createSheetsFake } from "./harness.ts";

const OUT = mkdtempSync(join(tmpdir(), "apps-script-team-charge-"));
const KEY = "cd_live_SHEETSCHARGEKEY_7d1a9c";

/**
 * One request, synchronously: a worker thread fetches while this thread
 * waits on a shared flag (UrlFetchApp blocks; the server answers from its
 * own process, so nothing waits on itself). One worker for the suite, not a
 * process per request.
 */
const flag = new Int32Array(new SharedArrayBuffer(4));
const { port1, port2 } = new MessageChannel();
const worker = new Worker(
  `const { workerData } = require("node:worker_threads");
const { port, flag } = workerData;
port.on("message", async (r) => {
  let out;
  try {
    const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
    const headers = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    out = { status: res.status, headers, body: await res.text() };
  } catch {
    out = { status: 0, headers: {}, body: "", networkError: "connection" };
  }
  port.postMessage(out);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});`,
  { eval: true, workerData: { port: port2, flag }, transferList: [port2] },
);
worker.unref();
function fetchSync(r: HttpRequest): HttpResponse {
  Atomics.store(flag, 0, 0);
  port1.postMessage({ url: r.url, method: r.method, headers: r.headers, body: r.body });
  Atomics.wait(flag, 0, 0, 30_000);
  const got = receiveMessageOnPort(port1);
  return (got?.message as HttpResponse | undefined) ?? { status: 0, headers: {}, body: "", networkError: "timeout" };
}

const FAST = ["suggest", "resolve", "availability", "account"].flatMap((b) => [
  `--${b}-rate`,
  "1000000",
  `--${b}-burst`,
  "1000000",
]);

/** The emulator as a process (`npm run emulator`), its demo key the team's key with 1,000,000 credits. */
function emulatorProcess(): Promise<{ child: ChildProcess; url: string }> {
  const tsx = join(import.meta.dirname, "../../node_modules/.bin/tsx");
  const cli = join(import.meta.dirname, "../../emulator/cli.ts");
  // --lang en: the banner read below, in English whatever the locale.
  const args = ["--port", "0", "--lang", "en", "--companies", "1500", "--seed", "29", "--demo-key", KEY, ...FAST];
  const child = spawn(tsx, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("emulator did not start: " + out)), 60_000);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /emulator on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
      }
    });
  });
}

const FIELDS = ["id", "name", "city", "url"];

describe("Google Sheets through a team server: the team's price, the charge, the budget's message", () => {
  let code = "";
  /** The same world as the emulator process's (same size and seed), to pick names from. */
  const world: { emu: Emulator } = { emu: createEmulator({ companies: 1500, seed: 29 }) };
  let api: { child: ChildProcess; url: string };
  let database: TestDatabase;
  let server: ServerProcess;
  const tokens: Record<string, string> = {};
  /** What the emulator has charged the team's key so far (its account answer; free). */
  const bill = async () => {
    const r = await fetch(api.url + "/v2/account", { headers: { Authorization: `Bearer ${KEY}` } });
    return 1_000_000 - ((await r.json()) as { credits: number }).credits;
  };

  beforeAll(async () => {
    await buildWithReport(OUT);
    code = readFileSync(join(OUT, "Code.js"), "utf8");
    api = await emulatorProcess();
    database = pgliteDatabase();
    // Tokens first: the PGlite directory is the server's once it runs.
    for (const [user, budget] of [
      ["ann", null],
      ["ben", null],
      ["cara", 3],
    ] as const) {
      const made = await serverCommand(database, [
        "token",
        "create",
        "--user",
        user,
        ...(budget !== null ? ["--month-budget", String(budget)] : []),
      ]);
      tokens[user] = made.stdout.trim().split("\n").at(-1)!;
    }
    server = await startServerProcess({ api: { url: api.url } } as Parameters<typeof startServerProcess>[0], database, {
      COMPANY_DATA_API_KEY: KEY,
    });
  }, 180_000);

  afterAll(async () => {
    await worker.terminate();
    await server?.stop();
    api?.child.kill("SIGTERM");
    await database?.drop();
  });

  /** The sidebar of a document whose connection is the team server with `user`'s token. */
  function sidebar(user: string, names: string[], lang: "de" | "en") {
    const teamServer = new URL(server.url).origin;
    const f = createSheetsFake({
      emulator: Object.assign(Object.create(world.emu) as typeof world.emu, {
        handle: (r: HttpRequest) =>
          r.url.startsWith(teamServer) ? fetchSync(r) : { status: 599, headers: {}, body: "not the team server" },
      }),
      dist: OUT,
      sheets: { Daten: [["Firma"], ...names.map((n) => [n])] },
    });
    f.load(code);
    for (const [k, v] of Object.entries({
      connection: "server",
      serverUrl: server.url,
      serverToken: tokens[user]!,
      language: lang,
    }))
      f.setUser(k, v);
    const call = <T>(method: string, input: unknown): T => {
      const r = JSON.parse(f.call("uiCall", method, JSON.stringify(input)) as string) as {
        ok: boolean;
        value: T;
        error?: unknown;
      };
      expect(r.ok, JSON.stringify(r.error)).toBe(true);
      return r.value;
    };
    const config = {
      sheet: "Daten",
      headerRow: 1,
      col: 1,
      rows: names.length,
      cols: 1,
      mapping: { name: 0, city: null, zip: null, register: null, id: null },
      fields: FIELDS,
      mode: "batch",
      rerun: { kind: "newOrFailed" },
    };
    const run = () => {
      let p = call<EnrichProgressView>("enrichStart", config);
      for (let i = 0; i < 20 && !p.finished && !p.stoppedForCredits; i++)
        p = call<EnrichProgressView>("enrichStep", { jobId: p.jobId });
      return p;
    };
    return { preview: () => call<EnrichPreviewView>("enrichPreview", config), run };
  }

  it("the second user's sidebar price is the team's (+2 at most) and its spend exactly the bill", async () => {
    const names = uniqueCompanies(world.emu, 14, 61).map((c) => c.name);
    const input = join(OUT, "ann.csv");
    writeFileSync(input, ["Firma", ...names.slice(0, 10).map((n) => `"${n}"`)].join("\n") + "\n");
    let before = await bill();
    const a = await companyDataCommand(
      ["enrich", "--in", input, "--out", input + ".out.csv", "--fields", "name,city,url", "--yes", "--lang", "en"],
      { COMPANY_DATA_SERVER: server.url, COMPANY_DATA_TOKEN: tokens.ann!, COMPANY_DATA_API_KEY: "" },
    );
    expect(a.code, a.stderr).toBe(0);
    expect((await bill()) - before).toBe(11);

    const ben = sidebar("ben", [...names.slice(0, 6), ...names.slice(10, 14)], "en");
    const price = ben.preview().estimate.credits;
    before = await bill();
    const p = ben.run();
    expect(p.finished, JSON.stringify(p)).toBe(true);
    const charged = (await bill()) - before;
    // 4 names the team lacks: one batch (1 credit) and 4 profiles; the 6 shared cost nothing.
    expect(charged, JSON.stringify(p)).toBe(5);
    expect(price).toBeGreaterThanOrEqual(charged);
    expect(price - charged).toBeLessThanOrEqual(2);
    expect(p.creditsSpent).toBe(charged);
  }, 240_000);

  it("over the team server's budget: the budget, what is left, the price and the admin, never a top-up", async () => {
    const names = uniqueCompanies(world.emu, 10, 71).map((c) => c.name);
    const p = sidebar("cara", names, "en").run();
    expect(p.stoppedForCredits).toBe(true);
    expect(p.lastError?.teamServer).toBe(true);
    expect(p.lastError?.message.en).toMatch(
      /Your monthly budget on the team server is not enough: budget 3 credits, 0 left, this request costs 1 credit\. Please ask your team's admin\./,
    );
    expect(p.lastError?.message.de).toMatch(
      /Budget 3 Credits, übrig 0.*Bitte wenden Sie sich an den Admin Ihres Teams\./,
    );
    expect(JSON.stringify(p.lastError)).not.toMatch(/top up|aufladen/i);
  }, 240_000);
});
