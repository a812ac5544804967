/**
 * Issue 8, benchmarks 1-3: the enrichment's credits, requests and wall time
 * over loopback HTTP against the emulator with added latency and its rate
 * limits on, each beside its baseline measured in the same run.
 *
 * Lower bound of the wall time the rate limits allow (documented in
 * bench/README.md):  T_min = R · (L + J/2) + max(0, N_rl − C) / r
 *   R     dependent round trips no client can avoid (resolve, then profile: 2;
 *         availability sits between them when includes are asked: 3)
 *   L, J  the emulator's added latency and jitter (uniform 0..J, mean J/2)
 *   N_rl  calls to the one rate-limited endpoint the plan needs, C its
 *         bucket capacity, r its refill per second (0 when none is needed)
 * Everything else (paid calls) has no rate limit in the emulator, so any
 * number of them fit into one round trip.
 *
 * Beside that computed bound, a measured one: the minimal request set the
 * plan needs (the same batch resolves, then the same profile GETs) replayed
 * with plain fetch, all in parallel per round trip, no core logic, in the
 * same run. It pays what no client can avoid: the emulator's own CPU per
 * request, HTTP on loopback, and the slowest jitter of a parallel wave.
 *
 * The path timed is the one a CLI user runs: `company-data enrich --yes` on
 * a CSV file, through the CLI's own entry (cli/enrich.ts enrichCommand, in
 * this process: test/support/cli-enrich.ts), with its fetch driver, journal,
 * checkpoint and output file. (The Sheets host's path, the sidebar's job in
 * the built Code.js, is measured by bench/sheets.bench.ts.)
 *
 * Fairness: the emulator runs in its own process (bench/emulator-process.ts)
 * so client and server use separate cores; one untimed warm-up run of a
 * different list (own key, own files: nothing cached that the timed runs
 * could use) takes the JIT and tsx compile out; then 5 timed rounds of the
 * CLI and the replay, alternating which goes first, each with a fresh key and
 * fresh files (the CLI keeps its answer cache in memory for one run only),
 * and the medians are reported.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { RowResult } from "../shared/enrich/rows.ts";
import { batchResolveCost, ENDPOINTS, profileCost } from "../shared/api/endpoints.ts";
import { MAX_BATCH } from "../shared/api/schemas.ts";
import { normaliseKey } from "../shared/batch/normalise.ts";
import { DEFAULT_PARALLEL, riskCredits } from "../node/driver.ts";
import { sendHttp } from "../node/send-http.ts";
import type { HttpRequest } from "../shared/core/http.ts";
import { createEmulator } from "../emulator/index.ts";
import { DEFAULT_RATE_LIMITS } from "../emulator/ratelimit.ts";
import { benchList, type BenchList } from "../test/support/lists.ts";
import { cliEnrich } from "../test/support/cli-enrich.ts";
import { itemAt } from "../test/support/item-at.ts";
import { startEmulatorProcess, type EmulatorProcess, type Usage } from "./emulator-process.ts";
import {
  correctRows,
  cpuProfile,
  freshStart,
  LATENCY,
  median,
  rowsCorrectFigure,
  r2,
  ratio,
  seconds,
  START_DATE,
  type Figure,
} from "./lib.ts";

/** Rows the naive baseline really sends; the rest is extrapolated (it is ~300 s for 1,000 rows). */
export const NAIVE_SAMPLE = Number(process.env.BENCH_NAIVE_SAMPLE ?? 40);
/** Companies in the financials benchmark (availability is rate-limited: 5/s after a burst of 20). */
export const FINANCIALS_COMPANIES = Number(process.env.BENCH_FINANCIALS ?? 60);
/** Timed rounds (core + replay each); the medians are reported. */
export const TIMED_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** The warm-up list's seed: other companies, other spellings than the timed list (seed 7). */
const WARMUP_SEED = 11;

const FIN_FIELDS = ["financialYear", "revenue", "profit", "equity"];

function spent(before: Usage, now: Usage): { credits: number; okRequests: number } {
  let ok = 0;
  for (const [k, n] of Object.entries(now.requests)) ok += n - (before.requests[k] ?? 0);
  return { credits: now.total - before.total, okRequests: ok };
}

async function ledgerOf(emu: EmulatorProcess, key: string): Promise<Usage> {
  return (await emu.usage(key)).usage;
}

/** A CSV the CLI enriches: its header and rows. */
interface CsvInput {
  header: string[];
  rows: string[][];
  fields?: string[];
}

const PAID = new Set<string>(ENDPOINTS.filter((e) => e.billing === "credits").map((e) => e.id));

/** CPU used in a timed window: this process (the client) and the emulator process (the server), in ms. */
interface Cpu {
  clientCpuMs: number;
  serverCpuMs: number | null;
}

function cpuMeter(emu: EmulatorProcess): () => Cpu {
  const c0 = process.cpuUsage();
  const s0 = emu.cpuMs();
  return () => {
    const c = process.cpuUsage(c0);
    const s1 = emu.cpuMs();
    return { clientCpuMs: (c.user + c.system) / 1000, serverCpuMs: s0 === null || s1 === null ? null : s1 - s0 };
  };
}

interface CoreRun extends Cpu {
  credits: number;
  /** Requests the emulator answered (2xx, its ledger), all / paid / availability. */
  requests: number;
  paidRequests: number;
  availabilityRequests: number;
  ms: number;
  results: (RowResult | null)[];
  key: string;
}

/**
 * One run of the CLI's enrichment on a file (a fresh key and fresh files
 * unless given: `reuse` runs it again on the same file beside its earlier
 * output) at a concurrency ceiling (`--parallel`, default the CLI's).
 */
async function coreRun(
  emu: EmulatorProcess,
  dir: string,
  name: string,
  input: CsvInput,
  reuse?: { key: string },
  parallel = DEFAULT_PARALLEL,
): Promise<CoreRun> {
  const key = reuse?.key ?? (await emu.createKey(1_000_000));
  const before = await ledgerOf(emu, key);
  // BENCH_PROFILE_CLI=file.cpuprofile: the first timed CLI run at the default ceiling, profiled (issue 43, item 2).
  const profiled = name === "bench-1000-0" ? process.env.BENCH_PROFILE_CLI : undefined;
  await freshStart();
  const stopProfile = await cpuProfile(profiled);
  let used: Cpu = { clientCpuMs: NaN, serverCpuMs: null };
  // The command only: the harness's writing of the input file and reading back of the output are not the CLI's.
  const meter = () => {
    const cpu = cpuMeter(emu);
    return () => void (used = cpu());
  };
  const run = await cliEnrich({ baseUrl: emu.url, key, dir, name, ...input, parallel, meter });
  await stopProfile();
  if (run.code !== 0) throw new Error(`the CLI ended with ${run.code}: ${run.lines.slice(-3).join(" / ")}`);
  const now = await ledgerOf(emu, key);
  const { credits, okRequests } = spent(before, now);
  const answered = (ids: (id: string) => boolean) =>
    Object.entries(now.requests)
      .filter(([id]) => ids(id))
      .reduce((n, [id, c]) => n + c - (before.requests[id] ?? 0), 0);
  return {
    ...used,
    credits,
    requests: okRequests,
    paidRequests: answered((id) => PAID.has(id)),
    availabilityRequests: answered((id) => id === "availability"),
    ms: run.ms,
    results: run.results,
    key,
  };
}

/**
 * The batch-resolve bodies a minimal client sends for a list: one entry per
 * distinct query (normalised as the spec's resolve does), MAX_BATCH per
 * call, each with its price (the catalogue's, as the client would carry it).
 * Prepared before the clock starts: this is the plan, not the client.
 */
export function replayPlan(list: BenchList): { body: string; credits: number }[] {
  const seen = new Set<string>();
  const entries: { name: string; ref: string }[] = [];
  for (const row of list.rows) {
    const k = normaliseKey({ name: row.name });
    if (seen.has(k)) continue;
    seen.add(k);
    entries.push({ name: row.name.trim(), ref: String(entries.length) });
  }
  const bodies: { body: string; credits: number }[] = [];
  for (let i = 0; i < entries.length; i += MAX_BATCH) {
    const companies = entries.slice(i, i + MAX_BATCH);
    bodies.push({ body: JSON.stringify({ companies }), credits: batchResolveCost(companies.length) });
  }
  return bodies;
}

/**
 * At most `ceiling` requests, and for paid ones at most `credits` credits
 * (default `ceiling`), in flight: the rule the CLI's driver keeps
 * (node/driver.ts), without its AIMD start (a replay knows the server has no
 * cap). Infinity: no limit.
 */
function ceilingGate(ceiling: number, creditCeiling = ceiling) {
  let n = 0;
  let credits = 0;
  const waiting: { c: number; go: () => void }[] = [];
  const pump = () => {
    for (let i = 0; i < waiting.length && n < ceiling;) {
      const w = itemAt(waiting, i, "waiting request");
      if (w.c > 0 && credits > 0 && credits + w.c > creditCeiling) {
        i++;
        continue;
      }
      waiting.splice(i, 1);
      n++;
      credits += w.c;
      w.go();
    }
  };
  return async <T>(c: number, f: () => Promise<T>): Promise<T> => {
    if (ceiling === Infinity) return f();
    await new Promise<void>((go) => (waiting.push({ c, go }), pump()));
    try {
      return await f();
    } finally {
      n--;
      credits -= c;
      pump();
    }
  };
}

/**
 * A replay's request, sent again when the connection fails (on a loaded
 * machine 700 parallel connections are sometimes refused): the baseline
 * needs every answer. Each failure is counted and reported with the figure.
 */
async function fetchAgain(url: string, init: RequestInit, onFail: () => void, attempts = 3): Promise<Response> {
  for (let i = 1; ; i++) {
    try {
      return await fetch(url, init);
    } catch (e) {
      onFail();
      if (i >= attempts) throw e;
    }
  }
}

/**
 * The measured lower bound: the plan's batch resolves, then a GET of every
 * matched company, with plain fetch, as parallel as the ceiling allows (all
 * at once without one). No validation, no cache, no retries, no rows: only
 * what the two round trips need (the resolve answers are parsed for the ids;
 * profile bodies are only read).
 */
async function replayRun(
  emu: EmulatorProcess,
  bodies: { body: string; credits: number }[],
  ceiling = Infinity,
  creditCeiling = ceiling,
  transport: "fetch" | "node" = "fetch",
): Promise<Cpu & { ms: number; requests: number; credits: number; failed: number; profiles: number }> {
  const key = await emu.createKey(1_000_000);
  const before = await ledgerOf(emu, key);
  const headers = { Authorization: `Bearer ${key}`, "Accept-Language": "en", Accept: "application/json" };
  const post = { ...headers, "Content-Type": "application/json" };
  let failed = 0;
  const gate = ceilingGate(ceiling, creditCeiling);
  const resolveUrl = `${emu.url}/v2/companies/batch/resolve`;
  await freshStart();
  const cpu = cpuMeter(emu);
  const t = performance.now();
  type Resolved = { results?: { status?: string; match?: { id?: string } | null }[] };
  // The CLI's own transport (node/send-http.ts), for the figure of what the CLI adds above sending.
  const viaNode = async (req: HttpRequest): Promise<string> => {
    for (let i = 1; ; i++) {
      const { res } = await sendHttp(req, { timeoutMs: 30_000 });
      if (res.status !== 0 || i >= 3) {
        if (res.status !== 200) failed++;
        return res.body;
      }
      failed++;
    }
  };
  const answers = await Promise.all(
    bodies.map(({ body, credits }) =>
      gate(credits, async () => {
        if (transport === "node")
          return JSON.parse(await viaNode({ method: "POST", url: resolveUrl, headers: post, body })) as Resolved;
        const res = await fetchAgain(resolveUrl, { method: "POST", headers: post, body }, () => failed++);
        if (res.status !== 200) failed++;
        return (await res.json()) as Resolved;
      }),
    ),
  );
  const ids = new Set<string>();
  for (const a of answers)
    for (const r of a.results ?? []) if (r.status === "matched" && r.match?.id) ids.add(r.match.id);
  await Promise.all(
    [...ids].map((id) =>
      gate(1, async () => {
        if (transport === "node")
          return void (await viaNode({ method: "GET", url: `${emu.url}/v2/companies/${id}`, headers }));
        const res = await fetchAgain(`${emu.url}/v2/companies/${id}`, { headers }, () => failed++);
        if (res.status !== 200) failed++;
        await res.text();
      }),
    ),
  );
  const ms = performance.now() - t;
  const used = cpu();
  const { credits } = spent(before, await ledgerOf(emu, key));
  return { ...used, ms, requests: bodies.length + ids.size, credits, failed, profiles: ids.size };
}

/**
 * What a generic API-connector script does: row after row, the free single
 * resolve, then the profile of the match; no batching, no cache, no dedupe;
 * a 429 is waited out by its Retry-After and asked again.
 */
async function naiveRun(
  baseUrl: string,
  key: string,
  names: string[],
): Promise<{ ms: number; requests: number; paidRequests: number; matched: number }> {
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Accept-Language": "en" };
  let requests = 0;
  let paidRequests = 0;
  let matched = 0;
  const ask = async (url: string, init: RequestInit, paid: boolean): Promise<any> => {
    for (;;) {
      requests++;
      if (paid) paidRequests++;
      const res = await fetch(url, { ...init, headers });
      const body = await res.text();
      if (res.status === 429) {
        await new Promise((r) => setTimeout(r, Number(res.headers.get("retry-after") ?? "1") * 1000));
        continue;
      }
      return res.status === 200 ? JSON.parse(body) : null;
    }
  };
  const t = performance.now();
  for (const name of names) {
    const r = await ask(`${baseUrl}/v2/resolve`, { method: "POST", body: JSON.stringify({ name }) }, false);
    if (r?.status === "matched" && r.match?.id) {
      matched++;
      await ask(`${baseUrl}/v2/companies/${r.match.id}`, { method: "GET" }, true);
    }
  }
  return { ms: performance.now() - t, requests, paidRequests, matched };
}

/**
 * The lists, drawn from an in-process copy of the child's world (same seed,
 * size and start date; checked against its /_emulator/health). The copy only
 * supplies names and expected ids and is dropped before anything is timed.
 */
async function lists(emu: EmulatorProcess): Promise<{ list: BenchList; warm: BenchList }> {
  const world = createEmulator({ startDate: START_DATE });
  const h = await emu.health();
  if (h.companies !== world.world.companies.length || h.seed !== world.world.seed || h.today !== world.clock.today())
    throw new Error(
      `the emulator process's world (${h.companies} companies, seed ${h.seed}, ${h.today}) is not the bench's`,
    );
  return { list: benchList(world), warm: benchList(world, { seed: WARMUP_SEED }) };
}

const inputOf = (list: BenchList): CsvInput => ({ header: ["Firma"], rows: list.rows.map((r) => [r.name]) });

export async function runEnrichBench(log: (s: string) => void = () => {}): Promise<Figure[]> {
  const out: Figure[] = [];
  const L = LATENCY.latencyMs;
  const J = LATENCY.jitterMs;
  const oneTrip = L + J / 2;
  log("enrich: starting the emulator process …");
  const emu = await startEmulatorProcess(LATENCY);
  const dir = mkdtempSync(join(tmpdir(), "bench-enrich-"));
  try {
    const { list, warm } = await lists(emu);
    const input = inputOf(list);
    const plan = replayPlan(list);
    const minCredits = batchResolveCost(list.distinctQueries) + list.companies * profileCost([]);
    const minRequests = Math.ceil(list.distinctQueries / MAX_BATCH) + list.companies;
    const bound = 2 * oneTrip;

    // ---- warm-up: a different list, its own key and driver, untimed.
    log("enrich: warm-up (other list, untimed) …");
    const cold = await coreRun(emu, dir, "bench-warmup", inputOf(warm));
    await replayRun(emu, replayPlan(warm));

    // ---- 1. timed rounds: core and replay, alternating which goes first.
    const load = itemAt(loadavg(), 0, "1-minute load average");
    // At the CLI's default ceiling (what bounds a kill's loss) against a replay at the same ceiling,
    // and for reference at a ceiling of 1,000 against the unlimited replay.
    const cores: CoreRun[] = [];
    const replays: Awaited<ReturnType<typeof replayRun>>[] = [];
    // The same replay on the CLI's transport (node:http) instead of fetch: what the CLI adds above sending.
    const nodeReplays: Awaited<ReturnType<typeof replayRun>>[] = [];
    const wide: CoreRun[] = [];
    const wideReplays: Awaited<ReturnType<typeof replayRun>>[] = [];
    // The credits the CLI keeps in flight at any --parallel (node/driver.ts riskCredits: 7 % of its estimate, which
    // counts every distinct name as a company), so a kill -9 loses at most that: a replay under the same rule.
    const estimate = batchResolveCost(list.distinctQueries) + list.distinctQueries * profileCost([]);
    const riskCap = riskCredits(estimate);
    const cappedReplays: Awaited<ReturnType<typeof replayRun>>[] = [];
    for (let i = 0; i < TIMED_ROUNDS; i++) {
      log(
        `enrich: round ${i + 1} of ${TIMED_ROUNDS}: core and replay at ceilings ${DEFAULT_PARALLEL} and 1,000, 1,000 rows …`,
      );
      if (i % 2 === 0) {
        cores.push(await coreRun(emu, dir, `bench-1000-${i}`, input));
        replays.push(await replayRun(emu, plan, DEFAULT_PARALLEL));
        nodeReplays.push(await replayRun(emu, plan, DEFAULT_PARALLEL, DEFAULT_PARALLEL, "node"));
        wide.push(await coreRun(emu, dir, `bench-1000-wide-${i}`, input, undefined, 1000));
        wideReplays.push(await replayRun(emu, plan));
        cappedReplays.push(await replayRun(emu, plan, 1000, riskCap));
      } else {
        cappedReplays.push(await replayRun(emu, plan, 1000, riskCap));
        wideReplays.push(await replayRun(emu, plan));
        wide.push(await coreRun(emu, dir, `bench-1000-wide-${i}`, input, undefined, 1000));
        nodeReplays.push(await replayRun(emu, plan, DEFAULT_PARALLEL, DEFAULT_PARALLEL, "node"));
        replays.push(await replayRun(emu, plan, DEFAULT_PARALLEL));
        cores.push(await coreRun(emu, dir, `bench-1000-${i}`, input));
      }
    }
    const coreMs = median(cores.map((c) => c.ms));
    const replayMs = median(replays.map((r) => r.ms));
    const firstReplay = itemAt(replays, 0, "timed replay");
    const wideMs = median(wide.map((c) => c.ms));
    const wideReplayMs = median(wideReplays.map((r) => r.ms));
    const cappedReplayMs = median(cappedReplays.map((r) => r.ms));
    const correct = Math.min(...cores.map((c) => correctRows(list, c.results)));
    const credits = cores.map((c) => c.credits);
    const requests = cores.map((c) => c.requests);
    const paidRequests = cores.map((c) => c.paidRequests);
    const runs = (xs: number[]) => xs.map((x) => seconds(x)).join(", ");
    const replayFailed = replays.reduce((n, r) => n + r.failed, 0);
    const cpuMs = (xs: Cpu[], k: keyof Cpu) =>
      xs.every((x) => x[k] !== null) ? Math.round(median(xs.map((x) => x[k]!))) : null;
    const cpu = {
      coreClient: cpuMs(cores, "clientCpuMs"),
      coreServer: cpuMs(cores, "serverCpuMs"),
      replayClient: cpuMs(replays, "clientCpuMs"),
      replayServer: cpuMs(replays, "serverCpuMs"),
      nodeReplayClient: cpuMs(nodeReplays, "clientCpuMs"),
    };

    // ---- 1. the naive baseline, on a sample, extrapolated.
    const naiveKey = await emu.createKey(1_000_000);
    const sample = list.rows.slice(0, NAIVE_SAMPLE).map((r) => r.name);
    log(`enrich: naive baseline, ${sample.length} rows …`);
    const nb = await ledgerOf(emu, naiveKey);
    const naive = await naiveRun(emu.url, naiveKey, sample);
    const naiveSpent = spent(nb, await ledgerOf(emu, naiveKey));
    const scale = list.rows.length / sample.length;
    const naiveMs = naive.ms * scale;
    const naiveCredits = Math.round(naiveSpent.credits * scale);
    const naiveRequests = Math.round(naive.requests * scale);
    const ext = `naive: ${sample.length} rows measured, ×${r2(scale)} extrapolated`;

    const g = "1 enrich 1,000 rows (CLI: company-data enrich)";
    out.push(
      rowsCorrectFigure(
        g,
        `rows correct (right id / not found), worst of ${cores.length} runs`,
        correct,
        list.rows.length,
      ),
      {
        group: g,
        figure: "credits vs theoretical minimum",
        value: Math.max(...credits),
        unit: "credits",
        baseline: minCredits,
        ratio: ratio(Math.max(...credits), minCredits),
        target: "= minimum",
        pass: credits.every((c) => c === minCredits),
        note: `minimum = ceil(${list.distinctQueries} distinct queries/10) + ${list.companies} profiles; runs: ${credits.join(", ")}; replay paid ${replays.map((r) => r.credits).join(", ")}`,
      },
      {
        group: g,
        figure: "credits vs naive connector",
        value: Math.max(...credits),
        unit: "credits",
        baseline: naiveCredits,
        ratio: ratio(Math.max(...credits), naiveCredits),
        note: ext,
      },
      {
        group: g,
        figure: "paid requests vs minimum",
        value: Math.max(...paidRequests),
        unit: "requests",
        baseline: minRequests,
        ratio: ratio(Math.max(...paidRequests), minRequests),
        note: `minimum = ceil(${list.distinctQueries}/${MAX_BATCH}) batch resolves + ${list.companies} profiles; requests the emulator answered; paid: ${paidRequests.join(", ")}; all (with the CLI's free balance check before it spends): ${requests.join(", ")}; replay sent ${firstReplay.requests} (${firstReplay.profiles} profiles), ${replayFailed} non-200`,
      },
      {
        group: g,
        figure: "requests vs naive connector",
        value: Math.max(...requests),
        unit: "requests",
        baseline: naiveRequests,
        ratio: ratio(Math.max(...requests), naiveRequests),
        note: ext,
      },
      {
        group: g,
        figure: "wall time (median), ceiling 1,000, vs computed bound 2 RTT",
        value: seconds(wideMs),
        unit: "s",
        baseline: seconds(bound),
        ratio: ratio(wideMs, bound),
        target: "≤ 1.5",
        pass: wideMs <= 1.5 * bound,
        note: `bound = 2 round trips × (${L} + ${J}/2) ms; no rate-limited call in batch mode; CLI runs at --parallel 1000: ${runs(wide.map((c) => c.ms))} s; 1-min load average before the rounds: ${r2(load)} on ${cpus().length} cores; a wave of n parallel answers waits for the slowest jitter, E = L + J·n/(n+1) (≈ 0.29 s for 2 waves of 8 and 700)`,
      },
      {
        group: g,
        figure: `wall time (median) at the default ceiling (${DEFAULT_PARALLEL}) vs replay of the minimal requests at the same ceiling`,
        value: seconds(coreMs),
        unit: "s",
        baseline: seconds(replayMs),
        ratio: ratio(coreMs, replayMs),
        target: "≤ 1.5",
        pass: coreMs <= 1.5 * replayMs,
        note: `replay = the same ${plan.length} batch resolves, then the same ${firstReplay.profiles} profile GETs, plain fetch, at most ${DEFAULT_PARALLEL} requests and ${DEFAULT_PARALLEL} credits in flight (the driver's rule, without its adaptive start); CLI runs: ${runs(cores.map((c) => c.ms))} s; replay runs: ${runs(replays.map((r) => r.ms))} s`,
      },
      {
        group: g,
        figure: "wall time (median) at ceiling 1,000 vs the unlimited replay",
        value: seconds(wideMs),
        unit: "s",
        baseline: seconds(wideReplayMs),
        ratio: ratio(wideMs, wideReplayMs),
        // Issue 43's target; the driver keeps paid credits in flight to 7 % of the job's estimate (what a kill -9
        // may lose), which for this 1,000-row job is 58 where the replay has 700 out at once.
        target: "≤ 1.5",
        pass: wideMs <= 1.5 * wideReplayMs,
        note: `all parallel per round trip; CLI runs: ${runs(wide.map((c) => c.ms))} s; replay runs: ${runs(wideReplays.map((r) => r.ms))} s; this target and the kill -9 one (≤ 8 % at --parallel 1000) cannot both hold: a kill in the middle loses the paid answers in flight, ≤ 8 % of ${minCredits} credits is ${Math.floor(0.08 * minCredits)} in flight, so ${firstReplay.profiles} profiles take ≥ ${Math.ceil(firstReplay.profiles / Math.floor(0.08 * minCredits))} round trips where the unlimited replay takes 1; the driver keeps the credit rule (next figure)`,
      },
      {
        group: g,
        figure: `wall time (median) at ceiling 1,000 vs a replay under the same credits in flight (${riskCap})`,
        value: seconds(wideMs),
        unit: "s",
        baseline: seconds(cappedReplayMs),
        ratio: ratio(wideMs, cappedReplayMs),
        target: "≤ 1.5",
        pass: wideMs <= 1.5 * cappedReplayMs,
        note: `the replay: at most 1,000 requests and ${riskCap} paid credits in flight (node/driver.ts riskCredits: 7 % of the estimate ${estimate}, what keeps a kill -9 under 8 %), no adaptive start; replay runs: ${runs(cappedReplays.map((r) => r.ms))} s`,
      },
      {
        group: g,
        figure: "measured unlimited replay vs computed bound 2 RTT",
        value: seconds(wideReplayMs),
        unit: "s",
        baseline: seconds(bound),
        ratio: ratio(wideReplayMs, bound),
        note: "informational: what the emulator's CPU per request, loopback HTTP and the slowest jitter of a parallel wave add to 2 RTT for any client",
      },
      {
        group: g,
        figure: "CPU per run (median): client / emulator server, CLI",
        value: `${cpu.coreClient} / ${cpu.coreServer ?? "?"}`,
        unit: "ms",
        baseline: `${cpu.replayClient} / ${cpu.replayServer ?? "?"}`,
        note: "informational: baseline = the same for the replay; client = this process (process.cpuUsage), server = the emulator process (/proc/<pid>/stat); both share 2 cores with whatever else runs",
      },
      {
        group: g,
        figure: "client CPU per run (median), CLI vs replay",
        value: cpu.coreClient ?? "?",
        unit: "ms",
        baseline: cpu.replayClient ?? "?",
        ratio: cpu.coreClient !== null && cpu.replayClient ? ratio(cpu.coreClient, cpu.replayClient) : undefined,
        target: "≤ 1.2",
        pass: cpu.coreClient !== null && cpu.replayClient !== null && cpu.coreClient <= 1.2 * cpu.replayClient,
        note: `the replay sends with plain fetch, as the issue's baseline; the CLI with node:http (node/send-http.ts); runs at the default ceiling: CLI ${cores.map((c) => Math.round(c.clientCpuMs)).join(", ")} ms, replay ${replays.map((r) => Math.round(r.clientCpuMs)).join(", ")} ms`,
      },
      {
        group: g,
        figure: "client CPU per run (median), CLI vs the replay on the CLI's transport (node:http)",
        value: cpu.coreClient ?? "?",
        unit: "ms",
        baseline: cpu.nodeReplayClient ?? "?",
        ratio:
          cpu.coreClient !== null && cpu.nodeReplayClient ? ratio(cpu.coreClient, cpu.nodeReplayClient) : undefined,
        note: `informational: what the CLI's own work (matching, checking answers, journals, rows, files) adds above sending the same requests the same way; replay runs ${nodeReplays.map((r) => Math.round(r.clientCpuMs)).join(", ")} ms, ${nodeReplays.reduce((n, r) => n + r.failed, 0)} non-200`,
      },
      {
        group: g,
        figure: `first (cold) run of the process, other list, vs warm runs (median) at the default ceiling (${DEFAULT_PARALLEL})`,
        value: seconds(cold.ms),
        unit: "s",
        baseline: seconds(coreMs),
        ratio: ratio(cold.ms, coreMs),
        // Issue 43's line "first (cold) run of the process, other list: ≤ 1 s more than a warm run".
        target: "≤ warm + 1 s",
        pass: cold.ms <= coreMs + 1000,
        note: `the untimed warm-up (JIT, tsx compile) on its own list of ${warm.rows.length} rows (${cold.credits} credits, ${cold.requests} requests; warm runs ${requests.join(", ")} requests), before the timed rounds; against the computed bound 2 RTT (${seconds(bound)} s) it is ${ratio(cold.ms, bound)}`,
      },
      {
        group: g,
        figure: "wall time (median) vs naive connector",
        value: seconds(coreMs),
        unit: "s",
        baseline: seconds(naiveMs),
        ratio: ratio(coreMs, naiveMs),
        target: "≤ 0.1 (10× faster)",
        pass: coreMs * 10 <= naiveMs,
        note: ext,
      },
    );

    // ---- 2. the same enrichment again: the CLI on the same file beside its earlier output (the last timed run's).
    log("enrich: the same 1,000 rows again …");
    const last = itemAt(cores, cores.length - 1, "timed core run");
    const again = await coreRun(emu, dir, `bench-1000-${cores.length - 1}`, input, { key: last.key });
    out.push(
      {
        group: "2 the same again (CLI, beside its output)",
        figure: "credits",
        value: again.credits,
        unit: "credits",
        baseline: last.credits,
        ratio: ratio(again.credits, last.credits),
        target: "= 0",
        pass: again.credits === 0,
      },
      {
        group: "2 the same again (CLI, beside its output)",
        figure: "paid requests",
        value: again.paidRequests,
        unit: "requests",
        baseline: last.paidRequests,
        ratio: ratio(again.paidRequests, last.paidRequests),
        target: "= 0",
        pass: again.paidRequests === 0,
        note: `all requests answered: ${again.requests}; wall time ${seconds(again.ms)} s; the earlier output's rows are kept (rerun new-or-failed)`,
      },
    );

    // ---- 3. financials: availability first vs asking blindly.
    const ids = list.rows
      .filter((r) => r.expectId)
      .map((r) => r.expectId!)
      .filter((v, i, a) => a.indexOf(v) === i)
      .slice(0, FINANCIALS_COMPANIES);
    await emu.resetRateLimits();
    log(`enrich: financials for ${ids.length} companies …`);
    const fin = await coreRun(emu, dir, "bench-fin", {
      header: ["ID"],
      rows: ids.map((id) => [id]),
      fields: FIN_FIELDS,
    });
    const withFin = fin.results.filter((r) => r?.outcome === "matched" && r.values[1] !== "").length;
    const blindKey = await emu.createKey(1_000_000);
    const bb = await ledgerOf(emu, blindKey);
    const t = performance.now();
    const headers = { Authorization: `Bearer ${blindKey}` };
    const blindAnswers = await Promise.all(
      ids.map((id) =>
        fetch(`${emu.url}/v2/companies/${id}?include=financials`, { headers }).then(async (r) => ({
          status: r.status,
          body: await r.text(),
        })),
      ),
    );
    const blindMs = performance.now() - t;
    const blind = spent(bb, await ledgerOf(emu, blindKey));
    const blindWithFin = blindAnswers.filter(
      (a) => a.status === 200 && (JSON.parse(a.body).financials ?? []).length > 0,
    ).length;
    const finMin = withFin * profileCost(["financials"]) + (ids.length - withFin) * profileCost([]);
    const av = DEFAULT_RATE_LIMITS.availability;
    const finBound = 3 * oneTrip + (Math.max(0, ids.length - av.capacity) / av.refillPerSecond) * 1000;
    out.push(
      {
        group: "3 financials (CLI, id column)",
        figure: `credits, availability first (${ids.length} companies)`,
        value: fin.credits,
        unit: "credits",
        baseline: blind.credits,
        ratio: ratio(fin.credits, blind.credits),
        target: "< blind",
        pass: fin.credits < blind.credits,
        note: `blind = profile?include=financials for each (5 credits); ${blindWithFin} of ${ids.length} have financials`,
      },
      {
        group: "3 financials (CLI, id column)",
        figure: "credits vs minimum with availability known",
        value: fin.credits,
        unit: "credits",
        baseline: finMin,
        ratio: ratio(fin.credits, finMin),
        target: "= minimum",
        pass: fin.credits === finMin,
        note: `minimum = ${withFin} × 5 + ${ids.length - withFin} × 1; availability calls sent: ${fin.availabilityRequests}`,
      },
      {
        group: "3 financials (CLI, id column)",
        figure: "credits saved",
        value: blind.credits - fin.credits,
        unit: "credits",
        baseline: blind.credits,
        ratio: ratio(blind.credits - fin.credits, blind.credits),
        note: `companies with financials found: core ${withFin}, blind ${blindWithFin}`,
        target: "same data",
        pass: withFin === blindWithFin,
      },
      {
        group: "3 financials (CLI, id column)",
        figure: "wall time vs rate-limit lower bound",
        value: seconds(fin.ms),
        unit: "s",
        baseline: seconds(finBound),
        ratio: ratio(fin.ms, finBound),
        note: `bound = 3 × ${oneTrip} ms + (${ids.length} − ${av.capacity}) availability calls / ${av.refillPerSecond} per s; blind took ${seconds(blindMs)} s`,
      },
    );
  } finally {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

if (process.argv[1] && /enrich\.bench\.ts$/.test(process.argv[1])) {
  runEnrichBench((s) => process.stderr.write(s + "\n")).then((rows) => console.table(rows));
}
