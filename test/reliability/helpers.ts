/**
 * The reliability suite's in-process network: requests go to an emulator's
 * handle() on a virtual clock (sleeps and the emulator's latency advance it;
 * nothing really waits), and an answer can be lost after the emulator has
 * charged for it, which is what a dropped connection costs in real life.
 */
import { asyncStores, memoryStores, type AsyncDriver } from "../../shared/core/drivers.ts";
import type { HttpRequest, HttpResponse } from "../../shared/core/http.ts";
import type { Emulator } from "../../emulator/index.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { hash } from "../../shared/enrich/job-checkpoint.ts";
import { rng } from "../support/lists.ts";
import { Pacer } from "../../shared/api/pacing.ts";

export const BASE_URL = "http://emulator.test";

export class VirtualClock {
  constructor(public t = Date.UTC(2026, 5, 1, 8)) {}
  now = () => this.t;
  advance = (ms: number) => {
    this.t += Math.max(0, ms);
  };
}

export interface Exchange {
  req: HttpRequest;
  res: HttpResponse;
  charged: number;
  lost: boolean;
}

export interface NetOptions {
  /** Share of answers lost after the emulator handled (and charged) them. */
  loseAfterCharge?: number;
  seed?: number;
  /** Called before each batch is sent (tests change faults from here). */
  beforeBatch?: (n: number) => void;
}

/** An AsyncDriver over emulator.handle() with a virtual clock; every exchange is recorded. */
export function virtualNet(emu: Emulator, clock: VirtualClock, opts: NetOptions = {}) {
  const stores = memoryStores(clock.now);
  const log: Exchange[] = [];
  const random = rng(opts.seed ?? 11);
  let batches = 0;
  let lostCharged = 0;
  const driver: AsyncDriver = {
    http: async (reqs) => {
      opts.beforeBatch?.(batches++);
      let slowest = 0;
      const out = reqs.map((req): HttpResponse => {
        const r = emu.handle(req);
        slowest = Math.max(slowest, r.delayMs ?? 0);
        const charged = r.status === 200 ? Number(r.headers["x-credits-charged"] ?? 0) : 0;
        if (r.drop) {
          log.push({ req, res: { status: 0, headers: {}, body: "" }, charged: 0, lost: true });
          return { status: 0, headers: {}, body: "", networkError: "connection" };
        }
        if (opts.loseAfterCharge && random() < opts.loseAfterCharge) {
          lostCharged += charged;
          log.push({ req, res: { status: r.status, headers: r.headers, body: r.body }, charged, lost: true });
          return { status: 0, headers: {}, body: "", networkError: "connection" };
        }
        const res = { status: r.status, headers: r.headers, body: r.body };
        log.push({ req, res, charged, lost: false });
        return res;
      });
      clock.advance(slowest);
      return out;
    },
    sleep: async (ms) => clock.advance(ms),
    ...asyncStores(stores),
  };
  return { driver, log, stores, lostCharged: () => lostCharged };
}

export function testContext(key: string, clock: VirtualClock, extra: Partial<OpContext["client"]> = {}): OpContext {
  return {
    client: {
      apiKey: key,
      baseUrl: BASE_URL,
      language: "en",
      now: clock.now,
      random: rng(5),
      pacer: new Pacer(),
      ...extra,
    },
    cacheTtlSeconds: 6 * 3600,
    maxBatch: 100,
    scope: hash(BASE_URL),
  };
}

/** Names sent in successful batch resolves and ids of successful profile calls, each with how often. */
export function paidAnswers(log: readonly Exchange[]) {
  const names = new Map<string, number>();
  const profiles = new Map<string, number>();
  for (const x of log) {
    if (x.res.status !== 200 || x.lost) continue;
    const path = new URL(x.req.url).pathname;
    if (path === "/v2/companies/batch/resolve") {
      for (const c of (JSON.parse(x.req.body ?? "{}").companies ?? []) as { name: string }[])
        names.set(c.name, (names.get(c.name) ?? 0) + 1);
    } else if (/^\/v2\/companies\/DE[A-Z0-9]{10}$/.test(path)) {
      const id = path.split("/").pop()!;
      profiles.set(id, (profiles.get(id) ?? 0) + 1);
    }
  }
  return { names, profiles };
}
