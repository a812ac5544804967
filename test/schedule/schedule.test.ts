/**
 * The one scheduled-job module (shared/schedule/): when a job is due (the
 * slot at the user's hour, in the user's zone; hourly, daily, weekly), and
 * the one tick every host runs (paused runs resume, two jobs due at once
 * share a tick's deadline, a failing job never stops the next).
 */
import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  HOUR_MS,
  isDue,
  latestSlot,
  nextSlot,
  UTC,
  type Slot,
  type ZoneOffset,
} from "../../shared/schedule/slot.ts";
import { runTickAsync, runTickSync, runToEnd, tickJobs, tickWant, jobStates } from "../../shared/schedule/job.ts";
import type { JobCall, JobState, ScheduledJob, TickOptions } from "../../shared/schedule/job.ts";
import { settingsStore, slotFields, slotShape } from "../../shared/schedule/settings.ts";
import { memoryStores, runSync, type SyncDriver } from "../../shared/core/drivers.ts";
import * as z from "zod/mini";

const iso = (ms: number) => new Date(ms).toISOString();
const at = (s: string) => Date.parse(s);
const fixed =
  (hours: number): ZoneOffset =>
  () =>
    hours * HOUR_MS;
/** Berlin in 2026: +1 h, +2 h from 29 March 01:00 UTC (daylight saving). */
const BERLIN: ZoneOffset = (t) => (t >= at("2026-03-29T01:00:00Z") && t < at("2026-10-25T01:00:00Z") ? 2 : 1) * HOUR_MS;

describe("the slot at the user's hour", () => {
  const daily7: Slot = { frequency: "daily", hour: 7 };
  it("is the hour of the user's day, not of UTC", () => {
    expect(iso(latestSlot(daily7, at("2026-01-15T06:30:00Z"), fixed(1)))).toBe("2026-01-15T06:00:00.000Z");
    // New York (−5 h): 07:00 there is 12:00 UTC; at 11:00 UTC today's has not come yet, so yesterday's.
    expect(iso(latestSlot(daily7, at("2026-01-15T11:00:00Z"), fixed(-5)))).toBe("2026-01-14T12:00:00.000Z");
    // Sydney (+10 h): 22:00 UTC on the 15th is 08:00 on the 16th there.
    expect(iso(latestSlot(daily7, at("2026-01-15T22:00:00Z"), fixed(10)))).toBe("2026-01-15T21:00:00.000Z");
  });
  it("follows daylight saving", () => {
    expect(iso(latestSlot(daily7, at("2026-03-28T12:00:00Z"), BERLIN))).toBe("2026-03-28T06:00:00.000Z");
    expect(iso(latestSlot(daily7, at("2026-03-30T12:00:00Z"), BERLIN))).toBe("2026-03-30T05:00:00.000Z");
  });
  it("daily: due once the last run is older than the latest slot, in the user's zone", () => {
    const now = { now: at("2026-01-15T06:30:00Z"), zone: fixed(1) }; // 07:30 in Berlin
    expect(isDue(daily7, "2026-01-14T07:00:00Z", now)).toBe(true);
    expect(isDue(daily7, "2026-01-15T06:10:00Z", now)).toBe(false);
    // The same instants read in UTC: the slot (07:00 UTC) has not come, yesterday's was run.
    expect(isDue(daily7, "2026-01-14T07:00:00Z", { ...now, zone: UTC })).toBe(false);
    expect(isDue(daily7, null, now)).toBe(true);
    expect(isDue(daily7, "not a date", now)).toBe(true);
  });
  it("hourly: an hour since the last run, less a few minutes of slack; jittery hosts: half an hour", () => {
    const hourly: Slot = { frequency: "hourly", hour: 0 };
    const t0 = at("2026-01-15T12:00:00Z");
    expect(isDue(hourly, iso(t0 - 55 * 60_000), { now: t0, zone: UTC })).toBe(true);
    expect(isDue(hourly, iso(t0 - 50 * 60_000), { now: t0, zone: UTC })).toBe(false);
    expect(isDue(hourly, iso(t0 - 30 * 60_000), { now: t0, zone: UTC, jittery: true })).toBe(true);
    expect(isDue(hourly, iso(t0 - 20 * 60_000), { now: t0, zone: UTC, jittery: true })).toBe(false);
  });
  it("a jittery host never runs a daily job twice around its slot", () => {
    // A trigger fires at 06:55 (a catch-up) and again at 07:05: the second belongs to the same slot.
    const clock = { now: at("2026-01-15T07:05:00Z"), zone: UTC };
    expect(isDue(daily7, "2026-01-15T06:55:00Z", clock)).toBe(true);
    expect(isDue(daily7, "2026-01-15T06:55:00Z", { ...clock, jittery: true })).toBe(false);
  });
  it("weekly without a weekday: every seven days at the hour (half a day of tolerance)", () => {
    const weekly: Slot = { frequency: "weekly", hour: 6 };
    const clock = { now: at("2026-03-10T07:00:00Z"), zone: UTC };
    expect(isDue(weekly, "2026-03-03T06:30:00Z", clock)).toBe(true);
    expect(isDue(weekly, "2026-03-04T06:30:00Z", clock)).toBe(false);
    expect(isDue(weekly, "2026-03-03T18:59:00Z", clock)).toBe(true); // 6.5 days and a minute
  });
  it("weekly on a weekday: the weekday of the user's day; next slots strictly after", () => {
    // Monday 01:00 in a +2 h zone is Sunday 23:00 UTC.
    const monday1: Slot = { frequency: "weekly", hour: 1, weekday: 1 };
    const sunday = at("2026-03-01T12:00:00Z"); // a Sunday
    expect(iso(nextSlot(monday1, sunday, fixed(2)))).toBe("2026-03-01T23:00:00.000Z");
    expect(iso(nextSlot(monday1, at("2026-03-01T23:00:00Z"), fixed(2)))).toBe("2026-03-08T23:00:00.000Z");
    expect(iso(latestSlot(monday1, sunday, fixed(2)))).toBe("2026-02-22T23:00:00.000Z");
    expect(isDue(monday1, "2026-02-23T08:00:00Z", { now: sunday, zone: fixed(2) })).toBe(false);
    expect(isDue(monday1, "2026-02-22T08:00:00Z", { now: sunday, zone: fixed(2) })).toBe(true);
    expect(iso(nextSlot({ frequency: "hourly", hour: 0 }, at("2026-03-01T12:00:00Z"), UTC))).toBe(
      "2026-03-01T13:00:00.000Z",
    );
    expect(nextSlot({ frequency: "daily", hour: 7 }, at("2026-03-01T07:00:00Z"), UTC)).toBe(
      at("2026-03-01T07:00:00Z") + DAY_MS,
    );
  });
});

/** A job for the tick: its status is what the test sets; a step takes `stepMs` of the fake clock. */
interface FakeStatus {
  slot: Slot | null;
  last: string | null;
  paused: boolean;
}
function fakeJob(key: string): ScheduledJob<FakeStatus, { n: number }> {
  return {
    key,
    statusMethod: `${key}Status`,
    stepMethod: `${key}Run`,
    state: (s) => ({ slot: s.slot, lastRun: s.last, paused: s.paused }),
    stepInput: () => ({ n: 1 }),
    runKey: () => key,
    hostNotes: { test: { de: "", en: "" } },
  };
}

function world(jobs: Record<string, FakeStatus & { steps: number; stepMs: number; fails?: boolean }>) {
  let clock = at("2026-01-15T12:00:00Z");
  const calls: JobCall[] = [];
  const call = (c: JobCall): unknown => {
    calls.push(c);
    const j = jobs[c.job]!;
    if (c.kind === "status") {
      if (j.fails) throw new Error("offline");
      return { slot: j.slot, last: j.last, paused: j.paused };
    }
    clock += j.stepMs;
    // Each job needs `steps` steps; a step with less than its time left pauses (a deadline).
    const finished = --j.steps <= 0;
    j.paused = !finished;
    if (finished) j.last = iso(clock);
    return { status: finished ? "done" : "paused" };
  };
  return { calls, call, now: () => clock, jobs };
}

const daily: Slot = { frequency: "daily", hour: 7 };

describe("the tick", () => {
  const base = (w: { now: () => number }): TickOptions => ({ now: w.now, zone: UTC, maxSteps: 1 });

  it("a job that is off or not due is read, never run", () => {
    const w = world({
      a: { slot: null, last: null, paused: false, steps: 1, stepMs: 0 },
      b: { slot: daily, last: "2026-01-15T07:30:00Z", paused: false, steps: 1, stepMs: 0 },
    });
    const out = runTickSync(tickJobs([fakeJob("a"), fakeJob("b")], base(w)), w.call);
    expect(w.calls.map((c) => c.method)).toEqual(["aStatus", "bStatus"]);
    expect(out.map((o) => o.summary)).toEqual([null, null]);
  });

  it("jobs reading one status method read it once a tick, and again only after a step of one of them", () => {
    // Two jobs over one status (as the check and the team server's sync share monitorStatus).
    const shared = (key: string): ScheduledJob<FakeStatus, { n: number }> => ({
      ...fakeJob(key),
      statusMethod: "sharedStatus",
    });
    const methods: string[] = [];
    const answer = (status: FakeStatus) => (c: JobCall) => (
      methods.push(c.method),
      c.kind === "status" ? status : { status: "done" }
    );
    const w = { now: () => at("2026-01-15T12:00:00Z") };
    const off: FakeStatus = { slot: null, last: null, paused: false };
    runTickSync(tickJobs([shared("a"), shared("b")], base(w)), answer(off));
    expect(methods).toEqual(["sharedStatus"]);
    methods.length = 0;
    const due: FakeStatus = { slot: daily, last: null, paused: false };
    runTickSync(tickJobs([shared("a"), shared("b")], base(w)), answer(due));
    expect(methods).toEqual(["sharedStatus", "aRun", "sharedStatus", "bRun"]);
  });

  it("a paused run resumes on the next tick though its slot was run, and ends", () => {
    const w = world({ a: { slot: daily, last: null, paused: false, steps: 3, stepMs: 60_000 } });
    const jobs = [fakeJob("a")];
    const first = runTickSync(tickJobs(jobs, base(w)), w.call);
    expect(first[0]).toMatchObject({ summary: { status: "paused" }, pending: true });
    const second = runTickSync(tickJobs(jobs, base(w)), w.call);
    expect(second[0]).toMatchObject({ summary: { status: "paused" }, pending: true });
    const third = runTickSync(tickJobs(jobs, base(w)), w.call);
    expect(third[0]).toMatchObject({ summary: { status: "done" }, pending: false });
    const fourth = runTickSync(tickJobs(jobs, base(w)), w.call);
    expect(fourth[0]?.summary).toBeNull(); // done for today's slot
    // Without a deadline (Excel), one tick runs it to the end.
    const w2 = world({ a: { slot: daily, last: null, paused: false, steps: 3, stepMs: 60_000 } });
    const once = runTickSync(tickJobs(jobs, { ...base(w2), maxSteps: 50 }), w2.call);
    expect(once[0]).toMatchObject({ summary: { status: "done" }, pending: false });
    expect(w2.calls.filter((c) => c.kind === "step")).toHaveLength(3);
  });

  it("two jobs due at once share one tick's deadline: the second waits when too little time is left", () => {
    const w = world({
      check: { slot: daily, last: null, paused: false, steps: 1, stepMs: 230_000 },
      refresh: { slot: daily, last: null, paused: false, steps: 1, stepMs: 10_000 },
    });
    const jobs = [fakeJob("check"), fakeJob("refresh")];
    const opts = (): TickOptions => ({
      ...base(w),
      budget: { startedAt: w.now(), ms: 270_000, leastStepMs: 60_000 },
    });
    const first = runTickSync(tickJobs(jobs, opts()), w.call);
    expect(first.map((o) => [o.key, o.summary?.status ?? null, o.pending])).toEqual([
      ["check", "done", false],
      ["refresh", null, true],
    ]);
    const steps = w.calls.filter((c) => c.kind === "step");
    expect(steps[0]?.budgetMs).toBe(270_000);
    // The next tick: the check is done for its slot, the refresh runs with the whole budget.
    const second = runTickSync(tickJobs(jobs, opts()), w.call);
    expect(second.map((o) => [o.key, o.summary?.status ?? null, o.pending])).toEqual([
      ["check", null, false],
      ["refresh", "done", false],
    ]);
    expect(w.calls.filter((c) => c.kind === "step").at(-1)?.budgetMs).toBe(270_000);
  });

  it("a step gets what the tick has left", () => {
    const w = world({
      a: { slot: daily, last: null, paused: false, steps: 1, stepMs: 100_000 },
      b: { slot: daily, last: null, paused: false, steps: 1, stepMs: 0 },
    });
    runTickSync(
      tickJobs([fakeJob("a"), fakeJob("b")], {
        ...base(w),
        budget: { startedAt: w.now(), ms: 270_000, leastStepMs: 60_000 },
      }),
      w.call,
    );
    expect(w.calls.filter((c) => c.kind === "step").map((c) => c.budgetMs)).toEqual([270_000, 170_000]);
  });

  it("a job that fails never stops the next; its error is in its outcome", async () => {
    const w = world({
      a: { slot: daily, last: null, paused: false, steps: 1, stepMs: 0, fails: true },
      b: { slot: daily, last: null, paused: false, steps: 1, stepMs: 0 },
    });
    const out = await runTickAsync(tickJobs([fakeJob("a"), fakeJob("b")], base(w)), async (c) => w.call(c));
    expect(out[0]).toMatchObject({ key: "a", state: null, summary: null });
    expect(String(out[0]?.error)).toMatch(/offline/);
    expect(out[1]).toMatchObject({ key: "b", summary: { status: "done" } });
  });

  it("skipped jobs are not even read; states without running anything", () => {
    const w = world({
      a: { slot: daily, last: null, paused: false, steps: 1, stepMs: 0 },
      b: { slot: { frequency: "hourly", hour: 3 }, last: null, paused: true, steps: 1, stepMs: 0 },
    });
    runTickSync(tickJobs([fakeJob("a")], { ...base(w), skip: (k) => k === "a" }), w.call);
    expect(w.calls).toEqual([]);
    const states: JobState[] = runTickSync(jobStates([fakeJob("a"), fakeJob("b")]), w.call);
    expect(states.map((s) => tickWant(s, s.paused))).toEqual([
      { frequency: "daily", hour: 7 },
      { frequency: "hourly", hour: 3 },
    ]);
    expect(tickWant({ slot: { frequency: "weekly", hour: 6 }, lastRun: null, paused: false }, false)).toEqual({
      frequency: "daily",
      hour: 6,
    });
    expect(tickWant({ slot: daily, lastRun: null, paused: false }, true)).toEqual({ frequency: "hourly", hour: 7 });
    expect(tickWant({ slot: null, lastRun: null, paused: true }, true)).toBeNull();
    expect(w.calls.every((c) => c.kind === "status")).toBe(true);
  });
});

describe("a run to its end without a deadline (CLI, team server)", () => {
  it("steps while paused, at most `again` more times", async () => {
    let steps = 0;
    const pausedTwice = () => Promise.resolve({ status: ++steps <= 2 ? "paused" : "done" });
    expect(await runToEnd(pausedTwice, 5)).toEqual({ status: "done" });
    expect(steps).toBe(3);
    steps = 0;
    const alwaysPaused = () => Promise.resolve({ status: (++steps, "paused") });
    expect(await runToEnd(alwaysPaused, 4)).toEqual({ status: "paused" });
    expect(steps).toBe(5);
  });
});

describe("a job's schedule settings", () => {
  it("frequency, hour and on/off are validated with the field named, in both languages", () => {
    expect(() => slotFields({ frequency: "weekly" }, ["hourly", "daily"], { frequency: "daily", hour: 7 })).toThrow(
      /frequency/,
    );
    const error = (() => {
      try {
        slotFields({ frequency: "monthly" }, ["daily", "weekly"], { frequency: "daily", hour: 7 });
      } catch (e) {
        return e as { text(l: "de" | "en"): string };
      }
    })();
    expect(error?.text("de")).toMatch(/täglich \(daily\) oder wöchentlich \(weekly\)/);
    expect(error?.text("en")).toMatch(/expected daily or weekly/);
    expect(() => slotFields({ hour: 24 }, ["daily"], { frequency: "daily", hour: 7 })).toThrow(/hour/);
    expect(() => slotFields({ enabled: "yes" }, ["daily"], { frequency: "daily", hour: 7 })).toThrow(/enabled/);
    expect(slotFields({ hour: "9", enabled: true }, ["daily"], { frequency: "daily", hour: 7 })).toEqual({
      enabled: true,
      frequency: "daily",
      hour: 9,
    });
  });

  it("are kept versioned; a saved value that no longer validates reads as the defaults", () => {
    type S = { enabled: boolean; frequency: "daily"; hour: number; note: string };
    const validate = (v: unknown): S => {
      const r = v as Record<string, unknown>;
      if (r.note === "bad") throw new Error("bad");
      return { ...slotFields(r, ["daily"], { frequency: "daily", hour: 7 }), note: String(r.note ?? "") };
    };
    const store = settingsStore<S>({
      key: "doc:test:settings",
      shape: z.object({ ...slotShape(["daily"]), note: z.string() }),
      validate,
      defaults: { enabled: false, frequency: "daily", hour: 7, note: "" },
    });
    const m = memoryStores();
    const driver: SyncDriver = { ...m, http: () => [], sleep: () => {} };
    runSync(store.save({ enabled: true, frequency: "daily", hour: 9, note: "x" }), driver);
    expect(runSync(store.load(), driver)).toEqual({ enabled: true, frequency: "daily", hour: 9, note: "x" });
    expect(JSON.parse(m.store.get("doc:test:settings")!)).toMatchObject({ v: 1 });
    // What is saved is validated first: nothing is written that would not read back.
    expect(() => runSync(store.save({ enabled: true, frequency: "daily", hour: 9, note: "bad" }), driver)).toThrow();
    // Written by an older version in a form that no longer validates: the defaults, not a broken schedule.
    m.store.set("doc:test:settings", JSON.stringify({ v: 1, enabled: true, frequency: "daily", hour: 9, note: "bad" }));
    expect(runSync(store.load(), driver)).toEqual({ enabled: false, frequency: "daily", hour: 7, note: "" });
    // Before v1 the settings were written without a version: still read.
    m.store.set("doc:test:settings", JSON.stringify({ enabled: true, frequency: "daily", hour: 8, note: "old" }));
    expect(runSync(store.load(), driver)).toMatchObject({ hour: 8, note: "old" });
  });
});
