/**
 * Issue 8, benchmark 4 (Sheets): the built Code.js in the Apps Script
 * harness (test/apps-script/harness.ts) enriching 1,000 rows through the
 * sidebar's server calls, counting Spreadsheet service calls, against a
 * row-by-row script; and Code.js's size and cold evaluation time.
 * The driver (Code.js bundled in memory, the sidebar's calls) is in
 * test/support/sheets-driver.ts, shared with the reliability tests.
 */
import vm from "node:vm";
import { createEmulator } from "../emulator/index.ts";
import { buildCodeJs, sheetsEnrich } from "../test/support/sheets-driver.ts";
import { createSheetsFake } from "../test/apps-script/harness.ts";
import { benchList } from "../test/support/lists.ts";
import { APP_FILE, LAZY_GLOBAL } from "../apps-script/stubs.ts";
import { DEFAULT_FIELDS, selectFields } from "../shared/enrich/fields.ts";
import { readResult } from "../shared/enrich/rows.ts";
import { correctRows, median, r2, ratio, rowsCorrectFigure, START_DATE, type Figure } from "./lib.ts";

/** A row-by-row script: per row, read its input cell and write its output row (getRange + getValues, getRange + setValues). */
export const NAIVE_CALLS_PER_ROW = 4;
/**
 * Spreadsheet calls a 1,000-row enrichment may make in all, the user's table and the add-on's hidden state
 * sheet counted together (issue 42, item 5: the state sheet read once and written once per step).
 * Counted: every call on SpreadsheetApp and on a Spreadsheet, Sheet, Range, Protection or DeveloperMetadata
 * object (test/apps-script/harness.ts), SpreadsheetApp.flush included; not counted: LockService (another
 * service) and the data-validation builders, which run in the script.
 */
export const MAX_CALLS_PER_1000_ROWS = 60;
/** Before issue 42: every state write read the sheet again (37 calls on the table + 291 on the state sheet). */
const STATE_SHEET_CALLS_BEFORE = 291;

export async function runSheetsBench(log: (s: string) => void = () => {}): Promise<Figure[]> {
  const out: Figure[] = [];
  log("sheets: bundling Code.js …");
  const code = await buildCodeJs();
  const emu = createEmulator({ startDate: START_DATE });
  const list = benchList(emu);
  const key = emu.createKey(1_000_000);

  // Cold evaluation: what Apps Script does on every server call.
  const evalTimes: number[] = [];
  const firstCall: number[] = [];
  // Building Code.js's own bundle is what every custom function's execution pays; the app bundle only a sidebar's or trigger's.
  const formulaBuild: number[] = [];
  for (let i = 0; i < 5; i++) {
    const f = createSheetsFake({ emulator: emu });
    evalTimes.push(f.load(code));
    const b = performance.now();
    vm.runInContext(`${LAZY_GLOBAL}()`, f.context);
    formulaBuild.push(performance.now() - b);
    const t = performance.now();
    f.call("getSettings");
    firstCall.push(performance.now() - t);
  }
  const empty = createSheetsFake({ emulator: emu });
  const t0 = performance.now();
  vm.runInContext("function onOpen(){}", empty.context);
  const trivial = performance.now() - t0;

  log("sheets: enriching 1,000 rows through uiCall …");
  const { fake, config, call, executions } = sheetsEnrich(
    code,
    emu,
    key,
    list.rows.map((r) => r.name),
  );
  fake.resetCounts();
  const before = emu.balance(key);
  const t = performance.now();
  // As the sidebar asks (shared/ui/panels/enrich/run.ts): the start runs the first step in the same execution.
  let p = call("enrichStart", { ...config, firstStep: true });
  let steps = 0;
  while (!p.finished && steps < 200) {
    p = call("enrichStep", { jobId: p.jobId });
    steps++;
  }
  const ms = performance.now() - t;
  // The user's table, the add-on's hidden state sheet (checkpoints, run marker, ledger: issue 25; counted as
  // "state:…") and its answer sheet (cache.ts; "answers:…").
  const stateCalls = fake.calls.filter((c) => c.startsWith("state:")).length;
  const answerCalls = fake.calls.filter((c) => c.startsWith("answers:")).length;
  const calls = fake.calls.length - stateCalls;
  const allCalls = fake.calls.length;
  // The commits Google asks for before a lock is released (state-session.ts).
  const commits = fake.calls.filter((c) => c.endsWith("SpreadsheetApp.flush")).length;
  const credits = before - emu.balance(key);
  // The output block right of the names, read back from the sheet as the user sees it.
  const width = selectFields([...DEFAULT_FIELDS]).length;
  const sheetRows = (fake.grids.get("Liste") ?? []).slice(1);
  const correct = correctRows(
    list,
    list.rows.map((_, i) =>
      readResult(
        sheetRows[i]?.slice(1).map((v) => (v instanceof Date ? v.toISOString() : v)),
        width,
      ),
    ),
  );
  const naive = NAIVE_CALLS_PER_ROW * list.rows.length;
  out.push(
    {
      group: "4 sheets",
      figure: "Spreadsheet service calls per 1,000 rows",
      value: calls,
      unit: "calls",
      baseline: naive,
      ratio: ratio(calls, naive),
      target: "< row-by-row",
      pass: calls < naive,
      note: `baseline: row-by-row script, ${NAIVE_CALLS_PER_ROW} calls a row; ${executions()} server calls (executions: the start with its first step, further steps, the confirmation with its first buying step); rows done ${p.processed}/${p.total}; ${answerCalls} of them on the add-on's answer sheet; the state sheet's calls in the next figures`,
    },
    {
      group: "4 sheets",
      figure: "Spreadsheet calls per 1,000 rows, both sheets (user's table + state sheet)",
      value: allCalls,
      unit: "calls",
      baseline: naive,
      ratio: ratio(allCalls, naive),
      target: `<= ${MAX_CALLS_PER_1000_ROWS}`,
      pass: allCalls <= MAX_CALLS_PER_1000_ROWS,
      note: `${calls} on the user's table (and the answer sheet) + ${stateCalls} on the add-on's hidden state sheet, ${commits} of all SpreadsheetApp.flush (the commit before a lock is released); the state sheet read once and written once per step (apps-script/state-session.ts)`,
    },
    {
      group: "4 sheets",
      figure: "calls on the add-on's state sheet per 1,000 rows",
      value: stateCalls,
      unit: "calls",
      note: `informational: ${STATE_SHEET_CALLS_BEFORE} before issue 42, when every state write read the sheet again and wrote a block`,
    },
    rowsCorrectFigure(
      "4 sheets",
      "rows correct (right id / not found) in the sheet, sidebar job",
      correct,
      list.rows.length,
      "the Sheets host's path: the built Code.js, enrichStart/enrichStep as the sidebar calls them (test/support/sheets-driver.ts)",
    ),
    {
      group: "4 sheets",
      figure: "credits for the 1,000-row list (sidebar job)",
      value: credits,
      unit: "credits",
      baseline: list.companies + Math.ceil(list.distinctQueries / 10),
      ratio: ratio(credits, list.companies + Math.ceil(list.distinctQueries / 10)),
      target: "= minimum",
      pass: credits === list.companies + Math.ceil(list.distinctQueries / 10),
      note: `minimum = ceil(distinct queries/10) + profiles; the sidebar's chunks of 20 rows; ${r2(ms / 1000)} s in-process without latency`,
    },
    {
      group: "4 sheets",
      figure: "Code.js size",
      value: r2(Buffer.byteLength(code.code) / 1024),
      unit: "KiB",
      note: "informational",
    },
    {
      group: "4 sheets",
      figure: "Code.js cold evaluation (node:vm, median of 5)",
      value: r2(median(evalTimes)),
      unit: "ms",
      baseline: r2(trivial),
      ratio: ratio(median(evalTimes), trivial),
      note: "baseline: evaluating a one-line script in the same harness",
    },
    {
      group: "4 sheets",
      figure: "app bundle size (app-bundle.html)",
      value: r2(Buffer.byteLength(code.files[APP_FILE] ?? "") / 1024),
      unit: "KiB",
      note: "informational: read and evaluated only by sidebar calls and the trigger",
    },
    {
      group: "4 sheets",
      figure: "building Code.js's bundle: a custom function's first call (median of 5)",
      value: r2(median(formulaBuild)),
      unit: "ms",
      note: "informational",
    },
    {
      group: "4 sheets",
      figure: "first sidebar call incl. reading and building the app bundle (median of 5)",
      value: r2(median(firstCall)),
      unit: "ms",
      note: "informational: getSettings on a fresh evaluation",
    },
  );
  return out;
}

if (process.argv[1] && /sheets\.bench\.ts$/.test(process.argv[1])) {
  runSheetsBench((s) => process.stderr.write(s + "\n")).then((rows) => console.table(rows));
}
