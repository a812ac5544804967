/**
 * The doctor on the team server (issue 31): at start it checks the service
 * with the team's key (an admin's /health?deep=1 shows that run); against the
 * drifted emulator a paid request is refused (nothing bought, a clear
 * message in the user's language) until an operator runs
 * `company-data server ack-drift`; against the emulator paid requests pass.
 */
import { afterAll, describe, expect, test } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { FAST, runCli } from "../helpers/cli.ts";
import { losingProxy } from "../support/losing-proxy.ts";
import { openServerDb } from "../../server/cli.ts";
import { TEAM_SERVER_EXTENSIONS } from "../../server/extensions.ts";
import { startTeamServer, type RunningTeamServer } from "../../server/http.ts";
import { createUpstream } from "../../server/upstream.ts";
import { createToken } from "../../server/auth/tokens.ts";
import { silentLogger } from "../../server/log.ts";
import { parseCacheDays } from "../../server/cache.ts";
import { readState } from "../../server/doctor/state.ts";
import type { Db } from "../../server/db/db.ts";

const SAP = "DEJK7QV0PK24";
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function api(drift: boolean): Promise<{ emu: Emulator; server: RunningServer; key: string }> {
  const emu = createEmulator({
    companies: 300,
    seed: 3,
    startDate: "2026-01-15",
    drift,
    rateLimits: { resolve: FAST, availability: FAST, account: FAST, suggest: FAST },
  });
  const server = await startServer(emu, { port: 0, host: "127.0.0.1" });
  cleanups.push(() => server.close());
  return { emu, server, key: emu.createKey(1000) };
}

async function team(
  dir: string,
  upstream: { server: RunningServer; key: string },
): Promise<{ db: Db; team: RunningTeamServer; close: () => Promise<void> }> {
  const { db, close } = await openServerDb({ kind: "pglite", dir });
  const t = await startTeamServer({
    db,
    log: silentLogger,
    port: 0,
    host: "127.0.0.1",
    allowOrigins: [],
    process: "test",
    cacheDays: parseCacheDays(undefined),
    extensions: TEAM_SERVER_EXTENSIONS,
    leaseMs: 10_000,
    upstream: createUpstream({
      apiKey: upstream.key,
      baseUrl: upstream.server.url,
      timeoutMs: 10_000,
      maxPaceWaitMs: 5_000,
    }),
  });
  return {
    db,
    team: t,
    close: async () => {
      await t.close(1000);
      await close();
    },
  };
}

/** The doctor service runs right after start: wait until a report newer than `after` is in the database. */
async function doctorDone(db: Db, after = ""): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const s = await readState(db);
    if (s && s.checkedAt > after) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the doctor did not report");
}

/** GET /health?deep=1 with an admin token (anonymous callers get liveness only: test/server/anonymous.test.ts). */
async function deepHealth(t: { db: Db; team: RunningTeamServer }): Promise<Response> {
  const admin = await createToken(t.db, `ops${Math.random().toString(36).slice(2, 8)}`, null, { admin: true });
  return fetch(`${t.team.url}/health?deep=1`, { headers: { authorization: `Bearer ${admin}` } });
}

const profile = (url: string, token: string, lang = "en") =>
  fetch(`${url}/v2/companies/${SAP}`, { headers: { authorization: `Bearer ${token}`, "accept-language": lang } });

/** The API behind a front that answers 503 to the account call (busy at the server's start): the rest passes through. */
async function busyAccount(upstream: RunningServer): Promise<RunningServer> {
  const front = await losingProxy(upstream.url, 0, {
    answerHere: (_method, path) =>
      path.startsWith("/v2/account") ? { status: 503, body: '{"error":{"code":"UNAVAILABLE"}}' } : undefined,
  });
  cleanups.push(front.close);
  return front as unknown as RunningServer;
}

describe("team server: drift refuses paid requests until acknowledged", () => {
  test("an API that does not answer the doctor (5xx at start) is no drift: nothing is refused, nothing is kept", async () => {
    const up = await api(false);
    const front = await busyAccount(up.server);
    const dir = mkdtempSync(join(tmpdir(), "doctor-server-"));
    const t = await team(dir, { server: front, key: up.key });
    cleanups.push(t.close);
    const health = (await (await deepHealth(t)).json()) as {
      checks: { doctor: { detail: { verdict: string; paidRequests: string } } };
    };
    expect(health.checks.doctor.detail.verdict).toBe("unreachable");
    expect(health.checks.doctor.detail.paidRequests).toBe("allowed");
    expect(await readState(t.db)).toBeNull();
    const token = await createToken(t.db, "anna");
    const before = up.emu.balance(up.key);
    const bought = await profile(t.team.url, token);
    expect(bought.status).toBe(200);
    expect(up.emu.balance(up.key)).toBe(before - 1);
  });

  test("against the drifted emulator: refused (nothing bought), ack-drift, then bought", async () => {
    const up = await api(true);
    const dir = mkdtempSync(join(tmpdir(), "doctor-server-"));
    let t = await team(dir, up);
    await doctorDone(t.db);
    const token = await createToken(t.db, "anna");
    const before = up.emu.balance(up.key);

    const refused = await profile(t.team.url, token);
    expect(refused.status).toBe(503);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("UNAVAILABLE");
    expect(body.error.message).toMatch(/^Paid requests are paused: the data service answers differently/);
    expect(body.error.message).toContain("resolve: status");
    expect(body.error.message).toContain("company-data server ack-drift");
    const de = (await (await profile(t.team.url, token, "de")).json()) as { error: { message: string } };
    expect(de.error.message).toMatch(/^Kostenpflichtige Anfragen sind angehalten/);
    expect(up.emu.balance(up.key)).toBe(before);

    // Free requests still pass; the deep health check names the drift and the refusal.
    const free = await fetch(`${t.team.url}/v2/companies/${SAP}/availability`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(free.status).toBe(200);
    const health = await deepHealth(t);
    expect(health.status).toBe(503);
    const h = (await health.json()) as {
      checks: { doctor: { ok: boolean; detail: { verdict: string; paidRequests: string } } };
    };
    expect(h.checks.doctor.ok).toBe(false);
    expect(h.checks.doctor.detail.verdict).toBe("unsafe");
    expect(h.checks.doctor.detail.paidRequests).toMatch(/^refused/);
    expect(up.emu.balance(up.key)).toBe(before);

    // PGlite keeps its data directory locked while the server runs: the operator stops it, acknowledges, starts it again.
    const firstCheck = (await readState(t.db))!.checkedAt;
    await t.close();
    const ack = await runCli({ server: up.server, dir }, ["server", "ack-drift", "--data", dir, "--lang", "en"], {});
    expect(ack.code, ack.stderr).toBe(0);
    expect(ack.stdout).toContain("resolve missing status");
    expect(ack.stdout).toMatch(/Acknowledged \(1 finding\(s\) of /);

    t = await team(dir, up);
    cleanups.push(t.close);
    // The doctor runs again at this start and finds the same drift: still acknowledged.
    await doctorDone(t.db, firstCheck);
    const bought = await profile(t.team.url, token);
    expect(bought.status).toBe(200);
    expect(up.emu.balance(up.key)).toBe(before - 1);
  });

  test("against the emulator: the doctor passes and paid requests go through", async () => {
    const up = await api(false);
    const t = await team(mkdtempSync(join(tmpdir(), "doctor-server-")), up);
    cleanups.push(t.close);
    await doctorDone(t.db);
    expect((await readState(t.db))!.verdict).toBe("pass");
    const token = await createToken(t.db, "ben");
    expect((await profile(t.team.url, token)).status).toBe(200);
    const health = (await (await deepHealth(t)).json()) as {
      ok: boolean;
      checks: { doctor: { ok: boolean } };
    };
    expect(health.checks.doctor.ok).toBe(true);
  });
});
