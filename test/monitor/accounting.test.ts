/**
 * No company drops out of a check unseen: against the in-process emulator
 * with faults (failed calls, rate-limit bursts past the deadline), every
 * entry ends every call as earlier, checked, unchanged, left to do, an error
 * row, not found or ambiguous, and the counts add up to the portfolio; a
 * continued run finishes what was left without paying for anything twice.
 * Also: the per-run ceiling states its paging assumption, the extra pages
 * show in the result text, and duplicates / bad ids / vanished companies.
 */
import { describe, expect, it } from "vitest";
import { runSync } from "../../shared/core/drivers.ts";
import type { HttpRequest, HttpResponse } from "../../shared/core/http.ts";
import {
  checkPortfolio,
  MAX_STALLED_CALLS,
  RUN_KEY,
  type CheckOptions,
  type RunSummary,
} from "../../shared/monitor/check.ts";
import { CHANGES_SHEET } from "../../shared/monitor/changelog.ts";
import { MAX_ENTRY_CREDITS, scheduleEstimate } from "../../shared/monitor/estimate.ts";
import { harness, type Harness } from "./harness.ts";
import portfolio from "../../emulator/data/reference/portfolio.json" with { type: "json" };
import { nth } from "../helpers/indexed.ts";

/** The 10-company example portfolio (the provider's sample data, real ids). */
const IDS = portfolio.portfolio.map((p) => p.id);

const seed = (h: Harness, cells: string[] = IDS) => h.sheets.set("Portfolio", [["ID"], ...cells.map((c) => [c])]);
const run = (h: Harness, opts: CheckOptions = {}) => runSync(checkPortfolio(h.ctx, opts), h.driver);
const preview = (h: Harness) => run(h, { preview: true });
const accounted = (s: RunSummary) =>
  s.earlier + s.checked + s.unchanged + s.left.companies + s.errors + s.notFound + s.ambiguous;
const expectAccounted = (s: RunSummary) =>
  expect(accounted(s), JSON.stringify({ ...s, plan: undefined, message: undefined })).toBe(s.entries);
const header = (h: Harness) => nth(h.sheets.get("Portfolio"), 0).map(String);
const cell = (h: Harness, r: number, name: string) =>
  nth(h.sheets.get("Portfolio"), r)[header(h).findIndex((x) => x.startsWith(name))];
const logLines = (h: Harness) => h.sheets.get(CHANGES_SHEET).slice(1);

/** Answer some requests differently (a vanished company, a failing endpoint). */
function intercept(h: Harness, fake: (r: HttpRequest) => HttpResponse | null): () => void {
  const orig = h.driver.http;
  h.driver.http = (reqs) => {
    const out: HttpResponse[] = new Array(reqs.length);
    const pass: number[] = [];
    reqs.forEach((r, i) => {
      const f = fake(r);
      if (f) out[i] = f;
      else pass.push(i);
    });
    const real = pass.length ? orig(pass.map((i) => nth(reqs, i))) : [];
    pass.forEach((i, k) => (out[i] = nth(real, k)));
    return out;
  };
  return () => {
    h.driver.http = orig;
  };
}
const pathOf = (r: HttpRequest) => new URL(r.url).pathname;
const status = (code: number): HttpResponse => ({
  status: code,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ error: { code: "X", message: "fault" } }),
});

/** Until the run is no longer paused; every call must account for every entry. */
function continueRun(h: Harness, max = 10): RunSummary[] {
  const out: RunSummary[] = [];
  let s: RunSummary;
  do {
    s = run(h);
    expectAccounted(s);
    out.push(s);
  } while (s.status === "paused" && out.length < max);
  return out;
}

describe("no company drops out of a check", () => {
  it("failed calls (5xx after retries): every call accounts for all companies; the continued run finishes them for exactly the estimate", () => {
    const h = harness();
    seed(h);
    run(h);
    // Day 1: every company changed, so each needs profile + changes (a failed half must not be paid again).
    for (const id of IDS) h.emu.scheduleEvent(id, { day: 1, kind: "MANAGEMENT" });
    h.advance(1);
    const clean = preview(h);
    expect(clean.plan.changes).toBe(10);
    expectAccounted(clean);
    const before = h.charged();

    h.emu.faults.set({ failRate: 0.75 });
    const faulty = [run(h), run(h)];
    for (const s of faulty) expectAccounted(s);
    expect(nth(faulty, 0).status).toBe("paused");
    expect(nth(faulty, 0).left.companies).toBeGreaterThan(0);
    expect(nth(faulty, 0).errors).toBe(0);
    expect(nth(faulty, 0).message.en).toMatch(/Not all checked yet .*will continue: \d+ companies/);
    expect(nth(faulty, 0).message.de).toMatch(/Noch nicht alle geprüft .*wird fortgesetzt: noch \d+ Firmen/);
    // Left-to-do rows say so (never a stale row without a word).
    const rows = h.sheets.get("Portfolio").slice(1);
    const pendingRows = rows.filter((_, i) => String(cell(h, i + 1, "Flag")).includes("Not checked yet"));
    expect(pendingRows.length).toBeGreaterThan(0);

    h.emu.faults.reset();
    const rest = continueRun(h);
    expect(rest.at(-1)!.status).toBe("done");
    expect(rest.at(-1)!.errors).toBe(0);
    expect(h.charged() - before).toBe(clean.estimate);
    expect(logLines(h).filter((r) => /Appointed/.test(String(r[4])))).toHaveLength(10);
    for (let r = 1; r <= IDS.length; r++) expect(String(cell(h, r, "Flag"))).not.toMatch(/Not checked yet/);
  });

  it("a rate-limit burst whose Retry-After lies past the deadline: the preview says what it could not price, the run pauses and the next call finishes them", () => {
    const reference = harness();
    seed(reference);
    const price = preview(reference).estimate;

    const h = harness();
    seed(h);
    h.ctx.client.deadline = h.now() + 60_000;
    h.emu.faults.set({ rateLimitBurst: 3, burstRetryAfterSeconds: 3600 });
    // The first wave of availability calls: 3 answer 429 with a Retry-After an hour away.
    const p = preview(h);
    expectAccounted(p);
    expect(p.left.unpriced).toBe(3);
    expect(p.left.companies).toBe(10);
    expect(p.errors).toBe(0);
    expect(p.message.en).toContain("3 entries could not be checked just now (");
    expect(p.message.de).toContain("3 Einträge ließen sich gerade nicht prüfen (");

    // The client now knows the bucket is shut for an hour: this call cannot price anything before its deadline.
    const first = run(h);
    expectAccounted(first);
    expect(first.status).toBe("paused");
    expect(first.errors).toBe(0);
    expect(first.left.unpriced).toBeGreaterThanOrEqual(3);
    expect(first.left.companies).toBe(10 - first.checked);
    const risk = h.sheets
      .get("Portfolio")
      .slice(1)
      .map((_, i) => cell(h, i + 1, "Risk"));
    expect(risk.filter((r) => r === "Left to do")).toHaveLength(first.left.companies);
    const flags = h.sheets
      .get("Portfolio")
      .slice(1)
      .map((_, i) => String(cell(h, i + 1, "Flag")));
    for (const f of flags.filter((f) => f.startsWith("Not checked")))
      expect(f).toMatch(/^Not checked yet \(.+\); the check continues with it\.$/);
    expect(h.stores.store.get(RUN_KEY(h.ctx))).toBeTruthy();

    // The next tick, an hour later, with its own deadline.
    h.driver.sleep(3_601_000);
    h.ctx.client.deadline = h.now() + 60_000;
    const rest = continueRun(h);
    expect(rest.at(-1)!.status).toBe("done");
    expect(rest.at(-1)!.checked).toBe(10);
    expect(h.charged()).toBe(price);
  });

  it(`calls that keep failing end as error rows with a message after ${MAX_STALLED_CALLS} stalled calls; the run ends`, () => {
    const h = harness();
    seed(h);
    h.emu.faults.set({ failRate: 1 });
    const calls = continueRun(h);
    expect(calls.map((s) => s.status)).toEqual([...Array(MAX_STALLED_CALLS).fill("paused"), "done"]);
    expect(calls.at(-1)!.errors).toBe(10);
    expect(calls.at(-1)!.message.en).toMatch(/10 entries with errors \(e\.g\. The data service reported an error/);
    expect(calls.at(-1)!.message.de).toMatch(/10 Einträge mit Fehler/);
    expect(h.charged()).toBe(0);
    expect(cell(h, 1, "Risk")).toBe("Error");
    expect(String(cell(h, 1, "Flag"))).toMatch(/data service reported an error/);
    expect(h.stores.store.get(RUN_KEY(h.ctx)) ?? null).toBeNull();
  });
});

describe("paid work is never paid twice in a continued run", () => {
  it("profile fetched, changes failed: the continuation pays only for the changes", () => {
    const h = harness();
    seed(h);
    run(h);
    const id = nth(IDS, 2);
    h.emu.scheduleEvent(id, { day: 1, kind: "CAPITAL" });
    h.advance(1);
    const clean = preview(h);
    expect(clean.estimate).toBeGreaterThanOrEqual(2);
    const before = h.charged();
    const undo = intercept(h, (r) => (pathOf(r) === `/v2/companies/${id}/changes` ? status(503) : null));
    const first = run(h);
    undo();
    expectAccounted(first);
    expect(first.status).toBe("paused");
    expect(first.left).toMatchObject({ companies: 1, credits: 1 });
    expect(h.charged() - before).toBe(clean.estimate - 1);
    const rest = continueRun(h);
    expect(rest.at(-1)!.status).toBe("done");
    expect(rest.at(-1)!.spent).toBe(1);
    expect(h.charged() - before).toBe(clean.estimate);
    expect(logLines(h).filter((r) => r[1] === id)).toHaveLength(1);
  });

  it("changes logged, profile failed: the continuation pays only for the owed profile, which shows the change", () => {
    const h = harness();
    seed(h);
    run(h);
    const id = nth(IDS, 3);
    h.emu.scheduleEvent(id, { day: 1, kind: "INSOLVENCY" });
    h.advance(1);
    const clean = preview(h);
    const before = h.charged();
    const undo = intercept(h, (r) => (pathOf(r) === `/v2/companies/${id}` ? status(503) : null));
    const first = run(h);
    undo();
    expectAccounted(first);
    expect(first.status).toBe("paused");
    expect(first.left.companies).toBe(1);
    expect(h.charged() - before).toBe(clean.estimate - first.left.credits);
    const rest = continueRun(h);
    expect(rest.at(-1)!.status).toBe("done");
    expect(h.charged() - before).toBe(clean.estimate);
    expect(cell(h, 4, "Risk")).toBe("Risk");
    expect(logLines(h).filter((r) => r[1] === id && /insolvency/i.test(String(r[4])))).toHaveLength(1);
    // The day after, nothing is owed any more: it costs nothing.
    h.advance(1);
    expect(preview(h).estimate).toBe(0);
  });
});

describe("rows that could drop out or be paid twice", () => {
  it("the same company in two windows is paid once", () => {
    const h = harness();
    seed(h, [nth(IDS, 0), nth(IDS, 1), nth(IDS, 0)]);
    const p = preview(h);
    run(h, { windowRows: 1 });
    expect(h.charged()).toBe(p.estimate);
  });

  it("the same company twice (in different windows) is paid once and both rows show it; a bad ID cell is an error row; an unknown id is not found", () => {
    const h = harness();
    const cells = [nth(IDS, 0), nth(IDS, 1), "hello", nth(IDS, 2), nth(IDS, 0), "DE0000000000"];
    seed(h, cells);
    const p = preview(h);
    expectAccounted(p);
    expect(p).toMatchObject({ companies: 4, entries: 5, errors: 1, notFound: 1 });
    const s = run(h, { windowRows: 2 });
    expectAccounted(s);
    expect(s).toMatchObject({ status: "done", checked: 3, errors: 1, notFound: 1 });
    expect(h.charged()).toBe(p.estimate);
    expect(s.spent).toBe(p.estimate);
    expect(cell(h, 5, "Risk")).toBe(cell(h, 1, "Risk"));
    expect(cell(h, 5, "Checked")).toBe(cell(h, 1, "Checked"));
    expect(cell(h, 3, "Risk")).toBe("Error");
    expect(String(cell(h, 3, "Flag"))).toMatch(/"hello" is not a company id/);
    expect(cell(h, 6, "Risk")).toBe("Not found");
    expect(s.message.en).toMatch(/1 entries with errors .*1 not found\./);
  });

  it("a company that vanishes between availability and profile is not found, not an error and not silently kept", () => {
    const h = harness();
    seed(h);
    const id = IDS[4];
    const undo = intercept(h, (r) => (pathOf(r) === `/v2/companies/${id}` ? status(404) : null));
    const s = run(h);
    undo();
    expectAccounted(s);
    expect(s).toMatchObject({ status: "done", notFound: 1, errors: 0, checked: 9 });
    expect(cell(h, 5, "Risk")).toBe("Not found");
  });

  it("an ambiguous name is counted and shown, and the rest adds up", () => {
    const h = harness();
    const dup = nth(h.emu.companies.duplicateNames(1), 0);
    h.sheets.set("Portfolio", [
      ["ID", "Firma"],
      ["", dup.name],
      [nth(IDS, 0), ""],
    ]);
    const s = run(h);
    expectAccounted(s);
    expect(s).toMatchObject({ entries: 2, ambiguous: 1, checked: 1 });
  });
});

describe("changes paging in the credits shown", () => {
  it("the schedule's ceiling states its one-page assumption in both languages", () => {
    const e = scheduleEstimate({ companies: 10, withFinancials: 8, nextRun: 50 }, { frequency: "daily", budget: null });
    expect(e.text.en).toContain("plus 1 credit per further 100 changes of a company");
    expect(e.text.de).toContain("je weitere 100 Änderungen 1 Credit");
  });

  it("further pages of changes a run paid are in its result text (DE and EN), and spent = estimate + them", () => {
    const h = harness();
    const ids = h.emu.companies.ids().slice(200, 202);
    seed(h, ids);
    run(h);
    for (let k = 0; k < 120; k++) h.emu.scheduleEvent(nth(ids, 0), { day: 1 + Math.floor(k / 12), kind: "ADDRESS" });
    h.advance(11);
    const p = preview(h);
    const before = h.charged();
    const s = run(h);
    expect(s.extraChangePages).toBe(1);
    expect(h.charged() - before).toBe(p.estimate + 1);
    expect(s.message.en).toContain(
      `${s.spent} credits (1 of them for a further page of changes, 1 credit per 100 changes of a company, beyond the estimate)`,
    );
    expect(s.message.de).toContain(`${s.spent} Credits (davon 1 für eine weitere Seite von Änderungen`);
  });
});

describe("the price before, the spend after (issue 12)", () => {
  it("entries the preview could not price count at their maximum: the shown price bounds the spend; the final summary counts every call of the run", () => {
    const h = harness();
    seed(h);
    h.ctx.client.deadline = h.now() + 60_000;
    h.emu.faults.set({ rateLimitBurst: 3, burstRetryAfterSeconds: 3600 });
    const p = preview(h);
    expect(p.left.unpriced).toBe(3);
    expect(p.left.credits).toBe(p.estimate + 3 * MAX_ENTRY_CREDITS);
    expect(p.message.en).toMatch(new RegExp(`^This check costs at most ${p.left.credits} credits`));
    expect(p.message.de).toMatch(new RegExp(`^Diese Prüfung kostet höchstens ${p.left.credits} Credits`));
    const before = h.charged();
    const first = run(h, { budget: p.left.credits });
    expect(first.status).toBe("paused");
    h.driver.sleep(3_601_000);
    h.ctx.client.deadline = h.now() + 60_000;
    const rest = continueRun(h);
    const last = rest.at(-1)!;
    expect(last.status).toBe("done");
    const charged = h.charged() - before;
    // Every call's spend, the whole run's, and what the service charged agree; the message says the whole run's.
    expect(first.spent + rest.reduce((s, r) => s + r.spent, 0)).toBe(charged);
    expect(last.runSpent).toBe(charged);
    expect(charged).toBeGreaterThan(0);
    expect(last.message.en).toContain(`${charged} credits`);
    expect(charged).toBeLessThanOrEqual(p.left.credits);
  });

  it("the per-run budget counts the run's earlier calls", () => {
    const h = harness();
    seed(h);
    h.emu.faults.set({ failRate: 0.75 });
    const first = run(h);
    expect(first.status).toBe("paused");
    h.emu.faults.reset();
    const cap = first.spent + 1;
    const h2 = harness();
    seed(h2);
    h2.emu.faults.set({ failRate: 0.75 });
    const a = run(h2, { budget: cap });
    h2.emu.faults.reset();
    let s = a;
    let total = a.spent;
    while (s.status === "paused") {
      s = run(h2, { budget: cap });
      total += s.spent;
    }
    expect(total).toBeLessThanOrEqual(cap);
    expect(s.runSpent).toBe(total);
  });
});
