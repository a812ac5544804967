/**
 * A schedule shared with the team read-only (issue 42, item 1; migration 140;
 * server/schedules/shared-routes.ts), against PGlite and, with
 * TEST_DATABASE_URL, PostgreSQL:
 *  - the owner registers it unshared: a colleague's read by its share id is
 *    404, the same answer as an unknown or malformed id (no existence leak);
 *  - shared (at registration or by POST /schedules/NAME/share): the colleague
 *    reads it (no webhooks, no recipients) and its runs after a cursor; a
 *    replacement without `shared` keeps it, the share id stays;
 *  - the colleague can never change, run, undo, share or delete it: every
 *    other method on the shared path is 405, and /schedules/NAME looks the
 *    name up under the colleague's own user (404), the owner's row unchanged;
 *  - no token: 401; the owner unshares: the colleague's read is 404 again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setScheduleConfig } from "../../server/schedules/config.ts";
import * as store from "../../server/schedules/store.ts";
import { uniqueCompanies } from "../support/lists.ts";
import {
  startEmulatorWorld,
  startInProcess,
  type EmulatorWorld,
  type InProcessServer,
  type TestDatabase,
} from "../support/team-server.ts";
import { BACKENDS } from "./backends.ts";

const KEY = "cd_live_SHAREKEY_3e8b1d7c5a";

async function api(url: string, token: string | null, path: string, method = "GET", body?: unknown) {
  const res = await fetch(url + path, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      "Accept-Language": "en",
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe.each(BACKENDS)("a schedule shared with the team read-only ($name)", (backend) => {
  let world: EmulatorWorld;
  let database: TestDatabase;
  let srv: InProcessServer;
  let owner = "";
  let colleague = "";

  beforeAll(async () => {
    world = await startEmulatorWorld({ companies: 200, seed: 9, key: KEY });
    // The loop idles: nothing here is due (runs are recorded by hand below).
    setScheduleConfig({
      now: Date.now,
      tickMs: 3_600_000,
      leaseMs: 60_000,
      webhookTimeoutMs: 5_000,
      mailer: undefined,
    });
    database = await backend.make();
    srv = await startInProcess(world, database);
    owner = await srv.token("share-owner");
    colleague = await srv.token("share-colleague");
  }, 90_000);

  afterAll(async () => {
    await srv?.close();
    setScheduleConfig(undefined);
    await world?.api.close();
    await database?.drop();
  });

  /** A finished run of schedule `id` as the loop records one. */
  async function recordRun(id: number, credits: number): Promise<number> {
    const run = await store.startRun(srv.db, id, "test", Date.now());
    const alerts = [{ channel: "email", target: "risk@team.test", status: "sent" }];
    const result = { changes: [], alerts };
    await store.finishRun(srv.db, run, { status: "ok", estimate: credits, credits, result }, Date.now());
    return run;
  }

  it("unshared or unknown is 404 alike; shared, a colleague reads it and its runs, and can change nothing", async () => {
    const ids = uniqueCompanies(world.emu, 2, 5).map((c) => c.id);
    const body = { companies: ids, frequency: "daily", hour: 6, webhooks: ["https://hooks.example.org/secret-path"] };
    const made = await api(srv.url, owner, "/schedules/wb-shared", "PUT", body);
    expect(made.status).toBe(200);
    expect(made.body.shared).toBe(false);
    const shareId: string = made.body.shareId;
    expect(shareId).toMatch(/^[0-9a-f]{32}$/);
    const s = (await store.findSchedule(srv.db, (await userId("share-owner"))!, "wb-shared"))!;
    const first = await recordRun(s.id, 3);

    // Unshared, unknown, malformed: one answer.
    const unshared = await api(srv.url, colleague, `/shared-schedules/${shareId}/runs?after=0`);
    const unknown = await api(srv.url, colleague, `/shared-schedules/${"0".repeat(32)}/runs?after=0`);
    const malformed = await api(srv.url, colleague, `/shared-schedules/wb-shared`);
    expect(unshared.status).toBe(404);
    expect(unknown).toEqual(unshared);
    expect(malformed).toEqual(unshared);
    // The owner reads their own by its id, shared or not (the workbook's sync uses the id).
    expect((await api(srv.url, owner, `/shared-schedules/${shareId}`)).body).toMatchObject({ mine: true });

    // Shared by the switch: the colleague reads it, without its webhooks; its runs after a cursor.
    const on = await api(srv.url, owner, "/schedules/wb-shared/share", "POST", { shared: true });
    expect(on.body).toMatchObject({ shared: true, shareId });
    const view = await api(srv.url, colleague, `/shared-schedules/${shareId}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ name: "wb-shared", owner: "share-owner", mine: false, companies: 2 });
    expect(JSON.stringify(view.body)).not.toMatch(/hooks|secret|webhooks|emails|budget/);
    const second = await recordRun(s.id, 4);
    const runs = await api(srv.url, colleague, `/shared-schedules/${shareId}/runs?after=${first}`);
    expect(runs.body.runs.map((r: { id: number }) => r.id)).toEqual([second]);
    expect(runs.body.cursor).toBe(second);
    expect(JSON.stringify(runs.body.schedule)).not.toMatch(/hooks|secret/);
    // The owner's recipients are the owner's: a colleague sees that an e-mail went out, not to whom.
    expect(runs.body.runs[0].result.alerts).toEqual([{ channel: "email", target: "…", status: "sent" }]);
    const own = await api(srv.url, owner, `/shared-schedules/${shareId}/runs?after=${first}`);
    expect(own.body.runs[0].result.alerts[0].target).toBe("risk@team.test");

    // A replacement without `shared` keeps it, and keeps the id.
    const again = await api(srv.url, owner, "/schedules/wb-shared", "PUT", { ...body, hour: 7 });
    expect(again.body).toMatchObject({ shared: true, shareId, hour: 7 });

    // The colleague changes nothing: other methods on the shared path; the owner's name under their own user.
    const before = await api(srv.url, owner, "/schedules/wb-shared");
    for (const method of ["PUT", "POST", "DELETE", "PATCH"])
      for (const path of [`/shared-schedules/${shareId}`, `/shared-schedules/${shareId}/runs`])
        expect((await api(srv.url, colleague, path, method, method === "DELETE" ? undefined : {})).status).toBe(405);
    expect((await api(srv.url, colleague, `/shared-schedules/${shareId}/run`, "POST", {})).status).toBe(404);
    for (const [path, method, b] of [
      ["/schedules/wb-shared/run", "POST", {}],
      ["/schedules/wb-shared/delete", "POST", {}],
      ["/schedules/wb-shared/share", "POST", { shared: false }],
      [`/schedules/wb-shared/audit/${second}/undo`, "POST", {}],
      ["/schedules/wb-shared/runs?after=0", "GET", undefined],
      ["/schedules/wb-shared", "DELETE", undefined],
    ] as const)
      expect((await api(srv.url, colleague, path, method, b)).status, `${method} ${path}`).toBe(404);
    expect(await api(srv.url, owner, "/schedules/wb-shared")).toEqual(before);
    expect((await api(srv.url, colleague, "/schedules")).body.schedules).toEqual([]);

    // No token: 401. Unshared again: 404 for the colleague, as before.
    expect((await api(srv.url, null, `/shared-schedules/${shareId}`)).status).toBe(401);
    expect((await api(srv.url, owner, "/schedules/wb-shared/share", "POST", { shared: "yes" })).status).toBe(400);
    await api(srv.url, owner, "/schedules/wb-shared/share", "POST", { shared: false });
    expect(await api(srv.url, colleague, `/shared-schedules/${shareId}/runs?after=0`)).toEqual(unshared);
  }, 60_000);

  it("shared at registration; two schedules have two share ids", async () => {
    const ids = uniqueCompanies(world.emu, 1, 6).map((c) => c.id);
    const a = await api(srv.url, owner, "/schedules/wb-a", "PUT", { companies: ids, shared: true });
    const b = await api(srv.url, owner, "/schedules/wb-b", "PUT", { companies: ids });
    expect(a.body.shared).toBe(true);
    expect(b.body.shared).toBe(false);
    expect(a.body.shareId).not.toBe(b.body.shareId);
    expect((await api(srv.url, colleague, `/shared-schedules/${a.body.shareId}`)).status).toBe(200);
    expect((await api(srv.url, colleague, `/shared-schedules/${b.body.shareId}`)).status).toBe(404);
    const bad = await api(srv.url, owner, "/schedules/wb-c", "PUT", { companies: ids, shared: 1 });
    expect(bad.body.error?.field ?? bad.body.field).toBe("shared");
  });

  async function userId(name: string): Promise<number | undefined> {
    return (await srv.db.query<{ id: number }>("select id from users where name = $1", [name]))[0]?.id;
  }
});
