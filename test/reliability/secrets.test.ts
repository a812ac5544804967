/**
 * Secrets (issue 8, reliability 5): a distinctive API key goes through a
 * representative end-to-end set (the CLI with a failing key and with a good
 * one under faults, the Sheets add-on's settings, custom functions and
 * enrichment under faults, the Excel functions runtime, the CLI's
 * enrichment path in this process with errors), and everything they produced is scanned: cells,
 * captured console and stderr, URLs and bodies sent, document properties and
 * caches, workbook settings, error messages, files written. The key may only
 * be in the Authorization header and in per-user storage.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startServer } from "../../emulator/server.ts";
import { cliEnrich } from "../support/cli-enrich.ts";
import { functionsFor, hostName } from "../../shared/functions/registry.ts";
import { build as buildExcel } from "../../scripts/build-excel.ts";
import { loadFunctions, recalc } from "../../excel-addin/sim/simulate.ts";
import { memoryStorage } from "../../excel-addin/host/storage.ts";
import { buildCodeJs, sheetsEnrich, type AppsScriptProject } from "../support/sheets-driver.ts";
import { runCli } from "../support/cli-process.ts";
import { benchList } from "../support/lists.ts";

const KEY = "cdk_SECRETKEY_7f3a9c2e5b1d8a46";
const BAD_KEY = "cdk_FAILINGKEY_4e8d2b9a0c7f13";
/** The whole key, and any 12 characters of it (a masked hint shows 4 at most). */
const leaks = (text: string, key: string) => {
  for (let i = 0; i + 12 <= key.length; i++) if (text.includes(key.slice(i, i + 12))) return true;
  return false;
};

let emu: Emulator;
let dir = "";
let code: AppsScriptProject = { code: "", files: {} };
let excelBundle = "";
/** Everything the runs produced, by where it came from. */
const produced: { where: string; text: string }[] = [];
/**
 * Each test checks what it produced itself (so it fails alone, not only
 * through the summary test at the end): `since` is produced.length when the
 * test began.
 */
function expectNoLeakSince(since: number) {
  const own = produced.slice(since);
  expect(own.length).toBeGreaterThan(0);
  expect(own.filter((p) => leaks(p.text, KEY) || leaks(p.text, BAD_KEY)).map((p) => p.where)).toEqual([]);
}
const collect = (where: string, v: unknown) =>
  produced.push({
    where,
    text:
      typeof v === "string"
        ? v
        : (JSON.stringify(v, (_k, x) =>
            x instanceof Map ? [...x] : x instanceof Error ? { ...x, message: x.message } : x,
          ) ?? String(v)),
  });

beforeAll(async () => {
  emu = createEmulator({ companies: 2000, startDate: "2026-06-01" });
  emu.accounts.create(1_000_000, KEY);
  dir = mkdtempSync(join(tmpdir(), "rel-secrets-"));
  code = await buildCodeJs();
  excelBundle = join(
    (await buildExcel({ outDir: join(dir, "excel-addin"), quiet: true, minify: true })).outDir,
    "functions.js",
  );
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a Sheets cell shows: the answer, or the message of the error a single-value call throws (IFERROR-detectable). */
function shown(call: () => unknown): unknown {
  try {
    return call();
  } catch (e) {
    return (e as Error).message;
  }
}

describe("the API key never leaks", () => {
  const names = () =>
    benchList(emu, { total: 120, distinct: 80, duplicates: 10, unknown: 10, seed: 4 }).rows.map((r) => r.name);

  it("CLI: a failing key, and a good key under faults", async () => {
    const since = produced.length;
    const server = await startServer(emu, { port: 0, host: "127.0.0.1" });
    try {
      const csv = join(dir, "in.csv");
      writeFileSync(
        csv,
        "Firma\n" +
          names()
            .map((n) => `"${n.replace(/"/g, '""')}"`)
            .join("\n") +
          "\n",
      );
      const bad = await runCli(["enrich", "--in", csv, "--out", join(dir, "bad.csv"), "--yes", "--lang", "en"], {
        COMPANY_DATA_API_KEY: BAD_KEY,
        COMPANY_DATA_BASE_URL: server.url,
        COMPANY_DATA_DEBUG: "1",
      });
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/key/i);
      collect("cli stderr (failing key)", bad.stderr);
      const acct = await runCli(["account"], { COMPANY_DATA_API_KEY: BAD_KEY, COMPANY_DATA_BASE_URL: server.url });
      collect("cli account stderr (failing key)", acct.stderr);
      emu.faults.set({ failRate: 0.3, dropRate: 0.05 });
      const good = await runCli(["enrich", "--in", csv, "--out", join(dir, "good.csv"), "--yes", "--lang", "de"], {
        COMPANY_DATA_API_KEY: KEY,
        COMPANY_DATA_BASE_URL: server.url,
        COMPANY_DATA_DEBUG: "1",
      });
      emu.faults.reset();
      collect("cli stderr (faults)", good.stderr);
      for (const f of readdirSync(dir))
        if (/\.(csv|json|jsonl|partial)$/.test(f)) collect(`file ${f}`, readFileSync(join(dir, f), "utf8"));
    } finally {
      emu.faults.reset();
      await server.close();
    }
    expectNoLeakSince(since);
  }, 60_000);

  it("Sheets: settings, custom functions and the enrichment under faults", () => {
    const since = produced.length;
    const run = sheetsEnrich(code, emu, "placeholder", names());
    const logged: unknown[] = [];
    run.fake.context.console = {
      log: (...a: unknown[]) => logged.push(a),
      warn: (...a: unknown[]) => logged.push(a),
      error: (...a: unknown[]) => logged.push(a),
      info: (...a: unknown[]) => logged.push(a),
    };
    // The key as the settings sidebar saves it.
    collect("saveSettings view", run.fake.call("saveSettings", { apiKey: KEY, language: "en" }));
    collect("getSettings view", run.fake.call("getSettings"));
    emu.faults.set({ failRate: 0.3, dropRate: 0.05 });
    try {
      let p = run.call("enrichStart", run.config);
      for (let i = 0; i < 20 && !p.finished; i++) p = run.call("enrichStep", { jobId: p.jobId });
      collect("enrich progress", p);
      for (const def of functionsFor("sheets"))
        collect(
          `cell ${def.name}`,
          shown(() => run.fake.call(hostName(def, "sheets"), "Siemens AG", "x")),
        );
    } finally {
      emu.faults.reset();
    }
    // A wrong key: the error texts.
    run.fake.call("saveSettings", { apiKey: BAD_KEY });
    collect(
      "cell with bad key",
      shown(() => run.fake.call("COMPANY_RESOLVE", "Siemens AG")),
    );
    collect("uiCall with bad key", run.fake.call("uiCall", "account", "{}"));
    collect("sheet cells", run.fake.grids);
    collect("document properties", run.fake.docProps.map);
    collect("document cache", run.fake.docCache.map);
    collect("console", logged);
    collect(
      "urls",
      run.fake.fetches.flat().map((r) => r.url + " " + (r.body ?? "")),
    );
    // The key is kept per user (UserProperties), which is where it belongs; nowhere else.
    expect([...run.fake.userProps.map.values()].some((v) => v.includes(BAD_KEY))).toBe(true);
    expectNoLeakSince(since);
  }, 60_000);

  it("Excel: the functions runtime, with a good key under faults and a failing key", async () => {
    const since = produced.length;
    for (const key of [KEY, BAD_KEY]) {
      const storage = memoryStorage();
      storage.data.set("cd:user:apiKey", key);
      storage.data.set("cd:user:baseUrl", "https://emulator.test");
      storage.data.set("cd:user:language", "en");
      const workbook = new Map<string, unknown>();
      emu.faults.set({ failRate: 0.3, dropRate: 0.05 });
      const sim = loadFunctions({
        bundle: excelBundle,
        handle: (r) => emu.handle(r),
        storage,
        workbookSettings: workbook,
      });
      try {
        for (const [id, fn] of sim.functions) {
          const settled = await recalc(
            fn,
            names()
              .slice(0, 20)
              .map((n) => [[[n]]]),
          );
          collect(
            `excel ${id}`,
            settled.map((s) =>
              s.status === "fulfilled"
                ? s.value
                : {
                    code: (s.reason as { code?: string }).code,
                    message: (s.reason as { message?: string }).message ?? String(s.reason),
                  },
            ),
          );
        }
      } finally {
        emu.faults.reset();
      }
      collect("excel requests", sim.requests);
      collect("excel workbook settings", workbook);
      collect(
        "excel storage (not the user's key entry)",
        [...storage.data].filter(([k]) => k !== "cd:user:apiKey"),
      );
    }
    expectNoLeakSince(since);
  }, 60_000);

  it("the CLI's enrichment path in this process, with errors", async () => {
    const since = produced.length;
    const server = await startServer(emu, { port: 0, host: "127.0.0.1" });
    // What went over the wire: every request (URL, body) and every answer the emulator gave.
    const handle = emu.handle.bind(emu);
    const wire: string[] = [];
    emu.handle = (req) => {
      const res = handle(req);
      wire.push(`${req.url} ${req.body ?? ""}`, res.body ?? "");
      return res;
    };
    const runDir = mkdtempSync(join(dir, "cli-path-"));
    emu.faults.set({ failRate: 0.4, dropRate: 0.05 });
    try {
      for (const key of [KEY, BAD_KEY]) {
        const rows = names().map((n) => [n]);
        try {
          const r = await cliEnrich({
            baseUrl: server.url,
            key,
            dir: runDir,
            name: `job-${key.length}`,
            header: ["Firma"],
            rows,
          });
          collect("cli-path lines, output and results", r);
        } catch (e) {
          collect("cli-path error", {
            message: (e as Error).message,
            text: (e as { text?: (l: string) => string }).text?.("en"),
            details: (e as { details?: unknown }).details,
          });
        }
      }
    } finally {
      emu.faults.reset();
      emu.handle = handle;
      await server.close();
    }
    // The CLI's store beside its output: journals, checkpoint, audit.
    for (const f of readdirSync(runDir)) collect(`cli-path file ${f}`, readFileSync(join(runDir, f), "utf8"));
    expect(wire.length).toBeGreaterThan(10);
    collect("cli-path requests and emulator answers", wire);
    expectNoLeakSince(since);
  }, 60_000);

  it("no output of the runs above holds either key", () => {
    expect(produced.length).toBeGreaterThan(30);
    // The scan can fail: the key is in what the tests hold where it belongs.
    expect(leaks(JSON.stringify({ Authorization: `Bearer ${KEY}` }), KEY)).toBe(true);
    const found = produced.filter((p) => leaks(p.text, KEY) || leaks(p.text, BAD_KEY)).map((p) => p.where);
    expect(found).toEqual([]);
  });
});
