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
import { cpuProfile, r2, r3, type Figure } from "./lib.ts";

export const LOAD_REQUESTS = Number(process.env.BENCH_LOAD_REQUESTS ?? 2000);
const LOAD_COMPANIES = 200;
const LOAD_USERS = 10;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

const CLIENT = fileURLToPath(new URL("./load-client.ts", import.meta.url));
/** Keep-alive connections of the load generator (under the server's listen backlog of 511). */
const SOCKETS = 500;

/** `paths[i]` with `tokens[i]`, all at once, from a child process (bench/load-client.ts); each request's ms, sorted. */
async function burst(url: string, tokens: string[], paths: string[]): Promise<{ ms: number[]; failed: number }> {
  const child = fork(CLIENT, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  try {
    const answer = once(child, "message") as Promise<[{ ms: number[]; failed: number }]>;
    child.send({ url, requests: paths.map((p, i) => [p, tokens[i]]), sockets: SOCKETS });
    const [{ ms, failed }] = await answer;
    return { ms: ms.sort((a, b) => a - b), failed };
  } finally {
    child.kill();
  }
}

async function loadOn(world: EmulatorWorld, database: TestDatabase, log: (s: string) => void): Promise<Figure[]> {
  let counter: CountingDb | undefined;
  const srv = await startInProcess(world, database, { wrapDb: (db) => (counter = countingDb(db)) });
  try {
    const companies = uniqueCompanies(world.emu, LOAD_COMPANIES, 13);
    const tokens = await Promise.all(Array.from({ length: LOAD_USERS }, (_, i) => srv.token(`load${i}`)));
    const paths = companies.map((c) => `/v2/companies/${c.id}`);
    log(`server: buying ${paths.length} profiles for the team (${database.name}) …`);
    // Bought once each, 20 at a time (the team's purchases are not what is measured).
    for (let i = 0; i < paths.length; i += 20)
      await Promise.all(
        paths.slice(i, i + 20).map(async (p) => {
          const res = await fetch(srv.url + p, { headers: { Authorization: `Bearer ${tokens[0]}` } });
          await res.text();
          if (res.status !== 200) throw new Error(`buying ${p}: HTTP ${res.status}`);
        }),
      );
    const ask = Array.from({ length: LOAD_REQUESTS }, (_, i) => paths[i % paths.length]!);
    const askTokens = ask.map((_, i) => tokens[i % tokens.length]!);
    // A small burst first (connections, JIT); then the one measured.
    const warm = await burst(srv.url, askTokens.slice(0, 200), ask.slice(0, 200));
    log(`server: warm-up burst: ${warm.failed} not hits`);
    const ev = new Map<string, number>();
    for (const l of srv.logs) {
      const m = /"event":"([^"]+)".*?"status":(\d+)?/.exec(l);
      const k = `${/"level":"(\w+)"/.exec(l)?.[1]} ${/"event":"([^"]+)"/.exec(l)?.[1]} ${/"status":(\d+)/.exec(l)?.[1] ?? ""} ${/"code":"(\w+)"/.exec(l)?.[1] ?? ""}`;
      void m;
      ev.set(k, (ev.get(k) ?? 0) + 1);
    }
    log(JSON.stringify([...ev]));
    await new Promise((r) => setTimeout(r, 1100)); // past every in-memory keep: the burst starts cold
    log(`server: ${LOAD_REQUESTS} requests at once (${database.name}) …`);
    const before = counter!.roundTrips;
    const seen = new Map(counter!.byStatement);
    const cpu0 = process.cpuUsage();
    const stopProfile = await cpuProfile(process.env.BENCH_LOAD_PROFILE);
    const { ms, failed } = await burst(srv.url, askTokens, ask);
    await stopProfile();
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const trips = counter!.roundTrips - before;
    const most = [...counter!.byStatement]
      .map(([k, v]) => [k, v - (seen.get(k) ?? 0)] as const)
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, v]) => `${v}× ${k}`)
      .join("; ");
    const g = `server under load (${database.name})`;
    const p50 = quantile(ms, 0.5) / 1000;
    const p99 = quantile(ms, 0.99) / 1000;
    const note = `${LOAD_REQUESTS} GET /v2/companies/{id} at once, ${LOAD_COMPANIES} companies the team holds, ${LOAD_USERS} users; max ${r2(ms[ms.length - 1]! / 1000)} s; ${failed} not 200/hit; the server's CPU ${Math.round(cpuMs)} ms, ${r2(cpuMs / LOAD_REQUESTS)} ms a request; the load generator in a process of its own over ${SOCKETS} keep-alive connections`;
    return [
      {
        group: g,
        figure: `${LOAD_REQUESTS} concurrent cached requests: p50`,
        value: r3(p50),
        unit: "s",
        target: "≤ 0.5 s",
        pass: p50 <= 0.5 && failed === 0,
        note,
      },
      {
        group: g,
        figure: `${LOAD_REQUESTS} concurrent cached requests: p99`,
        value: r3(p99),
        unit: "s",
        target: "≤ 1.5 s",
        pass: p99 <= 1.5 && failed === 0,
      },
      {
        group: g,
        figure: "database round trips per request during the burst",
        value: r3(trips / LOAD_REQUESTS),
        unit: "statements",
        baseline: 4,
        note: `${trips} statements for ${LOAD_REQUESTS} requests, counted at the adapter (most: ${most}); baseline: token, gate, claim and hit record per request before issue 43`,
        pass: null,
      },
    ];
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
