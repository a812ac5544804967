/**
 * A team's money is exact (issue 37, items 1, 2, 3, 4, 7), on PGlite and,
 * with TEST_DATABASE_URL, PostgreSQL, against the emulator on loopback:
 * - five spellings of one question cost the credits of one purchase (the
 *   emulator's bill and the report agree);
 * - a German and an English user read one answer bought once, each with the
 *   labels in their own language;
 * - with the API unreachable, paid requests are answered 503 with Retry-After
 *   and the report counts nothing (not spent, not pending); a request that
 *   never left is released at once;
 * - a database error after the API answered: the user gets the answer, the
 *   ledger row stays counted (sent, pending) while the database is down and
 *   is settled when it is back.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDb } from "../../server/cli.ts";
import { TEAM_SERVER_EXTENSIONS } from "../../server/extensions.ts";
import { createToken } from "../../server/auth/tokens.ts";
import type { Db } from "../../server/db/db.ts";
import { startTeamServer } from "../../server/http.ts";
import { jsonLogger } from "../../server/log.ts";
import { parseCacheDays } from "../../server/cache.ts";
import { createUpstream, type Upstream } from "../../server/upstream.ts";
import { pendingWrites } from "../../server/keep.ts";
import { monthReport } from "../../server/ledger/report.ts";
import { monthOf } from "../../server/ledger/budget.ts";
import type { Report } from "../../server/ledger/report.ts";
import { uniqueCompanies } from "../support/lists.ts";
import {
  type EmulatorWorld,
  FAST_PACING,
  type InProcessServer,
  serverCommand,
  startInProcess,
  startTeamWorld,
  type TeamWorld,
} from "../support/team-server.ts";
import { BACKENDS } from "./backends.ts";

async function get(url: string, token: string, path: string, lang = "de") {
  const res = await fetch(url + path, { headers: { Authorization: `Bearer ${token}`, "Accept-Language": lang } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** A port on loopback nothing listens on (bound, then closed). */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A TCP forwarder to the emulator that can be cut: the API "goes away" after the server started. */
async function cuttableForwarder(target: string): Promise<{ url: string; cut(): Promise<void> }> {
  const to = new URL(target);
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(to.port), to.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async cut() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

const rowsOf = (db: Db, user: string) =>
  db.query<{ status: string; sent: boolean; credits: number }>(
    "select l.status, l.sent_at is not null as sent, l.credits from ledger l join users u on u.id = l.user_id where u.name = $1 order by l.id",
    [user],
  );

describe.each(BACKENDS)("a team's money on $name", (backend) => {
  let world: EmulatorWorld;
  let srv: InProcessServer;
  let team: TeamWorld;
  const balance = () => world.emu.balance(world.key);

  beforeAll(async () => {
    team = await startTeamWorld(backend.make, { companies: 2000, seed: 37 });
    ({ world, srv } = team);
  }, 60_000);

  afterAll(() => team?.close());

  it("says at start which API it uses and that it answered", () => {
    const line = srv.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.event === "api");
    expect(line).toMatchObject({ url: world.api.url, answered: true, status: 200 });
  });

  it("five spellings of one question cost 3 credits in total, on the emulator's bill and in the report", async () => {
    const t = await srv.token("spell");
    const [id] = uniqueCompanies(world.emu, 1, 41).map((c) => c.id);
    const before = balance();
    const spellings = [
      `/v2/companies/${id}?include=people,announcements`,
      `/v2/companies/${id}?include=announcements,people`,
      `/v2/companies/${id}?include=people,people,announcements`,
      `/v2/companies/${id}?include=people,%20announcements`,
      `/v2/companies/${id}?include=people,announcements,`,
    ];
    const answers = [];
    for (const p of spellings) answers.push(await get(srv.url, t, p));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((a) => a.headers.get("x-credits-charged"))).toEqual(["3", "0", "0", "0", "0"]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    // Lower case and a repeated parameter are the same question too.
    const more = await get(srv.url, t, `/v2/companies/${id!.toLowerCase()}?include=announcements&include=people`);
    expect(more.headers.get("x-cache")).toBe("hit");
    expect(before - balance()).toBe(3);
    const r = await monthReport(srv.db, monthOf(Date.now()));
    expect(r.byUser.find((u) => u.user === "spell")!.spent).toBe(3);
    // Another question is another purchase.
    expect((await get(srv.url, t, `/v2/companies/${id}?include=people`)).headers.get("x-credits-charged")).toBe("2");
    expect(before - balance()).toBe(5);
  });

  it("a German and an English user read one answer bought once, each with the labels in their language", async () => {
    const [de, en] = [await srv.token("greta"), await srv.token("harry")];
    const ids = uniqueCompanies(world.emu, 2, 43).map((c) => c.id);
    const before = world.emu.ledger(world.key).requests.profile ?? 0;
    // German buys, English reads; then the reverse.
    const pairs = [
      { id: ids[0]!, first: { t: de, lang: "de" }, second: { t: en, lang: "en" } },
      { id: ids[1]!, first: { t: en, lang: "en" }, second: { t: de, lang: "de" } },
    ];
    for (const { id, first, second } of pairs) {
      const bought = await get(srv.url, first.t, `/v2/companies/${id}?include=people`, first.lang);
      const read = await get(srv.url, second.t, `/v2/companies/${id}?include=people`, second.lang);
      expect(bought.headers.get("x-cache")).toBe("miss");
      expect(read.headers.get("x-cache")).toBe("hit");
      expect(read.headers.get("x-credits-charged")).toBe("0");
      // What the API itself answers in the reader's language (free of the server: straight to the emulator).
      const direct = world.emu.handle({
        method: "GET",
        url: `/v2/companies/${id}?include=people`,
        headers: { Authorization: `Bearer ${world.key}`, "Accept-Language": second.lang },
      });
      const api = JSON.parse(direct.body);
      for (const field of ["legalForm", "status", "size", "industry"]) expect(read.body[field]).toEqual(api[field]);
      expect(read.body.people.map((p: any) => p.role)).toEqual(api.people.map((p: any) => p.role));
      expect(read.body.status.name).toBe(second.lang === "en" ? "Active" : "Aktiv");
      expect(bought.body.status.name).toBe(first.lang === "en" ? "Active" : "Aktiv");
    }
    // Two questions, two purchases (the direct calls above went to the emulator with its own key too).
    expect((world.emu.ledger(world.key).requests.profile ?? 0) - before).toBe(4);
    const r = await monthReport(srv.db, monthOf(Date.now()));
    expect(r.byUser.find((u) => u.user === "greta")!.spent + r.byUser.find((u) => u.user === "harry")!.spent).toBe(4);
  });

  it("the API unreachable from the start: paid requests get 503 with Retry-After, nothing reserved, the report counts nothing", async () => {
    const dead = `http://127.0.0.1:${await deadPort()}`;
    // A database of its own (a PGlite directory serves one server at a time).
    const own = await backend.make();
    const down = await startInProcess({ ...world, api: { ...world.api, url: dead } }, own, {
      process: `down:${process.pid}`,
    });
    try {
      const line = down.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.event === "api");
      expect(line).toMatchObject({ url: dead, answered: false, status: 0 });
      const t = await down.token("ulla");
      const [id] = uniqueCompanies(world.emu, 1, 47).map((c) => c.id);
      for (let i = 0; i < 3; i++) {
        const r = await get(down.url, t, `/v2/companies/${id}/financials?lang=en`);
        expect(r.status).toBe(503);
        expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        expect(r.body.error.message).toContain("not answering");
      }
      expect(await rowsOf(down.db, "ulla")).toEqual([]);
    } finally {
      await down.close();
    }
    try {
      const report = JSON.parse((await serverCommand(own, ["report", "--json"])).stdout) as Report;
      expect(report.byUser.find((u) => u.user === "ulla")).toMatchObject({ spent: 0 });
      expect(report.totals).toMatchObject({ spent: 0, pending: 0 });
      expect(report.unsettled).toEqual([]);
    } finally {
      await own.drop();
    }
  });

  it("the API goes away after start: the request that finds out is given back at once, the next ones reserve nothing", async () => {
    const fwd = await cuttableForwarder(world.api.url);
    const own = await backend.make();
    const s = await startInProcess({ ...world, api: { ...world.api, url: fwd.url } }, own, {
      process: `cut:${process.pid}`,
    });
    try {
      const t = await s.token("vera");
      const [a, b] = uniqueCompanies(world.emu, 2, 53).map((c) => c.id);
      expect((await get(s.url, t, `/v2/companies/${a}`)).status).toBe(200);
      await fwd.cut();
      const before = balance();
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await get(s.url, t, `/v2/companies/${b}/financials`)).status);
      expect(statuses).toEqual([503, 503, 503]);
      expect(balance()).toBe(before);
      // One row reserved and released (the request that found the API gone), none for the two after it.
      expect(await rowsOf(s.db, "vera")).toEqual([
        { status: "settled", sent: true, credits: 1 },
        { status: "released", sent: false, credits: 4 },
      ]);
      const r = await monthReport(s.db, monthOf(Date.now()));
      expect(r.byUser.find((u) => u.user === "vera")!.spent).toBe(1);
      expect(r.unsettled.find((u) => u.user === "vera")).toBeUndefined();
    } finally {
      await s.close();
      await own.drop();
    }
  });

  it("a database error after the API answered: the user gets the answer, the row stays counted, and is settled when the database is back", async () => {
    const own = await backend.make();
    const { db, close } = await openServerDb(own.target);
    let failing = false;
    const guard = () => {
      if (failing) throw new Error("could not extend file: No space left on device");
    };
    // The Db as the server sees it, failing on demand (its own heartbeat connection stays: a full disk, not a dead server).
    const flaky: Db = {
      kind: db.kind,
      ...(db.priority ? { priority: db.priority } : {}),
      query: async (text, params) => (guard(), db.query(text, params)),
      exec: async (text) => (guard(), db.exec(text)),
      transaction: async (fn) => (guard(), db.transaction(fn)),
      close: () => db.close(),
    };
    const real = createUpstream({
      apiKey: world.key,
      baseUrl: world.api.url,
      timeoutMs: 8_000,
      maxPaceWaitMs: 10_000,
      rateLimits: FAST_PACING,
    });
    // The disk fills the moment the API has answered.
    const upstream: Upstream = {
      ...real,
      baseUrl: real.baseUrl,
      send: async (...args) => {
        const a = await real.send(...args);
        if (a.ok && a.status === 200) failing = true;
        return a;
      },
    };
    const logs: string[] = [];
    const log = jsonLogger((l) => logs.push(l));
    const server = await startTeamServer({
      db: flaky,
      log,
      port: 0,
      host: "127.0.0.1",
      allowOrigins: [],
      process: `flaky:${process.pid}`,
      leaseMs: 10_000,
      cacheDays: parseCacheDays(undefined),
      extensions: TEAM_SERVER_EXTENSIONS,
      upstream,
    });
    try {
      const t = await createToken(db, "wanda");
      const t2 = await createToken(db, "xaver");
      const [id] = uniqueCompanies(world.emu, 1, 59).map((c) => c.id);
      const before = balance();
      const r = await get(server.url, t, `/v2/companies/${id}/people`);
      expect(r.status).toBe(200);
      expect(r.headers.get("x-credits-charged")).toBe("1");
      expect(r.body.id).toBe(id);
      expect(before - balance()).toBe(1);
      // While the database fails: the row is sent and pending, so it counts as spent (never free).
      expect(await rowsOf(db, "wanda")).toEqual([{ status: "pending", sent: true, credits: 1 }]);
      expect(logs.some((l) => l.includes('"db.write.failed"') && l.includes('"store"'))).toBe(true);
      failing = false;
      await Promise.all(pendingWrites(log));
      expect(await rowsOf(db, "wanda")).toEqual([{ status: "settled", sent: true, credits: 1 }]);
      // The answer was stored: the next user is served from it, nothing bought again.
      const again = await get(server.url, t2, `/v2/companies/${id}/people`);
      expect(again.headers.get("x-cache")).toBe("hit");
      expect(before - balance()).toBe(1);
    } finally {
      failing = false;
      await server.close(5_000);
      await close();
      await own.drop();
    }
  });
});
