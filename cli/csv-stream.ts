/**
 * The CSV files as the core's streamed table (shared/core/table-protocol.ts),
 * the I/O the CLI hands the enrichment job (shared/enrich/job-stream.ts); it
 * decides nothing. The input is read in order in chunks (./csv-table.ts);
 * the output is OUT.partial, each append written and synced before its mark
 * is answered; `finish` renames OUT.partial over OUT and removes the side
 * files the job's host keeps (the answer journal, the intent journal). What
 * the job keeps in its store is ./enrich-files.ts.
 */
import { closeSync, existsSync, fstatSync, fsyncSync, openSync, renameSync, statSync } from "node:fs";
import { truncateSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import type { Cell, TableFacts, TableLine, TableRequest } from "../shared/core/index.ts";
import { formatRow } from "./csv.ts";
import { loadEarlier, readLines, readWritten, usablePrevious, type Earlier, type Prepared } from "./csv-table.ts";
import { contentHash, type EnrichFiles } from "./enrich-files.ts";
import { written } from "../node/index.ts";
import { collectGarbage } from "./memory.ts";

export interface CsvTableHooks {
  /** Answers held for replay may go (`all`: also those not asked for again yet). */
  settled?(all: boolean): void;
  /** Right before OUT.partial replaces OUT (the intent journal is closed). */
  finishing?(): void;
}

/** A reader of chunks positioned at a data row: asked for the row it is at, it goes on; else it starts again there. */
class ChunkReader<T> {
  private at = -1;
  private it: AsyncGenerator<T[]> | null = null;

  constructor(private readonly open: (from: number) => AsyncGenerator<T[]>) {}

  async from(row: number): Promise<T[]> {
    if (!this.it || row !== this.at) {
      await this.close();
      this.it = this.open(row);
      this.at = row;
    }
    const next = await this.it.next();
    const chunk = next.done ? [] : next.value;
    this.at += chunk.length;
    return chunk;
  }

  async close(): Promise<void> {
    await this.it?.return(undefined);
    this.it = null;
  }
}

export class CsvTable {
  private earlier: Earlier | null = null;
  private readonly lines = new ChunkReader<TableLine>((from) => readLines(this.input, this.p, this.earlier, from));
  private readonly kept: ChunkReader<{ row: Cell[]; cells: Cell[] }>;
  private fd = -1;
  hooks: CsvTableHooks = {};

  /** `files` null: an estimate (no unfinished output, nothing written); `out` the finished output, if any. */
  constructor(
    private readonly input: string,
    private readonly p: Prepared,
    private readonly out: string | undefined,
    private readonly files: EnrichFiles | null,
  ) {
    this.kept = new ChunkReader((from) => readWritten(input, p, this.writable().partial, from));
  }

  private writable(): EnrichFiles {
    if (!this.files) throw new Error("CsvTable: an estimate writes nothing");
    return this.files;
  }

  /** The table effect's handler. */
  request = async (r: TableRequest): Promise<unknown> => {
    switch (r.op) {
      case "open":
        return this.facts();
      case "cut":
        return truncateSync(this.writable().partial, r.size);
      case "pair": {
        const sources = r.sources.map((s) => (s === "unfinished" ? this.writable().partial : this.out!));
        this.earlier = await loadEarlier(sources, this.input, this.p);
        return;
      }
      case "rows":
        collectGarbage();
        return this.lines.from(r.from);
      case "written":
        return this.kept.from(r.from);
      case "begin":
        return this.begin(r.header);
      case "append":
        return this.append(r.rows);
      case "settled":
        return this.hooks.settled?.(r.all ?? false);
      case "finish":
        return this.finish();
    }
  };

  private async facts(): Promise<TableFacts> {
    const f = this.files;
    const partial = f && existsSync(f.partial) ? f.partial : null;
    return {
      input: resolvePath(this.input),
      // An estimate resumes nothing: the content's hash is not needed.
      content: f ? await contentHash(this.input) : "",
      encoding: this.p.encoding,
      unfinishedSize: partial ? statSync(partial).size : null,
      unfinishedUsable: partial ? await usablePrevious(partial, this.p) : false,
      finishedUsable: this.out ? await usablePrevious(this.out, this.p) : false,
    };
  }

  private row = (cells: readonly Cell[]) => formatRow(cells, this.p.delimiter, this.p.header.length);

  private begin(header: Cell[]): number {
    const { partial } = this.writable();
    written(partial, () => writeFileSync(partial, (this.p.bom ? "\ufeff" : "") + this.row(header)));
    return statSync(partial).size;
  }

  /** Appended and synced: the mark answered is of rows that survive a kill. */
  private append(rows: Cell[][]): number {
    const { partial } = this.writable();
    if (this.fd < 0) this.fd = openSync(partial, "a");
    const fd = this.fd;
    written(partial, () => writeSync(fd, rows.map(this.row).join("")));
    fsyncSync(fd);
    return fstatSync(fd).size;
  }

  private async finish(): Promise<void> {
    const f = this.writable();
    await this.close();
    this.hooks.finishing?.();
    renameSync(f.partial, this.out!);
    for (const side of [f.journal, f.spent]) if (existsSync(side)) unlinkSync(side);
  }

  /** The files closed (the run ended, or failed). */
  async close(): Promise<void> {
    await this.lines.close();
    await this.kept.close();
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
  }
}
