/**
 * Fair share of the team's limits (issue 36, item 5): two servers on one
 * database (PGlite's handle shared in this process; PostgreSQL with a pool
 * each, as two processes have), the API's default limits at the emulator
 * and in the servers. User A sends 400 suggest requests at once to one
 * server; user B then sends 5, one after another, to the other: each of
 * B's answers 200 within 2 s, the emulator answers nothing 429 (the team
 * stays within the key's limit), and what A cannot have in time is A's own
 * 429 with a Retry-After. The control, the team's pacer without the users'
 * timelines (first come, first served), makes B wait behind A's flood: the
 * test can fail.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToken } from "../../server/auth/tokens.ts";
import type { Db } from "../../server/db/db.ts";
import type { RunningTeamServer } from "../../server/http.ts";
import type { TeamPacer } from "../../server/pacing.ts";
import { DEFAULT_RATE_LIMITS } from "../../shared/api/index.ts";
import {
  doctorRan,
  openForTwo,
  startServerOnDb,
  suggestLimitedWorld,
  teamPacerOn,
  type EmulatorWorld,
} from "../support/team-server.ts";
import { BACKENDS } from "./backends.ts";

const FLOOD = 400;
const B_REQUESTS = 5;
const B_LIMIT_MS = 2_000;

/** A team server in this process on `db`, with the API's default limits and `pacer` as the team's pacer. */
async function teamServer(world: EmulatorWorld, db: Db, name: string, pacer: TeamPacer): Promise<RunningTeamServer> {
  const { server, logs } = await startServerOnDb(world, db, {
    process: name,
    upstream: { timeoutMs: 20_000, maxPaceWaitMs: 10_000, rateLimits: undefined, teamPacer: pacer },
  });
  await doctorRan(() => logs.join("\n"));
  return server;
}

const suggest = (url: string, token: string, q: string) =>
  fetch(`${url}/v2/suggest/${encodeURIComponent(q)}`, { headers: { Authorization: `Bearer ${token}` } }).then(
    async (r) => (await r.text(), { status: r.status, retryAfter: r.headers.get("retry-after") }),
  );

interface Outcome {
  bMs: number[];
  bStatus: number[];
  a: { status: number; retryAfter: string | null }[];
}

/** A's flood at server 1, and while it runs B's requests one after another at server 2. */
async function floodAndProbe(urls: [string, string], tokenA: string, tokenB: string): Promise<Outcome> {
  // B starts once A's flood has taken all it can: A's first 429 says the wait allowed is booked full.
  let full: () => void = () => undefined;
  const booked = new Promise<void>((r) => (full = r));
  const flood = Promise.all(
    Array.from({ length: FLOOD }, (_, i) =>
      suggest(urls[0], tokenA, `Bau${i % 50}`).then((x) => {
        if (x.status === 429) full();
        return x;
      }),
    ),
  );
  await Promise.race([booked, flood]);
  const bMs: number[] = [];
  const bStatus: number[] = [];
  for (let i = 0; i < B_REQUESTS; i++) {
    const t0 = Date.now();
    const r = await suggest(urls[1], tokenB, ["Han", "Mül", "Sch", "Ber", "Kra"][i]!);
    bMs.push(Date.now() - t0);
    bStatus.push(r.status);
  }
  return { bMs, bStatus, a: await flood };
}

const summary = (o: Outcome) => {
  const a200 = o.a.filter((x) => x.status === 200).length;
  const a429 = o.a.filter((x) => x.status === 429).length;
  return `B: ${o.bStatus.map((s, i) => `${s} in ${o.bMs[i]} ms`).join(", ")}; A: ${a200} × 200, ${a429} × 429`;
};

describe.each(BACKENDS)("fair share of the team's pacer on $name", (backend) => {
  let env: Awaited<ReturnType<typeof suggestLimitedWorld>>;
  beforeAll(async () => {
    env = await suggestLimitedWorld(DEFAULT_RATE_LIMITS.suggest, 12);
  }, 60_000);
  afterAll(async () => env?.world.api.close());

  it("A floods one server with 400 requests; B's 5 on the other are answered 200 within 2 s each", async () => {
    const database = await backend.make();
    const { one, two, close } = await openForTwo(database);
    const servers: RunningTeamServer[] = [];
    try {
      const tokenA = await createToken(one, "flood-anna");
      const tokenB = await createToken(one, "quiet-ben");
      const pacer = (db: Db) => teamPacerOn(db, env.world);
      servers.push(
        await teamServer(env.world, one, "fair-1", pacer(one)),
        await teamServer(env.world, two, "fair-2", pacer(two)),
      );
      const fair = await floodAndProbe([servers[0]!.url, servers[1]!.url], tokenA, tokenB);
      console.log(`fair share (${backend.name}): ${summary(fair)}; the API answered ${env.limited()} × 429`);
      expect(fair.bStatus).toEqual(Array(B_REQUESTS).fill(200));
      for (const ms of fair.bMs) expect(ms).toBeLessThan(B_LIMIT_MS);
      expect(env.limited()).toBe(0);
      // A's flood: what A could not have within the wait is A's own 429, each with its Retry-After.
      expect(fair.a.filter((x) => x.status !== 200 && x.status !== 429)).toEqual([]);
      expect(fair.a.filter((x) => x.status === 200).length).toBeGreaterThan(DEFAULT_RATE_LIMITS.suggest.burst);
      for (const x of fair.a.filter((y) => y.status === 429)) expect(Number(x.retryAfter)).toBeGreaterThanOrEqual(1);
      await Promise.all(servers.splice(0).map((s) => s.close(5_000)));

      // The control: the team's slots first come, first served (no user's timeline): B waits behind A's flood.
      await new Promise((r) => setTimeout(r, 12_000)); // the team's timeline and the emulator's bucket run empty
      const fifo = (db: Db): TeamPacer => {
        const inner = pacer(db);
        return { take: (b, l, w) => inner.take(b, l, w) };
      };
      servers.push(
        await teamServer(env.world, one, "fifo-1", fifo(one)),
        await teamServer(env.world, two, "fifo-2", fifo(two)),
      );
      const unfair = await floodAndProbe([servers[0]!.url, servers[1]!.url], tokenA, tokenB);
      console.log(`first come, first served (${backend.name}): ${summary(unfair)}`);
      expect(unfair.bMs.some((ms, i) => ms >= B_LIMIT_MS || unfair.bStatus[i] !== 200)).toBe(true);
    } finally {
      await Promise.all(servers.map((s) => s.close(5_000)));
      await close();
      await database.drop();
    }
  }, 180_000);
});
