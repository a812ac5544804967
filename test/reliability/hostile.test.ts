/**
 * Hostile input (issue 8, reliability 4): 1,000 generated inputs (empty,
 * white space, 10,000 characters, control characters, formula text, error
 * values, dates, numbers, emoji, SQL and HTML fragments) through every custom
 * function of both hosts (the built bundles, as the hosts call them), the
 * Sheets enrichment and the CLI: no uncaught exception, a clear message for
 * each refusal, no write outside the target block, no formula written.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startServer } from "../../emulator/server.ts";
import { functionsFor, hostName } from "../../shared/functions/registry.ts";
import { build as buildExcel } from "../../scripts/build-excel.ts";
import { loadFunctions, recalc, SimError } from "../../excel-addin/sim/simulate.ts";
import { memoryStorage } from "../../excel-addin/host/storage.ts";
import { createSheetsFake } from "../apps-script/harness.ts";
import { buildCodeJs, sheetsEnrich, type AppsScriptProject } from "../support/sheets-driver.ts";
import { runCli } from "../support/cli-process.ts";
import { parseCsv, readCsv } from "../../cli/csv.ts";
import { rng } from "../support/lists.ts";
import { nth } from "../helpers/indexed.ts";

const UNLIMITED = { capacity: 1e9, refillPerSecond: 1e9 };
const SEEDS: unknown[] = [
  "",
  " ",
  "   \t  ",
  "\n",
  "\r\n\r\n",
  "\u0000",
  "\u0007\u001b[31mred\u001b[0m",
  "\u202eevil\u202c",
  "\ufeffBOM GmbH",
  "=1+1",
  '=HYPERLINK("http://evil.example","click")',
  "+SUM(A1:A9)",
  "-2+3",
  "@SUM(1)",
  "=cmd|' /C calc'!A0",
  "\t=1",
  "#N/A",
  "#REF!",
  "#VALUE!",
  "#DIV/0!",
  "#NAME?",
  "2024-02-30",
  "31.12.1999",
  "1/1/1900",
  0,
  -1,
  1.5,
  1e308,
  -1e-308,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  false,
  null,
  "NaN",
  "Infinity",
  "🏢🚀",
  "👨‍👩‍👧‍👦 Family GmbH",
  "Ωmega ΑΒΓ AG",
  "'; DROP TABLE companies; --",
  "1 OR 1=1",
  '" OR ""="',
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "</td></tr><tr><td>",
  "&amp;&lt;",
  "{{7*7}}",
  "${process.env}",
  "../../etc/passwd",
  "DE",
  "DE123",
  "DEAAAAAAAAAA",
  "de1234567890",
  "DE12345678901",
  "x".repeat(10_000),
  "ä".repeat(5000),
  "Siemens AG",
  "Müller GmbH",
];

/** 1,000 inputs: the seeds, then seeds cut, repeated, combined and padded. */
export function hostileInputs(n = 1000, seed = 13): unknown[] {
  const r = rng(seed);
  const out: unknown[] = [...SEEDS];
  const strings = SEEDS.filter((s): s is string => typeof s === "string");
  while (out.length < n) {
    const a = nth(strings, Math.floor(r() * strings.length));
    const b = nth(strings, Math.floor(r() * strings.length));
    const k = Math.floor(r() * 6);
    out.push(
      k === 0
        ? a + b
        : k === 1
          ? a.slice(0, Math.floor(r() * (a.length + 1)))
          : k === 2
            ? ` ${a} `
            : k === 3
              ? a.repeat(1 + Math.floor(r() * 3))
              : k === 4
                ? Math.round((r() - 0.5) * 1e6) / 100
                : `${b}\u0000${a}`,
    );
  }
  return out.slice(0, n);
}

const UNCLEAR = /\[object|undefined|TypeError|ReferenceError|RangeError|SyntaxError|\bat [\w.]+ \(|^\s*$/;
const FORMULA_START = /^[=+\-@\t\r\n]/;

let emu: Emulator;
let code: AppsScriptProject = { code: "", files: {} };
let excelBundle = "";
let dir = "";
const inputs = hostileInputs();

beforeAll(async () => {
  emu = createEmulator({
    companies: 2000,
    startDate: "2026-06-01",
    rateLimits: { resolve: UNLIMITED, suggest: UNLIMITED, availability: UNLIMITED, account: UNLIMITED },
  });
  dir = mkdtempSync(join(tmpdir(), "rel-hostile-"));
  code = await buildCodeJs();
  excelBundle = join(
    (await buildExcel({ outDir: join(dir, "excel-addin"), quiet: true, minify: true })).outDir,
    "functions.js",
  );
  return () => rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe("hostile input", () => {
  it("has 1,000 inputs of every kind", () => {
    expect(inputs).toHaveLength(1000);
    expect(inputs.some((x) => typeof x === "string" && x.length >= 10_000)).toBe(true);
  });

  it("every Sheets custom function answers every input with values or a clear message, never a formula", () => {
    const fake = createSheetsFake({ emulator: emu });
    fake.load(code);
    fake.setUser("apiKey", emu.createKey(10_000_000));
    fake.setUser("formulaDailyBudget", "10000000");
    fake.setUser("language", "en");
    const asSheets = (v: unknown) =>
      v === null ? "" : typeof v === "string" && v.startsWith("2024-02-30") ? fake.date(2024, 2, 29) : v;
    for (const def of functionsFor("sheets")) {
      const name = hostName(def, "sheets");
      inputs.forEach((x, i) => {
        const args = def.params.map((_, j) => asSheets(j === 0 ? x : inputs[(i + 7 * j) % inputs.length]));
        let out: unknown;
        try {
          out = fake.call(name, ...args);
        } catch (e) {
          // A single-value call's error is thrown so IFERROR sees it (apps-script/functions.ts): its message is what the cell shows.
          out = [[String((e as Error).message)]];
        }
        expect(Array.isArray(out) && (out as unknown[]).every(Array.isArray), name).toBe(true);
        for (const row of out as unknown[][])
          for (const c of row) {
            expect(["string", "number", "boolean"]).toContain(typeof c);
            if (typeof c === "string") {
              expect(c, `${name} wrote a formula`).not.toMatch(/^=/);
              expect(c.length).toBeLessThanOrEqual(50_000);
            }
          }
        const first = (out as unknown[][])[0]?.[0];
        if ((out as unknown[][]).length === 1 && nth(out as unknown[][], 0).length === 1 && typeof first === "string")
          expect(first, `${name}: unclear message`).not.toMatch(UNCLEAR);
      });
    }
  }, 120_000);

  it("every Excel custom function settles every input with a value or an Excel error with a clear message", async () => {
    const storage = memoryStorage();
    storage.data.set("cd:user:apiKey", emu.createKey(10_000_000));
    storage.data.set("cd:user:baseUrl", "https://emulator.test");
    storage.data.set("cd:user:formulaDailyBudget", "10000000");
    storage.data.set("cd:user:language", "en");
    const sim = loadFunctions({ bundle: excelBundle, handle: (r) => emu.handle(r), storage });
    for (const [id, fn] of sim.functions) {
      const arity = Math.max(1, fn.length);
      const cells = inputs.map((x, i) =>
        Array.from({ length: arity }, (_, j) => [[j === 0 ? x : inputs[(i + 7 * j) % inputs.length]]]),
      );
      const settled = await recalc(fn, cells);
      settled.forEach((s, i) => {
        if (s.status === "rejected") {
          expect(s.reason, `${id}(${String(inputs[i]).slice(0, 40)}): ${String(s.reason)}`).toBeInstanceOf(SimError);
          expect((s.reason as SimError).message ?? "", `${id}: unclear message`).not.toMatch(UNCLEAR);
        } else {
          const v = s.value;
          const cellsOut = Array.isArray(v) ? (v as unknown[][]).flat() : [v];
          for (const c of cellsOut) if (typeof c === "string") expect(c, `${id} returned a formula`).not.toMatch(/^=/);
        }
      });
    }
  }, 120_000);

  it("the Sheets enrichment writes only its output block, and never a formula, for 1,000 hostile rows", () => {
    const names = inputs.map((x) => (x === null ? "" : typeof x === "string" ? x.slice(0, 2000) : x)) as string[];
    const { fake, config, call } = sheetsEnrich(code, emu, emu.createKey(10_000_000), names);
    // Sentinels around the block: below it and right of the output columns.
    const grid = fake.grids.get("Liste")!;
    const width = 1 + config.fields.length + 3;
    grid.push(["SENTINEL-BELOW"]);
    for (const row of grid) while (row.length < width) row.push("");
    grid.forEach((row) => row.push("SENTINEL-RIGHT"));
    const before = JSON.stringify(grid.map((r) => r[0]));
    let p = call("enrichStart", config);
    for (let i = 0; i < 100 && !p.finished; i++) p = call("enrichStep", { jobId: p.jobId });
    expect(p.finished).toBe(true);
    const after = fake.grids.get("Liste")!;
    expect(JSON.stringify(after.map((r) => r[0]))).toBe(before);
    expect(after[names.length + 1]).toEqual(["SENTINEL-BELOW", ...new Array(width - 1).fill(""), "SENTINEL-RIGHT"]);
    after.forEach((row, i) => {
      expect(row[width], `row ${i + 1}`).toBe("SENTINEL-RIGHT");
      expect(row.length).toBe(width + 1);
    });
    // Every non-empty row has a status; the fake refuses any formula written without a text format.
    after.slice(1, names.length + 1).forEach((row, i) => {
      if (String(names[i] ?? "").trim()) expect(String(row[1]), `row ${i + 2}`).not.toBe("");
    });
  }, 60_000);

  it("the CLI enriches a CSV of 1,000 hostile rows: every row answered, the user's cells as they were, no cell the CLI adds that would run as a formula", async () => {
    const server = await startServer(emu, { port: 0, host: "127.0.0.1" });
    try {
      const csv = join(dir, "hostile.csv");
      const out = join(dir, "hostile.out.csv");
      const quote = (v: unknown) =>
        `"${String(v ?? "")
          .slice(0, 2000)
          .replace(/"/g, '""')}"`;
      writeFileSync(
        csv,
        "Firma;Ort\n" +
          inputs.map((x) => `${quote(x)};${quote(inputs[(inputs.indexOf(x) + 3) % inputs.length])}`).join("\n") +
          "\n",
      );
      const r = await runCli(["enrich", "--in", csv, "--out", out, "--yes", "--lang", "en"], {
        COMPANY_DATA_API_KEY: emu.createKey(10_000_000),
        COMPANY_DATA_BASE_URL: server.url,
        LANG: "en",
      });
      expect(r.stderr).not.toMatch(UNCLEAR);
      expect(r.code, r.stderr).toBe(0);
      const rows: string[][] = [];
      for await (const rec of readCsv(out)) rows.push(rec);
      expect(rows.length).toBe(1 + inputs.length);
      // The user's own cells (Firma, Ort) come back as they were (issue 11: never neutralised);
      // every cell the CLI adds (status, fields from the API) is never one that would run as a formula.
      const given = parseCsv(readFileSync(csv, "utf8"), ";");
      rows.forEach((row, i) => {
        expect(row.slice(0, 2)).toEqual(given[i]);
        for (const c of row.slice(2)) expect(c).not.toMatch(FORMULA_START);
      });
    } finally {
      await server.close();
    }
  }, 60_000);
});
