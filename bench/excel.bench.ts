/**
 * Issue 8, benchmark 4 (Excel): the built functions.js in the simulated
 * custom-functions runtime (excel-addin/sim/simulate.ts, as test/excel/ uses
 * it): requests for 1,000 simultaneous RESOLVE cells against one request per
 * cell, a second recalculation, bundle sizes and cold evaluation time.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "../scripts/build-excel.ts";
import { loadFunctions, recalc } from "../excel-addin/sim/simulate.ts";
import { memoryStorage } from "../excel-addin/host/storage.ts";
import { createEmulator } from "../emulator/index.ts";
import { benchList } from "../test/support/lists.ts";
import { median, r2, ratio, START_DATE, type Figure } from "./lib.ts";

export async function runExcelBench(log: (s: string) => void = () => {}): Promise<Figure[]> {
  const out: Figure[] = [];
  const dir = mkdtempSync(join(tmpdir(), "bench-excel-"));
  try {
    log("excel: building the add-in …");
    const built = await build({ outDir: join(dir, "excel-addin"), quiet: true, minify: true });
    const bundle = join(built.outDir, "functions.js");
    const emu = createEmulator({ startDate: START_DATE });
    const list = benchList(emu);
    const key = emu.createKey(1_000_000);
    const storage = memoryStorage();
    storage.data.set("cd:user:apiKey", key);
    storage.data.set("cd:user:baseUrl", "https://emulator.test");
    storage.data.set("cd:user:formulaDailyBudget", "100000");
    const workbook = new Map<string, unknown>();

    const loads: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      loadFunctions({ bundle, handle: (r) => emu.handle(r), storage: memoryStorage() });
      loads.push(performance.now() - t);
    }
    const med = median(loads);

    log("excel: 1,000 RESOLVE cells at once …");
    const sim = loadFunctions({ bundle, handle: (r) => emu.handle(r), storage, workbookSettings: workbook });
    const cells = list.rows.map((r) => [[[r.name]]]);
    const before = emu.balance(key);
    let t = performance.now();
    const first = await recalc(sim.functions.get("RESOLVE")!, cells);
    const firstMs = performance.now() - t;
    const requests = sim.requests.length;
    const credits = before - emu.balance(key);
    const answered = first.filter(
      (s) => s.status === "fulfilled" || (s.reason && typeof s.reason === "object" && "code" in s.reason),
    ).length;
    t = performance.now();
    await recalc(sim.functions.get("RESOLVE")!, cells);
    const secondMs = performance.now() - t;
    const second = sim.requests.length - requests;
    const minCredits = Math.ceil(list.distinctQueries / 10);

    out.push(
      {
        group: "4 excel",
        figure: "requests for 1,000 simultaneous RESOLVE cells",
        value: requests,
        unit: "requests",
        baseline: cells.length,
        ratio: ratio(requests, cells.length),
        target: "< one per cell",
        pass: requests < cells.length,
        note: `baseline: one request per cell; ${answered}/${cells.length} cells settled with a value or an Excel error; ${r2(firstMs)} ms in-process`,
      },
      {
        group: "4 excel",
        figure: "credits for the 1,000 cells",
        value: credits,
        unit: "credits",
        baseline: minCredits,
        ratio: ratio(credits, minCredits),
        target: "= minimum",
        pass: credits === minCredits,
        note: `minimum = ceil(${list.distinctQueries} distinct names / 10)`,
      },
      {
        group: "4 excel",
        figure: "second recalculation: requests",
        value: second,
        unit: "requests",
        baseline: requests,
        ratio: ratio(second, requests),
        target: "= 0",
        pass: second === 0,
        note: `${r2(secondMs)} ms`,
      },
      {
        group: "4 excel",
        figure: "functions.js cold evaluation (median of 5)",
        value: r2(med),
        unit: "ms",
        note: "informational: loading the bundle into a fresh V8 context",
      },
    );
    for (const [file, bytes] of Object.entries(built.sizes)) {
      if (!/\.(js|html|json)$/.test(file)) continue;
      out.push({
        group: "4 excel",
        figure: `bundle ${file}`,
        value: r2(bytes / 1024),
        unit: "KiB",
        note: "informational",
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

if (process.argv[1] && /excel\.bench\.ts$/.test(process.argv[1])) {
  runExcelBench((s) => process.stderr.write(s + "\n")).then((rows) => console.table(rows));
}
