/**
 * End to end against the in-process emulator: for every operation, the
 * credits the emulator charges (balance before/after) equal estimate() for
 * the same operation and the sum the client reported through onSpend; under
 * the sync and the async driver alike.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { runAsync, runSync } from "../../shared/core/drivers.ts";
import type { Operation } from "../../shared/core/effects.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { estimate, type PlannedOperation } from "../../shared/app/estimate.ts";
import { dedupe } from "../../shared/batch/plan.ts";
import { resolveMany, resolveOne, type ResolvedRow } from "../../shared/operations/resolve.ts";
import type { Include } from "../../shared/api/endpoints.ts";
import * as C from "../../shared/operations/company.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import type { ResolveQuery } from "../../shared/api/schemas.ts";
import reference from "../../emulator/data/reference/companies.json" with { type: "json" };
import { emulatorDrivers } from "../helpers/emulator-driver.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { nth, take } from "../helpers/indexed.ts";

let emu: Emulator;
let clock = Date.UTC(2025, 5, 1, 9);
beforeAll(() => {
  emu = createEmulator({ companies: 3_000, seed: 7, now: () => clock, startDate: "2025-06-01" });
});

type Mode = "sync" | "async";

function harness(mode: Mode, over: Partial<OpContext> = {}) {
  const key = emu.createKey(100_000);
  const d = emulatorDrivers(emu, {
    now: () => clock,
    onSleep: (ms) => {
      clock += ms;
    },
  });
  const spent: number[] = [];
  const ctx: OpContext = {
    client: {
      apiKey: key,
      baseUrl: "http://emulator.test",
      language: "de",
      now: () => clock,
      random: () => 0.5,
      onSpend: (_e, c) => spent.push(c),
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 3600,
    maxBatch: 50,
    scope: `it-${mode}`,
    ...over,
  };
  const run = <T>(op: Operation<T>): Promise<T> =>
    mode === "sync" ? new Promise<T>((ok) => ok(runSync(op, d.sync))) : runAsync(op, d.async);
  /** Run, and return what the emulator charged and what onSpend summed. */
  const charged = async <T>(op: Operation<T>) => {
    const before = emu.balance(key);
    const mark = spent.length;
    const value = await run(op);
    return { value, charged: before - emu.balance(key), reported: spent.slice(mark).reduce((a, b) => a + b, 0) };
  };
  return { key, ctx, run, charged, driver: d };
}

const refs = (reference as { companies: { id: string; name: string; city?: string }[] }).companies;
const ids = () => refs.map((c) => c.id);

// Names written in several ways: case, spacing, legal forms spelled out, umlauts.
function variants(): ResolveQuery[] {
  const out: ResolveQuery[] = [];
  for (const c of refs) {
    out.push({ name: c.name });
    out.push({
      name:
        "  " +
        c.name
          .toUpperCase()
          .replace(/ AG$/, " Aktiengesellschaft")
          .replace(/ GMBH$/, " Gesellschaft mit beschränkter Haftung") +
        " ",
    });
  }
  out.push({ name: "" }, { name: "Gibt Es Nicht Fantasiefirma XYZ GmbH" });
  return out;
}

describe.each<Mode>(["sync", "async"])("estimate = charge = onSpend (%s driver)", (mode) => {
  async function check(op: Operation<unknown>, plan: PlannedOperation, h = harness(mode)) {
    const e = estimate(plan);
    const r = await h.charged(op);
    expect(r.charged, "emulator charge vs estimate").toBe(e.credits);
    expect(r.reported, "onSpend vs emulator charge").toBe(r.charged);
    return r;
  }

  test("batch resolve of rows with duplicates, then the same rows again for free", async () => {
    const h = harness(mode);
    const rows = variants();
    const distinct = dedupe(rows).distinct.length;
    expect(distinct).toBeLessThan(rows.length - 1);
    const first = await check(
      resolveMany(h.ctx, rows),
      { kind: "resolve", rows: rows.length, distinct, mode: "batch", maxBatch: h.ctx.maxBatch },
      h,
    );
    const out = first.value as ResolvedRow[];
    expect(out).toHaveLength(rows.length);
    expect(out.at(-2)!.status).toBe("error");
    // Both spellings of every reference company land on the same answer.
    for (let i = 0; i < refs.length; i++)
      expect(nth(out, 2 * i + 1).match?.id ?? null).toBe(nth(out, 2 * i).match?.id ?? null);
    const matched = out.filter((r) => r.status === "matched");
    expect(matched.length).toBeGreaterThan(refs.length); // most reference names resolve
    const reqs = h.driver.requests.length;
    await check(
      resolveMany(h.ctx, rows),
      { kind: "resolve", rows: rows.length, distinct, cached: distinct, mode: "batch" },
      h,
    );
    expect(h.driver.requests.length).toBe(reqs);
  });

  test("free resolve mode and resolveOne cost nothing", async () => {
    const h = harness(mode);
    const rows = refs.slice(0, 12).map((c) => ({ name: c.name, city: c.city }));
    const r = await check(
      resolveMany(h.ctx, rows, { mode: "free" }),
      { kind: "resolve", rows: rows.length, mode: "free" },
      h,
    );
    expect((r.value as ResolvedRow[]).every((x) => x.status !== "error")).toBe(true);
    await check(resolveOne(h.ctx, { name: "Siemens AG" }), { kind: "resolve", rows: 1, mode: "free" }, h);
  });

  test("profiles with every include combination", async () => {
    const h = harness(mode);
    const all = ids().slice(0, 6);
    const combos: Include[][] = [
      [],
      ["people"],
      ["announcements"],
      ["financials"],
      ["people", "financials"],
      ["people", "announcements", "financials"],
    ];
    for (const include of combos) {
      const r = await check(C.getProfiles(h.ctx, all, include), { kind: "profile", count: all.length, include }, h);
      for (const v of (r.value as Map<string, unknown>).values()) expect(v).not.toBeInstanceOf(CompanyDataError);
    }
    // Asked again: all from the cache.
    await check(C.getProfiles(h.ctx, all, ["people"]), { kind: "profile", count: 0 }, h);
  });

  test("every single-company getter, search, suggest, availability, account", async () => {
    const h = harness(mode);
    const [a, b] = take(ids(), 2);
    const person = emu.companies.sharedPersonId();
    expect(person).not.toBeNull();
    await check(C.getPeople(h.ctx, a), { kind: "call", endpoint: "people" }, h);
    await check(C.getAnnouncements(h.ctx, a, "2020-01-01"), { kind: "call", endpoint: "announcements" }, h);
    await check(C.getFinancials(h.ctx, a), { kind: "call", endpoint: "financials" }, h);
    await check(C.getChanges(h.ctx, a, "2025-01-01"), { kind: "call", endpoint: "changes" }, h);
    await check(C.getNearby(h.ctx, a, 10, 5), { kind: "call", endpoint: "nearby" }, h);
    await check(C.getPeers(h.ctx, a, 5), { kind: "call", endpoint: "peers" }, h);
    await check(C.getSimilar(h.ctx, [a, b], 5), { kind: "call", endpoint: "similar" }, h);
    await check(C.getPersonCompanies(h.ctx, person!), { kind: "call", endpoint: "personCompanies" }, h);
    await check(C.getEvents(h.ctx, a), { kind: "call", endpoint: "v1.events" }, h);
    await check(C.getJobs(h.ctx, a), { kind: "call", endpoint: "v1.jobs" }, h);
    const s = await check(C.search(h.ctx, { query: "Software", size: 5 }), { kind: "search" }, h);
    expect((s.value as C.SearchResponse).companies.length).toBeGreaterThan(0);
    await check(C.suggest(h.ctx, "Sie", 5), { kind: "suggest" }, h);
    await check(C.getAvailability(h.ctx, ids().slice(0, 8)), { kind: "availability", count: 8 }, h);
    const acc = await check(C.getAccount(h.ctx), { kind: "call", endpoint: "account" }, h);
    expect((acc.value as C.AccountResponse).credits).toBe(emu.balance(h.key));
    // The second time everything but the account comes from the cache.
    const before = h.driver.requests.length;
    await check(C.getPeople(h.ctx, a), { kind: "calls", calls: [] }, h);
    await check(C.search(h.ctx, { size: 5, query: "Software" }), { kind: "calls", calls: [] }, h);
    expect(h.driver.requests.length).toBe(before);
  });

  test("a composite plan: resolve, then profiles of the matches", async () => {
    const h = harness(mode, { maxBatch: 10 });
    const rows = refs.slice(0, 25).map((c) => ({ name: c.name }));
    const op = function* () {
      const res = yield* resolveMany(h.ctx, rows);
      const found = res.filter((r) => r.status === "matched").map((r) => r.match!.id);
      yield* C.getProfiles(h.ctx, found, ["financials"]);
      return found.length;
    };
    // The estimate needs the match count, which the test learns from the emulator's own index.
    const matchable = rows.filter((r) => emu.companies.findByName(r.name).length === 1).length;
    const r = await h.charged(op());
    expect(r.value).toBe(matchable);
    const e = estimate({
      kind: "all",
      parts: [
        { kind: "resolve", rows: 25, mode: "batch", maxBatch: 10 },
        { kind: "profile", count: matchable, include: ["financials"] },
      ],
    });
    expect(r.charged).toBe(e.credits);
    expect(r.reported).toBe(r.charged);
  });

  test("failures cost nothing and are typed", async () => {
    const h = harness(mode);
    const m = await h.charged(C.getProfiles(h.ctx, ["DEZZZZZZZZZZ", "nope"]));
    expect(m.charged).toBe(0);
    expect(m.reported).toBe(0);
    expect((m.value.get("DEZZZZZZZZZZ") as CompanyDataError).code).toBe("NOT_FOUND");
    expect((m.value.get("nope") as CompanyDataError).code).toBe("INVALID_INPUT");
    emu.setBalance(h.key, 3);
    await expect(h.run(C.getFinancials(h.ctx, nth(ids(), 3)))).rejects.toMatchObject({ code: "OUT_OF_CREDITS" });
    expect(emu.balance(h.key)).toBe(3);
    const bad = { ...h.ctx, client: { ...h.ctx.client, apiKey: "wrong" } };
    await expect(h.run(C.getPeers(bad, nth(ids(), 3)))).rejects.toMatchObject({ code: "INVALID_KEY" });
  });

  test("requests carry the key only in the Authorization header", async () => {
    const h = harness(mode);
    await h.run(C.search(h.ctx, { query: "Bank", size: 3 }));
    await h.run(C.getPeers(h.ctx, nth(ids(), 0)));
    for (const r of h.driver.requests) {
      expect(r.headers.Authorization).toBe(`Bearer ${h.key}`);
      expect(r.url).not.toContain(h.key);
      expect(r.headers["Accept-Language"]).toBe("DE");
      if (r.body !== undefined) expect(r.headers["Content-Type"]).toBe("application/json");
    }
  });
});

describe("under faults (500/503, dropped connections, a 429 burst), retries keep the books straight", () => {
  test.each<Mode>(["sync", "async"])("%s driver", async (mode) => {
    let t = Date.UTC(2025, 5, 1, 9);
    const faulty = createEmulator({
      companies: 1_000,
      seed: 11,
      now: () => t,
      startDate: "2025-06-01",
      faults: { failRate: 0.2, dropRate: 0.1, rateLimitBurst: 3, burstRetryAfterSeconds: 2 },
    });
    const key = faulty.createKey(10_000);
    const d = emulatorDrivers(faulty, {
      now: () => t,
      onSleep: (ms) => {
        t += ms;
      },
    });
    let reported = 0;
    const ctx: OpContext = {
      client: {
        apiKey: key,
        baseUrl: "http://emulator.test",
        language: "en",
        now: () => t,
        random: () => 0.5,
        onSpend: (_e, c) => {
          reported += c;
        },
        pacer: new Pacer(),
      },
      cacheTtlSeconds: 3600,
      maxBatch: 20,
      scope: "faults",
    };
    const rows = refs.map((c) => ({ name: c.name }));
    const op = function* () {
      const res = yield* resolveMany(ctx, rows);
      const profiles = yield* C.getProfiles(ctx, ids().slice(0, 10), ["people"]);
      return { res, profiles };
    };
    const out = mode === "sync" ? runSync(op(), d.sync) : await runAsync(op(), d.async);
    const charged = 10_000 - faulty.balance(key);
    expect(d.sleeps.length).toBeGreaterThan(0); // faults did happen and were retried
    expect(out.res.every((r) => r.status !== "error")).toBe(true);
    expect([...out.profiles.values()].every((v) => !(v instanceof CompanyDataError))).toBe(true);
    expect(charged).toBe(reported);
    expect(charged).toBe(
      estimate({
        kind: "all",
        parts: [
          { kind: "resolve", rows: rows.length, mode: "batch", maxBatch: 20 },
          { kind: "profile", count: 10, include: ["people"] },
        ],
      }).credits,
    );
  });
});
