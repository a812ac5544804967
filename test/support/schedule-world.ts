/**
 * Portfolio schedules on a team server for tests: the server's clock on the
 * emulator's days, the emulator and a server in this process with the
 * schedule loop configured, the scheduler's view of a server (to run due
 * schedules now) and waiting for the loop's runs.
 */
import { parseCacheDays } from "../../server/cache.ts";
import { silentLogger, type Logger } from "../../server/log.ts";
import type { OutboundPolicy } from "../../server/net/outbound.ts";
import { answerFor, type PurchaseContext } from "../../server/purchase.ts";
import type { ServiceContext } from "../../server/routes.ts";
import type { Db } from "../../server/db/db.ts";
import { setScheduleConfig, type ScheduleConfig } from "../../server/schedules/config.ts";
import {
  pgliteDatabase,
  startEmulatorWorld,
  startInProcess,
  testUpstream,
  type EmulatorWorld,
  type InProcessServer,
  type TestDatabase,
} from "./team-server.ts";

/** The emulator's first day in a schedule world. */
export const SCHEDULE_START = "2026-03-02";

/** The server's clock on the emulator's days: each day at 08:00 UTC plus the real time since the day began. */
export interface EmulatorDays {
  now(): number;
  /** Move the emulator's clock (and with it the server's) by whole days. */
  advance(days: number): void;
}

export function emulatorDays(world: EmulatorWorld): EmulatorDays {
  let realAtDayStart = Date.now();
  return {
    now: () => Date.parse(`${world.emu.clock.today()}T08:00:00Z`) + (Date.now() - realAtDayStart),
    advance(days) {
      world.emu.clock.advance(days);
      realAtDayStart = Date.now();
    },
  };
}

export interface ScheduleWorld {
  world: EmulatorWorld;
  database: TestDatabase;
  srv: InProcessServer;
  /** A personal token of the world's user. */
  token: string;
  days: EmulatorDays;
  /** The schedule configuration set for the server's loop. */
  config: ScheduleConfig;
  /** Stops the server and the emulator, gives the schedule configuration back to the environment, drops the database. */
  close(): Promise<void>;
}

/**
 * The emulator from 2 March 2026 (2,000 companies) with `key`, the schedule
 * loop on its days (a tick every 150 ms unless `schedule` says otherwise, no
 * mailer), a team server in this process on a database from `makeDatabase`
 * (a scratch PGlite unless told), and a token for `user`.
 */
export async function startScheduleWorld(opts: {
  seed: number;
  key: string;
  user: string;
  makeDatabase?: () => Promise<TestDatabase>;
  companies?: number;
  schedule?: Partial<ScheduleConfig>;
  outbound?: OutboundPolicy;
}): Promise<ScheduleWorld> {
  const world = await startEmulatorWorld({
    companies: opts.companies ?? 2000,
    seed: opts.seed,
    key: opts.key,
    emulator: { startDate: SCHEDULE_START },
  });
  const days = emulatorDays(world);
  const config = {
    now: days.now,
    tickMs: 150,
    leaseMs: 60_000,
    webhookTimeoutMs: 5_000,
    mailer: undefined,
    ...opts.schedule,
  };
  setScheduleConfig(config);
  const database = opts.makeDatabase ? await opts.makeDatabase() : pgliteDatabase();
  let srv: InProcessServer;
  try {
    srv = await startInProcess(world, database, opts.outbound ? { outbound: opts.outbound } : {});
  } catch (e) {
    setScheduleConfig(undefined);
    await world.api.close();
    await database.drop();
    throw e;
  }
  const token = await srv.token(opts.user);
  return {
    world,
    database,
    srv,
    token,
    days,
    config,
    async close() {
      await srv.close();
      setScheduleConfig(undefined);
      await world.api.close();
      await database.drop();
    },
  };
}

/** Until the server's loop has finished `n` runs of schedule `name` (polling, at most about 20 s); its runs. */
export async function runsDone(
  srv: { url: string },
  token: string,
  name: string,
  n: number,
): Promise<{ id: number; status: string }[]> {
  for (let k = 0; k < 400; k++) {
    const res = await fetch(`${srv.url}/schedules/${encodeURIComponent(name)}/runs?after=0`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as { runs?: { id: number; status: string }[] };
    if ((body.runs?.length ?? 0) >= n) return body.runs!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the server's loop did not run ${name} ${n} times`);
}

/** The scheduler's view of a server on `db` (server/routes.ts ServiceContext): how tests run due schedules now. */
export function schedulerService(
  world: EmulatorWorld,
  db: Db,
  process: string,
  opts: { log?: Logger; outbound?: OutboundPolicy } = {},
): ServiceContext {
  const log = opts.log ?? silentLogger;
  const purchase: PurchaseContext = {
    db,
    log,
    process,
    leaseMs: 10_000,
    cacheDays: parseCacheDays(undefined),
    upstream: testUpstream(world),
  };
  return {
    db,
    log,
    process,
    call: (user, spec, lang, o) => answerFor(purchase, user, spec, lang, o),
    operate: (op) => purchase.upstream.operate(op),
    ...(opts.outbound ? { outbound: opts.outbound } : {}),
  };
}
