/**
 * Excel benchmark: 1,000 simultaneous COMPANY.RESOLVE cells in the simulated
 * runtime against the in-process emulator, then a recalculation and a
 * reload; plus the bundle sizes. `npm run bench:excel`, or call
 * `runExcelBench()` from bench/run.ts.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "../../scripts/build-excel.ts";
import { createEmulator } from "../../emulator/index.ts";
import { MAX_BATCH } from "../../shared/api/schemas.ts";
import { normaliseKey } from "../../shared/batch/normalise.ts";
import { memoryStorage } from "../host/storage.ts";
import { loadFunctions, recalc } from "./simulate.ts";

export interface ExcelBenchFigures {
  cells: number;
  distinct: number;
  requests: number;
  requestLimit: number;
  credits: number;
  minimumCredits: number;
  firstMs: number;
  recalcRequests: number;
  recalcCredits: number;
  reloadRequests: number;
  reloadCredits: number;
  answered: number;
  sizes: Record<string, number>;
}

export async function runExcelBench(cells = 1000): Promise<ExcelBenchFigures> {
  const out = await build({ outDir: join(mkdtempSync(join(tmpdir(), "excel-bench-")), "excel-addin"), quiet: true });
  const emulator = createEmulator({ companies: Math.max(3000, cells * 2), seed: 11 });
  const key = emulator.createKey(100_000);
  const storage = memoryStorage();
  storage.data.set("cd:user:apiKey", key);
  storage.data.set("cd:user:baseUrl", "https://emulator.bench");
  storage.data.set("cd:user:formulaDailyBudget", "100000");
  const workbook = new Map<string, unknown>();
  const bundle = join(out.outDir, "functions.js");
  const names = emulator.world.companies.slice(0, cells).map((c) => c.name);
  const args = names.map((n) => [[[n]]]);
  const distinct = new Set(names.map((n) => normaliseKey({ name: n }))).size;

  const sim = loadFunctions({ bundle, handle: (r) => emulator.handle(r), storage, workbookSettings: workbook });
  const b0 = emulator.balance(key);
  const t0 = performance.now();
  const first = await recalc(sim.functions.get("RESOLVE")!, args);
  const firstMs = performance.now() - t0;
  const requests = sim.requests.length;
  const b1 = emulator.balance(key);
  await recalc(sim.functions.get("RESOLVE")!, args);
  const recalcRequests = sim.requests.length - requests;
  const b2 = emulator.balance(key);
  const reloaded = loadFunctions({ bundle, handle: (r) => emulator.handle(r), storage, workbookSettings: workbook });
  await recalc(reloaded.functions.get("RESOLVE")!, args);
  return {
    cells,
    distinct,
    requests,
    requestLimit: Math.ceil(cells / MAX_BATCH),
    credits: b0 - b1,
    minimumCredits: Math.ceil(distinct / 10),
    firstMs: Math.round(firstMs),
    recalcRequests,
    recalcCredits: b1 - b2,
    reloadRequests: reloaded.requests.length,
    reloadCredits: b2 - emulator.balance(key),
    answered: first.length,
    sizes: out.sizes,
  };
}

export function printExcelBench(f: ExcelBenchFigures): void {
  console.log(`Excel: ${f.cells} simultaneous COMPANY.RESOLVE cells (${f.distinct} distinct names), all ${f.answered} answered`);
  console.log(`  first calculation  ${f.requests} requests (limit ceil(${f.cells}/${MAX_BATCH}) = ${f.requestLimit} + retries), ${f.credits} credits (minimum ${f.minimumCredits}), ${f.firstMs} ms`);
  console.log(`  recalculation      ${f.recalcRequests} requests, ${f.recalcCredits} credits`);
  console.log(`  reload             ${f.reloadRequests} requests, ${f.reloadCredits} credits`);
  console.log("  bundle sizes:");
  for (const [file, n] of Object.entries(f.sizes)) console.log(`    ${file.padEnd(16)} ${(n / 1024).toFixed(1).padStart(7)} KB`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runExcelBench().then(printExcelBench, (e) => {
    console.error(e);
    process.exit(1);
  });
}
