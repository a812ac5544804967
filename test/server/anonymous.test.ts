/**
 * The anonymous surface (issue 36 item 3): without a credential the server
 * answers liveness only. 100 anonymous calls of every route a caller can
 * reach without a token cause no request to the API (counted at the
 * emulator's handler, and its usage unchanged) and show no balance, no API
 * address, no process name or pid. `/health?deep=1` needs an admin token
 * (401 without a token, 403 with a user's), and the doctor's probes ran once,
 * at start.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToken } from "../../server/auth/tokens.ts";
import { readState } from "../../server/doctor/state.ts";
import { BACKENDS } from "./backends.ts";
import {
  startEmulatorWorld,
  startInProcess,
  type EmulatorWorld,
  type InProcessServer,
  type TestDatabase,
} from "../support/team-server.ts";

const ORIGIN = "http://127.0.0.1:8788";
const CALLS = 100;

describe.each(BACKENDS)("the anonymous surface on $name", (backend) => {
  let world: EmulatorWorld;
  let db: TestDatabase;
  let srv: InProcessServer;
  let upstreamRequests = 0;
  beforeAll(async () => {
    world = await startEmulatorWorld({ companies: 200, seed: 9, emulator: { faults: { latencyMs: 0, jitterMs: 0 } } });
    const handle = world.emu.handle.bind(world.emu);
    // Every request that reaches the API, whatever its answer.
    world.emu.handle = (req) => {
      upstreamRequests++;
      return handle(req);
    };
    db = await backend.make();
    srv = await startInProcess(world, db, { allowOrigins: [ORIGIN], process: `anon-test:${process.pid}` });
    // The doctor's start-up run (its free calls) is over before counting.
    for (let i = 0; i < 600 && !(await readState(srv.db)); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await readState(srv.db)).not.toBeNull();
  }, 90_000);
  afterAll(async () => {
    await srv?.close();
    await db?.drop();
    await world?.api.close();
  });

  it("100 anonymous calls of every anonymous route: no upstream request, no balance, address, process or pid", async () => {
    const company = world.emu.world.companies[0]!.id;
    const routes: { method: string; path: string; headers?: Record<string, string>; body?: string; status: number }[] =
      [
        { method: "GET", path: "/health", status: 200 },
        { method: "GET", path: "/health?deep=1", status: 401 },
        {
          method: "GET",
          path: "/health?deep=1",
          headers: { Authorization: "Bearer cdt_" + "z".repeat(43) },
          status: 401,
        },
        { method: "GET", path: "/v2/account", status: 401 },
        { method: "GET", path: `/v2/companies/${company}`, status: 401 },
        { method: "GET", path: `/v2/companies/${company}/availability`, status: 401 },
        { method: "POST", path: "/v2/companies/resolve", body: '{"name":"x"}', status: 401 },
        { method: "GET", path: "/schedules", status: 401 },
        { method: "GET", path: "/admin/tokens", status: 401 },
        { method: "GET", path: '/reconcile?queries={"q0":{"query":"x"}}', status: 401 },
        { method: "GET", path: "/nothing-here", status: 404 },
        {
          method: "OPTIONS",
          path: "/v2/account",
          headers: { Origin: ORIGIN, "Access-Control-Request-Method": "GET" },
          status: 204,
        },
      ];
    const before = upstreamRequests;
    const usageBefore = JSON.stringify(world.emu.ledger(world.key));
    const balanceBefore = world.emu.balance(world.key);
    const address = new URL(world.api.url).host;
    for (const r of routes) {
      const answers = await Promise.all(
        Array.from({ length: CALLS }, async () => {
          const res = await fetch(srv.url + r.path, { method: r.method, headers: r.headers, body: r.body });
          return { status: res.status, text: await res.text(), headers: JSON.stringify([...res.headers]) };
        }),
      );
      for (const a of answers) {
        expect(a.status, `${r.method} ${r.path}`).toBe(r.status);
        const shown = a.text + a.headers;
        expect(shown).not.toContain(address);
        expect(shown).not.toContain(String(balanceBefore));
        expect(shown).not.toContain("anon-test");
        expect(shown).not.toContain(String(process.pid));
        // The body names no account figure nor the database (the CORS headers name X-Credits-Charged: a header's name).
        expect(a.text).not.toMatch(/credits|balance|pglite|postgres|plan/i);
      }
    }
    const health = (await (await fetch(srv.url + "/health")).json()) as Record<string, unknown>;
    expect(health).toEqual({ ok: true, database: "reachable" });
    console.log(
      `anonymous surface (${backend.name}): ${routes.length} routes × ${CALLS} calls, upstream requests ${upstreamRequests - before}`,
    );
    expect(upstreamRequests - before).toBe(0);
    expect(JSON.stringify(world.emu.ledger(world.key))).toBe(usageBefore);
    expect(world.emu.balance(world.key)).toBe(balanceBefore);
  });

  it("/health?deep=1: 403 to a user's token, the doctor's start-up report to an admin token, probes not run again", async () => {
    const user = await createToken(srv.db, "anon-user");
    const forbidden = await fetch(srv.url + "/health?deep=1&lang=en", { headers: { Authorization: `Bearer ${user}` } });
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { error: { code: string } }).error.code).toBe("FORBIDDEN");
    const admin = await createToken(srv.db, "anon-admin", null, { admin: true });
    const before = upstreamRequests;
    for (let i = 0; i < 20; i++) {
      const deep = await fetch(srv.url + "/health?deep=1", { headers: { Authorization: `Bearer ${admin}` } });
      const body = (await deep.json()) as { checks: { doctor: { detail: { verdict: string } } }; process: string };
      expect(body.checks.doctor.detail.verdict).toBe("pass");
      expect(body.process).toBe(`anon-test:${process.pid}`);
    }
    expect(upstreamRequests - before).toBe(0);
  });
});
