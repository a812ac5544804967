/**
 * Two server processes on one PostgreSQL (issue 23, done-when 3): 2,000
 * concurrent requests from 20 users with monthly budgets, one process killed
 * with kill -9 in the middle. No budget is exceeded; nothing is bought twice
 * except answers lost in the kill (each one a pending ledger row of the
 * killed process); what the emulator charged is exactly the settled rows
 * plus the pending rows whose request reached it. Every upstream request
 * carries its ledger row's id (X-Request-Id), so the emulator's side can be
 * matched row by row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDb } from "../../server/cli.ts";
import { createToken } from "../../server/auth/tokens.ts";
import { uniqueCompanies, rng } from "../support/lists.ts";
import {
  postgresDatabase,
  serverCommand,
  startEmulatorWorld,
  startServerProcess,
  type EmulatorWorld,
  type ServerProcess,
  type TestDatabase,
} from "../support/team-server.ts";
import { POSTGRES_URL, requirePostgresUnderCi } from "./backends.ts";
import type { Report } from "../../server/ledger/report.ts";

const USERS = 20;
const PER_USER = 100;
const BUDGET = 40;
const TEAM_BUDGET = 700;

// Without TEST_DATABASE_URL (a machine with no PostgreSQL) the suite skips; under CI it fails instead (backends.ts).
requirePostgresUnderCi();
describe.skipIf(!POSTGRES_URL)("two server processes on one PostgreSQL, one killed with kill -9", () => {
  let world: EmulatorWorld;
  let database: TestDatabase;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    // Latency keeps requests in flight long enough for the kill to catch some.
    world = await startEmulatorWorld({
      companies: 2000,
      seed: 13,
      emulator: { faults: { latencyMs: 30, jitterMs: 40 } },
    });
    database = await postgresDatabase(POSTGRES_URL!);
  }, 60_000);

  afterAll(async () => {
    // Cleanup only (the graceful stop is tested above): no waiting on a loaded machine.
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
    await world?.api.close();
    await database?.drop();
  });

  it("keeps every budget, buys nothing twice but what the kill lost, and the ledger matches the API's bill", async () => {
    const started = Date.now();
    const { db, close } = await openServerDb(database.target);
    const tokens: string[] = [];
    try {
      for (let u = 0; u < USERS; u++) tokens.push(await createToken(db, `user${u}`, BUDGET));
      await db.query("update team set month_budget = $1 where id = 1", [TEAM_BUDGET]);
    } finally {
      await close();
    }
    const env = { COMPANY_DATA_API_KEY: world.key, COMPANY_DATA_UPSTREAM_TIMEOUT_SECONDS: "5" };
    const [a, b] = await Promise.all([
      startServerProcess(world, database, env),
      startServerProcess(world, database, env),
    ]);
    servers.push(a, b);
    const before = world.emu.balance(world.key);

    // 2,000 requests: each user asks for profiles and people of companies drawn from one pool of 250, so users overlap.
    const pool = uniqueCompanies(world.emu, 250, 19).map((c) => c.id);
    const r = rng(5);
    const requests = Array.from({ length: USERS * PER_USER }, (_, i) => {
      const id = pool[Math.floor(r() * pool.length)]!;
      return {
        user: i % USERS,
        path: r() < 0.7 ? `/v2/companies/${id}` : `/v2/companies/${id}/people`,
        to: i % 2 === 0 ? a : b,
      };
    });
    let answered = 0;
    let killed = false;
    const statuses = await Promise.all(
      requests.map(async (q) => {
        try {
          const res = await fetch(q.to.url + q.path, { headers: { Authorization: `Bearer ${tokens[q.user]}` } });
          await res.text();
          answered++;
          // In the middle: the first process dies with its requests in flight.
          if (!killed && answered >= 500) {
            killed = true;
            a.child.kill("SIGKILL");
          }
          return res.status;
        } catch {
          return 0; // the killed process's connections
        }
      }),
    );
    expect(killed).toBe(true);
    const lost = statuses.filter((s) => s === 0).length;
    expect(lost).toBeGreaterThan(0);
    // 502: an answer the survivor lost to its upstream timeout on a loaded machine (its ledger row stays pending).
    // 503: a request that never left (no connection to the overloaded emulator in time, or the API found unreachable
    // for a moment): its row released, nothing counted (issue 37, item 3).
    expect(statuses.filter((s) => s !== 0 && s !== 200 && s !== 402 && s !== 502 && s !== 503)).toEqual([]);

    const check = await openServerDb(database.target);
    try {
      const rows = await check.db.query<{
        id: number;
        user_id: number;
        endpoint: string;
        company: string;
        credits: number;
        status: string;
        process: string;
      }>("select id, user_id, endpoint, company, credits, status, process from ledger order by id");
      // No budget exceeded: what is settled or pending (possibly charged) counts.
      const counted = rows.filter((x) => x.status === "settled" || x.status === "pending");
      const byUser = new Map<number, number>();
      for (const x of counted) byUser.set(x.user_id, (byUser.get(x.user_id) ?? 0) + x.credits);
      for (const spent of byUser.values()) expect(spent).toBeLessThanOrEqual(BUDGET);
      expect(counted.reduce((s, x) => s + x.credits, 0)).toBeLessThanOrEqual(TEAM_BUDGET);

      // Row by row against what the emulator charged.
      const charged = world.charged;
      const pending = rows.filter((x) => x.status === "pending");
      const killedPid = `:${a.child.pid}:`;
      // Unsettled: the killed process's requests in flight, or an answer the survivor lost to a timeout (a loaded machine).
      const ofKilled = pending.filter((x) => x.process.includes(killedPid));
      for (const x of rows.filter((y) => y.status === "settled")) expect(charged.get(`ledger-${x.id}`)).toBe(x.credits);
      for (const x of rows.filter((y) => y.status === "failed")) expect(charged.has(`ledger-${x.id}`)).toBe(false);
      // Released rows never left: the emulator never saw them.
      for (const x of rows.filter((y) => y.status === "released")) expect(charged.has(`ledger-${x.id}`)).toBe(false);
      const ids = new Set(rows.map((x) => `ledger-${x.id}`));
      for (const tag of charged.keys()) expect(ids.has(tag)).toBe(true);
      const billed = before - world.emu.balance(world.key);
      expect([...charged.values()].reduce((s, n) => s + n, 0)).toBe(billed);
      const settled = rows.filter((x) => x.status === "settled").reduce((s, x) => s + x.credits, 0);
      const pendingCharged = pending.filter((x) => charged.has(`ledger-${x.id}`)).reduce((s, x) => s + x.credits, 0);
      const pendingUnsent = pending.filter((x) => !charged.has(`ledger-${x.id}`));
      expect(settled + pendingCharged).toBe(billed);
      // A row written but whose request the kill stopped before it left is pending and was never charged: the ledger
      // then shows more than the bill, by exactly those rows (the safe side for budgets).
      expect(settled + pending.reduce((s, x) => s + x.credits, 0)).toBe(
        billed + pendingUnsent.reduce((s, x) => s + x.credits, 0),
      );

      // Bought twice only where the first purchase was lost in the kill.
      const purchases = new Map<string, typeof rows>();
      for (const x of rows.filter((y) => charged.has(`ledger-${y.id}`))) {
        const k = `${x.endpoint} ${x.company}`;
        purchases.set(k, [...(purchases.get(k) ?? []), x]);
      }
      for (const list of purchases.values()) {
        if (list.length > 1) expect(list.slice(0, -1).every((x) => x.status === "pending")).toBe(true);
      }
      // At most what the killed process had in flight.
      expect(ofKilled.length).toBeLessThanOrEqual(lost);

      // `server report` shows the unsettled rows apart, per user, with the ids their requests carried.
      const json = await serverCommand(database, ["report", "--json"]);
      const shown = (JSON.parse(json.stdout) as Report).unsettled;
      expect(shown.flatMap((u) => u.ids).sort((x, y) => x - y)).toEqual(pending.map((x) => x.id));
      expect(shown.reduce((s, u) => s + u.credits, 0)).toBe(pending.reduce((s, x) => s + x.credits, 0));
      expect(shown.reduce((s, u) => s + u.rows, 0)).toBe(pending.length);
      const text = await serverCommand(database, ["report", "--lang", "en"]);
      expect(text.stdout).toContain(pending.length > 0 ? "Unsettled ledger rows" : "No unsettled ledger rows");
      for (const u of shown) expect(text.stdout).toContain(`${u.user}\t${u.rows}\t${u.credits}\t`);
      console.log(
        `kill -9: ${lost} requests lost, ${pending.length} ledger rows unsettled (${pendingUnsent.length} never sent), ${rows.length} rows, billed ${billed}, ${Date.now() - started} ms`,
      );
    } finally {
      await check.close();
    }
    // The survivor still answers (its graceful stop is tested in operations.test.ts).
    const health = await fetch(b.url + "/health", { signal: AbortSignal.timeout(20_000) });
    expect(health.status).toBe(200);
  }, 120_000);
});
