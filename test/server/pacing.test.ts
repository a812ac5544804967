/**
 * One pacer for the team (issue 23): every server on one database draws the
 * API's free-endpoint slots from the database (server/pacing.ts), so two
 * servers together stay within the key's rate limit. Two servers in this
 * process on one database (PGlite's handle shared, as PGlite serves one
 * process; PostgreSQL with a pool each), and on PostgreSQL two server
 * processes, fire suggest requests at an emulator with the same limit: the
 * emulator answers none of them 429. The same load without the shared
 * pacer (each server pacing alone) earns 429s, so the test can fail.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RateLimit } from "../../shared/api/index.ts";
import type { RunningTeamServer } from "../../server/http.ts";
import { teamLimit } from "../../server/pacing.ts";
import { createToken } from "../../server/auth/tokens.ts";
import type { Db } from "../../server/db/db.ts";
import { DEFAULT_RATE_LIMITS } from "../../shared/api/index.ts";
import {
  doctorRan,
  openForTwo,
  postgresDatabase,
  serverCommand,
  startServerOnDb,
  startServerProcess,
  suggestLimitedWorld,
  teamPacerOn,
  type EmulatorWorld,
} from "../support/team-server.ts";
import { BACKENDS, POSTGRES_URL } from "./backends.ts";

/** A low limit for suggest, the same at the emulator and in the servers' model of it. */
const LOW: RateLimit = { burst: 8, perSecond: 4 };
const PER_SERVER = 15;

/** A team server in this process on `db`, suggest limited to LOW in its model; `shared`: with the team's pacer. */
async function teamServer(world: EmulatorWorld, db: Db, name: string, shared: boolean): Promise<RunningTeamServer> {
  const { server, logs } = await startServerOnDb(world, db, {
    process: name,
    upstream: {
      timeoutMs: 20_000,
      maxPaceWaitMs: 60_000,
      rateLimits: { suggest: LOW },
      ...(shared ? { teamPacer: teamPacerOn(db, world) } : {}),
    },
  });
  await doctorRan(() => logs.join("\n"));
  return server;
}

/** `perServer` suggest requests at each server at once; their statuses (and Retry-After of each 429). */
async function fire(urls: string[], token: string, perServer: number): Promise<number[]> {
  return (await fireWithRetryAfter(urls, token, perServer)).map((a) => a.status);
}

async function fireWithRetryAfter(
  urls: string[],
  token: string,
  perServer: number,
): Promise<{ status: number; retryAfter: string | null }[]> {
  const prefixes = [
    "Bau",
    "Han",
    "Mül",
    "Sch",
    "Ber",
    "Kra",
    "Lin",
    "Wer",
    "Fri",
    "Hof",
    "Neu",
    "Alt",
    "Sud",
    "Nor",
    "Wes",
  ];
  return Promise.all(
    urls.flatMap((url, s) =>
      Array.from({ length: perServer }, (_, i) =>
        fetch(`${url}/v2/suggest/${encodeURIComponent(prefixes[(i + s) % prefixes.length]!)}`, {
          headers: { Authorization: `Bearer ${token}` },
        }).then(async (r) => (await r.text(), { status: r.status, retryAfter: r.headers.get("retry-after") })),
      ),
    ),
  );
}

describe.each(BACKENDS)("one pacer for the team on $name", (backend) => {
  let env: Awaited<ReturnType<typeof suggestLimitedWorld>>;
  beforeAll(async () => {
    env = await suggestLimitedWorld(LOW, 11);
  }, 60_000);
  afterAll(async () => env?.world.api.close());

  it("two servers on one database stay within the API's limit together; pacing alone, they do not", async () => {
    const database = await backend.make();
    const dbs = await openForTwo(database);
    const servers: RunningTeamServer[] = [];
    try {
      const token = await createToken(dbs.one, "pia");
      servers.push(await teamServer(env.world, dbs.one, "a", true), await teamServer(env.world, dbs.two, "b", true));
      const t0 = Date.now();
      const statuses = await fire(
        servers.map((s) => s.url),
        token,
        PER_SERVER,
      );
      const ms = Date.now() - t0;
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(env.limited()).toBe(0);
      // Paced, not lucky: 30 requests at the team's rate after its burst take about 7 s.
      const team = teamLimit(LOW);
      expect(ms).toBeGreaterThan(((2 * PER_SERVER - team.burst) / team.perSecond) * 1000 * 0.9);
      await Promise.all(servers.splice(0).map((s) => s.close(5_000)));

      // The control: the same load with each server pacing alone (the per-process pacer only).
      await new Promise((r) => setTimeout(r, (LOW.burst / LOW.perSecond) * 1000 + 500)); // the emulator's bucket refills
      servers.push(
        await teamServer(env.world, dbs.one, "a2", false),
        await teamServer(env.world, dbs.two, "b2", false),
      );
      const alone = await fire(
        servers.map((s) => s.url),
        token,
        PER_SERVER,
      );
      expect(alone.filter((s) => s !== 200)).toEqual([]); // the API's 429s are waited for …
      expect(env.limited()).toBeGreaterThan(0); // … but the key went over its limit
    } finally {
      await Promise.all(servers.map((s) => s.close(5_000)));
      await dbs.close();
      await database.drop();
    }
  }, 180_000);
});

describe.skipIf(!POSTGRES_URL)("one pacer for two server processes on one PostgreSQL", () => {
  it("two processes with the API's default limits stay within them together", async () => {
    const limit = DEFAULT_RATE_LIMITS.suggest;
    const { world, limited } = await suggestLimitedWorld(limit, 11);
    const database = await postgresDatabase(POSTGRES_URL!);
    const procs: Awaited<ReturnType<typeof startServerProcess>>[] = [];
    try {
      const made = await serverCommand(database, ["token", "create", "--user", "ole"]);
      const token = made.stdout.trim().split("\n").at(-1)!;
      for (let i = 0; i < 2; i++)
        procs.push(await startServerProcess(world, database, { COMPANY_DATA_API_KEY: world.key }));
      for (const p of procs) await doctorRan(p.stdout);
      // Twice the burst from each process at once: alone, each would send its burst at once, together twice the limit.
      const answers = await fireWithRetryAfter(
        procs.map((p) => p.url),
        token,
        2 * limit.burst,
      );
      const statuses = answers.map((a) => a.status);
      // The API (emulator) answered none 429. The load is more than the team's slots within the servers' longest
      // wait (10 s, server/cli.ts): 4 × 30 requests at once, slots for the team's burst (20) plus 10 s at 9/s (90),
      // so about 10 are refused by the servers themselves at once, unsent, with a Retry-After: by design, not
      // lost (the doctor's probes use other buckets). At most that many, and each with its Retry-After.
      const team = teamLimit(limit);
      const served = team.burst + Math.floor((10_000 / 1000) * team.perSecond);
      const refused = answers.filter((a) => a.status === 429);
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      expect(refused.length).toBeLessThanOrEqual(Math.max(0, statuses.length - served) + 2);
      for (const r of refused) expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(limit.burst);
      expect(limited()).toBe(0);
      // And on PostgreSQL too, SIGTERM ends each process by itself (its pool closed), code 0, without the backstop.
      for (const p of procs) {
        expect(await p.stop()).toBe(0);
        expect(p.stdout()).not.toContain("stopped.held");
      }
    } finally {
      for (const p of procs) await p.stop();
      await world.api.close();
      await database.drop();
    }
  }, 240_000);
});
