/**
 * The team server against the emulator, for tests and benchmarks: an
 * emulator served on 127.0.0.1 (port 0) with a key of its own, a database
 * (PGlite in a scratch directory, or a fresh PostgreSQL database made from
 * TEST_DATABASE_URL), and the server in this process or as child processes
 * (`bin/company-data.js server`), as an administrator starts it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { RateLimit } from "../../shared/api/index.ts";
import { createEmulator, type Emulator, type EmulatorOptions } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import type { DbTarget } from "../../server/db/db.ts";
import { openServerDb } from "../../server/cli.ts";
import { startTeamServer, type RunningTeamServer } from "../../server/http.ts";
import { jsonLogger } from "../../server/log.ts";
import { parseCacheDays } from "../../server/cache.ts";
import { createUpstream, type Upstream, type UpstreamOptions } from "../../server/upstream.ts";
import { databasePacer, type TeamPacer } from "../../server/pacing.ts";
import { createToken } from "../../server/auth/tokens.ts";
import type { Db } from "../../server/db/db.ts";
import type { OutboundPolicy } from "../../server/net/outbound.ts";
import { TEAM_SERVER_EXTENSIONS } from "../../server/extensions.ts";
import type { ServerExtension } from "../../server/routes.ts";

const BIN = fileURLToPath(new URL("../../bin/company-data.js", import.meta.url));

/** Rate limits high enough that a test never waits for a token. */
export const FAST_LIMITS = { capacity: 1_000_000, refillPerSecond: 1_000_000 };

/** The same, in the client's words: the server's team pacer need not wait for an emulator that never limits. */
const FAST_PACE = { burst: 1_000_000, perSecond: 1_000_000 };
export const FAST_PACING = { suggest: FAST_PACE, resolve: FAST_PACE, availability: FAST_PACE, account: FAST_PACE };

export interface TestDatabase {
  name: "pglite" | "postgres";
  target: DbTarget;
  /** DATABASE_URL for child processes (postgres), or the --data directory (pglite). */
  env: Record<string, string>;
  args: string[];
  drop(): Promise<void>;
}

/** A scratch PGlite directory. */
export function pgliteDatabase(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), "team-db-"));
  return {
    name: "pglite",
    target: { kind: "pglite", dir },
    env: {},
    args: ["--data", dir],
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh database on the PostgreSQL server of `baseUrl` (TEST_DATABASE_URL), dropped afterwards. */
export async function postgresDatabase(baseUrl: string): Promise<TestDatabase> {
  const name = `cds_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(baseUrl);
  u.pathname = "/" + name;
  const url = u.toString();
  return {
    name: "postgres",
    target: { kind: "postgres", url },
    env: { DATABASE_URL: url },
    args: [],
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export interface EmulatorWorld {
  emu: Emulator;
  api: RunningServer;
  key: string;
  /** Requests the emulator charged, by the X-Request-Id the server tagged them with. */
  charged: Map<string, number>;
}

/** The emulator on a free port, with a key of its own (1,000,000 credits) and a record of what it charged per request tag. */
export async function startEmulatorWorld(
  opts: { companies?: number; seed?: number; key?: string; emulator?: EmulatorOptions } = {},
): Promise<EmulatorWorld> {
  const emu = createEmulator({
    companies: opts.companies ?? 2000,
    seed: opts.seed ?? 5,
    rateLimits: { resolve: FAST_LIMITS, availability: FAST_LIMITS, account: FAST_LIMITS, suggest: FAST_LIMITS },
    ...opts.emulator,
  });
  const key = emu.accounts.create(1_000_000, opts.key);
  const charged = new Map<string, number>();
  const handle = emu.handle.bind(emu);
  // Wrap the emulator's handler: what it charged, per request tag (the ledger id the server sends).
  emu.handle = (req) => {
    const res = handle(req);
    const tag = Object.entries(req.headers).find(([k]) => k.toLowerCase() === "x-request-id")?.[1];
    const credits = Number(res.headers["x-credits-charged"] ?? 0);
    if (tag && res.status === 200 && !res.drop) charged.set(tag, (charged.get(tag) ?? 0) + credits);
    return res;
  };
  const api = await startServer(emu, { port: 0, host: "127.0.0.1" });
  return { emu, api, key, charged };
}

/** The emulator with `suggest` limited to `limit` (the other buckets quick), counting what it answered 429. */
export async function suggestLimitedWorld(
  limit: RateLimit,
  seed: number,
): Promise<{ world: EmulatorWorld; limited: () => number }> {
  const world = await startEmulatorWorld({
    companies: 300,
    seed,
    emulator: {
      faults: { latencyMs: 0, jitterMs: 0 },
      rateLimits: {
        resolve: FAST_LIMITS,
        availability: FAST_LIMITS,
        account: FAST_LIMITS,
        suggest: { capacity: limit.burst, refillPerSecond: limit.perSecond },
      },
    },
  });
  let n = 0;
  const handle = world.emu.handle.bind(world.emu);
  world.emu.handle = (req) => {
    const res = handle(req);
    if (res.status === 429) n++;
    return res;
  };
  return { world, limited: () => n };
}

export interface InProcessServer {
  server: RunningTeamServer;
  url: string;
  db: Db;
  logs: string[];
  token(user: string, budget?: number | null): Promise<string>;
  close(): Promise<void>;
}

/**
 * The server's way to the emulator world's API with the world's key: quick
 * pacing, no team pacer, unless `overrides` say otherwise (`rateLimits:
 * undefined` is the API's default limits).
 */
export function testUpstream(world: EmulatorWorld, overrides: Partial<UpstreamOptions> = {}): Upstream {
  return createUpstream({
    apiKey: world.key,
    baseUrl: world.api.url,
    timeoutMs: 8_000,
    maxPaceWaitMs: 10_000,
    rateLimits: FAST_PACING,
    ...overrides,
  });
}

/** The team's pacer on `db` for the world's API and key (server/pacing.ts), as `company-data server` sets it up. */
export const teamPacerOn = (db: Db, world: EmulatorWorld): TeamPacer => databasePacer(db, world.api.url, world.key);

export interface ServerOnDbOptions {
  allowOrigins?: string[];
  leaseMs?: number;
  process?: string;
  adminSocket?: string;
  /** Where webhooks may go (default: the server's strict policy, public addresses only). */
  outbound?: OutboundPolicy;
  /** The server's modules (default: the ones `company-data server` runs, server/extensions.ts). */
  extensions?: readonly ServerExtension[];
  /** Its way to the API (testUpstream's overrides). */
  upstream?: Partial<UpstreamOptions>;
}

/** The team server in this process on an open database `db` (several may share one); its log lines in `logs`. */
export async function startServerOnDb(
  world: EmulatorWorld,
  db: Db,
  opts: ServerOnDbOptions = {},
): Promise<{ server: RunningTeamServer; logs: string[] }> {
  const logs: string[] = [];
  const server = await startTeamServer({
    db,
    port: 0,
    host: "127.0.0.1",
    allowOrigins: opts.allowOrigins ?? [],
    ...(opts.outbound ? { outbound: opts.outbound } : {}),
    process: opts.process ?? `test:${process.pid}`,
    log: jsonLogger((l) => logs.push(l)),
    adminSocket: opts.adminSocket,
    leaseMs: opts.leaseMs ?? 10_000,
    cacheDays: parseCacheDays(undefined),
    extensions: opts.extensions ?? TEAM_SERVER_EXTENSIONS,
    upstream: testUpstream(world, opts.upstream),
  });
  return { server, logs };
}

/**
 * Until a server's start-up doctor has run (its `doctor` event in what `read`
 * answers, at most 60 s): its probes (free calls with the key) take rate
 * slots of their own, so a test's load comes after them.
 */
export async function doctorRan(read: () => string): Promise<void> {
  for (let i = 0; i < 600 && !read().includes('"event":"doctor"'); i++) await new Promise((r) => setTimeout(r, 100));
}

/** The team server in this process (quick to start; the database opened as `company-data server` opens it). */
export async function startInProcess(
  world: EmulatorWorld,
  database: TestDatabase,
  opts: Omit<ServerOnDbOptions, "adminSocket" | "upstream"> & {
    timeoutMs?: number;
    /** PGlite: open the admin channel in the data directory, as `company-data server` does. */
    adminChannel?: boolean;
    /** Wrap the database the server uses (a bench counts its round trips: server/db/counting.ts). */
    wrapDb?: (db: Db) => Db;
  } = {},
): Promise<InProcessServer> {
  const opened = await openServerDb(database.target);
  const db = opts.wrapDb ? opts.wrapDb(opened.db) : opened.db;
  const { server, logs } = await startServerOnDb(world, db, {
    ...opts,
    adminSocket:
      opts.adminChannel && database.target.kind === "pglite" ? join(database.target.dir, "admin.sock") : undefined,
    upstream: { timeoutMs: opts.timeoutMs ?? 8_000, teamPacer: teamPacerOn(db, world) },
  });
  return {
    server,
    url: server.url,
    db,
    logs,
    token: (user, budget) => createToken(db, user, budget),
    async close() {
      await server.close(5_000);
      await opened.close();
    },
  };
}

export interface TeamWorld {
  world: EmulatorWorld;
  database: TestDatabase;
  srv: InProcessServer;
  /** Stops the server and the emulator, and drops the database. */
  close(): Promise<void>;
}

/** The emulator world, a database from `makeDatabase` and a team server in this process on it. */
export async function startTeamWorld(
  makeDatabase: () => Promise<TestDatabase>,
  emulator: Parameters<typeof startEmulatorWorld>[0] = {},
  server: Parameters<typeof startInProcess>[2] = {},
): Promise<TeamWorld> {
  const world = await startEmulatorWorld(emulator);
  const database = await makeDatabase();
  const srv = await startInProcess(world, database, server);
  return {
    world,
    database,
    srv,
    async close() {
      await srv.close();
      await world.api.close();
      await database.drop();
    },
  };
}

/**
 * The database of `database` opened for two servers: on PGlite one handle for
 * both (PGlite serves one process), on PostgreSQL a pool each, as two
 * processes would have.
 */
export async function openForTwo(database: TestDatabase): Promise<{ one: Db; two: Db; close(): Promise<void> }> {
  const one = await openServerDb(database.target);
  const two = database.name === "postgres" ? await openServerDb(database.target) : one;
  return {
    one: one.db,
    two: two.db,
    async close() {
      if (two !== one) await two.close();
      await one.close();
    },
  };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

/** `node bin/company-data.js server --port 0 …` and its URL, read from its first log line. */
export async function startServerProcess(
  world: { api: RunningServer },
  database: TestDatabase,
  env: Record<string, string>,
  extraArgs: string[] = [],
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [BIN, "server", "--port", "0", ...database.args, ...extraArgs], {
    env: { ...process.env, COMPANY_DATA_BASE_URL: world.api.url, LANG: "de_DE.UTF-8", ...database.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err.slice(0, 500)}`)), 60_000);
    const failed = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${err.slice(0, 500)}`));
    };
    child.once("exit", failed);
    const look = () => {
      const m = /"event":"listening","url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.off("exit", failed);
        child.stdout.off("data", look);
        resolve(m[1]!);
      }
    };
    child.stdout.on("data", look);
  });
  return {
    child,
    url,
    stdout: () => out,
    stderr: () => err,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill("SIGTERM");
      }),
  };
}

/** `company-data server <args>` run to its end (token, budget, report commands). */
export function serverCommand(
  database: TestDatabase,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return companyDataCommand(["server", ...args, ...database.args], { ...database.env, ...env });
}

/** `company-data <args>` run to its end, with its output and its wall time; `nodeArgs` go to node before the program. */
export function companyDataCommand(
  args: string[],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], {
      env: { ...process.env, LANG: "de_DE.UTF-8", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}
