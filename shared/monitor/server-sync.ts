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
import { sheet, noSuchSheet, savedBilingual, storePut, type Cell, type Operation } from "../core/index.ts";
import { auditRun } from "../undo/index.ts";
import { checkAuditTable } from "./check-audit.ts";
import { OUTPUT_KEYS, type OutputKey } from "./layout.ts";
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

/**
 * A row a server undo restored (server/schedules/audit.ts): the company's
 * result cells as the server's sheet shows them after the undo.
 */
const restoredShape = z.object({
  id: z.string(),
  cells: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type RestoredCells = Partial<Record<OutputKey, Cell>>;

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

interface Merged {
  latest: Map<string, ServerCompany>;
  restored: Map<string, RestoredCells>;
  lines: LogLine[];
}

/** Each company's latest result over the runs (oldest first: a server undo's cells, or a check's result), and every change line of them. */
function merged(runs: readonly ServerRun[]): Merged {
  const latest = new Map<string, ServerCompany>();
  const restored = new Map<string, RestoredCells>();
  const lines: LogLine[] = [];
  for (const run of runs) {
    for (const raw of run.result?.companies ?? []) {
      const c = companyShape.safeParse(raw);
      if (c.success) latest.set(c.data.id, c.data);
      if (c.success) restored.delete(c.data.id);
    }
    for (const raw of (run.result as { restored?: unknown[] } | undefined)?.restored ?? []) {
      const r = restoredShape.safeParse(raw);
      if (!r.success) continue;
      latest.delete(r.data.id);
      restored.set(r.data.id, outputOnly(r.data.cells));
    }
    for (const raw of run.result?.changes ?? []) {
      const l = lineShape.safeParse(raw);
      if (l.success) lines.push({ key: l.data[6], date: l.data[0], row: [...l.data] });
    }
  }
  return { latest, restored, lines };
}

/** Only the result columns' cells, and no text that would be a formula (it is written as text: shared/sheet). */
function outputOnly(cells: Record<string, Cell>): RestoredCells {
  const out: RestoredCells = {};
  for (const k of OUTPUT_KEYS) if (k in cells) out[k] = cells[k] ?? "";
  return out;
}

/** A row's result cells by the sheet's header (what a server undo sends to the hosts). */
export function outputCellsOf(header: readonly Cell[], row: readonly Cell[], lang: Language): RestoredCells {
  const layout = layoutOf(header, lang);
  const out: RestoredCells = {};
  for (const k of OUTPUT_KEYS) out[k] = row[layout.out[k]] ?? "";
  return out;
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

/** Who syncs, for the audit of the sync's writes (shared/undo/: one run of kind "sync" per sync that changed cells). */
export interface SyncAudit {
  who: string;
  now: () => number;
}

/**
 * Write the runs' results into `sheetName` and their change lines into the
 * change log (the user's language's, or the one found under the other
 * language's name). Throws when the portfolio sheet is gone (the caller then
 * keeps its cursor, so nothing is skipped). With `audit`, every cell written
 * is recorded (the runs' credits on the sync's run: what its values cost).
 */
export function* writeServerRuns(
  lang: Language,
  sheetName: string,
  runs: readonly ServerRun[],
  audit?: SyncAudit,
): Operation<ServerRunsWritten> {
  const m = merged(runs);
  const lastRunId = runs.length ? runs[runs.length - 1]!.id : 0;
  const rows = m.latest.size + m.restored.size > 0 ? yield* writeRows(lang, sheetName, m, lastRunId, runs, audit) : 0;
  let appended = 0;
  if (m.lines.length > 0) {
    const log = yield* openLog(lang);
    for (const n of (yield* appendNew(log.keys, m.lines, log.name)).values()) appended += n;
  }
  return { companies: m.latest.size + m.restored.size, rows, lines: appended };
}

/** The companies' rows written (each where it is now, by key), audited; answers how many rows. */
function* writeRows(
  lang: Language,
  sheetName: string,
  m: Merged,
  lastRunId: number,
  runs: readonly ServerRun[],
  audit: SyncAudit | undefined,
): Operation<number> {
  const table = yield* sheet<Cell[][] | null>({ op: "readAll", sheet: sheetName });
  if (!table) throw noSuchSheet(sheetName);
  const layout = layoutOf(table[0] ?? [], lang);
  const windowRows: Row[] = [];
  table.slice(1).forEach((cells, i) => {
    const id = idFromCell(cells[layout.idCol] ?? null)?.id;
    if (!id || !(m.latest.has(id) || m.restored.has(id))) return;
    const name = layout.input.name !== undefined ? String(cells[layout.input.name] ?? "").trim() || null : null;
    // fromCell: the row's own id, checked against the name the server's profile gave (as the local check does).
    windowRows.push({ r: i + 1, kind: "company", id, writeId: false, candidates: [], name, fromCell: true });
  });
  if (windowRows.length === 0) return 0;
  const auditTable = checkAuditTable(sheetName, layout);
  const rec = audit && auditRun({ kind: "sync", who: audit.who, now: audit.now, table: auditTable });
  const write = {
    lang,
    sheetName,
    layout,
    table,
    keysThen: table.map((c) => portfolioKey(c, layout)),
    progress: new PortfolioProgress(false),
    states: new Map([...m.latest].map(([id, c]) => [id, stateOf(c, lastRunId)] as const)),
    restored: m.restored,
    audit: rec && { rec, table: auditTable },
  };
  yield* writeNewHeaders(sheetName, layout, write.audit, table[0]);
  yield* writeWindow(write, windowRows);
  if (rec) yield* storePut(yield* rec.finish(runs.reduce((n, r) => n + (r.credits || 0), 0)));
  return windowRows.length;
}
