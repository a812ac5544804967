/**
 * Figures for the Sheets add-on, printed by `npm run bench:sheets` (and by
 * the project's bench runner through `benchAppsScript()`):
 *   Code.js size and evaluation time in a fresh context (and the first call,
 *   which builds the bundle), Spreadsheet calls and credits for enriching
 *   1,000 rows, with and without an interruption halfway.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { createSheetsFake } from "./harness.ts";

function table(emulator: Emulator, n: number): string[][] {
  const dup = new Set(emulator.companies.duplicateNames(10_000).map((d) => d.name));
  const seen = new Set<string>();
  const rows: string[][] = [["Firma", "Ort"]];
  for (const id of emulator.companies.ids()) {
    const c = emulator.world.byId(id)!;
    if (dup.has(c.name) || seen.has(c.name)) continue;
    seen.add(c.name);
    rows.push([c.name, ""]);
    if (rows.length > n) break;
  }
  return rows;
}

function enrich(emulator: Emulator, dist: string, code: string, fields: string[], interruptAt?: number) {
  let t = Date.UTC(2026, 0, 15, 10);
  let batches = 0;
  const f = createSheetsFake({
    emulator, dist, sheets: { Daten: table(emulator, 1000) }, now: () => t,
    onFetch: (reqs) => {
      batches += reqs.filter((r) => r.url.endsWith("/batch/resolve")).length;
      if (interruptAt !== undefined && batches === interruptAt) t += 10 * 60_000;
    },
  });
  f.load(code);
  f.setClock(() => t);
  const key = emulator.createKey(100_000);
  f.setUser("apiKey", key);
  const before = emulator.balance(key);
  const config = { sheet: "Daten", headerRow: 1, col: 1, rows: 1000, cols: 2, mapping: { name: 0, city: null, zip: null, register: null, id: null }, fields, mode: "batch", rerun: { kind: "newOrFailed" } };
  let p = JSON.parse(f.call("uiCall", "enrichStart", JSON.stringify(config)) as string).value;
  let steps = 0;
  const started = performance.now();
  while (!p.finished && steps < 10) {
    p = JSON.parse(f.call("uiCall", "enrichStep", JSON.stringify({ jobId: p.jobId })) as string).value;
    steps++;
  }
  return { calls: f.calls.length, credits: before - emulator.balance(key), steps, processed: p.processed, ms: performance.now() - started };
}

export async function benchAppsScript(): Promise<Record<string, number>> {
  const dist = mkdtempSync(join(tmpdir(), "apps-script-bench-"));
  const build = await buildWithReport(dist);
  const code = readFileSync(join(dist, "Code.js"), "utf8");
  const emulator = createEmulator({ companies: 3000, startDate: "2026-01-15" });

  const evals: number[] = [];
  const firstCalls: number[] = [];
  for (let i = 0; i < 5; i++) {
    const f = createSheetsFake({ emulator, dist });
    evals.push(f.load(code));
    const t = performance.now();
    f.call("onOpen", { authMode: "NONE" });
    firstCalls.push(performance.now() - t);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

  const plain = enrich(emulator, dist, code, ["id", "name", "city"]);
  const profile = enrich(emulator, dist, code, ["id", "name", "city", "url", "employees"]);
  const interrupted = enrich(emulator, dist, code, ["id", "name", "city"], 25);
  return {
    "Code.js KB": +(build.codeBytes / 1024).toFixed(1),
    "Code.js eval ms (median of 5, fresh context)": +median(evals).toFixed(2),
    "first call ms (builds the bundle; onOpen)": +median(firstCalls).toFixed(2),
    "enrich 1,000 rows (resolve fields): Spreadsheet calls": plain.calls,
    "enrich 1,000 rows (resolve fields): credits (minimum 100)": plain.credits,
    "enrich 1,000 rows (resolve fields): steps": plain.steps,
    "enrich 1,000 rows (+profile fields): Spreadsheet calls": profile.calls,
    "enrich 1,000 rows (+profile fields): credits (minimum 1,100)": profile.credits,
    "enrich 1,000 rows interrupted halfway: Spreadsheet calls": interrupted.calls,
    "enrich 1,000 rows interrupted halfway: credits (minimum 100)": interrupted.credits,
    "enrich 1,000 rows interrupted halfway: steps": interrupted.steps,
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  benchAppsScript().then((r) => {
    console.log("Google Sheets add-on");
    for (const [k, v] of Object.entries(r)) console.log(`  ${k.padEnd(62)} ${v}`);
  }, (e) => { console.error(e); process.exit(1); });
}
