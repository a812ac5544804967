/**
 * What a team server's runs of a portfolio schedule found, written into the
 * workbook (issue 24): each company's latest result into its row of the
 * portfolio sheet and the runs' change-log lines into the change log. The
 * same writes as the local check: rows are matched by company id in the
 * table read now and written through check-write.ts (which reads the table
 * again right before the write and finds each row by its key, so a sort or
 * an inserted row between the read and the write never puts a result into
 * another company's row); the log takes a line only when its key is not in
 * it yet (changelog.ts), so syncing the same runs twice writes nothing twice.
 *
 * A run's result comes over the network: it is checked here, field by
 * field, and what does not fit is left out (never written into a cell).
 */
import * as z from "zod/mini";
import { sheet, noSuchSheet, savedBilingual, type Cell, type Operation } from "../core/index.ts";
import type { Language } from "../i18n/index.ts";
import { appendNew, openLog, type LogLine } from "./changelog.ts";
import { PortfolioProgress } from "./check-progress.ts";
import { portfolioKey, type Row } from "./check-read.ts";
import { writeNewHeaders, writeWindow } from "./check-write.ts";
import { idFromCell, layoutOf } from "./layout.ts";
import { RISK_FLAG_CODES } from "./risk.ts";
import type { ServerRun } from "./server-schedule.ts";
import type { CompanyState } from "./watermark.ts";

const companyShape = z.object({
  id: z.string(),
  name: z.nullable(z.string()),
  group: z.enum(["risk", "watch", "none"]),
  code: z.enum(RISK_FLAG_CODES),
  flag: savedBilingual,
  keyFigure: z.optional(
    z.nullable(z.object({ year: z.number(), netIncome: z.nullable(z.number()), revenue: z.nullable(z.number()) })),
  ),
  lastChange: z.optional(z.nullable(z.string())),
  checkedAt: z.string(),
  newChanges: z.number(),
});
type ServerCompany = z.infer<typeof companyShape>;

/** A change-log line as the server's check appended it: date, company id, company, kind, text, source, key. */
const lineShape = z.tuple([
  z.string(),
  z.string(),
  z.string(),
  z.string(),
  z.string(),
  z.string(),
  z.string().check(z.minLength(1)),
]);

export interface ServerRunsWritten {
  /** Companies the runs had a result for, and of them the rows written (a company may have several rows). */
  companies: number;
  rows: number;
  /** Change-log lines appended (lines already in the log are not counted). */
  lines: number;
}

/** Each company's latest result over the runs (oldest first), and every change line of them. */
function merged(runs: readonly ServerRun[]): { latest: Map<string, ServerCompany>; lines: LogLine[] } {
  const latest = new Map<string, ServerCompany>();
  const lines: LogLine[] = [];
  for (const run of runs) {
    for (const raw of run.result?.companies ?? []) {
      const c = companyShape.safeParse(raw);
      if (c.success) latest.set(c.data.id, c.data);
    }
    for (const raw of run.result?.changes ?? []) {
      const l = lineShape.safeParse(raw);
      if (l.success) lines.push({ key: l.data[6], date: l.data[0], row: [...l.data] });
    }
  }
  return { latest, lines };
}

/** The state the local check would hold after the server's check: what check-write.ts shows for a row. */
function stateOf(c: ServerCompany, runId: number): CompanyState {
  return {
    v: 1,
    wm: c.checkedAt,
    lastChange: c.lastChange ?? null,
    finYears: [],
    name: c.name,
    result: { group: c.group, code: c.code, text: c.flag, keyFigure: c.keyFigure ?? null },
    checkedAt: c.checkedAt,
    run: `server-${runId}`,
    newChanges: c.newChanges,
  };
}

/**
 * Write the runs' results into `sheetName` and their change lines into the
 * change log (the user's language's, or the one found under the other
 * language's name). Throws when the portfolio sheet is gone (the caller then
 * keeps its cursor, so nothing is skipped).
 */
export function* writeServerRuns(
  lang: Language,
  sheetName: string,
  runs: readonly ServerRun[],
): Operation<ServerRunsWritten> {
  const { latest, lines } = merged(runs);
  const lastRunId = runs.length ? runs[runs.length - 1]!.id : 0;
  let rows = 0;
  if (latest.size > 0) {
    const table = yield* sheet<Cell[][] | null>({ op: "readAll", sheet: sheetName });
    if (!table) throw noSuchSheet(sheetName);
    const layout = layoutOf(table[0] ?? [], lang);
    const windowRows: Row[] = [];
    table.slice(1).forEach((cells, i) => {
      const id = idFromCell(cells[layout.idCol] ?? null)?.id;
      if (!id || !latest.has(id)) return;
      const name = layout.input.name !== undefined ? String(cells[layout.input.name] ?? "").trim() || null : null;
      // fromCell: the row's own id, checked against the name the server's profile gave (as the local check does).
      windowRows.push({ r: i + 1, kind: "company", id, writeId: false, candidates: [], name, fromCell: true });
    });
    if (windowRows.length > 0) {
      const states = new Map([...latest].map(([id, c]) => [id, stateOf(c, lastRunId)] as const));
      const write = {
        lang,
        sheetName,
        layout,
        table,
        keysThen: table.map((c) => portfolioKey(c, layout)),
        progress: new PortfolioProgress(false),
        states,
      };
      yield* writeNewHeaders(sheetName, layout);
      yield* writeWindow(write, windowRows);
      rows = windowRows.length;
    }
  }
  let appended = 0;
  if (lines.length > 0) {
    const log = yield* openLog(lang);
    for (const n of (yield* appendNew(log.keys, lines, log.name)).values()) appended += n;
  }
  return { companies: latest.size, rows, lines: appended };
}
