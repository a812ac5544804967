/**
 * The test, against the in-process emulator with its clock moved day
 * by day: a company that becomes insolvent on day 3 shows as risk on day 3,
 * its announcement appears once in the log, nothing is logged twice across
 * 10 days and an interrupted run, and credits spent equal the estimate shown.
 */
import { describe, expect, it } from "vitest";
import { runSync } from "../../shared/core/drivers.ts";
import { checkPortfolio, type RunSummary } from "../../shared/monitor/check.ts";
import { CHANGES_SHEET } from "../../shared/monitor/changelog.ts";
import { harness, type Harness } from "./harness.ts";
import { estimate } from "../../shared/app/estimate.ts";
import { scheduleEstimate } from "../../shared/monitor/estimate.ts";
import { candidateLabel } from "../../shared/monitor/layout.ts";

/** The 10-company example portfolio (the provider's sample data, real ids). */
import portfolio from "../../emulator/data/reference/portfolio.json" with { type: "json" };
import { nth } from "../helpers/indexed.ts";

function seedPortfolio(h: Harness, rows = portfolio.portfolio) {
  h.sheets.set("Portfolio", [["ID", "Company"], ...rows.map((c) => [c.id, c.name])]);
}

const header = (h: Harness) => nth(h.sheets.get("Portfolio"), 0).map(String);
const col = (h: Harness, name: string) => header(h).findIndex((x) => x.startsWith(name));
const rowOf = (h: Harness, id: string) => h.sheets.get("Portfolio").find((r) => r[0] === id)!;
const logLines = (h: Harness) => h.sheets.get(CHANGES_SHEET).slice(1);
const keys = (h: Harness) => logLines(h).map((r) => String(r[6]));

/** Preview (the estimate "Check now" shows), then the run; both through the sync driver. */
function checkNow(
  h: Harness,
  opts: Parameters<typeof checkPortfolio>[1] = {},
): { preview: RunSummary; run: RunSummary; charged: number } {
  const preview = runSync(checkPortfolio(h.ctx, { ...opts, preview: true }), h.driver);
  const before = h.charged();
  const run = runSync(checkPortfolio(h.ctx, opts), h.driver);
  return { preview, run, charged: h.charged() - before };
}

describe("portfolio monitoring against the emulator", () => {
  it("insolvent on day 3 → risk on day 3, logged once; nothing logged twice over 10 days and an interrupted run; spent == estimate", () => {
    const h = harness();
    seedPortfolio(h);
    const target = nth(portfolio.portfolio, 3).id; // dm-drogerie markt
    h.emu.scheduleEvent(target, { day: 3, kind: "INSOLVENCY" });

    // Day 0: first check. Every company's profile (+ financials where they exist), no changes call.
    const first = checkNow(h);
    expect(first.preview.estimate).toBeGreaterThan(0);
    expect(first.charged).toBe(first.preview.estimate);
    expect(first.run.spent).toBe(first.charged);
    expect(first.run.status).toBe("done");
    expect(first.run.companies).toBe(10);
    expect(rowOf(h, target)[col(h, "Risk")]).not.toBe("Risk");
    expect(logLines(h)).toHaveLength(0);

    h.emu.scheduleEvent(nth(portfolio.portfolio, 0).id, { day: 7, kind: "ADDRESS" });
    const perDay: { day: number; estimate: number; charged: number }[] = [];
    for (let day = 1; day <= 10; day++) {
      h.advance(1);
      if (day === 5) continue; // no check on day 5: day 6 must catch up two days
      if (day === 7) {
        // An interrupted run: the host dies right after the first window's change lines
        // were appended, before its watermarks were saved and its rows written.
        h.crashAfterAppend();
        const spentBefore = h.charged();
        expect(() => runSync(checkPortfolio(h.ctx, { windowRows: 4 }), h.driver)).toThrow("host crashed");
        expect(h.charged()).toBeGreaterThan(spentBefore);
        expect(keys(h).filter((k) => k.startsWith(nth(portfolio.portfolio, 0).id))).toHaveLength(1);
      }
      if (day === 9) {
        // Another interruption: the host dies at the first block write (watermarks saved).
        h.crashOn("write", 1);
        expect(() => runSync(checkPortfolio(h.ctx, { windowRows: 4 }), h.driver)).toThrow("host crashed");
      }
      const { preview, run, charged } = checkNow(h, { windowRows: 4 });
      perDay.push({ day, estimate: preview.estimate, charged });
      expect(charged).toBe(preview.estimate);
      expect(run.spent).toBe(charged);
      expect(run.status).toBe("done");

      const cell = rowOf(h, target)[col(h, "Risk")];
      if (day >= 3) expect(cell).toBe("Risk");
      else expect(cell).not.toBe("Risk");
      if (day === 3) {
        expect(String(rowOf(h, target)[col(h, "Flag")])).toMatch(/^Insolvent/);
        expect(Number(rowOf(h, target)[col(h, "New changes")])).toBeGreaterThanOrEqual(1);
      }
      // Never a line twice.
      expect(new Set(keys(h)).size).toBe(keys(h).length);
    }
    const insolvency = logLines(h).filter((r) => r[1] === target && /insolvency/i.test(String(r[4])));
    expect(insolvency).toHaveLength(1);
    expect(String(nth(insolvency, 0)[0]).slice(0, 10)).toBe(addDays(h.emu.clock.startDate, 3));
    // Nothing happened to most companies: after the first check they cost nothing.
    expect(perDay.filter((d) => d.charged === 0).length).toBeGreaterThan(0);
  });

  it("the estimate shown is what is spent: core estimator, schedule's next run, and the run itself", () => {
    const h = harness();
    seedPortfolio(h);
    const preview = runSync(checkPortfolio(h.ctx, { preview: true }), h.driver);
    expect(estimate(preview.plan).credits).toBe(preview.estimate);
    const sched = scheduleEstimate(
      { companies: preview.companies, withFinancials: preview.withFinancials, nextRun: preview.estimate },
      { frequency: "daily", budget: null },
    );
    const run = runSync(checkPortfolio(h.ctx), h.driver);
    expect(h.charged()).toBe(sched.nextRun);
    expect(run.spent).toBe(sched.nextRun);
    // The ceiling bounds every later run; per day and month follow from the runs per day.
    expect(sched.perRun).toBe(10 * 2 + preview.withFinancials * 4);
    expect(sched.perMonth).toBe(sched.perRun * 30);
    expect(
      scheduleEstimate({ companies: 10, withFinancials: 8, nextRun: 50 }, { frequency: "hourly", budget: 12 }),
    ).toMatchObject({ perRun: 12, perDay: 288, nextRun: 12, cappedByBudget: true });
  });

  it("a per-run budget stops cleanly, says what is left, and the next run finishes for the rest of the price", () => {
    const h = harness();
    seedPortfolio(h);
    const preview = runSync(checkPortfolio(h.ctx, { preview: true }), h.driver);
    const budget = Math.floor(preview.estimate / 2);
    const first = runSync(checkPortfolio(h.ctx, { budget, windowRows: 3 }), h.driver);
    expect(first.status).toBe("budget");
    expect(first.spent).toBeLessThanOrEqual(budget);
    expect(h.charged()).toBe(first.spent);
    expect(first.left.companies).toBeGreaterThan(0);
    expect(first.spent + first.left.credits).toBe(preview.estimate);
    expect(first.message.en).toContain(`Left to do: ${first.left.companies} companies (${first.left.credits} credits)`);
    const second = runSync(checkPortfolio(h.ctx), h.driver);
    expect(second.status).toBe("done");
    expect(second.spent).toBe(first.left.credits);
    expect(h.charged()).toBe(preview.estimate);
  });

  it("a run longer than the time limit pauses at a window and the next call continues it, for the price shown", () => {
    const h = harness();
    seedPortfolio(h);
    h.emu.scheduleEvent(nth(portfolio.portfolio, 9).id, { day: 1, kind: "LIQUIDATION" });
    runSync(checkPortfolio(h.ctx), h.driver);
    h.advance(1);
    for (const c of portfolio.portfolio) h.emu.scheduleEvent(c.id, { day: 2, kind: "MANAGEMENT" });
    h.advance(1);
    const preview = runSync(checkPortfolio(h.ctx, { preview: true }), h.driver);
    expect(preview.plan.changes).toBe(10);
    const before = h.charged();
    h.slowDown(1000);
    const statuses: string[] = [];
    let s;
    do {
      s = runSync(checkPortfolio(h.ctx, { windowRows: 2, deadline: h.now() + 3500 }), h.driver);
      statuses.push(s.status);
    } while (s.status === "paused" && statuses.length < 20);
    expect(statuses.length).toBeGreaterThan(1);
    expect(statuses.at(-1)).toBe("done");
    expect(h.charged() - before).toBe(preview.estimate);
    expect(new Set(keys(h)).size).toBe(keys(h).length);
    expect(logLines(h).filter((r) => /Appointed/.test(String(r[4])))).toHaveLength(10);
    expect(rowOf(h, nth(portfolio.portfolio, 9).id)[col(h, "Risk")]).toBe("Risk");
  });

  it("ambiguous names are left for the user with candidates, never guessed; a picked candidate is used", () => {
    const h = harness();
    const dup = nth(h.emu.companies.duplicateNames(1), 0);
    h.sheets.set("Portfolio", [
      ["Firma", "Ort"],
      [dup.name, ""],
      ["Siemens AG", "München"],
    ]);
    const run = runSync(checkPortfolio(h.ctx), h.driver);
    expect(run.ambiguous).toBe(1);
    const sheet = h.sheets.get("Portfolio");
    const idCol = nth(sheet, 0).indexOf("ID");
    expect(idCol).toBeGreaterThan(1);
    expect(nth(sheet, 1)[idCol]).toBe("");
    expect(nth(sheet, 1)[col(h, "Risk")]).toBe("Ambiguous");
    const options = nth(h.sheets.dropdowns.get("Portfolio")!, 1)[idCol] as unknown as string[];
    expect(options.length).toBe(dup.ids.length);
    expect(String(nth(sheet, 2)[idCol])).toMatch(/^DE[A-Z0-9]{10}$/);
    // The user picks a candidate from the dropdown.
    nth(sheet, 1)[idCol] = nth(options, 1);
    expect(options[1]).toContain(dup.ids.find((id) => nth(options, 1).includes(id))!);
    const again = runSync(checkPortfolio(h.ctx), h.driver);
    expect(again.ambiguous).toBe(0);
    const picked = nth(h.sheets.get("Portfolio"), 1);
    expect(candidateLabel({ id: String(picked[idCol]) })).toContain(String(picked[idCol]));
    expect(options[1]).toContain(String(picked[idCol]));
    expect(picked[col(h, "Risk")]).not.toBe("Ambiguous");
  });

  it("switching the language between runs never logs a change twice", () => {
    const h = harness();
    seedPortfolio(h);
    const id = nth(portfolio.portfolio, 1).id;
    runSync(checkPortfolio(h.ctx), h.driver);
    h.emu.scheduleEvent(id, { day: 1, kind: "CAPITAL" });
    h.advance(1);
    runSync(checkPortfolio(h.ctx), h.driver);
    expect(logLines(h)).toHaveLength(1);
    // Forget the watermark (as a crash before saving it would), then rerun in German.
    for (const k of [...h.stores.store.keys()]) if (k.includes(`:c:${id}`)) h.stores.store.delete(k);
    h.advance(1);
    h.ctx.client.language = "de";
    runSync(checkPortfolio(h.ctx), h.driver);
    h.emu.clock.advance(0);
    expect(logLines(h)).toHaveLength(1);
  });
});

function addDays(date: string, n: number): string {
  const d = new Date(date + "T00:00:00Z");
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
