/**
 * The monitoring schedule through the built Code.js: the Monitor sidebar's
 * uiCall sets and removes the installable time-driven trigger (the harness
 * fakes ScriptApp's trigger API with the add-on limits), and the trigger's
 * handler runs portfolio checks against the in-process emulator whose clock
 * moves with the script's: a check longer than a tick pauses under the
 * 6-minute limit and continues on the next tick, never logging a change
 * twice, and spends exactly what the sidebar showed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import { createEmulator, type Emulator, type EmulatorOptions } from "../../emulator/index.ts";
import { createSheetsFake, DOCUMENT_ID, EXECUTION_LIMIT_MS, type SheetsOptions } from "./harness.ts";
import { nth } from "../helpers/indexed.ts";

const OUT = mkdtempSync(join(tmpdir(), "apps-script-schedule-"));
let code = "";
const HOUR = 3_600_000;

beforeAll(async () => {
  await buildWithReport(OUT);
  code = readFileSync(join(OUT, "Code.js"), "utf8");
});

interface World {
  emu: Emulator;
  f: ReturnType<typeof createSheetsFake>;
  key: string;
  /** The script's and the emulator's clock. */
  clock: { t: number };
  /** Epoch ms of `hour`:`minute` UTC on the emulator's current day. */
  at(hour: number, minute?: number): number;
  /** Credits charged so far. */
  charged(): number;
  ui<T = unknown>(method: string, input: unknown): { ok: boolean; value: T; error?: unknown };
}

function world(
  opts: Partial<SheetsOptions> & {
    companies?: number;
    portfolio?: number;
    rateLimits?: EmulatorOptions["rateLimits"];
  } = {},
): World {
  const clock = { t: 0 };
  const emu = createEmulator({
    companies: opts.companies ?? 400,
    seed: 11,
    startDate: "2026-01-15",
    now: () => clock.t,
    rateLimits: opts.rateLimits,
  });
  const at = (hour: number, minute = 0) => Date.parse(`${emu.clock.today()}T00:00:00Z`) + hour * HOUR + minute * 60_000;
  clock.t = at(5);
  const ids = emu.companies.ids().slice(0, opts.portfolio ?? 10);
  const f = createSheetsFake({
    emulator: emu,
    dist: OUT,
    now: () => clock.t,
    sheets: { Portfolio: [["ID"], ...ids.map((id) => [id])] },
    // Utilities.sleep (retry back-off after 429) takes the script's time.
    onSleep: (ms) => {
      clock.t += ms;
    },
    // The trigger runs outside the document: no active spreadsheet, and (the harness's default) neither the
    // document's properties nor its lock; trigger-context.test.ts takes every variant the references allow.
    ...opts,
  });
  f.load(code);
  f.setClock(() => clock.t);
  const credits = 1_000_000;
  const key = emu.createKey(credits);
  for (const [k, v] of Object.entries({ apiKey: key, baseUrl: "https://api.implisense.com", language: "en" }))
    f.setUser(k, v);
  return {
    emu,
    f,
    key,
    clock,
    at,
    charged: () => credits - emu.balance(key),
    ui: (method, input) => JSON.parse(f.call("uiCall", method, JSON.stringify(input)) as string),
  };
}

const docTriggers = (w: World) => w.f.triggers.filter((t) => t.documentId === DOCUMENT_ID);

describe.each([
  ["getUserTriggers lists the document's time-driven triggers", true],
  ["only getProjectTriggers lists them", false],
])("the schedule's trigger (%s)", (_label, perDocument) => {
  it("on creates exactly one trigger for monitorTick; hourly replaces daily; off removes it; other documents' triggers stay", () => {
    const w = world({ clockTriggersPerDocument: perDocument });
    const foreign = w.f.addForeignTrigger("monitorTick", "another-spreadsheet");
    const save = (schedule: Record<string, unknown>) => {
      const out = w.ui("monitorSaveSchedule", { schedule });
      expect(out.ok, JSON.stringify(out.error)).toBe(true);
    };

    save({ enabled: true, frequency: "daily", hour: 7 });
    expect(docTriggers(w)).toHaveLength(1);
    const daily = nth(docTriggers(w), 0);
    expect(daily).toMatchObject({ handler: "monitorTick", kind: "daily", every: 1, hour: 7 });
    expect(code).toMatch(/^function monitorTick\(/m);

    save({ enabled: true, frequency: "daily", hour: 7 });
    expect(docTriggers(w).map((t) => t.uid)).toEqual([daily.uid]); // unchanged: no churn

    save({ enabled: true, frequency: "hourly" });
    expect(docTriggers(w)).toHaveLength(1);
    expect(docTriggers(w)[0]).toMatchObject({ handler: "monitorTick", kind: "hourly", every: 1 });

    save({ enabled: true, frequency: "daily", hour: 18 });
    expect(docTriggers(w)).toHaveLength(1);
    expect(docTriggers(w)[0]).toMatchObject({ kind: "daily", hour: 18 });

    save({ enabled: false });
    expect(docTriggers(w)).toHaveLength(0);
    expect(w.f.triggers).toEqual([foreign]);
  });
});

describe("a trigger that cannot be created", () => {
  type Envelope = { ok: boolean; error?: { code: string; field?: string; message: { de: string; en: string } } };
  const schedule = (w: World) => w.ui<{ schedule: { enabled: boolean } }>("monitorStatus", {}).value.schedule;

  // 20 triggers per user and script (https://developers.google.com/apps-script/guides/services/quotas, "Triggers");
  // Apps Script's refusal is localised, so the add-on counts before creating instead of reading it.
  it("the user's trigger quota is full: a clear DE/EN message, no Apps Script text, and the schedule is saved as off", () => {
    const w = world();
    for (let i = 0; i < 20; i++) w.f.addForeignTrigger("monitorTick", `other-${i}`);
    const out = w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "daily", hour: 7 } }) as Envelope;
    expect(out.ok).toBe(false);
    expect(out.error!.message.de).toMatch(/Zeitplan wurde nicht eingeschaltet.*zu viele Trigger/);
    expect(out.error!.message.en).toMatch(/schedule was not switched on.*too many triggers/);
    for (const m of Object.values(out.error!.message))
      expect(m).not.toMatch(
        /This script has too many triggers|must be deleted from the script|Dieses Skript hat zu viele Trigger/,
      );
    expect(schedule(w).enabled).toBe(false);
    expect(docTriggers(w)).toHaveLength(0);
    expect(w.f.triggers).toHaveLength(20);
  });

  it("any other failure (here: authorisation) rolls back too; an earlier trigger of the document is removed with it", () => {
    const w = world();
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "hourly" } }).ok).toBe(true);
    expect(docTriggers(w)).toHaveLength(1);
    const ScriptApp = w.f.context.ScriptApp;
    const newTrigger = ScriptApp.newTrigger;
    ScriptApp.newTrigger = () => {
      throw new Error("Authorization is required to perform that action. at monitorTick (Code:12:3)");
    };
    const out = w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "daily", hour: 9 } }) as Envelope;
    expect(out.ok).toBe(false);
    expect(out.error!.message.de).toBe(
      "Der Zeitplan wurde nicht eingeschaltet: Google hat den Zeit-Trigger nicht angelegt. Bitte später erneut versuchen.",
    );
    expect(out.error!.message.en).toBe(
      "The schedule was not switched on: Google did not create the time-driven trigger. Please try again later.",
    );
    expect(JSON.stringify(out)).not.toMatch(/Authorization is required|Code:12/);
    expect(schedule(w).enabled).toBe(false);
    expect(docTriggers(w)).toHaveLength(0);
    // The next save that can create its trigger works as before.
    ScriptApp.newTrigger = newTrigger;
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "daily", hour: 9 } }).ok).toBe(true);
    expect(docTriggers(w)).toHaveLength(1);
    expect(schedule(w).enabled).toBe(true);
  });
});

describe("the trigger fake keeps the add-on rules", () => {
  it("one time-driven trigger per document, at most hourly, valid hours only", () => {
    const w = world();
    const ScriptApp = w.f.context.ScriptApp;
    expect(() => ScriptApp.newTrigger("monitorTick").timeBased().everyMinutes(30).create()).toThrow(
      /more often than once an hour/,
    );
    expect(() => ScriptApp.newTrigger("monitorTick").timeBased().everyHours(3)).toThrow(/1, 2, 4, 6, 8 or 12/);
    expect(() => ScriptApp.newTrigger("monitorTick").timeBased().atHour(7).create()).toThrow(/atHour/);
    ScriptApp.newTrigger("monitorTick").timeBased().everyHours(1).create();
    expect(() => ScriptApp.newTrigger("other").timeBased().everyDays(1).create()).toThrow(
      /too many time-based triggers in this document/,
    );
    // Daily at 7 in Europe/Berlin is 06:xx UTC in January, every 24 hours.
    w.f.triggers.length = 0;
    const t = ScriptApp.newTrigger("monitorTick").timeBased().atHour(7).nearMinute(20).everyDays(1).create() as {
      getUniqueId(): string;
      getEventType(): string;
    };
    expect(t.getEventType()).toBe("CLOCK");
    const fake = w.f.triggers.find((x) => x.uid === t.getUniqueId())!;
    const first = w.f.nextFire(fake, w.clock.t);
    expect(new Date(first).toISOString()).toBe(`${w.emu.clock.today()}T06:20:00.000Z`);
    expect(w.f.nextFire(fake, first)).toBe(first + 24 * HOUR);
  });
});

describe("monitorTick", () => {
  it("runs the check on schedule, pauses under the time limit, continues on the next tick without logging a change twice, and spends the estimate shown", () => {
    // Every paid batch takes 100 s of the script's clock: a check of 100 companies needs more than one tick.
    const w: World = world({
      portfolio: 100,
      rateLimits: { availability: { capacity: 1000 } },
      onFetch: (reqs) => {
        if (reqs.some((r) => !/\/availability$/.test(new URL(r.url).pathname))) w.clock.t += 100_000;
      },
    });
    const setNow = (ms: number) => {
      w.clock.t = ms;
    };

    // The sidebar shows the estimate, then switches the schedule on.
    const est = w.ui<{ nextRun: number; perRun: number; perDay: number; runsPerDay: number }>("monitorEstimate", {
      schedule: { enabled: true, frequency: "daily", hour: 7 },
    });
    expect(est.ok).toBe(true);
    expect(est.value.nextRun).toBeGreaterThan(0);
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "daily", hour: 7 } }).ok).toBe(true);
    expect(w.charged()).toBe(0);

    // Day 0: the daily tick at 07:xx Berlin starts the first check and pauses; hourly ticks finish it; then daily again.
    const day0 = w.f.runSchedule(w.clock.t, w.at(23), setNow);
    expect(day0.filter((r) => r.error)).toEqual([]);
    // Paused at 07:xx by the daily trigger, continued by the hourly one that replaced it.
    expect(day0.map((r) => r.kind)).toEqual(["daily", "hourly"]);
    const status0 = w.ui<{ paused: boolean; last: { status: string; spent: number } }>("monitorStatus", {});
    expect(status0.value.paused).toBe(false);
    expect(status0.value.last.status).toBe("done");
    expect(w.charged()).toBe(est.value.nextRun);
    expect(docTriggers(w)).toHaveLength(1);
    expect(docTriggers(w)[0]).toMatchObject({ kind: "daily", hour: 7, handler: "monitorTick" });
    const portfolio = w.f.grids.get("Portfolio")!;
    const header = nth(portfolio, 0).map(String);
    expect(header.some((h) => /^Risk/.test(h))).toBe(true);
    expect(portfolio.slice(1).every((r) => String(r[header.findIndex((h) => /^Checked/.test(h))] ?? "") !== "")).toBe(
      true,
    );

    // Changes spread over the whole table on day 3.
    // (Companies on their way out of the register take no address change: only those without a risk flag.)
    const risk = header.findIndex((h) => /^Risk/.test(h));
    const changed = portfolio
      .slice(1)
      .filter((r, i) => i % 7 === 0 && r[risk] !== "Risk")
      .map((r) => String(r[0]));
    expect(changed.length).toBeGreaterThanOrEqual(10);
    for (const id of changed) w.emu.scheduleEvent(id, { day: 3, kind: "ADDRESS" });

    const log = () => (w.f.grids.get("Changes") ?? []).slice(1);
    for (let day = 1; day <= 4; day++) {
      w.emu.clock.advance(1);
      setNow(w.at(5));
      const preview = w.ui<{ estimate: number }>("monitorPreview", {});
      expect(preview.ok).toBe(true);
      const before = w.charged();
      const linesBefore = log().length;
      const runs = w.f.runSchedule(w.at(5), w.at(23), setNow);
      expect(runs.filter((r) => r.error)).toEqual([]);
      expect(w.charged() - before, `day ${day}`).toBe(preview.value.estimate);
      const keys = log().map((r) => String(r[6]));
      expect(new Set(keys).size, `day ${day}: a line logged twice`).toBe(keys.length);
      if (day === 3) {
        // The check paused (daily tick, then hourly ones) and still logged each address change once.
        expect(runs.map((r) => r.kind)).toEqual(["daily", "hourly"]);
        expect(log().length).toBeGreaterThan(linesBefore);
      }
      expect(docTriggers(w)).toHaveLength(1);
      expect(docTriggers(w)[0]).toMatchObject({ kind: "daily", hour: 7 });
    }
    // Each address change logged exactly once over the days.
    for (const id of changed)
      expect(
        log().filter((r) => r[1] === id && /address/i.test(String(r[4]))),
        id,
      ).toHaveLength(1);
  });

  // Availability is asked for 25 companies at a time against the emulator's bucket of 20
  // (refill 5/s): the core paces rate-limited calls to the bucket, so every company is
  // checked and the spend equals the estimate shown.
  it("with the API's real availability rate limit, every company is checked and the spend equals the estimate shown", () => {
    const w: World = world({
      portfolio: 100,
      onFetch: (reqs) => {
        if (reqs.some((r) => !/\/availability$/.test(new URL(r.url).pathname))) w.clock.t += 100_000;
      },
    });
    const est = w.ui<{ nextRun: number; preview: { errors: number } }>("monitorEstimate", {
      schedule: { enabled: true, frequency: "hourly" },
    });
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "hourly" } }).ok).toBe(true);
    w.f.runSchedule(w.clock.t, w.clock.t + 5 * HOUR, (ms) => {
      w.clock.t = ms;
    });
    const last = w.ui<{ last: { errors: number; status: string } }>("monitorStatus", {}).value.last;
    expect(last.status).toBe("done");
    expect(last.errors).toBe(0);
    expect(w.charged()).toBe(est.value.nextRun);
  });

  it("a tick that would overrun is stopped by the fake, so the limit is enforced", () => {
    const w: World = world({
      onFetch: () => {
        w.clock.t += EXECUTION_LIMIT_MS;
      },
    });
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "hourly" } }).ok).toBe(true);
    const runs = w.f.runSchedule(w.clock.t, w.clock.t + 2 * HOUR, (ms) => {
      w.clock.t = ms;
    });
    expect(runs[0]?.error).toMatch(/Exceeded maximum execution time/);
  });

  it("a switched-off schedule's stray tick removes its trigger and spends nothing", () => {
    const w = world();
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "hourly" } }).ok).toBe(true);
    // The schedule is switched off behind the trigger's back (another editor, an old version).
    const key = [...w.f.state().keys()].find((k) => k.includes("mon:schedule"))!;
    w.f.setState(key, JSON.stringify({ ...JSON.parse(w.f.state().get(key)!), enabled: false }));
    const runs = w.f.runSchedule(w.clock.t, w.clock.t + 2 * HOUR, (ms) => {
      w.clock.t = ms;
    });
    expect(runs).toHaveLength(1);
    expect(docTriggers(w)).toHaveLength(0);
    expect(w.charged()).toBe(0);
  });
});

/**
 * The tick outside the document. Google's "Triggers for Editor add-ons"
 * (https://developers.google.com/workspace/add-ons/concepts/editor-triggers)
 * runs time-driven triggers without the editor open: SpreadsheetApp.getActive()
 * is null there, LockService.getDocumentLock() "if … called outside of the
 * context of a containing document … null is returned"
 * (https://developers.google.com/apps-script/reference/lock/lock-service#getDocumentLock()),
 * and getDocumentProperties() may be null
 * (https://developers.google.com/apps-script/reference/properties/properties-service#getDocumentProperties()).
 * The harness's fire() models this; these tests take the unhappy variants.
 */
describe("the tick outside the document", () => {
  type Status = { hostNote: { de: string; en: string }; last: { status: string } | null };

  it("opens the spreadsheet by the id stored with its trigger and runs the check without an active spreadsheet or document lock", () => {
    const w = world({ triggerContext: { documentProperties: true, documentLock: false } });
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "hourly" } }).ok).toBe(true);
    w.f.resetCounts();
    const runs = w.f.runSchedule(w.clock.t, w.clock.t + 2 * HOUR, (ms) => {
      w.clock.t = ms;
    });
    expect(runs.filter((r) => r.error)).toEqual([]);
    expect(w.f.calls).toContain("SpreadsheetApp.openById");
    expect(w.ui<Status>("monitorStatus", {}).value.last?.status).toBe("done");
    expect(w.charged()).toBeGreaterThan(0);
  });

  it("a deleted spreadsheet: the tick removes its own trigger (it could never work again) and leaves other documents' triggers", () => {
    const w = world();
    const foreign = w.f.addForeignTrigger("monitorTick", "another-spreadsheet");
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "hourly" } }).ok).toBe(true);
    w.f.deleteDocument();
    const mine = nth(docTriggers(w), 0);
    w.clock.t = w.f.nextFire(mine, w.clock.t);
    w.f.fire(mine);
    expect(w.f.triggers).toEqual([foreign]);
    expect(w.charged()).toBe(0);
    expect(w.f.userProps.getProperty("companyData.tickFailure:sheet-id-1")).toMatch(/could not open the spreadsheet/);
  });

  it("a trigger from an earlier version (no spreadsheet id stored) gets its id when its owner opens the Monitor sidebar", () => {
    const w = world();
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "hourly" } }).ok).toBe(true);
    const uid = nth(docTriggers(w), 0).uid;
    w.f.userProps.deleteProperty(`companyData.triggerDoc:${uid}`);
    w.f.runSchedule(w.clock.t, w.clock.t + 2 * HOUR, (ms) => {
      w.clock.t = ms;
    });
    expect(w.charged()).toBe(0); // the tick could not know its spreadsheet
    w.ui("monitorStatus", {});
    expect(w.f.userProps.getProperty(`companyData.triggerDoc:${uid}`)).toBe(DOCUMENT_ID);
    w.f.runSchedule(w.clock.t, w.clock.t + 2 * HOUR, (ms) => {
      w.clock.t = ms;
    });
    expect(w.charged()).toBeGreaterThan(0);
  });

  it("the daily hour is the spreadsheet's time zone's, not the script's", () => {
    const w = world({ spreadsheetTimeZone: "America/New_York" });
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "daily", hour: 7 } }).ok).toBe(true);
    const t = nth(docTriggers(w), 0);
    expect(t.timeZone).toBe("America/New_York");
    // 07:xx in New York in January is 12:xx UTC.
    expect(new Date(w.f.nextFire(t, w.clock.t)).getUTCHours()).toBe(12);
  });

  it("catch-up ticks stop for the day before the add-on's share of the triggers' daily runtime is used (Google: 90 minutes a day for consumer accounts)", () => {
    // https://developers.google.com/apps-script/guides/services/quotas, "Triggers total runtime".
    const w = world();
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "hourly" } }).ok).toBe(true);
    w.f.userProps.setProperty(
      "companyData.tickRuntime",
      JSON.stringify({ day: new Date(w.clock.t).toISOString().slice(0, 10), ms: 58 * 60_000 }),
    );
    w.f.runSchedule(w.clock.t, w.clock.t + 2 * HOUR, (ms) => {
      w.clock.t = ms;
    });
    expect(w.charged()).toBe(0);
    expect(w.ui<Status>("monitorStatus", {}).value.hostNote.en).toMatch(
      /used up today's time budget.*90 minutes a day/,
    );
    // The next UTC day the check runs again.
    w.clock.t = w.at(24 + 5);
    w.f.runSchedule(w.clock.t, w.clock.t + 2 * HOUR, (ms) => {
      w.clock.t = ms;
    });
    expect(w.charged()).toBeGreaterThan(0);
    expect(w.ui<Status>("monitorStatus", {}).value.hostNote.en).not.toMatch(/failed/);
  });

  it("a run claims the document with a marker, not the document lock: a formula's budget lock is free during it, a second run is refused with a clear message", () => {
    const seen: { lockFree: boolean; second: string }[] = [];
    const w: World = world({
      portfolio: 20,
      onFetch: () => {
        if (seen.length) return;
        const lock = w.f.context.LockService.getDocumentLock();
        const free = lock.tryLock(0) === true;
        if (free) lock.releaseLock();
        seen.push({ lockFree: free, second: w.f.call("uiCall", "monitorRun", "{}") as string });
      },
    });
    const out = w.ui<{ status: string }>("monitorRun", {});
    expect(out.ok).toBe(true);
    expect(nth(seen, 0).lockFree).toBe(true);
    const second = JSON.parse(nth(seen, 0).second) as { ok: boolean; error: { message: { de: string; en: string } } };
    expect(second.ok).toBe(false);
    expect(second.error.message.en).toMatch(/Another run .* is working on this spreadsheet/);
    expect(second.error.message.de).toMatch(/läuft gerade schon ein Vorgang/);
    // Released afterwards: the next run goes.
    expect(w.ui("monitorRun", {}).ok).toBe(true);
  });
});
