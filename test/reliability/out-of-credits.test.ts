/**
 * Out of credits halfway (issue 8, reliability 2): the run stops cleanly,
 * the rows done keep their data, the rest say "not enriched: out of
 * credits"; after a top-up the resume does exactly the rest and pays for
 * nothing twice. Once for the Google Sheets add-on as a user runs it (the
 * built Code.js in the Apps Script harness, driven as the sidebar drives it),
 * once for the CLI (a child process against the emulator over loopback HTTP).
 */
import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator } from "../../emulator/index.ts";
import { startServer } from "../../emulator/server.ts";
import { STATUS } from "../../shared/enrich/rows.ts";
import { benchList } from "../support/lists.ts";
import { runCli } from "../support/cli-process.ts";
import { buildCodeJs, sheetsEnrich } from "../support/sheets-driver.ts";
import { readCsv } from "../../cli/csv.ts";
import { nth, valueAt } from "../helpers/indexed.ts";

describe("out of credits halfway", () => {
  /** Profiles the CLI's rerun bought although the first run had bought them (see the known-bug test below). */
  let cliPaidTwice: number | undefined;

  it("the Sheets job stops cleanly, marks the rest, and the resume after a top-up pays nothing twice", async () => {
    // The add-on as a user runs it: the built Code.js in the Apps Script harness, driven as the sidebar drives it.
    const code = await buildCodeJs();
    const emu = createEmulator({ companies: 3000, startDate: "2026-06-01" });
    const list = benchList(emu, { total: 600, distinct: 400, duplicates: 60, unknown: 30, seed: 5 });
    const names = list.rows.map((r) => r.name);
    type Progress = { jobId: string; finished: boolean; stoppedForCredits: boolean };
    /** Start (or continue, after a top-up) and step until the run finishes or stops for credits. */
    const runOn = (run: ReturnType<typeof sheetsEnrich>, p: Progress) => {
      while (!p.finished && !p.stoppedForCredits) p = run.call("enrichStep", { jobId: p.jobId }) as Progress;
      return p;
    };

    const refKey = emu.createKey(1_000_000);
    const ref = sheetsEnrich(code, emu, refKey, names);
    expect(runOn(ref, ref.call("enrichStart", ref.config)).finished).toBe(true);
    const reference = ref.fake.grids.get("Liste")!;
    const full = 1_000_000 - emu.balance(refKey);

    const initial = Math.floor(full / 2);
    const key = emu.createKey(initial);
    const run = sheetsEnrich(code, emu, key, names);
    const first = runOn(run, run.call("enrichStart", run.config));
    // A large list is bought after its matching is confirmed; the run ends there, the rest marked, and says why.
    expect((first as Progress & { lastError?: { code: string } }).lastError?.code).toBe("OUT_OF_CREDITS");
    expect(emu.balance(key)).toBeGreaterThanOrEqual(0);
    const grid1 = structuredClone(run.fake.grids.get("Liste")!);
    const status = (row: unknown[]) => row[1];
    const marked = grid1.slice(1).filter((r) => status(r) === STATUS.out_of_credits.en).length;
    const done = grid1.slice(1).length - marked;
    expect(done).toBeGreaterThan(100);
    expect(marked).toBeGreaterThan(100);
    // Rows done carry their data, exactly as the uninterrupted run has them; the rest say why they are empty.
    grid1.slice(1).forEach((r, i) => {
      if (status(r) !== STATUS.out_of_credits.en) expect(r).toEqual(reference[i + 1]);
    });
    const profilesFirst = emu.ledger(key).requests.profile ?? 0;

    // Top up and start again on the same sheet: new or failed rows only, so the rows marked out of credits.
    const afterFirst = emu.balance(key);
    emu.setBalance(key, afterFirst + full);
    const before = emu.balance(key);
    const second = runOn(run, run.call("enrichStart", run.config) as Progress);
    expect(second.finished).toBe(true);
    expect(run.fake.grids.get("Liste")).toEqual(reference);
    // Exactly the rest: one profile per company over both runs, as the uninterrupted run bought them.
    const profiles = emu.ledger(key).requests.profile ?? 0;
    expect(profiles).toBe(emu.ledger(refKey).requests.profile);
    expect(profiles - profilesFirst).toBeLessThanOrEqual(marked);
    // Both runs together cost what the uninterrupted run cost, give or take batch rounding (ceil(n/10) per call).
    const total = initial - afterFirst + (before - emu.balance(key));
    expect(Math.abs(total - full)).toBeLessThanOrEqual(Math.ceil(list.rows.length / 50));
  }, 120_000);

  it("the CLI stops with exit code and marks, and a rerun after a top-up finishes only the rest", async () => {
    const emu = createEmulator({ companies: 3000, startDate: "2026-06-01" });
    const server = await startServer(emu, { port: 0, host: "127.0.0.1" });
    const dir = mkdtempSync(join(tmpdir(), "rel-credits-"));
    try {
      const list = benchList(emu, { total: 1200, distinct: 800, duplicates: 100, unknown: 40, seed: 8 });
      const csv = join(dir, "in.csv");
      const out = join(dir, "out.csv");
      writeFileSync(csv, "Firma\n" + list.rows.map((r) => `"${r.name.replace(/"/g, '""')}"`).join("\n") + "\n");
      const key = emu.createKey(500);
      const env = { COMPANY_DATA_API_KEY: key, COMPANY_DATA_BASE_URL: server.url, LANG: "en" };
      const a = await runCli(["enrich", "--in", csv, "--out", out, "--yes", "--lang", "en"], env);
      expect(a.code).not.toBe(0);
      expect(a.stderr).toMatch(/credits/i);
      const rows1: string[][] = [];
      for await (const rec of readCsv(out)) rows1.push(rec);
      const statuses = rows1.slice(1).map((r) => r[1]);
      expect(statuses).toHaveLength(list.rows.length);
      expect(statuses.filter((s) => s === STATUS.out_of_credits.en).length).toBeGreaterThan(100);
      expect(statuses.filter((s) => s === STATUS.matched.en).length).toBeGreaterThan(100);
      expect(emu.balance(key)).toBeGreaterThanOrEqual(0);
      const spent1 = 500 - emu.balance(key);
      const ledger1 = emu.ledger(key);

      emu.setBalance(key, 100_000);
      const b = await runCli(["enrich", "--in", csv, "--out", out, "--yes", "--lang", "en"], env);
      expect(b.code).toBe(0);
      const rows2: string[][] = [];
      for await (const rec of readCsv(out)) rows2.push(rec);
      expect(rows2).toHaveLength(rows1.length);
      rows2.slice(1).forEach((r, i) => {
        const want = nth(list.rows, i).expectId;
        if (want === null) expect(r[1]).toBe(STATUS.not_found.en);
        else expect([r[1], r[3]]).toEqual([STATUS.matched.en, want]);
        // Rows done in the first run are kept as they were.
        if (nth(rows1, i + 1)[1] !== STATUS.out_of_credits.en) expect(r).toEqual(rows1[i + 1]);
      });
      // Profiles: one per company over both runs.
      const ledger2 = emu.ledger(key);
      const companies = new Set(list.rows.filter((r) => r.expectId).map((r) => r.expectId)).size;
      expect(ledger2.requests.profile).toBeGreaterThanOrEqual(companies);
      cliPaidTwice = valueAt(ledger2.requests, "profile") - companies;
      // Rows the first run finished were not asked again: the rerun's profiles are at most the rows it had left.
      const left = rows1.slice(1).filter((r) => r[1] === STATUS.out_of_credits.en).length;
      expect(valueAt(ledger2.requests, "profile") - (ledger1.requests.profile ?? 0)).toBeLessThanOrEqual(left);
      expect(spent1).toBeLessThanOrEqual(500);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  // Was a known bug (the CLI's answer journal is cleared after every chunk): the rerun now rebuilds the
  // companies done from the earlier output's finished rows and buys none of them again.
  it("the CLI's rerun after out of credits buys no profile twice", () => {
    expect(cliPaidTwice).toBe(0);
  });
});
