/**
 * Issue 40: what the audit of writes (shared/undo/) costs.
 *  - Sheets: the built Code.js enriching 1,000 rows through the sidebar's
 *    calls (test/support/sheets-driver.ts), every Spreadsheet call counted
 *    (the user's table and the add-on's state sheet), against the same build
 *    whose audit records nothing (an esbuild plugin turns `record` into a
 *    no-op; everything else is the same code). Target: at most 5 % more calls.
 *  - Size: 10 refresh runs of 1,000 rows each recorded through the audit's own
 *    code (auditRun.record, one part per 20-row block as the job writes them)
 *    into a memory store: per row the as-of date, and for one row in ten an
 *    address and the change column (addresses from the emulator); the
 *    characters stored, the cells, and how many of the 10 runs the default
 *    limits keep.
 */
import { readFileSync } from "node:fs";
import type * as esbuild from "esbuild";
import { createEmulator } from "../emulator/index.ts";
import { buildCodeJs, sheetsEnrich } from "../test/support/sheets-driver.ts";
import { benchList } from "../test/support/lists.ts";
import { asyncStores, memoryStores, runAsync, type AsyncDriver } from "../shared/core/index.ts";
import { rowKey } from "../shared/enrich/index.ts";
import { AUDIT_LIMITS, auditRun, auditSize, readIndex } from "../shared/undo/index.ts";
import { ratio, r2, START_DATE, type Figure } from "./lib.ts";

/** The same app bundle with an audit that records nothing: the baseline the audit's calls are counted against. */
const NO_AUDIT: esbuild.Plugin = {
  name: "no-audit",
  setup(b) {
    b.onLoad({ filter: /shared[\\/]undo[\\/]audit-run\.ts$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      const off = text.replace("if (cells === 0) return;", "return;");
      if (off === text) throw new Error("audit-run.ts changed: the no-audit baseline must be updated");
      return { contents: off, loader: "ts" };
    });
  },
};

async function sheetsCalls(withAudit: boolean): Promise<{ user: number; state: number; auditChars: number }> {
  const code = await buildCodeJs(withAudit ? [] : [NO_AUDIT]);
  const emu = createEmulator({ startDate: START_DATE });
  const list = benchList(emu);
  const { fake, config, call } = sheetsEnrich(
    code,
    emu,
    emu.createKey(1_000_000),
    list.rows.map((r) => r.name),
  );
  fake.resetCounts();
  let p = call("enrichStart", config);
  for (let steps = 0; !p.finished && steps < 200; steps++) p = call("enrichStep", { jobId: p.jobId });
  const state = fake.calls.filter((c) => c.startsWith("state:")).length;
  const runs = call("auditRuns", {}) as { size: { chars: number } };
  return { user: fake.calls.length - state, state, auditChars: runs.size.chars };
}

/** 10 refresh runs of 1,000 rows through auditRun into a memory store. */
async function auditOfTenRuns(): Promise<{ chars: number; cells: number; runs: number }> {
  const emu = createEmulator({ startDate: START_DATE });
  const list = benchList(emu);
  const stores = memoryStores();
  const driver = { ...asyncStores(stores) } as AsyncDriver;
  const addresses = emu.companies.withStatus("ACTIVE").slice(0, 200);
  let t = Date.parse(`${START_DATE}T06:00:00Z`);
  for (let run = 0; run < 10; run++) {
    const audit = auditRun({
      kind: "refresh",
      who: "schedule",
      now: () => t,
      table: { sheet: "List", row: 1, col: 1, cols: 1, mapping: { name: 0 } },
    });
    const day = (d: number) => new Date(t - d * 86_400_000).toISOString().slice(0, 10);
    for (let from = 0; from < list.rows.length; from += 20) {
      const rows = list.rows.slice(from, from + 20).map((r, i) => {
        const cells: [number, string, string][] = [[14, day(31), day(0)]];
        if ((from + i) % 10 === 0) {
          const a = `${addresses[(from + i + run) % addresses.length]} Hauptstraße ${from + i}, 10115 Berlin`;
          const b = `${addresses[(from + i + run + 1) % addresses.length]} Bahnhofstraße ${run}, 10117 Berlin`;
          cells.push([9, a, b], [15, "", `Address: ${a} → ${b}`]);
        }
        return { key: rowKey([r.name], { name: 0 }), cells };
      });
      await runAsync(audit.record("List", rows), driver);
    }
    await runAsync(
      (function* () {
        const entries = yield* audit.finish(run + 1000);
        stores.storePut(entries);
      })(),
      driver,
    );
    t += 30 * 86_400_000;
  }
  const size = auditSize(await runAsync(readIndex(), driver));
  let chars = 0;
  for (const [k, v] of stores.store) if (k.startsWith("doc:audit:")) chars += k.length + v.length;
  return { chars, cells: size.cells, runs: size.runs };
}

export async function runAuditBench(log: (s: string) => void = () => {}): Promise<Figure[]> {
  log("audit: 1,000 rows in Sheets with and without the audit …");
  const without = await sheetsCalls(false);
  const withAudit = await sheetsCalls(true);
  const all = (c: { user: number; state: number }) => c.user + c.state;
  const r = ratio(all(withAudit), all(without));
  log("audit: 10 refresh runs of 1,000 rows …");
  const ten = await auditOfTenRuns();
  return [
    {
      group: "40 audit",
      figure: "Sheets: Spreadsheet calls of a 1,000-row enrichment with the audit",
      value: all(withAudit),
      unit: "calls",
      baseline: all(without),
      ratio: r,
      target: "≤ 1.05",
      pass: r <= 1.05,
      note: `user's table ${withAudit.user} vs ${without.user}, state sheet ${withAudit.state} vs ${without.state}; baseline: the same build whose audit records nothing; the run's audit holds ${withAudit.auditChars} characters`,
    },
    {
      group: "40 audit",
      figure: "audit size for 10 refresh runs of 1,000 rows",
      value: r2(ten.chars / 1024),
      unit: "KiB",
      note: `${ten.cells} cells in ${ten.runs} runs kept (limits: ${AUDIT_LIMITS.runs} runs, ${AUDIT_LIMITS.cells} cells); per row the as-of date, every tenth row an address and its change cell`,
    },
  ];
}
