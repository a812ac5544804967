/**
 * The team server under load (issue 43, item 4): LOAD_REQUESTS requests at
 * once for answers the team has (LOAD_COMPANIES profiles bought first, asked
 * by LOAD_USERS users with a token each), through the server in this
 * process, on PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL. Each
 * request's time from its send to the end of its body; p50 and p99 against
 * the targets (0.5 s and 1.5 s); the database's statements during
 * the burst per request, counted at the adapter (server/db/counting.ts).
 * The load comes from a child process (bench/load-client.ts) over
 * keep-alive connections; the server's CPU is this process's.
 */
import { fork } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { countingDb, type CountingDb } from "../server/db/counting.ts";
import { uniqueCompanies } from "../test/support/lists.ts";
import {
  pgliteDatabase,
  postgresDatabase,
  startEmulatorWorld,
  startInProcess,
  type EmulatorWorld,
  type TestDatabase,
} from "../test/support/team-server.ts";
import { cpuProfile, median, r2, r3, type Figure } from "./lib.ts";

export const LOAD_REQUESTS = Number(process.env.BENCH_LOAD_REQUESTS ?? 2000);
const LOAD_COMPANIES = 200;
const LOAD_USERS = 10;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

const CLIENT = fileURLToPath(new URL("./load-client.ts", import.meta.url));
/** Keep-alive connections of the load generator (under the server's listen backlog of 511). */
const SOCKETS = 500;

interface Burst {
  /** Each request's ms, sorted. */
  ms: number[];
  failed: number;
  /** This process's CPU (the server's) from the job's sending to its answer: the child's start is not in it. */
  cpuMs: number;
  /** The load generator's CPU during the burst. */
  clientCpuMs: number;
}

/**
 * `paths[i]` with `tokens[i]`, all at once, from a child process (bench/load-client.ts), once it is up;
 * `profile`: a CPU profile of this process during the burst written there.
 */
async function burst(url: string, tokens: string[], paths: string[], profile?: string): Promise<Burst> {
  const child = fork(CLIENT, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  try {
    await once(child, "message"); // ready
    const answer = once(child, "message") as Promise<[{ ms: number[]; failed: number; cpuMs: number }]>;
    const stopProfile = await cpuProfile(profile);
    const cpu0 = process.cpuUsage();
    child.send({ url, requests: paths.map((p, i) => [p, tokens[i]]), sockets: SOCKETS });
    const [{ ms, failed, cpuMs }] = await answer;
    const cpu = process.cpuUsage(cpu0);
    await stopProfile();
    return { ms: ms.sort((a, b) => a - b), failed, cpuMs: (cpu.user + cpu.system) / 1000, clientCpuMs: cpuMs };
  } finally {
    child.kill();
  }
}

/** The team buys each profile once, 20 at a time (what is measured is asking for them again). */
async function buyForTheTeam(url: string, paths: string[], token: string): Promise<void> {
  for (let i = 0; i < paths.length; i += 20)
    await Promise.all(
      paths.slice(i, i + 20).map(async (p) => {
        const res = await fetch(url + p, { headers: { Authorization: `Bearer ${token}` } });
        await res.text();
        if (res.status !== 200) throw new Error(`buying ${p}: HTTP ${res.status}`);
      }),
    );
}

/** The statements the burst sent most, from the adapter's counts before and after it. */
function mostStatements(counter: CountingDb, seen: Map<string, number>): string {
  return [...counter.byStatement]
    .map(([k, v]) => [k, v - (seen.get(k) ?? 0)] as const)
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([k, v]) => `${v}× ${k}`)
    .join("; ");
}

interface BurstResult extends Burst {
  trips: number;
  most: string;
}

/** Bursts measured per database; the figures are their medians (one burst's p50 moved by a third between runs). */
const BURSTS = 5;

/** The figures of the measured bursts: the median of their p50s and of their p99s, the database round trips per request. */
function loadFigures(database: TestDatabase, bursts: BurstResult[]): Figure[] {
  const g = `server under load (${database.name})`;
  const p50s = bursts.map((r) => quantile(r.ms, 0.5) / 1000);
  const p99s = bursts.map((r) => quantile(r.ms, 0.99) / 1000);
  const p50 = median(p50s);
  const p99 = median(p99s);
  const failed = bursts.reduce((n, r) => n + r.failed, 0);
  const trips = bursts.reduce((n, r) => n + r.trips, 0);
  const cpuMs = median(bursts.map((r) => r.cpuMs));
  const each = bursts.map((r, i) => `${r2(p50s[i]!)}/${r2(p99s[i]!)}/${r2(r.ms[r.ms.length - 1]! / 1000)}`).join(", ");
  const note = `median of ${bursts.length} bursts, each ${LOAD_REQUESTS} GET /v2/companies/{id} at once after every in-memory keep expired (p50/p99/max s: ${each}); ${LOAD_COMPANIES} companies the team holds, ${LOAD_USERS} users; ${failed} not 200/hit; the server's CPU ${Math.round(cpuMs)} ms a burst, ${r2(cpuMs / LOAD_REQUESTS)} ms a request; the load generator (plain HTTP/1.1 over node:net) in a process of its own over ${SOCKETS} keep-alive connections, its CPU ${Math.round(median(bursts.map((r) => r.clientCpuMs)))} ms a burst`;
  const ok = failed === 0;
  return [
    {
      group: g,
      figure: `${LOAD_REQUESTS} concurrent cached requests: p50`,
      value: r3(p50),
      unit: "s",
      target: "≤ 0.5 s",
      pass: p50 <= 0.5 && ok,
      note,
    },
    {
      group: g,
      figure: `${LOAD_REQUESTS} concurrent cached requests: p99`,
      value: r3(p99),
      unit: "s",
      target: "≤ 1.5 s",
      pass: p99 <= 1.5 && ok,
    },
    {
      group: g,
      figure: "database round trips per request during the burst",
      value: r3(trips / (LOAD_REQUESTS * bursts.length)),
      unit: "statements",
      baseline: 4,
      note: `${trips} statements for ${bursts.length} × ${LOAD_REQUESTS} requests, counted at the adapter (most, last burst: ${bursts[bursts.length - 1]!.most}); baseline: token, gate, claim and hit record per request before issue 43`,
      pass: null,
    },
  ];
}

async function loadOn(world: EmulatorWorld, database: TestDatabase, log: (s: string) => void): Promise<Figure[]> {
  let counter: CountingDb | undefined;
  const srv = await startInProcess(world, database, { wrapDb: (db) => (counter = countingDb(db)) });
  try {
    const companies = uniqueCompanies(world.emu, LOAD_COMPANIES, 13);
    const tokens = await Promise.all(Array.from({ length: LOAD_USERS }, (_, i) => srv.token(`load${i}`)));
    const paths = companies.map((c) => `/v2/companies/${c.id}`);
    log(`server: buying ${paths.length} profiles for the team (${database.name}) …`);
    await buyForTheTeam(srv.url, paths, tokens[0]!);
    const ask = Array.from({ length: LOAD_REQUESTS }, (_, i) => paths[i % paths.length]!);
    const askTokens = ask.map((_, i) => tokens[i % tokens.length]!);
    // A small burst first (the JIT; its connections end with its child); then the one measured, on new connections.
    const warm = await burst(srv.url, askTokens.slice(0, 200), ask.slice(0, 200));
    log(`server: warm-up burst: ${warm.failed} not hits`);
    // BENCH_LOAD_PROFILE=f: the first burst's CPU profile of this process (the server's), one file per database (f.pglite, f.postgres).
    const profile = process.env.BENCH_LOAD_PROFILE;
    const bursts: BurstResult[] = [];
    for (let i = 0; i < BURSTS; i++) {
      await new Promise((r) => setTimeout(r, 1100)); // past every in-memory keep: each burst starts cold
      log(`server: ${LOAD_REQUESTS} requests at once (${database.name}), burst ${i + 1} of ${BURSTS} …`);
      const before = counter!.roundTrips;
      const seen = new Map(counter!.byStatement);
      const measured = await burst(
        srv.url,
        askTokens,
        ask,
        profile && i === 0 ? `${profile}.${database.name}` : undefined,
      );
      bursts.push({ ...measured, trips: counter!.roundTrips - before, most: mostStatements(counter!, seen) });
    }
    return loadFigures(database, bursts);
  } finally {
    await srv.close();
  }
}

export async function runServerLoadBench(log: (s: string) => void): Promise<Figure[]> {
  const world = await startEmulatorWorld({ companies: 5000, seed: 21 });
  const out: Figure[] = [];
  try {
    const databases: (() => Promise<TestDatabase>)[] = [async () => pgliteDatabase()];
    const pgUrl = process.env.TEST_DATABASE_URL;
    if (pgUrl) databases.push(() => postgresDatabase(pgUrl));
    else log("server: TEST_DATABASE_URL not set: the PostgreSQL half of the load figure is skipped");
    for (const open of databases) {
      const database = await open();
      try {
        out.push(...(await loadOn(world, database, log)));
      } finally {
        await database.drop();
      }
    }
  } finally {
    await world.api.close();
  }
  return out;
}

if (process.argv[1] && /server-load\.ts$/.test(process.argv[1])) {
  runServerLoadBench((s) => process.stderr.write(s + "\n")).then((rows) => console.table(rows));
}
