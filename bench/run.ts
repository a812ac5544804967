/**
 * `npm run bench`: every benchmark module in turn, one table (figure, value,
 * baseline, ratio, target, pass/fail), merged into bench/results.json and
 * docs/performance.md (test/support/bench-results.ts: a subset keeps the others' figures).
 * A module that fails is reported as a failed row; the others still run.
 * BENCH_ONLY=enrich,sheets,excel,cli,concurrency,server,cold-start,emulator runs a subset.
 */
import { cpus, loadavg, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { runEnrichBench } from "./enrich.bench.ts";
import { runSheetsBench } from "./sheets.bench.ts";
import { runSheetsCacheBench } from "./sheets-cache.bench.ts";
import { runExcelBench } from "./excel.bench.ts";
import { runCliBench } from "./cli.bench.ts";
import { runEmulatorBench } from "./emulator.bench.ts";
import { runConcurrencyBench } from "./concurrency.bench.ts";
import { runServerBench } from "./server.bench.ts";
import { runColdStartBench } from "./cold-start.bench.ts";
import { runAuditBench } from "./audit.bench.ts";
import { LATENCY, type Figure } from "./lib.ts";
import { writeResults, type RunMeta } from "../test/support/bench-results.ts";

const MODULES: { id: string; run: (log: (s: string) => void) => Promise<Figure[]> }[] = [
  { id: "enrich", run: runEnrichBench },
  { id: "sheets", run: runSheetsBench },
  { id: "sheets-cache", run: runSheetsCacheBench },
  { id: "excel", run: runExcelBench },
  { id: "cli", run: runCliBench },
  { id: "concurrency", run: runConcurrencyBench },
  { id: "server", run: runServerBench },
  { id: "cold-start", run: runColdStartBench },
  { id: "audit", run: runAuditBench },
  {
    id: "emulator",
    run: async () =>
      (await runEmulatorBench()).map((r) => ({
        group: "emulator",
        figure: r.name,
        value: r.value,
        unit: r.unit,
        baseline: r.baseline,
        ratio: r.ratio,
        note: r.note,
        pass: null,
      })),
  },
];

const cell = (v: unknown) => (v === undefined || v === null ? "" : String(v));

export function formatTable(rows: Figure[]): string {
  const head = ["group", "figure", "value", "baseline", "ratio", "target", "result"];
  const body = rows.map((f) => [
    f.group,
    f.figure,
    `${cell(f.value)} ${f.unit}`.trim(),
    f.baseline === undefined ? "" : `${f.baseline} ${f.unit}`.trim(),
    cell(f.ratio),
    cell(f.target),
    f.pass === true ? "PASS" : f.pass === false ? "FAIL" : "info",
  ]);
  // Every row has a cell per column of `head`; a short row would only be padded less.
  const width = head.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => "| " + r.map((c, i) => c.padEnd(width[i] ?? 0)).join(" | ") + " |";
  return [line(head), "|" + width.map((w) => "-".repeat(w + 2)).join("|") + "|", ...body.map(line)].join("\n");
}

export async function runAll(
  only?: string[],
): Promise<{ figures: Figure[]; meta: RunMeta; byModule: Map<string, Figure[]> }> {
  const figures: Figure[] = [];
  const byModule = new Map<string, Figure[]>();
  const started = new Date().toISOString();
  const log = (s: string) => process.stderr.write(s + "\n");
  for (const m of MODULES) {
    if (only && !only.includes(m.id)) continue;
    const t = performance.now();
    const before = figures.length;
    try {
      figures.push(...(await m.run(log)));
    } catch (e) {
      figures.push({
        group: m.id,
        figure: "module failed",
        value: String((e as Error)?.message ?? e).slice(0, 200),
        unit: "",
        pass: false,
      });
    }
    byModule.set(m.id, figures.slice(before));
    log(`${m.id}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const meta: RunMeta = {
    started,
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
    latency: LATENCY,
  };
  return { figures, meta, byModule };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const only = process.env.BENCH_ONLY?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  runAll(only).then(({ figures, meta, byModule }) => {
    console.log(formatTable(figures));
    const failed = figures.filter((f) => f.pass === false).length;
    console.log(
      `\n${figures.length} figures, ${figures.filter((f) => f.pass === true).length} pass, ${failed} fail, ${figures.filter((f) => f.pass == null).length} informational`,
    );
    // Merged into bench/results.json and docs/performance.md (test/support/bench-results.ts): a subset keeps the others' figures.
    writeResults(meta, byModule);
  });
}
