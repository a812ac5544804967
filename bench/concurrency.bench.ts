/**
 * Issue 12, item 4: adaptive concurrency and what a hard kill costs.
 *
 *  a. Against a cap the client does not know: the emulator in its own
 *     process with `--max-concurrent CAP` (429 beyond it), 1,000 profile GETs
 *     through the core and the CLI's driver with the highest ceiling a user
 *     can set (--parallel 1000). Wall time against requests ÷ cap × the
 *     measured round trip; 429s against the requests sent.
 *  b. `kill -9` in the middle of the bench list: the CLI as a child process
 *     (bin/company-data.js) on the 1,000-row list, killed (SIGKILL) once the
 *     credits it has counted reach half of a clean run's, then resumed; its
 *     credits (the emulator's ledger of the key) against the clean run's. At
 *     the default ceiling (≤ 5 %) and at --parallel 1000 (≤ 8 %, issue 43).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeDriver, DEFAULT_PARALLEL } from "../node/driver.ts";
import { runAsync } from "../shared/core/drivers.ts";
import { getProfiles } from "../shared/operations/company.ts";
import { createEmulator } from "../emulator/index.ts";
import { benchList } from "../test/support/lists.ts";
import { cliContext } from "../test/support/cli-context.ts";
import { startEmulatorProcess, type EmulatorProcess } from "./emulator-process.ts";
import { LATENCY, r2, ratio, seconds, START_DATE, type Figure } from "./lib.ts";

const BIN = fileURLToPath(new URL("../bin/company-data.js", import.meta.url));
/** The emulator's cap on concurrent requests per key, unknown to the client. */
export const CAP = Number(process.env.BENCH_CAP ?? 20);
export const CAP_REQUESTS = Number(process.env.BENCH_CAP_REQUESTS ?? 1000);

async function credits(emu: EmulatorProcess, key: string): Promise<number> {
  return (await emu.usage(key)).usage.total;
}

/** Mean round trip of one profile GET, asked one after the other (the emulator's latency + jitter + its own time + HTTP). */
async function roundTripMs(emu: EmulatorProcess, ids: string[]): Promise<number> {
  const key = await emu.createKey(1000);
  const headers = { Authorization: `Bearer ${key}` };
  const times: number[] = [];
  for (const id of ids) {
    const t = performance.now();
    await (await fetch(`${emu.url}/v2/companies/${id}`, { headers })).text();
    times.push(performance.now() - t);
  }
  return times.reduce((a, b) => a + b, 0) / times.length;
}

async function unknownCap(log: (s: string) => void, ids: string[]): Promise<Figure[]> {
  log(`concurrency: emulator process with a cap of ${CAP} concurrent requests per key …`);
  const emu = await startEmulatorProcess({
    ...LATENCY,
    date: START_DATE,
    extraArgs: ["--max-concurrent", String(CAP)],
  });
  try {
    const rtt = await roundTripMs(emu, ids.slice(CAP_REQUESTS, CAP_REQUESTS + 20));
    const key = await emu.createKey(1_000_000);
    const statuses = new Map<number, number>();
    const driver = nodeDriver({
      parallel: 1000,
      onAnswer: (_r, res) => statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1),
    });
    log(`concurrency: ${CAP_REQUESTS} profiles against the unknown cap …`);
    const t = performance.now();
    const got = await runAsync(getProfiles(cliContext(emu.url, key), ids.slice(0, CAP_REQUESTS)), driver);
    const ms = performance.now() - t;
    const answered = [...got.values()].filter((v) => !(v instanceof Error)).length;
    const sent = [...statuses.values()].reduce((a, b) => a + b, 0);
    const rejected = statuses.get(429) ?? 0;
    const bound = (CAP_REQUESTS / CAP) * rtt;
    const charged = await credits(emu, key);
    const g = "4a unknown cap";
    return [
      {
        group: g,
        figure: `wall time, ${CAP_REQUESTS} profiles, cap ${CAP} (ceiling 1,000) vs requests ÷ cap × round trip`,
        value: seconds(ms),
        unit: "s",
        baseline: seconds(bound),
        ratio: ratio(ms, bound),
        target: "≤ 1.3",
        pass: ms <= 1.3 * bound,
        note: `round trip measured: ${r2(rtt)} ms (mean of 20 sequential GETs); limiter peak ${driver.limiter.stats.peak}, ${driver.limiter.stats.decreases} decreases, final limit ${driver.limiter.limit}; answered ${answered} of ${CAP_REQUESTS}; charged ${charged} credits`,
      },
      {
        group: g,
        figure: "429 answers vs requests sent",
        value: rejected,
        unit: "requests",
        baseline: sent,
        ratio: ratio(rejected, sent),
        target: "< 2 %",
        pass: rejected < 0.02 * sent && answered === CAP_REQUESTS,
        note: `statuses: ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(", ")}`,
      },
    ];
  } finally {
    await emu.close();
  }
}

interface CliResult {
  code: number | null;
  ms: number;
}

/** The CLI on `input`; `killAtCredits`: SIGKILL once its own spend file counts that many credits. */
async function cli(
  emu: EmulatorProcess,
  key: string,
  input: string,
  out: string,
  parallel: number,
  killAtCredits?: number,
): Promise<CliResult> {
  const t = performance.now();
  const env = {
    ...process.env,
    COMPANY_DATA_API_KEY: key,
    COMPANY_DATA_BASE_URL: emu.url,
    COMPANY_DATA_PARALLEL: String(parallel),
    LANG: "en",
  };
  const child = spawn(process.execPath, [BIN, "enrich", "--in", input, "--out", out, "--yes", "--lang", "en"], {
    env,
    stdio: ["ignore", "ignore", "ignore"],
  });
  let poll: ReturnType<typeof setInterval> | undefined;
  if (killAtCredits !== undefined) {
    poll = setInterval(() => {
      const f = out + ".spent";
      if (!existsSync(f)) return;
      // The intent journal (cli/ledger.ts): "i ID CREDITS" before a paid request, "a ID CREDITS" when its answer came.
      const n = readFileSync(f, "utf8")
        .split("\n")
        .reduce((s, l) => s + Number(/^a \S+ (\d+)$/.exec(l)?.[1] ?? 0), 0);
      if (n >= killAtCredits) {
        clearInterval(poll);
        child.kill("SIGKILL");
      }
    }, 2);
  }
  const [code] = (await once(child, "exit")) as [number | null];
  if (poll) clearInterval(poll);
  return { code, ms: performance.now() - t };
}

async function killNine(log: (s: string) => void, names: string[]): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-kill-"));
  const emu = await startEmulatorProcess({ ...LATENCY, date: START_DATE });
  try {
    const input = join(dir, "list.csv");
    writeFileSync(input, "Firma\n" + names.map((n) => `"${n.replace(/"/g, '""')}"`).join("\n") + "\n");
    const out: Figure[] = [];
    for (const parallel of [DEFAULT_PARALLEL, 1000]) {
      log(`concurrency: CLI clean run, --parallel ${parallel} …`);
      const cleanKey = await emu.createKey(1_000_000);
      const clean = await cli(emu, cleanKey, input, join(dir, `clean-${parallel}.csv`), parallel);
      if (clean.code !== 0) throw new Error(`clean CLI run exited ${clean.code}`);
      const cleanCredits = await credits(emu, cleanKey);
      log(`concurrency: CLI killed (-9) at half the credits, then resumed, --parallel ${parallel} …`);
      const key = await emu.createKey(1_000_000);
      const o = join(dir, `killed-${parallel}.csv`);
      const killed = await cli(emu, key, input, o, parallel, Math.floor(cleanCredits / 2));
      // A run that finished before the kill measured nothing: the figure would be a clean run's.
      if (killed.code === 0)
        throw new Error(`the CLI finished before it was killed (--parallel ${parallel}): no kill -9 was measured`);
      const atKill = await credits(emu, key);
      const resumed = await cli(emu, key, input, o, parallel);
      if (resumed.code !== 0) throw new Error(`resumed CLI run exited ${resumed.code}`);
      const total = await credits(emu, key);
      const same = readFileSync(o, "utf8") === readFileSync(join(dir, `clean-${parallel}.csv`), "utf8");
      const extra = total - cleanCredits;
      const isDefault = parallel === DEFAULT_PARALLEL;
      out.push({
        group: "4b kill -9",
        figure: `extra credits of a kill -9 in the middle, --parallel ${parallel}${isDefault ? " (default)" : ""}`,
        value: extra,
        unit: "credits",
        baseline: cleanCredits,
        ratio: ratio(extra, cleanCredits),
        // Issue 43: ≤ 8 % at --parallel 1000 too (the driver bounds paid credits in flight to 7 % of the estimate).
        target: isDefault ? "≤ 5 %" : "≤ 8 %",
        pass: extra <= (isDefault ? 0.05 : 0.08) * cleanCredits && same,
        note: `killed at ${atKill} credits charged (exit ${killed.code}, ${seconds(killed.ms)} s), resumed to ${total}; clean run ${cleanCredits} credits in ${seconds(clean.ms)} s; output ${same ? "identical to" : "DIFFERS from"} the clean run's`,
      });
    }
    return out;
  } finally {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runConcurrencyBench(log: (s: string) => void = () => {}): Promise<Figure[]> {
  // Names and ids from an in-process copy of the child's world (same seed, size and start date).
  const world = createEmulator({ startDate: START_DATE });
  const ids = world.companies.ids().slice(100, 100 + CAP_REQUESTS + 20);
  const names = benchList(world).rows.map((r) => r.name);
  return [...(await unknownCap(log, ids)), ...(await killNine(log, names))];
}

if (process.argv[1] && /concurrency\.bench\.ts$/.test(process.argv[1])) {
  runConcurrencyBench((s) => process.stderr.write(s + "\n")).then((rows) => console.table(rows));
}
