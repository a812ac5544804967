/**
 * The audit of a team server's scheduled runs (issue 40, item 2), against
 * PGlite and, with TEST_DATABASE_URL, PostgreSQL: each run's check writes
 * into the schedule's portfolio sheet as the last run left it and records
 * every changed cell in the database; the owner lists the runs and undoes
 * one over the API (another user: 404); the undo is a run the hosts sync
 * (its restored rows), can itself be undone, and waits for a run of the
 * same schedule that holds the claim (bounded, then "busy").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "../../server/routes.ts";
import type { ScheduleConfig } from "../../server/schedules/config.ts";
import { ScheduleBusy, undoScheduleRun } from "../../server/schedules/audit.ts";
import { runDue } from "../../server/schedules/scheduler.ts";
import * as store from "../../server/schedules/store.ts";
import { uniqueCompanies } from "../support/lists.ts";
import { GROUP_LABEL, type RiskGroup } from "../../shared/monitor/index.ts";
import type { EmulatorWorld, InProcessServer } from "../support/team-server.ts";
import { schedulerService, startScheduleWorld, type ScheduleWorld } from "../support/schedule-world.ts";
import { BACKENDS } from "./backends.ts";

const KEY = "cd_live_AUDITKEY_3c9e1a7b5d";

async function api(url: string, token: string, path: string, method = "GET") {
  const res = await fetch(url + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Accept-Language": "en" },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe.each(BACKENDS)("the audit of a schedule's runs ($name)", (backend) => {
  let world: EmulatorWorld;
  let srv: InProcessServer;
  let token: string;
  let sw: ScheduleWorld;
  const now = () => sw.days.now();
  let cfg: ScheduleConfig;
  const instance = (): ServiceContext => schedulerService(world, srv.db, "loop-a");

  beforeAll(async () => {
    // The loop of the in-process server stays idle; the tests call runDue.
    sw = await startScheduleWorld({
      seed: 23,
      key: KEY,
      user: "audit-anna",
      makeDatabase: backend.make,
      schedule: { tickMs: 3_600_000 },
    });
    ({ world, srv, token, config: cfg } = sw);
  }, 90_000);

  afterAll(() => sw?.close());

  it("records each run's cells, lists them for the owner only, undoes a run (a run the hosts sync) and the undo", async () => {
    const companies = uniqueCompanies(world.emu, 5, 3).map((c) => c.id);
    const active = new Set(world.emu.companies.withStatus("ACTIVE"));
    const target = companies.find((id) => active.has(id)) ?? companies[0]!;
    world.emu.scheduleEvent(target, { day: 1, kind: "INSOLVENCY" });
    const reg = await fetch(`${srv.url}/schedules/w`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ companies, frequency: "daily", hour: 7, language: "en" }),
    });
    expect(reg.status).toBe(200);
    const server = instance();
    expect((await api(srv.url, token, "/schedules/w/run", "POST")).status).toBe(202);
    expect(await runDue(server, cfg)).toBe(1);
    sw.days.advance(1);
    expect(await runDue(server, cfg)).toBe(1);

    const audit = (await api(srv.url, token, "/schedules/w/audit")).body;
    expect(audit.runs.map((r: { kind: string }) => r.kind)).toEqual(["check", "check"]);
    const [second, first] = audit.runs as { id: string; who: string; rows: number; cells: number; credits: number }[];
    expect(first).toMatchObject({ who: "audit-anna", rows: companies.length + 1 });
    expect(second!.rows).toBeGreaterThanOrEqual(1);
    expect(audit.size.cells).toBe(first!.cells + second!.cells);

    // Another user sees no such schedule, and cannot undo its runs.
    const other = await srv.token("audit-ben");
    expect((await api(srv.url, other, "/schedules/w/audit")).status).toBe(404);
    expect((await api(srv.url, other, `/schedules/w/audit/${second!.id}/undo`, "POST")).status).toBe(404);
    expect((await api(srv.url, token, "/schedules/w/audit/srv-999999/undo", "POST")).status).toBe(404);

    const cursor = Math.max(...(await store.runsAfter(srv.db, (await sched()).id, 0, 100)).map((r) => r.id));
    const undone = await api(srv.url, token, `/schedules/w/audit/${second!.id}/undo`, "POST");
    expect(undone.status).toBe(200);
    expect(undone.body.undo).toMatchObject({ of: second!.id, restored: second!.cells, kept: [], already: false });
    // The undo is a run the hosts fetch: the target's cells as the first run left them.
    const runs = (await api(srv.url, token, `/schedules/w/runs?after=${cursor}`)).body.runs;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ id: undone.body.run, status: "undo", credits: 0 });
    const back = runs[0].result.restored.find((r: { id: string }) => r.id === target);
    const before = (await api(srv.url, token, "/schedules/w/runs?after=0")).body.runs[0].result.companies;
    const label = (g: RiskGroup) => GROUP_LABEL[g].en;
    expect(back.cells.group).toBe(label(before.find((c: { id: string }) => c.id === target).group));
    expect(back.cells.group).not.toBe(label("risk"));
    // A second undo of the same run writes nothing and adds no run.
    expect((await api(srv.url, token, `/schedules/w/audit/${second!.id}/undo`, "POST")).body).toMatchObject({
      run: 0,
      undo: { already: true },
    });
    // The undo of the undo brings the insolvency back.
    const redo = await api(srv.url, token, `/schedules/w/audit/${undone.body.undo.run}/undo`, "POST");
    expect(redo.body.undo).toMatchObject({ restored: second!.cells, kept: [] });
    const last = (await api(srv.url, token, `/schedules/w/runs?after=${undone.body.run}`)).body.runs;
    expect(last[0].result.restored.find((r: { id: string }) => r.id === target).cells.group).toBe(label("risk"));
  });

  it("an undo waits for a run of the same schedule holding the claim, then runs; too long a run: busy", async () => {
    const s = await sched();
    const audit = (await api(srv.url, token, "/schedules/w/audit")).body;
    const check = audit.runs.find((r: { kind: string }) => r.kind === "check").id as string;
    const hold = () =>
      srv.db.query(
        "update schedules set running_by = 'loop-b', running_until = now() + interval '1 minute' where id = $1",
        [s.id],
      );
    const release = () =>
      srv.db.query("update schedules set running_by = null, running_until = null where id = $1", [s.id]);
    const opts = { who: "audit-anna", now, process: "p1" };
    await hold();
    await expect(undoScheduleRun(srv.db, s, check, { ...opts, waitMs: 300 })).rejects.toBeInstanceOf(ScheduleBusy);
    const released = new Promise((r) => setTimeout(r, 400)).then(release);
    const done = await undoScheduleRun(srv.db, s, check, { ...opts, waitMs: 10_000 });
    await released;
    expect(done.undo.of).toBe(check);
    // The claim is given back.
    const [row] = await srv.db.query<{ running_by: string | null }>("select running_by from schedules where id = $1", [
      s.id,
    ]);
    expect(row!.running_by).toBeNull();
  });

  async function sched() {
    const u = await srv.db.query<{ id: number }>("select id from users where name = 'audit-anna'");
    return (await store.findSchedule(srv.db, u[0]!.id, "w"))!;
  }
});
