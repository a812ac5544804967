/**
 * What the CLI's scheduled jobs (`monitor`, `refresh`: the portfolio check
 * and the refresh of an enriched list, for cron) share: their files held as
 * the core's sheets and document store, the price first, the run taken to
 * its end, and the result written atomically. Each command keeps only what
 * is its own (its arguments, its sheets, its summary's exit code).
 */
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import * as z from "zod/mini";
import { CompanyDataError, readPart, type AsyncDriver } from "../shared/core/index.ts";
import type { Cell, SheetRequest } from "../shared/core/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { Workbook } from "../shared/sheet/index.ts";
import { CsvError, formatRow, readCsv, type Delimiter } from "./csv.ts";
import { ExitError, type Io } from "./io.ts";
import { EXIT, msg } from "./i18n.ts";
import { errnoOf } from "./readable.ts";
import { appendPrivate, writePrivate } from "../node/index.ts";

/** What every scheduled job's command takes: its files, the yes, the language, the parallel calls. */
export interface JobFileArgs {
  input: string;
  output?: string;
  changes?: string;
  yes: boolean;
  lang: Language;
  parallel?: number;
}

/** One line of the store's journal: the keys one storePut wrote (null: deleted). Its values are versioned saved state themselves. */
const STORE_LINE = z.record(z.string(), z.nullable(z.string()));

/** The store as a journal of writes: each storePut is one appended line; the last value of a key wins. */
export class FileStore {
  private readonly map = new Map<string, string>();
  /** `mode`: the file's permission bits when this store creates it and when it compacts it (0o600: private). */
  constructor(
    readonly path: string,
    private readonly mode?: number,
  ) {
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
    appendPrivate(this.path, JSON.stringify(entries) + "\n");
    for (const [k, v] of Object.entries(entries)) v === null ? this.map.delete(k) : this.map.set(k, v);
  }
  /** Rewrite the journal as one line per key (atomically: a kill leaves the old one). */
  compact(): void {
    const tmp = `${this.path}.tmp`;
    writePrivate(tmp, [...this.map].map(([k, v]) => JSON.stringify({ [k]: v }) + "\n").join(""));
    renameSync(tmp, this.path);
  }
}

/**
 * The sheet protocol over tables in memory: the one in-memory workbook
 * (shared/sheet/workbook.ts, the playground's and the team server's), with
 * the change log's appends written through to its file at once (the core
 * appends before it saves watermarks, and the file must hold the lines by
 * then). A file has no selection; colours and dropdowns have no place in a
 * CSV file (the result columns say it in words) and are never written out.
 */
export class CsvSheets extends Workbook {
  /** Lines appended to the change log in this run. */
  appended = 0;
  constructor(private readonly log: { sheet: string; path: string; delimiter: Delimiter }) {
    super([]);
  }

  /** A table's cells as they stand (empty when there is none). */
  table(name: string): Cell[][] {
    return this.sheets.get(name)?.cells ?? [];
  }

  override handle(req: SheetRequest): unknown {
    if (req.op === "selection") throw new CompanyDataError("INTERNAL");
    const log = req.sheet === this.log.sheet;
    if (req.op === "ensureSheet" && log && req.headers?.length && !this.sheets.has(req.sheet))
      writeFileSync(this.log.path, formatRow(req.headers, this.log.delimiter));
    if (req.op === "append" && log) {
      if (!this.sheets.has(req.sheet)) throw new CompanyDataError("INTERNAL");
      appendFileSync(this.log.path, req.rows.map((r) => formatRow(r, this.log.delimiter)).join(""));
      this.appended += req.rows.length;
    }
    return super.handle(req);
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

/** A job's log (change log, refresh log) once it exists: its rows, and its own delimiter (else the input's). */
export async function readLog(
  path: string | undefined,
  lang: Language,
  delimiter: Delimiter,
): Promise<{ rows: string[][] | null; delimiter: Delimiter }> {
  if (!path || !existsSync(path)) return { rows: null, delimiter };
  const log = await readTable(path, lang);
  return log.rows.length ? log : { rows: null, delimiter };
}

/**
 * A job's sheets in memory: its input table under `sheet`, and its log
 * under `log.sheet` (appends written through to `log.path`), seeded with
 * the log's rows once it exists.
 */
export function jobSheets(
  sheet: string,
  rows: readonly string[][],
  log: { sheet: string; path: string; rows: string[][] | null; delimiter: Delimiter },
): CsvSheets {
  const sheets = new CsvSheets(log);
  sheets.addSheet(sheet, rows as Cell[][]);
  if (log.rows && log.sheet) sheets.addSheet(log.sheet, log.rows);
  return sheets;
}

/** The state beside the output: written by a run; an estimate reads it when it exists and never writes it. */
export function openStore(statePath: string, mode: "read" | "write"): FileStore {
  return statePath && (mode === "write" || existsSync(statePath)) ? new FileStore(statePath) : new FileStore("");
}

/**
 * The core's driver over a job's files: the network of `base`, the CSV
 * tables as sheets, the state file as the document store. `readOnly` writes
 * go nowhere (`ignore`) or are a bug (`refuse`: INTERNAL).
 */
export function filesDriver(
  base: AsyncDriver,
  sheets: CsvSheets,
  store: FileStore,
  readOnly: false | "ignore" | "refuse",
): AsyncDriver {
  return {
    ...base,
    storeGet: async (keys) => store.get(keys),
    storePut: async (entries) => {
      if (readOnly === "refuse") throw new CompanyDataError("INTERNAL");
      if (!readOnly) store.put(entries);
    },
    sheet: async (req) => sheets.handle(req),
  };
}

/** Price first: a run that costs credits needs --yes or the terminal's yes; without either nothing is spent (exit 7). */
export async function confirmPrice(price: number, args: JobFileArgs, io: Io, interactive: boolean): Promise<void> {
  if (price <= 0 || args.yes) return;
  const ok = interactive && io.ask ? await io.ask(msg.confirm[args.lang]) : false;
  if (!ok) throw new ExitError(EXIT.NOT_CONFIRMED, msg.notConfirmed[args.lang]);
}

/** A sheet written to its CSV file atomically (beside it, then renamed over it: a kill leaves the old file). */
export function writeTableFile(path: string, table: readonly Cell[][], delimiter: Delimiter): void {
  const width = Math.max(0, ...table.map((r) => r.length));
  const partial = `${path}.partial`;
  writeFileSync(
    partial,
    table
      .map((r) =>
        formatRow(
          Array.from({ length: width }, (_, i) => r[i] ?? ""),
          delimiter,
        ),
      )
      .join(""),
  );
  renameSync(partial, path);
}
