/**
 * `company-data monitor`: the portfolio check for portfolios past a
 * spreadsheet, on the same core as the add-ons (shared/monitor/check.ts runs
 * unchanged against CSV files held as sheets in memory):
 *
 *   PORTFOLIO.csv  → the "Portfolio" sheet (name and/or id columns as in enrich)
 *   RESULT.csv     ← that sheet after the check: the input, the ID column
 *                    (filled where a name was resolved) and the result columns
 *   CHANGES.csv    ↔ the change log: read for the keys already logged, new
 *                    lines appended to the file the moment the core appends
 *                    them (before the watermarks move), never a line twice
 *   RESULT.csv.monitor.jsonl ↔ the document store: watermarks, last results,
 *                    the alert outbox and delivery record. Every write is
 *                    appended as it happens (a kill loses nothing the core
 *                    saved), and the file is compacted at the end.
 *
 * So the next run pays only for what changed (the free availability check
 * decides), the price comes first (`estimate monitor` and before any credit
 * of `monitor`), and a killed run resumes: started again, what was finished
 * costs nothing (its watermark moved), the rest is checked.
 * `--notify URL` posts the alert digest (shared/monitor/webhook.ts); what
 * could not be delivered stays in the store and goes out with the next run.
 */
import { resolve as resolvePath } from "node:path";
import { runAsync, type AsyncDriver } from "../shared/core/index.ts";
import type { Bilingual, Language } from "../shared/i18n/index.ts";
import type { HttpRequest } from "../shared/core/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import { deliverAlerts, type DeliveryOutcome } from "../shared/monitor/index.ts";
import { CHANGES_SHEETS } from "../shared/monitor/index.ts";
import {
  checkPortfolio,
  MAX_STALLED_CALLS,
  PORTFOLIO_SHEET,
  RUN_KEY,
  type RunSummary,
} from "../shared/monitor/index.ts";
import { checkWebhookUrl, postWebhook } from "../shared/monitor/index.ts";
import type { Delimiter } from "./csv.ts";
import { DEFAULT_PARALLEL, nodeDriver, riskCredits } from "../node/index.ts";
import { ExitError, type Io } from "./io.ts";
import { EXIT, msg } from "./i18n.ts";
import { unreadable } from "./readable.ts";
import { confirmPrice, filesDriver, jobSheets, openStore, readLog, readTable } from "./job-files.ts";
import type { CsvSheets, FileStore } from "./job-files.ts";
import { runToEnd } from "../shared/schedule/index.ts";
import { writeTableFile, type JobFileArgs } from "./job-files.ts";

/** The CSV reader of the CLI's scheduled jobs (cli/job-files.ts), also `monitor --server`'s. */
export { readTable };

export interface MonitorArgs extends JobFileArgs {
  notify?: string;
}

/**
 * Rows per window: one parallel batch of paid calls and one save of their
 * watermarks each. The free availability calls (paced to the service's rate
 * limit) take most of a run's time anyway; small windows keep what an
 * interruption leaves to redo small.
 */
export const CLI_WINDOW_ROWS = 25;

const T = {
  needChanges: {
    en: "Missing --changes (the change log file). See company-data --help.",
    de: "--changes (die Datei des Änderungsprotokolls) fehlt. Siehe company-data --help.",
  },
  distinct: {
    en: "--in, --out and --changes must be three different files.",
    de: "--in, --out und --changes müssen drei verschiedene Dateien sein.",
  },
  restart: {
    en: "An earlier run was interrupted: companies it finished cost nothing now; the rest is checked.",
    de: "Ein früherer Lauf wurde unterbrochen: was er erledigt hat, kostet jetzt nichts; der Rest wird geprüft.",
  },
  written: {
    en: (out: string, changes: number, log: string) => `Result: ${out}; ${changes} new lines in ${log}.`,
    de: (out: string, changes: number, log: string) => `Ergebnis: ${out}; ${changes} neue Zeilen in ${log}.`,
  },
  sent: {
    en: (n: number, c: number) => `Alert sent: ${n} ${n === 1 ? "company" : "companies"}, ${c} changes.`,
    de: (n: number, c: number) => `Benachrichtigung gesendet: ${n} ${n === 1 ? "Firma" : "Firmen"}, ${c} Änderungen.`,
  },
  nothing: { en: "No news to alert.", de: "Keine Neuigkeiten zu melden." },
  failed: {
    en: (why: string, n: number) =>
      `Alert NOT delivered (${why}); ${n} ${n === 1 ? "company stays" : "companies stay"} waiting and ${n === 1 ? "is" : "are"} sent with the next run.`,
    de: (why: string, n: number) =>
      `Benachrichtigung NICHT zugestellt (${why}); ${n} ${n === 1 ? "Firma wartet" : "Firmen warten"} und ${n === 1 ? "wird" : "werden"} mit dem nächsten Lauf gesendet.`,
  },
} satisfies Record<string, Bilingual | Record<Language, unknown>>;

/** Where the watermarks are kept: beside the output. */
export const stateFileOf = (output: string) => `${output}.monitor.jsonl`;
/** Paid answers of the run in progress: a killed run's window is not paid again when it is resumed. */
export const journalOf = (output: string) => `${output}.monitor.journal.jsonl`;

/**
 * Only the paid answers (a profile, changes since a watermark) are replayed
 * on resume: the same company asked the same way. Never the free
 * availability answer: an old one would move a watermark past news.
 */
const paidMonitorAnswer = (r: HttpRequest) => r.price?.endpoint === "profile" || r.price?.endpoint === "changes";

interface Prepared {
  sheets: CsvSheets;
  store: FileStore;
  driver: AsyncDriver;
  delimiter: Delimiter;
  logSheet: string;
  clearJournal(): void;
  /** Bound the paid credits in flight to riskCredits of the check's price, once it is known (what a kill -9 can lose). */
  limitRisk(price: number): void;
}

async function prepare(args: MonitorArgs, withStore: "read" | "write"): Promise<Prepared> {
  const lang = args.lang;
  const why = unreadable(args.input);
  if (why) throw new ExitError(EXIT.INPUT, msg.noFile[lang](args.input, why));
  const files = [args.input, args.output, args.changes].filter((f): f is string => !!f).map((f) => resolvePath(f));
  if (new Set(files).size !== files.length) throw new ExitError(EXIT.USAGE, T.distinct[lang]);
  const input = await readTable(args.input, lang);
  if (input.rows.length === 0) throw new ExitError(EXIT.INPUT, msg.emptyCsv[lang](args.input));

  // The change log keeps its own name, header and delimiter once it exists.
  const logSheet: string = CHANGES_SHEETS[lang];
  const log = await readLog(args.changes, lang, input.delimiter);
  const sheets = jobSheets(PORTFOLIO_SHEET, input.rows, { ...log, sheet: logSheet, path: args.changes ?? "" });

  // An estimate reads the watermarks but never writes them.
  const statePath = args.output ? stateFileOf(args.output) : "";
  const store = openStore(statePath, withStore);
  const journal = withStore === "write" && args.output ? journalOf(args.output) : undefined;
  // Until the check is priced, at most DEFAULT_PARALLEL paid credits in flight; then 7 % of the price (enrich's rule).
  let risk = DEFAULT_PARALLEL;
  const base = nodeDriver({
    parallel: args.parallel ?? DEFAULT_PARALLEL,
    journal,
    replayable: paidMonitorAnswer,
    riskCredits: () => risk,
  });
  const driver = filesDriver(base, sheets, store, withStore === "read" || !statePath ? "refuse" : false);
  return {
    sheets,
    store,
    driver,
    delimiter: input.delimiter,
    logSheet,
    clearJournal: () => base.clearJournal(true),
    limitRisk: (price) => void (risk = riskCredits(price)),
  };
}

/** `estimate monitor`: the exact price of the next check (free calls only); nothing is written. */
export async function estimateMonitorCommand(args: MonitorArgs, ctx: OpContext, io: Io): Promise<number> {
  const p = await prepare(args, "read");
  const preview = await runAsync(
    checkPortfolio(ctx, { sheet: PORTFOLIO_SHEET, changesSheet: p.logSheet, preview: true }),
    p.driver,
  );
  io.err(preview.message[args.lang]);
  io.out(String(preview.estimate));
  return EXIT.OK;
}

/** The exit code of a check; a stopped one says why in its message (the stopping error's text). */
function exitOf(s: RunSummary): number {
  if (s.status === "stopped")
    return /not enough credits/i.test(s.message.en)
      ? EXIT.OUT_OF_CREDITS
      : /API key/.test(s.message.en)
        ? EXIT.KEY
        : EXIT.SERVICE;
  if (s.status === "paused") return EXIT.SERVICE;
  return EXIT.OK;
}

/** `monitor`: price first, then the check; the result file, the appended change log, and the alert. */
export async function monitorCommand(args: MonitorArgs, ctx: OpContext, io: Io, interactive: boolean): Promise<number> {
  const lang = args.lang;
  if (!args.output) throw new ExitError(EXIT.USAGE, msg.missingOption[lang]("--out"));
  if (!args.changes) throw new ExitError(EXIT.USAGE, T.needChanges[lang]);
  const notify = args.notify !== undefined ? checkWebhookUrl(args.notify) : undefined;
  const p = await prepare(args, "write");
  const output = args.output;

  // A run a kill interrupted is not continued window by window (its finished rows are not in this
  // run's table): a fresh check, in which what it finished is unchanged and free.
  const [interrupted] = p.store.get([RUN_KEY(ctx)]);
  if (interrupted) {
    io.err(T.restart[lang]);
    p.store.put({ [RUN_KEY(ctx)]: null });
  }

  const opts = {
    sheet: PORTFOLIO_SHEET,
    changesSheet: p.logSheet,
    alerts: notify !== undefined ? ["webhook"] : [],
    windowRows: CLI_WINDOW_ROWS,
  };
  const preview = await runAsync(checkPortfolio(ctx, { ...opts, preview: true }), p.driver);
  io.err(preview.message[lang]);
  await confirmPrice(preview.estimate, args, io, interactive);
  p.limitRisk(preview.estimate);

  // A check pauses when only failed calls are left; the core bounds how often it continues for them.
  const summary = await runToEnd(() => runAsync(checkPortfolio(ctx, opts), p.driver), MAX_STALLED_CALLS + 1);
  writeTableFile(output, p.sheets.table(PORTFOLIO_SHEET), p.delimiter);
  io.err(summary.message[lang]);
  io.err(T.written[lang](output, p.sheets.appended, args.changes));

  // Finished: what the journal held is in the watermarks and the result now.
  if (summary.status !== "paused") p.clearJournal();
  let code = exitOf(summary);
  if (notify !== undefined) {
    const sent: DeliveryOutcome = await runAsync(deliverAlerts(ctx, "webhook", postWebhook(notify)), p.driver);
    if (sent.status === "nothing") io.err(T.nothing[lang]);
    else if (sent.status === "sent") io.err(T.sent[lang](sent.record.companies, sent.record.changes));
    else {
      io.err(T.failed[lang](sent.record.error?.[lang] ?? "", sent.record.companies));
      if (code === EXIT.OK) code = EXIT.SERVICE;
    }
  }
  p.store.compact();
  return code;
}
