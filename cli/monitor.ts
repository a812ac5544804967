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
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import * as z from "zod/mini";
import { runAsync, type AsyncDriver } from "../shared/core/index.ts";
import { readPart } from "../shared/core/index.ts";
import { CompanyDataError } from "../shared/core/index.ts";
import type { Bilingual, Language } from "../shared/i18n/index.ts";
import type { HttpRequest } from "../shared/core/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import type { Cell, SheetRequest } from "../shared/core/index.ts";
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
import { CsvError, formatRow, readCsv, type Delimiter } from "./csv.ts";
import { DEFAULT_PARALLEL, nodeDriver } from "./driver.ts";
import { ExitError, type Io } from "./io.ts";
import { EXIT, msg } from "./i18n.ts";
import { errnoOf, unreadable } from "./readable.ts";

export interface MonitorArgs {
  input: string;
  output?: string;
  changes?: string;
  notify?: string;
  yes: boolean;
  lang: Language;
  parallel?: number;
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

// ---- the document store as a file

/** One line of the store's journal: the keys one storePut wrote (null: deleted). Its values are versioned saved state themselves. */
const STORE_LINE = z.record(z.string(), z.nullable(z.string()));

/** The store as a journal of writes: each storePut is one appended line; the last value of a key wins. */
export class FileStore {
  private readonly map = new Map<string, string>();
  constructor(readonly path: string) {
    if (!existsSync(path)) return;
    for (const line of readFileSync(path, "utf8").split("\n")) {
      if (!line) continue;
      // A torn last line from a kill (the write it held never completed), or a line that does not fit: skipped.
      const entries = readPart(STORE_LINE, line);
      for (const [k, v] of Object.entries(entries ?? {})) v === null ? this.map.delete(k) : this.map.set(k, v);
    }
  }
  get(keys: string[]): (string | null)[] {
    return keys.map((k) => this.map.get(k) ?? null);
  }
  put(entries: Record<string, string | null>): void {
    appendFileSync(this.path, JSON.stringify(entries) + "\n");
    for (const [k, v] of Object.entries(entries)) v === null ? this.map.delete(k) : this.map.set(k, v);
  }
  /** Rewrite the journal as one line per key (atomically: a kill leaves the old one). */
  compact(): void {
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, [...this.map].map(([k, v]) => JSON.stringify({ [k]: v }) + "\n").join(""));
    renameSync(tmp, this.path);
  }
}

// ---- CSV files as sheets

/**
 * The sheet protocol over tables in memory; the change log's appends are
 * written through to its file at once (the core appends before it saves
 * watermarks, and the file must hold the lines by then).
 */
export class CsvSheets {
  readonly tables = new Map<string, Cell[][]>();
  /** Lines appended to the change log in this run. */
  appended = 0;
  constructor(private readonly log: { sheet: string; path: string; delimiter: Delimiter }) {}

  handle(req: SheetRequest): unknown {
    switch (req.op) {
      case "readAll": {
        const t = this.tables.get(req.sheet);
        if (!t) return null;
        const width = Math.max(0, ...t.map((r) => r.length));
        return t.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ""));
      }
      case "read": {
        const t = this.tables.get(req.sheet) ?? [];
        return Array.from({ length: req.rows }, (_, i) =>
          Array.from({ length: req.cols }, (_, j) => t[req.row - 1 + i]?.[req.col - 1 + j] ?? ""),
        );
      }
      case "write": {
        const t = this.tables.get(req.sheet);
        if (!t) throw new CompanyDataError("INTERNAL");
        req.values.forEach((cells, i) => {
          const r = req.row - 1 + i;
          while (t.length < r) t.push([]);
          const line = (t[r] ??= []);
          cells.forEach((v, j) => {
            const c = req.col - 1 + j;
            while (line.length < c) line.push("");
            line[c] = v;
          });
        });
        return undefined;
      }
      case "ensureSheet": {
        if (this.tables.has(req.sheet)) return undefined;
        const header = req.headers ? [...req.headers] : [];
        this.tables.set(req.sheet, header.length ? [header] : []);
        if (req.sheet === this.log.sheet && header.length)
          writeFileSync(this.log.path, formatRow(header, this.log.delimiter));
        return undefined;
      }
      case "append": {
        const t = this.tables.get(req.sheet);
        if (!t) throw new CompanyDataError("INTERNAL");
        if (req.sheet === this.log.sheet) {
          appendFileSync(this.log.path, req.rows.map((r) => formatRow(r, this.log.delimiter)).join(""));
          this.appended += req.rows.length;
        }
        for (const r of req.rows) t.push([...r]);
        return undefined;
      }
      // Colours and dropdowns have no place in a CSV file; the result columns say it in words.
      case "colour":
      case "dropdowns":
        return undefined;
      case "selection":
        throw new CompanyDataError("INTERNAL");
    }
  }
}

/** A CSV file's rows and its delimiter; an unreadable file is exit 3 with the line and why (DE/EN). */
export async function readTable(path: string, lang: Language): Promise<{ rows: string[][]; delimiter: Delimiter }> {
  let delimiter: Delimiter = ",";
  const rows: string[][] = [];
  try {
    for await (const rec of readCsv(path, (d) => (delimiter = d))) rows.push(rec);
  } catch (e) {
    if (e instanceof CsvError) throw new ExitError(EXIT.INPUT, msg.badCsv[lang](path, e.line, e.text[lang]));
    throw new ExitError(EXIT.INPUT, msg.noFile[lang](path, errnoOf(e)));
  }
  return { rows, delimiter };
}

interface Prepared {
  sheets: CsvSheets;
  store: FileStore;
  driver: AsyncDriver;
  delimiter: Delimiter;
  logSheet: string;
  clearJournal(): void;
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
  let logRows: string[][] | null = null;
  let logDelimiter = input.delimiter;
  if (args.changes && existsSync(args.changes)) {
    const log = await readTable(args.changes, lang);
    if (log.rows.length) {
      logRows = log.rows;
      logDelimiter = log.delimiter;
    }
  }
  const sheets = new CsvSheets({ sheet: logSheet, path: args.changes ?? "", delimiter: logDelimiter });
  sheets.tables.set(
    PORTFOLIO_SHEET,
    input.rows.map((r) => [...r]),
  );
  if (logRows) sheets.tables.set(logSheet, logRows);

  // An estimate reads the watermarks but never writes them.
  const statePath = args.output ? stateFileOf(args.output) : "";
  const store =
    statePath && (withStore === "write" || existsSync(statePath)) ? new FileStore(statePath) : new FileStore("");
  const journal = withStore === "write" && args.output ? journalOf(args.output) : undefined;
  const base = nodeDriver({ parallel: args.parallel ?? DEFAULT_PARALLEL, journal, replayable: paidMonitorAnswer });
  const readOnly = withStore === "read" || !statePath;
  const driver: AsyncDriver = {
    ...base,
    storeGet: async (keys) => store.get(keys),
    storePut: async (entries) => {
      if (readOnly) throw new CompanyDataError("INTERNAL");
      store.put(entries);
    },
    sheet: async (req) => sheets.handle(req),
  };
  return { sheets, store, driver, delimiter: input.delimiter, logSheet, clearJournal: () => base.clearJournal(true) };
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
  if (preview.estimate > 0 && !args.yes) {
    const ok = interactive && io.ask ? await io.ask(msg.confirm[lang]) : false;
    if (!ok) throw new ExitError(EXIT.NOT_CONFIRMED, msg.notConfirmed[lang]);
  }

  // A check pauses when only failed calls are left; the core bounds how often it continues for them.
  let summary = await runAsync(checkPortfolio(ctx, opts), p.driver);
  for (let k = 0; summary.status === "paused" && k <= MAX_STALLED_CALLS; k++)
    summary = await runAsync(checkPortfolio(ctx, opts), p.driver);

  const table = p.sheets.tables.get(PORTFOLIO_SHEET) ?? [];
  const width = Math.max(0, ...table.map((r) => r.length));
  const partial = `${output}.partial`;
  writeFileSync(
    partial,
    table
      .map((r) =>
        formatRow(
          Array.from({ length: width }, (_, i) => r[i] ?? ""),
          p.delimiter,
        ),
      )
      .join(""),
  );
  renameSync(partial, output);
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
