/**
 * What the benchmark modules share: the figure record the table and
 * results.json are made of, the emulator over loopback HTTP with latency and
 * a request counter around a driver. (The harnesses the tests share — lists,
 * the CLI's context, the Sheets driver, the CLI as a child process — are in
 * test/support/.)
 */
import { createEmulator, type Emulator } from "../emulator/index.ts";
import { startServer, type RunningServer } from "../emulator/server.ts";
import type { AsyncDriver } from "../shared/core/drivers.ts";
import type { HttpRequest } from "../shared/core/http.ts";
import { ENDPOINTS } from "../shared/api/endpoints.ts";
import type { RowResult } from "../shared/enrich/rows.ts";
import type { BenchList } from "../test/support/lists.ts";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { closeSharedConnections } from "../node/send-http.ts";

/** A figure of the bench: one shape for the bench and the results file (test/support/bench-results.ts). */
export type { Figure } from "../test/support/bench-results.ts";
import type { Figure } from "../test/support/bench-results.ts";

export const r2 = (x: number) => Math.round(x * 100) / 100;
export const r3 = (x: number) => Math.round(x * 1000) / 1000;
export const ratio = (a: number, b: number) => (b === 0 ? (a === 0 ? 1 : Infinity) : r3(a / b));

/** The emulator's added latency for the HTTP benchmarks: 100 ms plus up to 50 ms uniform jitter. */
export const LATENCY = { latencyMs: 100, jitterMs: 50 };

export const START_DATE = "2026-06-01";

export interface LoopbackEmulator {
  emu: Emulator;
  server: RunningServer;
  close(): Promise<void>;
}

/** The default emulator (20,000 companies, default rate limits) on 127.0.0.1, port 0. */
export async function loopbackEmulator(
  faults: { latencyMs: number; jitterMs: number } = LATENCY,
): Promise<LoopbackEmulator> {
  const emu = createEmulator({ startDate: START_DATE, faults });
  const server = await startServer(emu, { port: 0, host: "127.0.0.1" });
  return { emu, server, close: () => server.close() };
}

const PAID = new Set<string>(ENDPOINTS.filter((e) => e.billing === "credits").map((e) => e.id));

/** The catalogue's endpoint a request goes to, as the API client stamped it on the request (null for anything else). */
export function endpointOf(req: Pick<HttpRequest, "price">): { id: string; paid: boolean } | null {
  return req.price ? { id: req.price.endpoint, paid: PAID.has(req.price.endpoint) } : null;
}

export interface Counted {
  requests: number;
  paidRequests: number;
  freeRequests: number;
  byEndpoint: Record<string, number>;
}

/** Wrap a driver so every HTTP request it sends is counted (attempts, not calls: retries count). */
export function counting(driver: AsyncDriver): AsyncDriver & { counts: Counted; reset(): void } {
  const counts: Counted = { requests: 0, paidRequests: 0, freeRequests: 0, byEndpoint: {} };
  return {
    ...driver,
    counts,
    reset() {
      counts.requests = counts.paidRequests = counts.freeRequests = 0;
      counts.byEndpoint = {};
    },
    http: (reqs) => {
      for (const r of reqs) {
        const ep = endpointOf(r);
        counts.requests++;
        if (ep?.paid) counts.paidRequests++;
        else counts.freeRequests++;
        const k = ep?.id ?? "other";
        counts.byEndpoint[k] = (counts.byEndpoint[k] ?? 0) + 1;
      }
      return driver.http(reqs);
    },
  };
}

export const seconds = (ms: number) => r2(ms / 1000);

/** The median of a bench's samples (the mean of the middle two for an even count); no samples, no figure: an error. */
export function median(samples: readonly number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const upper = s[mid];
  const lower = s.length % 2 ? upper : s[mid - 1];
  if (upper === undefined || lower === undefined) throw new Error("bench: median of no samples");
  return (lower + upper) / 2;
}

/** Rows whose outcome is what the list says: the company's id, or not found. */
export function correctRows(list: BenchList, results: readonly (RowResult | null | undefined)[]): number {
  let ok = 0;
  list.rows.forEach((row, i) => {
    const r = results[i];
    if (!r) return;
    if (row.expectId === null ? r.outcome === "not_found" : r.outcome === "matched" && r.id === row.expectId) ok++;
  });
  return ok;
}

/** The figure "rows correct": every row of the list, or it fails. */
export function rowsCorrectFigure(
  group: string,
  figure: string,
  correct: number,
  total: number,
  note?: string,
): Figure {
  return {
    group,
    figure,
    value: correct,
    unit: "rows",
    baseline: total,
    ratio: ratio(correct, total),
    target: "= all",
    pass: correct === total,
    ...(note ? { note } : {}),
  };
}

/**
 * A CPU profile of this process from now until the function returned is called, written to `file`
 * (Chrome DevTools' .cpuprofile); no file: nothing. What `node --cpu-prof` gives, for one window of a bench
 * (BENCH_PROFILE_CLI, BENCH_LOAD_PROFILE).
 */
export async function cpuProfile(file: string | undefined): Promise<() => Promise<void>> {
  if (!file) return async () => {};
  const { Session } = await import("node:inspector/promises");
  const { writeFileSync } = await import("node:fs");
  const s = new Session();
  s.connect();
  await s.post("Profiler.enable");
  await s.post("Profiler.start");
  return async () => {
    const { profile } = await s.post("Profiler.stop");
    writeFileSync(file, JSON.stringify(profile));
    s.disconnect();
  };
}

/** Where Node's fetch keeps its connection pool (undici's global dispatcher: the key its setGlobalDispatcher uses). */
const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");

let collect: (() => void) | undefined;
/** A full garbage collection of this process (the way cli/memory.ts reaches V8's collector; the bench ships nowhere). */
function fullGc(): void {
  if (!collect) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
}

/**
 * Start the next timed run as a fresh process would: without the connections an earlier run left in fetch's
 * pool (the pool is replaced by a new one of its kind and the old one closed, its idle sockets ended) or in
 * the Node hosts' pool (node/send-http.ts: its connections closed), and
 * without the garbage earlier runs left on the heap (a full collection), both before the clock starts.
 * Without this, a run pays CPU for what the run before it left: the sockets of an unlimited replay (about
 * 700) timing out, or a full collection of the previous run's garbage; or it reuses warm connections for free.
 */
export async function freshStart(): Promise<void> {
  const slot = globalThis as unknown as Record<symbol, { close(): Promise<void> } | undefined>;
  const old = slot[GLOBAL_DISPATCHER];
  if (old) {
    slot[GLOBAL_DISPATCHER] = new (old.constructor as new () => { close(): Promise<void> })();
    await old.close();
  }
  // The Node hosts' own pool too (node/send-http.ts): the CLI's kept-alive connections of the run before.
  closeSharedConnections();
  await new Promise((r) => setImmediate(r));
  fullGc();
}
