/**
 * Issue 8, benchmark 5: the CLI on a 100,000-row CSV, as a child process
 * (bin/company-data.js) against the emulator over loopback HTTP, with its
 * peak RSS read from /proc/<pid>/status (VmHWM, the kernel's high-water mark,
 * sampled until the process exits). Baseline: the same CLI on a 1,000-row
 * file; bounded memory means a ratio near 1. No added latency here: 100,000
 * rows at 100 ms a round trip would make the benchmark minutes long, and the
 * figure is about memory.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeCsv } from "../test/support/lists.ts";
import { runCli, type CliRun } from "../test/support/cli-process.ts";
import { loopbackEmulator, r2, ratio, type Figure } from "./lib.ts";

export const CLI_ROWS = Number(process.env.BENCH_CLI_ROWS ?? 100_000);

export async function runCliBench(log: (s: string) => void = () => {}): Promise<Figure[]> {
  const out: Figure[] = [];
  const dir = mkdtempSync(join(tmpdir(), "bench-cli-"));
  const lo = await loopbackEmulator({ latencyMs: 0, jitterMs: 0 });
  try {
    const { emu, server } = lo;
    const small = join(dir, "small.csv");
    const big = join(dir, "big.csv");
    log(`cli: writing ${CLI_ROWS} rows …`);
    await writeCsv(small, emu, 1000);
    await writeCsv(big, emu, CLI_ROWS);
    // The same 100 companies as the small file, 100× the rows: what the row count alone costs.
    const same = join(dir, "same.csv");
    await writeCsv(same, emu, CLI_ROWS, 3, 100);
    // One enrichment of `file` into `name`.out.csv, as a child process with its own key.
    const enrich = (file: string, name: string) =>
      runCli(["enrich", "--in", file, "--out", join(dir, `${name}.out.csv`), "--yes", "--lang", "en"], {
        COMPANY_DATA_API_KEY: emu.createKey(10_000_000),
        COMPANY_DATA_BASE_URL: server.url,
        LANG: "en",
      });
    // Untimed: a clone's CLI runs its sources through tsx, which compiles a changed file on its first run and
    // keeps it compiled; without this, whichever measured run came first after a change paid the compilation's
    // memory (the 1,000-row baseline was 153 MiB after a pull, 128-137 MiB once compiled).
    log("cli: warm-up (untimed) …");
    await enrich(small, "warm");
    log("cli: 1,000 rows …");
    const a = await enrich(small, "small");
    log(`cli: ${CLI_ROWS} rows …`);
    const b = await enrich(big, "big");
    log(`cli: ${CLI_ROWS} rows, 100 companies …`);
    const c = await enrich(same, "same");
    const outLines =
      a.code === 0 && b.code === 0
        ? readFileSync(join(dir, "big.out.csv"), "utf8").split("\n").filter(Boolean).length - 1
        : 0;
    out.push(...memoryFigures(a, b, c, outLines, statSync(big).size));
  } finally {
    await lo.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** The figures of the three measured runs: 1,000 rows (`a`), CLI_ROWS rows (`b`), CLI_ROWS rows of 100 companies (`c`). */
function memoryFigures(a: CliRun, b: CliRun, c: CliRun, outLines: number, inputBytes: number): Figure[] {
  const ok = a.code === 0 && b.code === 0 && c.code === 0;
  const out: Figure[] = [
    {
      group: "5 cli",
      figure: `peak RSS, ${CLI_ROWS.toLocaleString("en")} rows`,
      value: b.peakRssMb,
      unit: "MiB",
      baseline: a.peakRssMb,
      ratio: ratio(b.peakRssMb, a.peakRssMb),
      target: "≤ 1.5 (bounded)",
      pass: ok && b.peakRssMb <= 1.5 * a.peakRssMb,
      note: `baseline: the same CLI on 1,000 rows; 10,000 distinct companies (the answer cache holds up to 20,000 answers); exit codes ${a.code}/${b.code}; no added latency`,
    },
    {
      group: "5 cli",
      figure: `peak RSS, ${CLI_ROWS.toLocaleString("en")} rows of the small file's 100 companies`,
      value: c.peakRssMb,
      unit: "MiB",
      baseline: a.peakRssMb,
      ratio: ratio(c.peakRssMb, a.peakRssMb),
      target: "≤ 1.5 (bounded)",
      pass: ok && c.peakRssMb <= 1.5 * a.peakRssMb,
      note: "row count alone, the answer cache held equal",
    },
    {
      group: "5 cli",
      figure: `wall time, ${CLI_ROWS.toLocaleString("en")} rows`,
      value: r2(b.ms / 1000),
      unit: "s",
      baseline: r2((a.ms / 1000) * (CLI_ROWS / 1000)),
      ratio: ratio(b.ms, a.ms * (CLI_ROWS / 1000)),
      note: `baseline: 1,000-row time × ${CLI_ROWS / 1000}; input ${r2(inputBytes / 1048576)} MiB; output rows ${outLines}`,
    },
  ];
  if (!ok)
    out.push({
      group: "5 cli",
      figure: "cli stderr",
      value: (b.stderr || a.stderr).slice(-200),
      unit: "",
      pass: false,
    });
  return out;
}

if (process.argv[1] && /cli\.bench\.ts$/.test(process.argv[1])) {
  runCliBench((s) => process.stderr.write(s + "\n")).then((rows) => console.table(rows));
}
