/**
 * Saved state (shared/core/saved.ts): every kind round-trips its good value;
 * damaged, foreign, other-version and misshapen values read as absent and
 * never throw; kinds written before versions read their unversioned form.
 */
import { describe, expect, test } from "vitest";
import * as z from "zod/mini";
import {
  readPart,
  readSaved,
  savedCacheEnvelope,
  savedKind,
  writeSaved,
  type SavedKind,
} from "../../shared/core/saved.ts";
import { savedKeyAnswer } from "../../shared/enrich/row-result-schema.ts";
import { runSync } from "../../shared/core/drivers.ts";
import { CHECKPOINT } from "../../shared/enrich/job-checkpoint.ts";
import { CHECKPOINT_PART } from "../support/enrich-rows.ts";
import { ROW_LEDGER, ROW_LEDGER_PART } from "../../shared/enrich/row-ledger.ts";
import { budgetKey, budgetStatus, SPENT_TODAY } from "../../shared/credits/budget.ts";
import { LEDGER, ledgerKey, readLedger } from "../../shared/credits/ledger.ts";
import { COMPANY_STATE } from "../../shared/monitor/watermark.ts";
import { LAST_RUN, RUN_STATE } from "../../shared/monitor/state-schema.ts";
import { DELIVERY, OUTBOX } from "../../shared/monitor/alerts.ts";
import { SAVED_ALERTS } from "../../shared/monitor/alert-settings.ts";
import { SAVED_SCHEDULE } from "../../shared/monitor/schedule.ts";
import { SAVED_JOB } from "../../shared/app/enrich-ui-job.ts";
import { SAVED_SEARCHES } from "../../shared/app/saved-searches.ts";
import { CACHED_CALL } from "../../shared/operations/cached.ts";
import { CACHED_ANSWER } from "../../shared/operations/resolve.ts";
import { LAST_REFRESH } from "../../shared/refresh/run.ts";
import { MONTH_SPENT, monthKey, monthSpend } from "../../shared/refresh/month.ts";
import { SAVED_REFRESH } from "../../shared/refresh/settings.ts";
import { RUN_MARKER } from "../../apps-script/run-marker.ts";
import { INSTALLED_TRIGGER, TICK_FAILURE, TICK_RUNTIME } from "../../apps-script/monitor.ts";
import { LOCK_OWNER } from "../../node/lock.ts";
import { fakeApi, json, testContext } from "../helpers/fake-api.ts";

const company = { id: "DE-HRB-M-6684", name: "Muster GmbH", city: "München" };
const bi = { de: "Risiko", en: "Risk" };

/** Each kind with a value that uses every field it has, and whether it reads its unversioned form. */
const KINDS: [name: string, kind: SavedKind<object>, good: object, unversioned: boolean][] = [
  [
    "job checkpoint",
    CHECKPOINT,
    { v: 1, sig: "abc", selection: "0-9,12", cursor: 3, state: "running", parts: 2 },
    false,
  ],
  ["budget", SPENT_TODAY, { day: "2026-11-23", spent: 17 }, true],
  ["ledger", LEDGER, { days: { "2026-11-23": { RESOLVE: [3, 1, 2] } } }, true],
  [
    "watermark",
    COMPANY_STATE,
    {
      v: 1,
      wm: "2026-11-23T10:00:00Z",
      lastChange: "2026-11-01",
      finYears: [2023, 2024],
      name: "Muster GmbH",
      result: { group: "risk", code: "INSOLVENT", text: bi, keyFigure: { year: 2024, netIncome: -5, revenue: null } },
      checkedAt: "2026-11-23T10:00:00Z",
      run: "r1",
      newChanges: 2,
      needProfile: true,
      profiledRun: "r0",
    },
    false,
  ],
  [
    "monitor run",
    RUN_STATE,
    { id: "r1", startedAt: "2026-11-23T10:00:00Z", sheet: "Portfolio", stalls: 1, spent: 12 },
    true,
  ],
  [
    "monitor last run",
    LAST_RUN,
    {
      runId: "r1",
      status: "paused",
      startedAt: "2026-11-23T10:00:00Z",
      finishedAt: null,
      companies: 5,
      entries: 6,
      earlier: 1,
      withFinancials: 2,
      rows: 6,
      checked: 2,
      unchanged: 1,
      ambiguous: 1,
      notFound: 0,
      errors: 1,
      groups: { risk: 1, watch: 0, none: 2 },
      newChanges: 3,
      extraChangePages: 0,
      estimate: 9,
      plan: { kind: "portfolio", availability: 5, profiles: 1, profilesWithFinancials: 1, changes: 2 },
      spent: 9,
      runSpent: 12,
      requests: 8,
      left: { companies: 1, credits: 3, unpriced: 0 },
      message: bi,
    },
    true,
  ],
  [
    "alert outbox",
    OUTBOX,
    {
      v: 1,
      companies: [
        {
          id: company.id,
          name: null,
          from: null,
          to: "risk",
          flag: bi,
          changes: [{ key: "k", date: "2026-11-01", kind: "Insolvenz", text: "…", source: "HRB" }],
        },
      ],
    },
    false,
  ],
  [
    "alert delivery",
    DELIVERY,
    { at: "2026-11-23T10:00:00Z", ok: false, channel: "webhook", companies: 1, changes: 2, error: bi, failures: 2 },
    true,
  ],
  ["alert settings", SAVED_ALERTS, { email: ["a@example.com"], webhook: null }, true],
  ["schedule", SAVED_SCHEDULE, { enabled: true, frequency: "daily", hour: 7, budget: 50, sheet: "Portfolio" }, true],
  ["row ledger", ROW_LEDGER, { v: 1, parts: 2, runFrom: 1, keyParts: 1, below: "x1", header: "h1" }, false],
  [
    "sidebar enrichment run",
    SAVED_JOB,
    {
      spec: {
        sheet: "Firmen",
        row: 1,
        col: 1,
        rows: 10,
        cols: 3,
        fields: ["name"],
        mapping: { name: 0 },
        options: { mode: "free", rerun: { olderThanDays: 30 }, chunkSize: 20 },
      },
      credits: 4,
      finished: false,
      stoppedForCredits: true,
      lastError: { code: "OUT_OF_CREDITS", message: bi, field: "credits", retryAt: 5 },
    },
    true,
  ],
  [
    "saved searches",
    SAVED_SEARCHES,
    {
      searches: [
        {
          name: "Software",
          input: { query: "software", place: "München", radiusKm: 20, filters: { industry: "J62", activeOnly: true } },
          lastRun: "2026-11-20",
        },
      ],
    },
    true,
  ],
  ["cached call", CACHED_CALL, { v: 1, ok: false, code: "NOT_FOUND", field: "id" }, false],
  ["refresh month", MONTH_SPENT, { month: "2026-11", spent: 40 }, true],
  [
    "last refresh",
    LAST_REFRESH,
    {
      startedAt: "2026-11-23T06:00:00Z",
      finishedAt: "2026-11-23T06:01:00Z",
      status: "paused",
      refreshed: 20,
      changedRows: 3,
      changedValues: 4,
      credits: 20,
      left: 5,
      month: { month: "2026-11", spent: 60, ceiling: 100, left: 40 },
      log: "Änderungen",
      message: bi,
    },
    true,
  ],
  [
    "refresh settings",
    SAVED_REFRESH,
    {
      enabled: true,
      table: {
        sheet: "List",
        row: 1,
        col: 1,
        rows: 11,
        cols: 2,
        mapping: { id: 0, name: 1 },
        fields: ["name", "city"],
        mode: "batch",
      },
      olderThanDays: 30,
      frequency: "weekly",
      hour: 6,
      monthCeiling: 100,
    },
    true,
  ],
  ["Apps Script run marker", RUN_MARKER, { token: "t1", until: 1_700_000_000_000, job: "j1" }, true],
  ["Apps Script installed trigger", INSTALLED_TRIGGER, { uid: "u1", label: "daily@7" }, true],
  ["Apps Script tick runtime", TICK_RUNTIME, { day: "2026-11-23", ms: 120_000 }, true],
  ["Apps Script tick failure", TICK_FAILURE, { at: 1_700_000_000_000, de: "kaputt", en: "broken" }, true],
  ["CLI output lock", LOCK_OWNER, { pid: 4242, host: "laptop" }, true],
  [
    "cached resolve answer",
    CACHED_ANSWER,
    { status: "ambiguous", match: null, confidence: 0.5, candidates: [company] },
    false,
  ],
];

/** Neither JSON nor a value of any kind. */
const BROKEN = ["", "{", "not json", "null", "42", '"text"', "[]", "[1,2]", "{}", '{"v":1}', '{"v":"1"}'];

const truncated = (s: string) => s.slice(0, Math.floor(s.length / 2));
/** The first field of a value with a value of the wrong type. */
function misshapen(good: object): object {
  const [k, v] = Object.entries(good).find(([key]) => key !== "v")!;
  return { ...good, [k]: typeof v === "number" ? "7" : 7 };
}

describe("saved state", () => {
  describe.each(KINDS)("%s", (name, kind, good, unversioned) => {
    test("a good value round-trips with its version", () => {
      const text = writeSaved(kind, good);
      expect(JSON.parse(text)).toMatchObject({ v: kind.version });
      expect(readSaved(kind, text)).toEqual(good);
    });
    test("broken, cut-off, misshapen, other-version and foreign values are absent, never thrown", () => {
      const text = writeSaved(kind, good);
      // Before v1 a ledger was the bare record of days and saved searches the bare list ("{}", "[]": empty);
      // a list's searches that do not fit are left out one by one ("[1,2]": none left).
      const valid = name === "ledger" ? ["{}"] : name === "saved searches" ? ["[]", "[1,2]"] : [];
      for (const raw of [...BROKEN.filter((x) => !valid.includes(x)), null, undefined, truncated(text)])
        expect(readSaved(kind, raw), String(raw)).toBeUndefined();
      expect(readSaved(kind, JSON.stringify({ ...JSON.parse(text), v: kind.version + 1 }))).toBeUndefined();
      expect(readSaved(kind, writeSaved(kind, misshapen(good)))).toBeUndefined();
      for (const [other, otherKind, otherGood] of KINDS) {
        if (other !== name) expect(readSaved(kind, writeSaved(otherKind, otherGood)), other).toBeUndefined();
      }
    });
    test(
      unversioned ? "the unversioned form written before v1 reads as v1" : "a value without a version is absent",
      () => {
        const { v: _v, ...rest } = good as { v?: number };
        const old = "days" in rest ? rest.days : "searches" in rest ? rest.searches : rest;
        expect(readSaved(kind, JSON.stringify(old))).toEqual(unversioned ? good : undefined);
      },
    );
  });

  test("parts are checked by shape alone", () => {
    const part = {
      i: [0, 2],
      r: [
        {
          outcome: "review",
          id: null,
          confidence: 0.4,
          candidates: [{ id: company.id, name: "Muster", city: "" }],
          doubt: { field: "city", given: "A", found: "B" },
          asOf: null,
          values: ["x", 1, true, null],
        },
      ],
    };
    expect(readPart(CHECKPOINT_PART, JSON.stringify(part))).toEqual(part);
    expect(
      readPart(CHECKPOINT_PART, JSON.stringify({ ...part, r: [{ ...part.r[0], outcome: "maybe" }] })),
    ).toBeUndefined();
    expect(readPart(ROW_LEDGER_PART, '["a","b"]')).toEqual(["a", "b"]);
    for (const raw of [...BROKEN.filter((b) => b !== "[]"), "[1]"])
      expect(readPart(ROW_LEDGER_PART, raw)).toBeUndefined();
    // A cache envelope: its `v` is the stored text, not a version.
    expect(readPart(savedCacheEnvelope, '{"e":5,"v":"{\\"v\\":1}"}')).toEqual({ e: 5, v: '{"v":1}' });
    for (const raw of [...BROKEN, '{"e":5,"v":1}', '{"e":"5","v":"x"}'])
      expect(readPart(savedCacheEnvelope, raw), raw).toBeUndefined();
    // A resolve answer in the CLI's resolution journal.
    for (const a of [
      { o: "m", id: company.id, c: 0.9, v: ["x", 1, null] },
      { o: "n" },
      { o: "r", c: null, k: [company], d: { field: "zip", given: "1", found: "2" } },
    ]) {
      expect(readPart(savedKeyAnswer, JSON.stringify(a))).toEqual(a);
    }
    for (const raw of [...BROKEN, '{"o":"x"}', '{"o":"m","c":1}', '{"o":"r","c":null,"k":[1]}'])
      expect(readPart(savedKeyAnswer, raw), raw).toBeUndefined();
  });

  test("a schedule that fits the shape but not the rules is absent", () => {
    expect(
      readSaved(
        SAVED_SCHEDULE,
        JSON.stringify({ v: 1, enabled: true, frequency: "daily", hour: 25, budget: null, sheet: "P" }),
      ),
    ).toBeUndefined();
  });

  test("a kind without an unversioned form ignores the missing version even when the shape fits", () => {
    const kind = savedKind(1, z.object({ a: z.number() }));
    expect(readSaved(kind, '{"a":1}')).toBeUndefined();
    expect(readSaved(kind, '{"a":1,"v":1}')).toEqual({ a: 1 });
  });
});

describe("old state through the operations (migration)", () => {
  function setup() {
    const api = fakeApi(() => json(500, {}), Date.UTC(2026, 10, 23, 12));
    const { ctx } = testContext(api.now);
    return { api, ctx, run: <T>(op: Generator<any, T, any>) => runSync(op, api.sync) };
  }
  test("today's spend written without a version still counts", () => {
    const { api, ctx, run } = setup();
    api.stores.store.set(budgetKey(ctx), JSON.stringify({ day: "2026-11-23", spent: 40 }));
    expect(run(budgetStatus(ctx, 100))).toMatchObject({ spent: 40, remaining: 60 });
  });
  test("a ledger written as the bare record of days is read, and rewritten with its version", () => {
    const { api, ctx, run } = setup();
    api.stores.store.set(ledgerKey(ctx), JSON.stringify({ "2026-11-22": { PROFILE: [5, 1, 1] } }));
    expect(run(readLedger(ctx))).toEqual([
      { day: "2026-11-22", operation: "PROFILE", credits: 5, requests: 1, runs: 1 },
    ]);
  });
  test("the refresh's month spend written without a version still counts against the ceiling", () => {
    const { api, ctx, run } = setup();
    api.stores.store.set(monthKey(ctx), JSON.stringify({ month: "2026-11", spent: 70 }));
    expect(run(monthSpend(ctx, 100))).toMatchObject({ spent: 70, left: 30 });
  });
  test("a damaged budget or ledger counts as none", () => {
    const { api, ctx, run } = setup();
    api.stores.store.set(budgetKey(ctx), '{"day":"2026-11-23","spent":');
    api.stores.store.set(ledgerKey(ctx), JSON.stringify({ v: 2, days: {} }));
    expect(run(budgetStatus(ctx, 100))).toMatchObject({ spent: 0 });
    expect(run(readLedger(ctx))).toEqual([]);
  });
});
