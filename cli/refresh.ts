/**
 * `company-data refresh` and `company-data estimate refresh`: the scheduled
 * refresh of an enriched list for cron, on the same core as the add-ons
 * (shared/refresh/run.ts runs unchanged against the CSV held as a sheet in
 * memory, with the files of cli/job-files.ts):
 *
 *   LIST.csv (--in)       the enriched list (the output of `company-data enrich`
 *                         or of an earlier refresh); a list not enriched yet is
 *                         enriched with --fields (default: enrich's)
 *   LIST.csv (--out)      ← the list with rows older than --older-than days
 *                         fetched again and the change column (old → new);
 *                         --in and --out may be the same file (replaced atomically)
 *   CHANGES.csv           ↔ the refresh log: one line per changed value, appended
 *                         (--changes)     as the core appends them, never a line twice
 *   LIST.csv.refresh.jsonl ↔ the state beside the output: this month's spend
 *                         against --month-ceiling, the row ledger, the last run
 *   LIST.csv.runs.jsonl   ↔ the audit of every cell a run changed (`company-data
 *                         runs` / `revert`, cli/runs.ts); LIST.csv.lock while it runs
 *
 * The price comes first (stderr), then `--yes` or the terminal's yes; without
 * either nothing is spent (exit 7). The monthly ceiling is counted in the
 * state file, so it holds across cron runs of the same output.
 */
import { resolve as resolvePath } from "node:path";
import { runAsync, type AsyncDriver } from "../shared/core/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import { detectColumns, MATCH_ROLES, NO_NAME_COLUMN } from "../shared/enrich/index.ts";
import { DEFAULT_FIELDS, selectFields } from "../shared/enrich/index.ts";
import { findOutputBlock } from "../shared/enrich/index.ts";
import { estimateRefresh, readTable as readRefreshTable, type RefreshEstimate } from "../shared/refresh/index.ts";
import { REFRESH_LOGS } from "../shared/refresh/index.ts";
import { monthSpend } from "../shared/refresh/index.ts";
import { refreshStep, type RefreshSummary } from "../shared/refresh/index.ts";
import type { RefreshSettings, RefreshTable } from "../shared/refresh/index.ts";
import type { Delimiter } from "./csv.ts";
import { acquireLock, DEFAULT_PARALLEL, nodeDriver, riskCredits } from "../node/index.ts";
import { ExitError, type Io } from "./io.ts";
import { EXIT, msg } from "./i18n.ts";
import { unreadable } from "./readable.ts";
import { confirmPrice, filesDriver, jobSheets, openStore, readLog, readTable } from "./job-files.ts";
import type { CsvSheets, FileStore } from "./job-files.ts";
import { runToEnd } from "../shared/schedule/index.ts";
import { writeTableFile, type JobFileArgs } from "./job-files.ts";
import { auditedDriver, openAuditFile, whoRuns } from "./runs.ts";

export interface RefreshArgs extends JobFileArgs {
  olderThanDays: number;
  monthCeiling: number;
  /** Fields for rows of a list that is not enriched yet (an enriched list keeps its own). */
  fields?: string[];
}

/** The list's sheet name in memory. */
const LIST = "List";
/** Where the state is kept: beside the output. */
export const refreshStateOf = (output: string) => `${output}.refresh.jsonl`;

const T = {
  distinct: {
    en: "--changes must be another file than --in and --out.",
    de: "--changes muss eine andere Datei als --in und --out sein.",
  },
  cutOff: {
    en: "The list's enrichment columns are incomplete (a column was removed or renamed); please enrich it again with company-data enrich.",
    de: "Die Spalten der Anreicherung in der Liste sind unvollständig (eine Spalte wurde entfernt oder umbenannt); bitte mit company-data enrich neu anreichern.",
  },
  noColumn: {
    en: `${NO_NAME_COLUMN.en[0]?.toUpperCase() ?? ""}${NO_NAME_COLUMN.en.slice(1)} in the list.`,
    de: `${NO_NAME_COLUMN.de[0]?.toUpperCase() ?? ""}${NO_NAME_COLUMN.de.slice(1)} in der Liste.`,
  },
  written: {
    en: (out: string, lines: number, log: string | undefined) =>
      `Result: ${out}${log ? `; ${lines} new lines in ${log}` : ""}.`,
    de: (out: string, lines: number, log: string | undefined) =>
      `Ergebnis: ${out}${log ? `; ${lines} neue Zeilen in ${log}` : ""}.`,
  },
} as const;

interface Prepared {
  sheets: CsvSheets;
  store: FileStore;
  driver: AsyncDriver;
  delimiter: Delimiter;
  settings: RefreshSettings & { table: RefreshTable };
  /** Bound the paid credits in flight to riskCredits of the run's price, once it is known (what a kill -9 can lose). */
  limitRisk(price: number): void;
}

async function prepare(args: RefreshArgs, withStore: "read" | "write"): Promise<Prepared> {
  const lang = args.lang;
  const why = unreadable(args.input);
  if (why) throw new ExitError(EXIT.INPUT, msg.noFile[lang](args.input, why));
  if (args.changes && [args.input, args.output].some((f) => f && resolvePath(f) === resolvePath(args.changes!)))
    throw new ExitError(EXIT.USAGE, T.distinct[lang]);
  const list = await readTable(args.input, lang);
  const header = list.rows[0];
  if (!header) throw new ExitError(EXIT.INPUT, msg.emptyCsv[lang](args.input));
  // An enriched list: its input is what stands left of its own output block, and it keeps its fields.
  const found = findOutputBlock(header);
  if (found && found.fields === null) throw new ExitError(EXIT.INPUT, T.cutOff[lang]);
  const cols = found ? found.start : header.length;
  const fields = found?.fields ?? args.fields ?? [...DEFAULT_FIELDS];
  selectFields(fields);
  const mapping = detectColumns(header.slice(0, cols)).mapping;
  if (MATCH_ROLES.every((r) => mapping[r] === undefined)) throw new ExitError(EXIT.INPUT, T.noColumn[lang]);
  const table: RefreshTable = {
    sheet: LIST,
    row: 1,
    col: 1,
    rows: list.rows.length,
    cols,
    mapping,
    fields,
    mode: "batch",
  };

  // The refresh log keeps its own header and delimiter once it exists; without --changes the lines stay in the change column only.
  const logSheet = REFRESH_LOGS[lang];
  const log = await readLog(args.changes, lang, list.delimiter);
  const sheets = jobSheets(LIST, list.rows, {
    ...log,
    sheet: args.changes ? logSheet : "",
    path: args.changes ?? "",
  });

  const statePath = args.output ? refreshStateOf(args.output) : "";
  const store = openStore(statePath, withStore);
  // Until the run is priced, at most DEFAULT_PARALLEL paid credits in flight; then 7 % of the price (enrich's rule).
  let risk = DEFAULT_PARALLEL;
  const base = nodeDriver({ parallel: args.parallel ?? DEFAULT_PARALLEL, riskCredits: () => risk });
  // An estimate reads the state but never writes it.
  const files = filesDriver(base, sheets, store, withStore === "write" && statePath ? false : "ignore");
  const driver = withStore === "write" && args.output ? auditedDriver(files, openAuditFile(args.output)) : files;
  const settings = {
    enabled: true,
    table,
    olderThanDays: args.olderThanDays,
    frequency: "daily" as const,
    hour: 0,
    monthCeiling: args.monthCeiling,
  };
  const limitRisk = (price: number) => void (risk = riskCredits(price));
  return { sheets, store, driver, delimiter: list.delimiter, settings, limitRisk };
}

async function priceOf(p: Prepared, ctx: OpContext): Promise<RefreshEstimate> {
  const { input, previous } = await runAsync(readRefreshTable(p.settings.table), p.driver);
  const month = await runAsync(monthSpend(ctx, p.settings.monthCeiling), p.driver);
  return estimateRefresh(input, previous, p.settings, month, ctx.client.now());
}

/** `estimate refresh`: the most the next refresh spends (stdout) and the 30-day figure and ceiling (stderr); nothing is written. */
export async function estimateRefreshCommand(args: RefreshArgs, ctx: OpContext, io: Io): Promise<number> {
  const est = await priceOf(await prepare(args, "read"), ctx);
  io.err(est.text[args.lang]);
  io.out(String(est.nextRun));
  return EXIT.OK;
}

function exitOf(s: RefreshSummary): number {
  if (s.status === "out_of_credits") return EXIT.OUT_OF_CREDITS;
  // The ceiling reached is the schedule working as asked: rows wait for next month.
  return EXIT.OK;
}

/** `refresh`: price first, then the refresh; the list with its change column, the appended refresh log, the state. */
export async function refreshCommand(args: RefreshArgs, ctx: OpContext, io: Io, interactive: boolean): Promise<number> {
  const lang = args.lang;
  const output = args.output;
  if (!output) throw new ExitError(EXIT.USAGE, msg.missingOption[lang]("--out"));
  // One run per output (enrich's lock): a revert of the same list waits for it (cli/runs.ts).
  const lock = acquireLock(`${output}.lock`);
  if (!lock.ok) throw new ExitError(EXIT.LOCKED, msg.locked[lang](output, lock.owner?.pid ?? null, `${output}.lock`));
  try {
    return await refreshLocked(args, ctx, io, interactive, output);
  } finally {
    lock.release();
  }
}

async function refreshLocked(
  args: RefreshArgs,
  ctx: OpContext,
  io: Io,
  interactive: boolean,
  output: string,
): Promise<number> {
  const lang = args.lang;
  const p = await prepare(args, "write");
  const est = await priceOf(p, ctx);
  io.err(est.text[lang]);
  await confirmPrice(est.nextRun, args, io, interactive);
  p.limitRisk(est.nextRun);
  // No deadline here: a step ends done, at the ceiling or out of credits (paused only if rows keep appearing).
  const summary = await runToEnd(() => runAsync(refreshStep(ctx, p.settings, { who: whoRuns() }), p.driver), 3);
  writeTableFile(output, p.sheets.table(LIST), p.delimiter);
  io.err(summary.message[lang]);
  io.err(T.written[lang](output, p.sheets.appended, args.changes));
  p.store.compact();
  return exitOf(summary);
}
