/**
 * Issue 38 item 4 and issue 43 item 3: how fast the `company-data` command
 * starts, from the package an admin installs (`npm pack`, then `npm install
 * --omit=dev` of the tarball into an empty folder: test/support/installed-package.ts).
 *
 * - `--help`, best of 3, against a bare Node start (`node -e 0`, best of 3) in
 *   the same run. Target: ≤ 0.3 s.
 * - Cold start: the first run of each command right after the install (no
 *   process has run the package yet: its files come from disk, nothing is
 *   compiled, as every later run) against a warm run (the best of the next
 *   runs), for `--help` and a small job (`enrich --yes` on 50 rows against the
 *   emulator on 127.0.0.1, no added latency; each run its own list, key and
 *   output, so nothing is served from a cache). Target: the first run ≤ 1 s
 *   more than a warm one.
 * - For comparison (informational): the clone's path, the TypeScript sources
 *   through tsx, first with an empty compile cache (a fresh TMPDIR, where tsx
 *   keeps it) and then warm: what the bundle spares a first run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeCsv } from "../test/support/lists.ts";
import { installPackage, pack, ROOT, runToEnd, scratch, type Finished } from "../test/support/installed-package.ts";
import { loopbackEmulator, r2, ratio, type Figure } from "./lib.ts";

const WARM_RUNS = 3;
const JOB_ROWS = 50;

const best = (runs: Finished[]) => Math.min(...runs.map((r) => r.ms));

/**
 * The CPU time a child spent (user + system), which a loaded machine does not
 * inflate as it inflates wall time: a preload (NODE_OPTIONS=--require) writes
 * process.cpuUsage() to a file as the child exits.
 */
function cpuMeter(dir: string) {
  const preload = join(dir, "cpu-report.cjs");
  const report = join(dir, "cpu-report.txt");
  writeFileSync(
    preload,
    `process.on("exit", () => { const u = process.cpuUsage(); require("node:fs").writeFileSync(${JSON.stringify(report)}, String((u.user + u.system) / 1000)); });\n`,
  );
  return {
    env: { NODE_OPTIONS: `--require ${preload}` },
    /** Milliseconds of CPU of the last child that exited. */
    read: () => (existsSync(report) ? Number(readFileSync(report, "utf8")) : NaN),
  };
}
const seconds = (ms: number) => r2(ms / 1000);

function ensureOk(what: string, r: Finished): Finished {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}: ${r.stderr.slice(0, 300)}`);
  return r;
}

async function times(n: number, run: (i: number) => Promise<Finished>): Promise<Finished[]> {
  const out: Finished[] = [];
  for (let i = 0; i < n; i++) out.push(await run(i));
  return out;
}

export async function runColdStartBench(log: (s: string) => void = () => {}): Promise<Figure[]> {
  const work = mkdtempSync(join(tmpdir(), "bench-cold-"));
  const installed = scratch("bench-installed-");
  const lo = await loopbackEmulator({ latencyMs: 0, jitterMs: 0 });
  let packDir: string | undefined;
  try {
    log("cold-start: npm pack, npm install --omit=dev …");
    const packed = await pack();
    packDir = packed.dir;
    await installPackage(packed.tarball, installed);
    const bin = join(installed, "node_modules", ".bin", "company-data");
    // What is measured is the bundle (bin/company-data.js runs dist/node when no sources lie beside it): a package
    // that shipped sources would run them through tsx and time a compilation instead.
    const pkg = join(installed, "node_modules", "company-data");
    if (!existsSync(join(pkg, "dist", "node", "company-data.js")) || existsSync(join(pkg, "cli", "main.ts")))
      throw new Error("the installed package does not run the bundle dist/node/company-data.js");
    const cpu = cpuMeter(work);
    const env = (key = "") => ({
      ...cpu.env,
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LANG: "en",
      COMPANY_DATA_API_KEY: key,
      COMPANY_DATA_BASE_URL: lo.server.url,
    });
    const helpCpu: number[] = [];
    const help = async () => {
      const r = ensureOk("--help", await runToEnd(bin, ["--help"], { cwd: installed, env: env() }));
      helpCpu.push(cpu.read());
      return r;
    };
    const job = async (i: number) => {
      const input = join(work, `job-${i}.csv`);
      await writeCsv(input, lo.emu, JOB_ROWS, 20 + i, JOB_ROWS);
      const args = ["enrich", "--in", input, "--out", join(work, `job-${i}.out.csv`), "--yes"];
      return ensureOk("enrich", await runToEnd(bin, args, { cwd: installed, env: env(lo.emu.createKey(100_000)) }));
    };
    log("cold-start: first and warm runs …");
    const firstHelp = await help();
    const warmHelp = await times(WARM_RUNS, help);
    const firstJob = await job(0);
    const warmJob = await times(WARM_RUNS, (i) => job(i + 1));
    const bare = await times(WARM_RUNS, () => runToEnd(process.execPath, ["-e", "0"], { env: env() }));
    const bareCpu = cpu.read();

    log("cold-start: the clone through tsx, empty compile cache …");
    const tsxCache = mkdtempSync(join(work, "tsx-cache-"));
    const clone = () =>
      runToEnd(process.execPath, [join(ROOT, "bin", "company-data.js"), "--help"], {
        cwd: ROOT,
        env: { ...env(), TMPDIR: tsxCache },
      }).then((r) => ensureOk("clone --help", r));
    const cloneFirst = await clone();
    const cloneWarm = await times(WARM_RUNS, clone);

    const helpMs = best(warmHelp);
    const jobMs = best(warmJob);
    return [
      {
        group: "cold start",
        figure: "company-data --help, installed package, best of 3 vs bare node start",
        value: seconds(helpMs),
        unit: "s",
        baseline: seconds(best(bare)),
        ratio: ratio(helpMs, best(bare)),
        target: "≤ 0.3 s",
        pass: helpMs <= 300,
        note: `runs ${warmHelp.map((r) => Math.round(r.ms)).join(", ")} ms (CPU ${helpCpu.slice(1).map(Math.round).join(", ")} ms); bare node ${bare.map((r) => Math.round(r.ms)).join(", ")} ms (CPU ${Math.round(bareCpu)} ms)`,
      },
      {
        group: "cold start",
        figure: "--help: first run after install vs warm run (installed package)",
        value: seconds(firstHelp.ms),
        unit: "s",
        baseline: seconds(helpMs),
        ratio: ratio(firstHelp.ms, helpMs),
        target: "≤ warm + 1 s",
        pass: firstHelp.ms - helpMs <= 1000,
      },
      {
        group: "cold start",
        figure: `enrich ${JOB_ROWS} rows: first run vs warm run (installed package, emulator, no latency)`,
        value: seconds(firstJob.ms),
        unit: "s",
        baseline: seconds(jobMs),
        ratio: ratio(firstJob.ms, jobMs),
        target: "≤ warm + 1 s",
        pass: firstJob.ms - jobMs <= 1000,
        note: `warm runs ${warmJob.map((r) => Math.round(r.ms)).join(", ")} ms; each its own list, key and output`,
      },
      {
        group: "cold start",
        figure: "clone (sources through tsx) --help: empty compile cache vs warm",
        value: seconds(cloneFirst.ms),
        unit: "s",
        baseline: seconds(best(cloneWarm)),
        ratio: ratio(cloneFirst.ms, best(cloneWarm)),
        pass: null,
        note: `what the bundle spares: the installed package's first --help took ${Math.round(firstHelp.ms)} ms`,
      },
    ];
  } finally {
    await lo.close();
    for (const d of [work, installed, packDir]) if (d) rmSync(d, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith("cold-start.bench.ts"))
  void runColdStartBench((s) => process.stderr.write(s + "\n")).then((f) => console.log(JSON.stringify(f, null, 2)));
