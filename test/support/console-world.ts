/**
 * The world the console's tests share: the emulator (its day starting today,
 * so the ledger's days fall in the server's month), the team server in this
 * process with the server's clock on the emulator's day (as the schedules'
 * tests move it), a loopback webhook receiver, an admin token and two users
 * who have spent through /v2 as a client would.
 */
import { outboundPolicy } from "../../server/net/outbound.ts";
import { createToken } from "../../server/auth/tokens.ts";
import type { ServiceContext } from "../../server/routes.ts";
import { setServerClock } from "../../server/clock.ts";
import { setScheduleConfig, type ScheduleConfig } from "../../server/schedules/config.ts";
import { uniqueCompanies } from "./lists.ts";
import { webhookSink, type WebhookSink } from "./schedule-sinks.ts";
import { emulatorDays, schedulerService } from "./schedule-world.ts";
import {
  startEmulatorWorld,
  startInProcess,
  type EmulatorWorld,
  type InProcessServer,
  type TestDatabase,
} from "./team-server.ts";

export interface ConsoleWorld {
  world: EmulatorWorld;
  srv: InProcessServer;
  hooks: WebhookSink;
  admin: string;
  anna: string;
  ben: string;
  /** Company ids nobody has bought yet, handed out one by one. */
  freshCompany(): string;
  /** Move the emulator's clock (and with it the server's) by whole days. */
  advance(days: number): void;
  now(): number;
  /** The server's services as its scheduler sees them (to run due schedules now). */
  service(): ServiceContext;
  /** Stop the team server (once) and let go of its database. */
  closeServer(): Promise<void>;
  close(): Promise<void>;
}

export async function startConsoleWorld(
  database: TestDatabase,
  opts: { tickMs?: number; allowOrigins?: string[] } = {},
): Promise<ConsoleWorld> {
  const today = new Date().toISOString().slice(0, 10);
  const world = await startEmulatorWorld({ companies: 600, seed: 39, emulator: { startDate: today } });
  const days = emulatorDays(world);
  const now = days.now;
  setServerClock(now);
  const hooks = await webhookSink();
  const cfg: Partial<ScheduleConfig> = {
    now,
    tickMs: opts.tickMs ?? 3_600_000,
    leaseMs: 60_000,
    webhookTimeoutMs: 5_000,
    mailer: undefined,
  };
  setScheduleConfig(cfg);
  // The test's webhook receiver is on loopback: allowed by name, as an admin allows an on-premise relay.
  const srv = await startInProcess(world, database, {
    allowOrigins: opts.allowOrigins ?? [],
    outbound: outboundPolicy({ allowHosts: ["127.0.0.1"] }),
  });
  const admin = await createToken(srv.db, "root", null, { admin: true });
  const anna = await srv.token("anna", 100);
  const ben = await srv.token("ben", 200);
  const pool = uniqueCompanies(world.emu, 120, 39).map((c) => c.id);
  let closed: Promise<void> | null = null;
  const closeServer = () => (closed ??= srv.close());
  return {
    world,
    srv,
    hooks,
    admin,
    anna,
    ben,
    freshCompany: () => {
      const id = pool.shift();
      if (!id) throw new Error("out of fresh companies");
      return id;
    },
    advance: days.advance,
    now,
    service: () => schedulerService(world, srv.db, "console-test"),
    closeServer,
    async close() {
      await closeServer();
      await world.api.close();
      await hooks.close();
      setScheduleConfig(undefined);
      setServerClock(undefined);
    },
  };
}

/** One request with a bearer token; the status and the parsed answer. */
export async function call(
  url: string,
  token: string | null,
  path: string,
  body?: unknown,
  lang = "en",
): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(url + path, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      "Accept-Language": lang,
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed, text };
}

/** A paid profile bought by the token's user; the credits it charged. */
export async function buyProfile(url: string, token: string, id: string): Promise<number> {
  const r = await fetch(`${url}/v2/companies/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  await r.text();
  if (r.status !== 200) throw new Error(`profile ${id}: HTTP ${r.status}`);
  return Number(r.headers.get("x-credits-charged") ?? 0);
}
