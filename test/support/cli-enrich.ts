/**
 * The CLI's enrichment in this process: `enrichCommand` of cli/enrich.ts,
 * called as cli/main.ts calls it for `company-data enrich --yes` (the
 * operation context as the CLI builds one, ./cli-context.ts), on a CSV file
 * written from the given rows, against a server on loopback. The path a CLI
 * user runs (file reading, estimate, the CLI's fetch driver with its
 * journal and adaptive concurrency, checkpoint, output file), without a
 * child process, so that a benchmark can time it and a test can read the
 * client's own count of credits. The output file is read back row by row.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { enrichCommand } from "../../cli/enrich.ts";
import { fromCsvCell } from "../../cli/csv-table.ts";
import { parseCsv } from "../../cli/csv.ts";
import { DEFAULT_FIELDS, selectFields } from "../../shared/enrich/fields.ts";
import { readResult, type RowResult } from "../../shared/enrich/rows.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { cliContext } from "./cli-context.ts";

export interface CliEnrichOptions {
  baseUrl: string;
  key: string;
  /** Folder for the input, the output and the CLI's journals. */
  dir: string;
  /** File name stem: `<name>.csv` in, `<name>.out.csv` out (an existing output is the CLI's earlier run). */
  name: string;
  header: string[];
  rows: string[][];
  fields?: string[];
  /** `--parallel` (the CLI's default when absent). */
  parallel?: number;
  /** More of the operation context's client (a spend counter). */
  client?: Partial<OpContext["client"]>;
  /**
   * Called right before the command starts; what it returns, right after it ends: a bench's meter sees the
   * command only (not this harness writing the input or reading the output back).
   */
  meter?: () => () => void;
}

export interface CliEnrichRun {
  /** The exit code (0 done, cli/i18n.ts EXIT). */
  code: number;
  /** What the CLI printed on stderr. */
  lines: string[];
  ms: number;
  /** The output file's rows: input cells, then the output block. */
  output: string[][];
  /** Each input row's result, read back from the output block (null: no output). */
  results: (RowResult | null)[];
}

const csvCell = (s: string) => `"${s.replace(/"/g, '""')}"`;

export async function cliEnrich(o: CliEnrichOptions): Promise<CliEnrichRun> {
  const input = join(o.dir, `${o.name}.csv`);
  const out = join(o.dir, `${o.name}.out.csv`);
  writeFileSync(input, [o.header, ...o.rows].map((r) => r.map(csvCell).join(",")).join("\n") + "\n");
  const fields = o.fields ?? [...DEFAULT_FIELDS];
  const lines: string[] = [];
  const io = { out: (s: string) => lines.push(s), err: (s: string) => lines.push(s) };
  const stopMeter = o.meter?.();
  const t = performance.now();
  const code = await enrichCommand(
    {
      input,
      output: out,
      fields,
      mode: "batch",
      rerun: "new-or-failed",
      yes: true,
      lang: "en",
      ...(o.parallel !== undefined ? { parallel: o.parallel } : {}),
    },
    cliContext(o.baseUrl, o.key, o.client),
    io,
    false,
  );
  const ms = performance.now() - t;
  stopMeter?.();
  if (code !== 0) return { code, lines, ms, output: [], results: [] };
  const output = parseCsv(readFileSync(out, "utf8")).slice(1);
  const width = selectFields(fields).length;
  const results = output.map((r) =>
    readResult(
      r.slice(o.header.length).map((c) => fromCsvCell(c)),
      width,
    ),
  );
  return { code, lines, ms, output, results };
}
