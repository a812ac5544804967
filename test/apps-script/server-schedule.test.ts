/**
 * Google Sheets with a team server as the connection (issue 24): the built
 * Code.js registers the portfolio with a real team server (a
 * `company-data server` process, whose own loop runs the check) when the
 * schedule is switched on in the sidebar, and the time-driven trigger's
 * tick writes what the server's runs found into the portfolio sheet and the
 * change log instead of checking itself. UrlFetchApp is synchronous, so the
 * harness's fetch to the server goes through a short-lived child process
 * (the server runs in another process, so nothing here waits on itself).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import type { HttpRequest, HttpResponse } from "../../shared/core/http.ts";
import { uniqueCompanies } from "../support/lists.ts";
import {
  pgliteDatabase,
  serverCommand,
  startEmulatorWorld,
  startServerProcess,
  type EmulatorWorld,
  type ServerProcess,
  type TestDatabase,
} from "../support/team-server.ts";
import { createSheetsFake, DOCUMENT_ID } from "./harness.ts";

const OUT = mkdtempSync(join(tmpdir(), "apps-script-server-schedule-"));
const KEY = "cd_live_SHEETSSERVERKEY_5c2e8f";

/** One request, synchronously, from a child process (UrlFetchApp blocks; the server answers from its own process). */
const FETCH_CHILD = `
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", async () => {
  const r = JSON.parse(input);
  const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
  const headers = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  process.stdout.write(JSON.stringify({ status: res.status, headers, body: await res.text() }));
});`;
const fetchSync = (r: HttpRequest): HttpResponse =>
  JSON.parse(
    execFileSync(process.execPath, ["-e", FETCH_CHILD], { input: JSON.stringify(r), encoding: "utf8" }),
  ) as HttpResponse;

describe("Google Sheets with a team server: the schedule runs on the server, the tick writes its runs", () => {
  let code = "";
  let world: EmulatorWorld;
  let database: TestDatabase;
  let server: ServerProcess;
  let token = "";

  beforeAll(async () => {
    await buildWithReport(OUT);
    code = readFileSync(join(OUT, "Code.js"), "utf8");
    // The server process keeps real time: the emulator's days start today, so its dates and the server's watermarks agree.
    const today = new Date().toISOString().slice(0, 10);
    world = await startEmulatorWorld({ companies: 1500, seed: 9, key: KEY, emulator: { startDate: today } });
    database = pgliteDatabase();
    const made = await serverCommand(database, ["token", "create", "--user", "sheets"]);
    token = made.stdout.trim().split("\n").at(-1)!;
    server = await startServerProcess(world, database, {
      COMPANY_DATA_API_KEY: KEY,
      COMPANY_DATA_SCHEDULE_TICK_SECONDS: "1",
    });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await world?.api.close();
    await database?.drop();
  });

  async function runs(name: string): Promise<{ id: number }[]> {
    const res = await fetch(`${server.url}/schedules/${name}/runs?after=0`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    return ((await res.json()) as { runs?: { id: number }[] }).runs ?? [];
  }

  /** "Run now" on the server, then wait for its loop to have run the schedule `n` times. */
  async function runNow(name: string, n: number) {
    await fetch(`${server.url}/schedules/${name}/run`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
    });
    for (let k = 0; k < 600 && (await runs(name)).length < n; k++) await new Promise((r) => setTimeout(r, 100));
    expect(await runs(name)).toHaveLength(n);
  }

  it("switched on in the sidebar: registered on the server; the tick syncs the insolvency into the sheet and the log", async () => {
    const companies = uniqueCompanies(world.emu, 4, 23);
    const active = new Set(world.emu.companies.withStatus("ACTIVE"));
    const target = companies.find((c) => active.has(c.id)) ?? companies[0]!;
    const teamServer = new URL(server.url).origin;
    const f = createSheetsFake({
      // Requests to the team server go there; the emulator answers nothing in this test.
      emulator: Object.assign(Object.create(world.emu) as typeof world.emu, {
        handle: (r: HttpRequest) =>
          r.url.startsWith(teamServer) ? fetchSync(r) : { status: 599, headers: {}, body: "not the team server" },
      }),
      dist: OUT,
      sheets: { Portfolio: [["ID", "Firma"], ...companies.map((c) => [c.id, c.name])] },
    });
    f.load(code);
    for (const [k, v] of Object.entries({
      connection: "server",
      serverUrl: server.url,
      serverToken: token,
      language: "en",
    }))
      f.setUser(k, v);
    const ui = (method: string, input: unknown) =>
      JSON.parse(f.call("uiCall", method, JSON.stringify(input)) as string) as {
        ok: boolean;
        value: any;
        error?: unknown;
      };

    const on = ui("monitorSaveSchedule", {
      schedule: { enabled: true, frequency: "daily", hour: 7 },
      utcOffsetMinutes: 60,
    });
    expect(on.ok, JSON.stringify(on.error)).toBe(true);
    expect(on.value.server.registered).toBe(true);
    const name = on.value.server.name as string;
    // The trigger that will sync, and the schedule on the server at 6:00 UTC (7:00 in UTC+1).
    expect(f.triggers.filter((t) => t.documentId === DOCUMENT_ID)).toHaveLength(1);
    const view = (await (
      await fetch(`${server.url}/schedules/${name}`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as { hour: number; companies: string[] };
    expect(view.hour).toBe(6);
    expect(view.companies.sort()).toEqual(companies.map((c) => c.id).sort());

    // The server's loop: the baseline, then the day of the insolvency.
    await runNow(name, 1);
    world.emu.scheduleEvent(target.id, { day: world.emu.clock.day() + 1, kind: "INSOLVENCY" });
    world.emu.clock.advance(1);
    await runNow(name, 2);

    // The trigger's tick, outside the document: it syncs, it does not check (no API call of its own).
    const trigger = f.triggers.find((t) => t.documentId === DOCUMENT_ID)!;
    f.fetches.length = 0;
    f.fire(trigger);
    const sent = f.fetches.flat().map((r) => new URL(r.url).pathname);
    expect(sent.some((p) => p.endsWith("/runs"))).toBe(true);
    expect(sent.filter((p) => p.startsWith("/v2/"))).toEqual([]);
    const sheet = f.grids.get("Portfolio")!;
    const flag = sheet[0]!.indexOf("Flag");
    expect(String(sheet.find((r) => r[0] === target.id)![flag])).toMatch(/[Ii]nsolvent/);
    const log = f.grids.get("Changes")!;
    expect(log.slice(1).some((l) => l[1] === target.id)).toBe(true);
  }, 240_000);
});
