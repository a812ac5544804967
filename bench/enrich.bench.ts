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
 */
import { runAsync, type AsyncDriver } from "../shared/core/drivers.ts";
import { DEFAULT_FIELDS } from "../shared/enrich/fields.ts";
import { enrichRows } from "../shared/enrich/run.ts";
import type { EnrichRunResult } from "../shared/enrich/job.ts";
import { batchResolveCost, profileCost } from "../shared/api/endpoints.ts";
import { MAX_BATCH } from "../shared/api/schemas.ts";
import { nodeDriver } from "../cli/driver.ts";
import { CHUNK_ROWS } from "../cli/enrich.ts";
import type { Emulator } from "../emulator/index.ts";
import { benchList, type BenchList } from "./data.ts";
import { cliContext, counting, LATENCY, loopbackEmulator, r2, ratio, seconds, type Figure } from "./lib.ts";

/** Rows the naive baseline really sends; the rest is extrapolated (it is ~300 s for 1,000 rows). */
export const NAIVE_SAMPLE = Number(process.env.BENCH_NAIVE_SAMPLE ?? 40);
/** Companies in the financials benchmark (availability is rate-limited: 5/s after a burst of 20). */
export const FINANCIALS_COMPANIES = Number(process.env.BENCH_FINANCIALS ?? 60);

const FIN_FIELDS = ["financialYear", "revenue", "profit", "equity"];

interface Spent { credits: number; requests: number; paidRequests: number; ms: number }

function ledgerSpent(emu: Emulator, key: string, before: ReturnType<Emulator["ledger"]>): { credits: number; okRequests: number } {
  const now = emu.ledger(key);
  let ok = 0;
  for (const [k, n] of Object.entries(now.requests)) ok += n - (before.requests[k] ?? 0);
  return { credits: now.total - before.total, okRequests: ok };
}

async function coreRun(emu: Emulator, baseUrl: string, key: string, driver: AsyncDriver & ReturnType<typeof counting>, job: string, input: Parameters<typeof enrichRows>[2]): Promise<Spent & { result: EnrichRunResult; availabilityRequests: number }> {
  driver.reset();
  const before = emu.ledger(key);
  const ctx = cliContext(baseUrl, key);
  const t = performance.now();
  const result = await runAsync(enrichRows(ctx, job, input), driver);
  const ms = performance.now() - t;
  const { credits } = ledgerSpent(emu, key, before);
  return { credits, requests: driver.counts.requests, paidRequests: driver.counts.paidRequests, availabilityRequests: driver.counts.byEndpoint.availability ?? 0, ms, result };
}

/** Rows whose outcome is what the list says: the company's id, or not found. */
function correctRows(list: BenchList, result: EnrichRunResult): number {
  let ok = 0;
  list.rows.forEach((row, i) => {
    const r = result.results[i];
    if (!r) return;
    if (row.expectId === null ? r.outcome === "not_found" : r.outcome === "matched" && r.id === row.expectId) ok++;
  });
  return ok;
}

/**
 * What a generic API-connector script does: row after row, the free single
 * resolve, then the profile of the match; no batching, no cache, no dedupe;
 * a 429 is waited out by its Retry-After and asked again.
 */
async function naiveRun(baseUrl: string, key: string, names: string[]): Promise<{ ms: number; requests: number; paidRequests: number; matched: number }> {
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

export async function runEnrichBench(log: (s: string) => void = () => {}): Promise<Figure[]> {
  const out: Figure[] = [];
  const lo = await loopbackEmulator();
  const { emu, server } = lo;
  const L = LATENCY.latencyMs;
  const J = LATENCY.jitterMs;
  const oneTrip = L + J / 2;
  try {
    const list = benchList(emu);
    const rows = list.rows.map((r) => [r.name]);
    const input = { rows, mapping: { name: 0 }, fields: [...DEFAULT_FIELDS], options: { chunkSize: CHUNK_ROWS } };

    // ---- 1. 1,000 rows, base profile fields: the core.
    const coreKey = emu.createKey(1_000_000);
    const driver = counting(nodeDriver());
    log("enrich: core, 1,000 rows …");
    const core = await coreRun(emu, server.url, coreKey, driver, "bench-1000", input);
    const correct = correctRows(list, core.result);
    const minCredits = batchResolveCost(list.distinctQueries) + list.companies * profileCost([]);
    const minRequests = Math.ceil(list.distinctQueries / MAX_BATCH) + list.companies;
    const bound = 2 * oneTrip;

    // ---- 1. the naive baseline, on a sample, extrapolated.
    const naiveKey = emu.createKey(1_000_000);
    const sample = list.rows.slice(0, NAIVE_SAMPLE).map((r) => r.name);
    log(`enrich: naive baseline, ${sample.length} rows …`);
    const nb = emu.ledger(naiveKey);
    const naive = await naiveRun(server.url, naiveKey, sample);
    const naiveSpent = ledgerSpent(emu, naiveKey, nb);
    const scale = list.rows.length / sample.length;
    const naiveMs = naive.ms * scale;
    const naiveCredits = Math.round(naiveSpent.credits * scale);
    const naiveRequests = Math.round(naive.requests * scale);
    const ext = `naive: ${sample.length} rows measured, ×${r2(scale)} extrapolated`;

    out.push(
      { group: "1 enrich 1,000 rows", figure: "rows correct (matched to the right id / not found)", value: correct, unit: "rows", baseline: list.rows.length, ratio: ratio(correct, list.rows.length), target: "= all", pass: correct === list.rows.length },
      { group: "1 enrich 1,000 rows", figure: "credits vs theoretical minimum", value: core.credits, unit: "credits", baseline: minCredits, ratio: ratio(core.credits, minCredits), target: "= minimum", pass: core.credits === minCredits,
        note: `minimum = ceil(${list.distinctQueries} distinct queries/10) + ${list.companies} profiles` },
      { group: "1 enrich 1,000 rows", figure: "credits vs naive connector", value: core.credits, unit: "credits", baseline: naiveCredits, ratio: ratio(core.credits, naiveCredits), note: ext },
      { group: "1 enrich 1,000 rows", figure: "requests vs minimum", value: core.requests, unit: "requests", baseline: minRequests, ratio: ratio(core.requests, minRequests),
        note: `minimum = ceil(${list.distinctQueries}/${MAX_BATCH}) batch resolves + ${list.companies} profiles` },
      { group: "1 enrich 1,000 rows", figure: "requests vs naive connector", value: core.requests, unit: "requests", baseline: naiveRequests, ratio: ratio(core.requests, naiveRequests), note: ext },
      { group: "1 enrich 1,000 rows", figure: "wall time vs rate-limit lower bound", value: seconds(core.ms), unit: "s", baseline: seconds(bound), ratio: ratio(core.ms, bound), target: "≤ 1.5", pass: core.ms <= 1.5 * bound,
        note: `bound = 2 round trips × (${L} + ${J}/2) ms; no rate-limited call needed in batch mode; core chunks ${CHUNK_ROWS} rows (CLI)` },
      { group: "1 enrich 1,000 rows", figure: "wall time vs naive connector", value: seconds(core.ms), unit: "s", baseline: seconds(naiveMs), ratio: ratio(core.ms, naiveMs), target: "≤ 0.1 (10× faster)", pass: core.ms * 10 <= naiveMs, note: ext },
    );

    // Informational: the same list as one chunk (what the CLI's 500-row chunks cost in time).
    const oneKey = emu.createKey(1_000_000);
    log("enrich: 1,000 rows as one chunk …");
    const one = await coreRun(emu, server.url, oneKey, counting(nodeDriver()), "bench-1000-one", { ...input, options: { chunkSize: list.rows.length } });
    out.push({ group: "1 enrich 1,000 rows", figure: "wall time, whole list as one chunk", value: seconds(one.ms), unit: "s", baseline: seconds(bound), ratio: ratio(one.ms, bound),
      note: `informational: ${one.credits} credits, ${one.requests} requests` });

    // ---- 2. the same enrichment again (new job, same session cache).
    log("enrich: the same 1,000 rows again …");
    const again = await coreRun(emu, server.url, coreKey, driver, "bench-1000-again", input);
    out.push(
      { group: "2 the same again", figure: "credits", value: again.credits, unit: "credits", baseline: core.credits, ratio: ratio(again.credits, core.credits), target: "= 0", pass: again.credits === 0 },
      { group: "2 the same again", figure: "paid requests", value: again.paidRequests, unit: "requests", baseline: core.paidRequests, ratio: ratio(again.paidRequests, core.paidRequests), target: "= 0", pass: again.paidRequests === 0,
        note: `all requests: ${again.requests}; wall time ${seconds(again.ms)} s` },
    );

    // ---- 3. financials: availability first vs asking blindly.
    const ids = list.rows.filter((r) => r.expectId).map((r) => r.expectId!).filter((v, i, a) => a.indexOf(v) === i).slice(0, FINANCIALS_COMPANIES);
    emu.resetRateLimits();
    const finKey = emu.createKey(1_000_000);
    log(`enrich: financials for ${ids.length} companies …`);
    const fin = await coreRun(emu, server.url, finKey, counting(nodeDriver()), "bench-fin", { rows: ids.map((id) => [id]), mapping: { id: 0 }, fields: FIN_FIELDS, options: { chunkSize: CHUNK_ROWS } });
    const withFin = fin.result.results.filter((r) => r?.outcome === "matched" && r.values[1] !== "").length;
    const blindKey = emu.createKey(1_000_000);
    const bb = emu.ledger(blindKey);
    const t = performance.now();
    const headers = { Authorization: `Bearer ${blindKey}` };
    const blindAnswers = await Promise.all(ids.map((id) => fetch(`${server.url}/v2/companies/${id}?include=financials`, { headers }).then(async (r) => ({ status: r.status, body: await r.text() }))));
    const blindMs = performance.now() - t;
    const blind = ledgerSpent(emu, blindKey, bb);
    const blindWithFin = blindAnswers.filter((a) => a.status === 200 && (JSON.parse(a.body).financials ?? []).length > 0).length;
    const finMin = withFin * profileCost(["financials"]) + (ids.length - withFin) * profileCost([]);
    const finBound = 3 * oneTrip + Math.max(0, ids.length - emu.rateLimits.availability.capacity) / emu.rateLimits.availability.refillPerSecond * 1000;
    out.push(
      { group: "3 financials", figure: `credits, availability first (${ids.length} companies)`, value: fin.credits, unit: "credits", baseline: blind.credits, ratio: ratio(fin.credits, blind.credits), target: "< blind", pass: fin.credits < blind.credits,
        note: `blind = profile?include=financials for each (5 credits); ${blindWithFin} of ${ids.length} have financials` },
      { group: "3 financials", figure: "credits vs minimum with availability known", value: fin.credits, unit: "credits", baseline: finMin, ratio: ratio(fin.credits, finMin), target: "= minimum", pass: fin.credits === finMin,
        note: `minimum = ${withFin} × 5 + ${ids.length - withFin} × 1; availability calls sent: ${fin.availabilityRequests}` },
      { group: "3 financials", figure: "credits saved", value: blind.credits - fin.credits, unit: "credits", baseline: blind.credits, ratio: ratio(blind.credits - fin.credits, blind.credits), note: `companies with financials found: core ${withFin}, blind ${blindWithFin}`,
        target: "same data", pass: withFin === blindWithFin },
      { group: "3 financials", figure: "wall time vs rate-limit lower bound", value: seconds(fin.ms), unit: "s", baseline: seconds(finBound), ratio: ratio(fin.ms, finBound),
        note: `bound = 3 × ${oneTrip} ms + (${ids.length} − ${emu.rateLimits.availability.capacity}) availability calls / ${emu.rateLimits.availability.refillPerSecond} per s; blind took ${seconds(blindMs)} s` },
    );
  } finally {
    await lo.close();
  }
  return out;
}

if (process.argv[1] && /enrich\.bench\.ts$/.test(process.argv[1])) {
  runEnrichBench((s) => process.stderr.write(s + "\n")).then((rows) => console.table(rows));
}
