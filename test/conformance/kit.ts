/**
 * One enrichment as a user lives it, on any adapter: a table of companies
 * with a totals row and a note below it, the job run in steps (each step
 * stops after one chunk, as the sidebar's steps stop at their deadline), and
 * the user's edits between steps or inside one (after the step read its
 * rows, before it wrote them: the edit runs before the step's first API
 * request). The checks are the invariants.
 */
import { runAsync, type AsyncDriver } from "../../shared/core/drivers.ts";
import { enrichSheet } from "../../shared/enrich/job.ts";
import type { SheetJobSpec, SheetRunResult } from "../../shared/enrich/job-types.ts";
import { coreDeps } from "../../shared/enrich/run.ts";
import { STATUS } from "../../shared/enrich/rows.ts";
import type { Cell } from "../../shared/core/sheet-protocol.ts";
import { makeCompanies, world } from "../enrich/world.ts";
import type { Adapter, OpenWorkbook } from "./adapters.ts";
import { nth } from "../helpers/indexed.ts";

export const SHEET = "Kunden";
/** Input columns A–B (name, city), output from C: status, confidence, id, the fields, as-of. */
export const OUT_COL = 3;
/** Output columns for a field list (the id column is always there). */
export const outColsFor = (fields: readonly string[]) => new Set(["id", ...fields]).size + 3;
export const TOTALS = "Summe";
export const NOTE = "Notiz der Nutzerin";

export const COMPANIES = makeCompanies(80);
const ID_OF = new Map(COMPANIES.map((c) => [c.name, c.id]));

export interface Session {
  wb: OpenWorkbook;
  w: ReturnType<typeof world>;
  spec: SheetJobSpec;
  /** Rows of the table now (without header), as the test's model of the user's table. */
  tableRows(): number;
  /** The user acts: on the table's data rows (whole rows, as a spreadsheet sort or delete moves them). */
  user(edit: (rows: Cell[][]) => Cell[][], opts?: { inputOnly?: boolean }): void;
  /** Run one step; `during` runs after its read, before its first write. `oneChunk`: stop after one chunk. */
  step(opts?: { during?: () => void; oneChunk?: boolean }): Promise<SheetRunResult>;
  /** Steps until the job says it is complete (at most `max`). */
  finish(max?: number): Promise<SheetRunResult>;
  /** Everything the user would see in cells outside the table's output cells, for "nothing else changed". */
  outside(): string;
}

export function open(adapter: Adapter, rows: Cell[][], opts: { chunkSize?: number; fields?: string[] } = {}): Session {
  const w = world(COMPANIES);
  let clock = w.now();
  const ctx = { ...w.ctx, client: { ...w.ctx.client, now: () => clock } };
  const header: Cell[] = ["Firma", "Stadt"];
  const below: Cell[][] = [
    [TOTALS, "", "", NOTE],
    ["", "", "", "", "", "", "", "unberührt"],
  ];
  const wb = adapter.open({ [SHEET]: [header, ...rows, ...below] });
  let n = rows.length;
  let during: (() => void) | null = null;
  let oneChunk = false;
  let finished = false;
  const outCols = outColsFor(opts.fields ?? ["name"]);
  const spec: SheetJobSpec = {
    sheet: SHEET,
    row: 1,
    col: 1,
    rows: 1 + rows.length,
    cols: 2,
    fields: opts.fields ?? ["name"],
    options: { chunkSize: opts.chunkSize ?? 4 },
  };
  const driver: AsyncDriver = {
    ...w.async,
    http: async (r) => {
      // Time passes with every request: a one-chunk step starts no second chunk.
      if (oneChunk) clock += 1_000;
      if (during) {
        const act = during;
        during = null;
        act();
      }
      return w.async.http(r);
    },
    sheet: (req) => wb.handle(req),
  };
  const s: Session = {
    wb,
    w,
    spec,
    tableRows: () => n,
    user(edit, o = {}) {
      const g = wb.grid(SHEET);
      const width = Math.max(OUT_COL + outCols + 1, ...g.map((r) => r.length));
      const pad = (r: Cell[]) => Array.from({ length: width }, (_, j) => r[j] ?? "");
      const data = g.slice(1, 1 + n).map(pad);
      let next: Cell[][];
      if (o.inputOnly) {
        // Sorting only the input columns: the outputs stay where they are.
        const inputs = edit(data.map((r) => r.slice(0, 2)));
        next = inputs.map((inp, i) => [...inp, ...(data[i] ?? pad([])).slice(2)]);
      } else next = edit(data);
      n = next.length;
      wb.setGrid(SHEET, [pad(g[0] ?? []), ...next, ...g.slice(1 + data.length).map(pad)]);
    },
    async step(o = {}) {
      during = o.during ?? null;
      oneChunk = !!o.oneChunk;
      // After a finished run the user starts again on the table as it is now (a new selection); within a run the
      // sidebar keeps the selection it started with.
      if (finished) spec.rows = 1 + n;
      const options = { ...spec.options, deadline: oneChunk ? clock + 1 : undefined };
      try {
        const r = await runAsync(enrichSheet(coreDeps, ctx, { ...spec, options }), driver);
        finished = r.complete;
        return r;
      } finally {
        during = null;
        wb.endStep();
      }
    },
    async finish(max = 40) {
      let r: SheetRunResult | null = null;
      for (let i = 0; i < max; i++) {
        r = await s.step({ oneChunk: true });
        if (r.complete) return r;
      }
      throw new Error(`not complete after ${max} steps`);
    },
    outside() {
      const g = wb.grid(SHEET);
      // Rows padded to one width: a host may store a row shorter than another host does.
      const width = Math.max(12, ...g.map((r) => r.length));
      return JSON.stringify(
        g.map((r, i) =>
          Array.from({ length: width }, (_, j) => r[j] ?? "").map((v, j) =>
            i >= 0 && i <= n && j >= OUT_COL - 1 && j < OUT_COL - 1 + outCols ? "·" : v,
          ),
        ),
      );
    },
  };
  return s;
}

export const companyRow = (i: number): Cell[] => [nth(COMPANIES, i).name, nth(COMPANIES, i).city];
export const table = (from: number, count: number): Cell[][] =>
  Array.from({ length: count }, (_, k) => companyRow(from + k));

const isMatched = (s: Cell) => String(s) === STATUS.matched.de;
const isChanged = (s: Cell) => String(s).startsWith(STATUS.error.de);

/**
 * The invariant: every id in an output row belongs to that row's input now,
 * or the row says it must be redone. Answers the offending rows.
 */
export function wrongRows(s: Session): string[] {
  const g = s.wb.grid(SHEET);
  const bad: string[] = [];
  for (let i = 1; i <= s.tableRows(); i++) {
    const r = g[i] ?? [];
    const name = String(r[0] ?? "");
    const status = r[OUT_COL - 1] ?? "";
    const id = String(r[OUT_COL + 1] ?? "");
    if (!id || isChanged(status)) continue;
    if (ID_OF.get(name) !== id) bad.push(`row ${i + 1}: ${name} has ${id} (${String(status)})`);
    if (!isMatched(status) && !String(status).startsWith(STATUS.out_of_credits.de))
      bad.push(`row ${i + 1}: id beside status ${String(status)}`);
  }
  return bad;
}

/** Rows of the table that are not matched with their own company (after a complete run: none). */
export function unfinished(s: Session): string[] {
  const g = s.wb.grid(SHEET);
  const out: string[] = [];
  for (let i = 1; i <= s.tableRows(); i++) {
    const r = g[i] ?? [];
    const name = String(r[0] ?? "");
    const want = ID_OF.get(name);
    if (!want) continue;
    if (!isMatched(r[OUT_COL - 1] ?? "") || String(r[OUT_COL + 1]) !== want)
      out.push(`row ${i + 1}: ${name} → ${String(r[OUT_COL - 1])} ${String(r[OUT_COL + 1])}`);
  }
  return out;
}

/** Paid calls asked more than once for the same thing (a name resolved, a profile bought). */
export function paidTwice(s: Session): string[] {
  const seen = new Map<string, number>();
  for (const l of s.w.ledger) {
    const keys = l.path.endsWith("/batch/resolve") ? l.key.split("|").map((k) => "resolve:" + k) : ["profile:" + l.key];
    for (const k of keys) seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  return [...seen].filter(([, c]) => c > 1).map(([k, c]) => `${k} ×${c}`);
}
