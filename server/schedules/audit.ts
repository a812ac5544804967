/**
 * The audit of a schedule's runs (issue 40) in the database: a run's check
 * writes into the schedule's portfolio sheet as the last run left it
 * (schedule_sheets, migration 130), so the one recorder (shared/undo/)
 * records every cell it changes, old and new, in the schedule's document
 * store (schedule_store, the `doc:audit:` keys), bounded as everywhere (the
 * last 20 runs or 50,000 cells, oldest first). The owner lists the runs and
 * undoes one through the schedules API (audit-routes.ts); the undo is a run
 * of its own in schedule_runs (status "undo") whose `restored` rows (each
 * company's result cells after the undo) a host's sync writes into its
 * portfolio sheet (shared/monitor/server-sync.ts), audited there as a sync.
 *
 * An undo holds the schedule's claim (store.ts: running_by), so it never
 * runs beside a run of the same schedule: it waits for a run to end
 * (bounded), then answers "busy".
 */
import { runAsync, type AsyncDriver, type Cell } from "../../shared/core/index.ts";
import { outputCellsOf, PORTFOLIO_SHEET, type RestoredCells } from "../../shared/monitor/index.ts";
import { listRuns, runCells, undoRun, type RunsView, type UndoResult } from "../../shared/undo/index.ts";
import { Workbook } from "../../shared/sheet/index.ts";
import type { Db, Sql } from "../db/db.ts";
import type { Schedule } from "./store.ts";
import * as store from "./store.ts";

/** The audit's run id of schedule run `runId`. */
export const auditRunId = (runId: number) => `srv-${runId}`;

/** The portfolio sheet a run writes into: the last one's rows of companies still scheduled, then new companies. */
export async function loadSheet(db: Sql, s: Schedule): Promise<Cell[][]> {
  const [row] = await db.query<{ cells: Cell[][] }>("select cells from schedule_sheets where schedule_id = $1", [s.id]);
  const header = s.language === "de" ? ["Firmen-ID"] : ["ID"];
  const saved = row?.cells ?? [header];
  const wanted = new Set(s.companies);
  const kept = saved.slice(1).filter((r) => wanted.has(String(r[0] ?? "")));
  const have = new Set(kept.map((r) => String(r[0])));
  return [saved[0] ?? header, ...kept, ...s.companies.filter((id) => !have.has(id)).map((id) => [id])];
}

export async function saveSheet(db: Sql, scheduleId: number, cells: Cell[][]): Promise<void> {
  await db.query(
    `insert into schedule_sheets (schedule_id, cells) values ($1, $2::jsonb)
     on conflict (schedule_id) do update set cells = excluded.cells, updated_at = now()`,
    [scheduleId, JSON.stringify(cells)],
  );
}

/** The audit's effects: the store in the database, the sheet in memory; no network. */
function auditDriver(db: Db, s: Schedule, book: Workbook): AsyncDriver {
  return {
    http: async () => {
      throw new Error("an undo makes no request");
    },
    sleep: async () => undefined,
    cacheGet: async (keys) => keys.map(() => null),
    cachePut: async () => undefined,
    storeGet: (keys) => store.storeGet(db, s.id, keys),
    storePut: (entries) => store.storePut(db, s.id, entries),
    sheet: async (req) => book.handle(req),
  };
}

export async function listAudit(db: Db, s: Schedule): Promise<RunsView> {
  return runAsync(listRuns(), auditDriver(db, s, new Workbook([])));
}

export class ScheduleBusy extends Error {}

/** Wait (bounded) for the schedule's claim: a run of it ends first. */
async function claimForUndo(db: Sql, s: Schedule, owner: string, waitMs: number): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    const got = await db.query(
      `update schedules set running_by = $2, running_until = now() + interval '5 minutes'
       where id = $1 and (running_until is null or running_until < now()) returning id`,
      [s.id, owner],
    );
    if (got.length > 0) return;
    if (Date.now() >= until) throw new ScheduleBusy();
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface ServerUndo {
  undo: UndoResult;
  /** The schedule run that carries the restored rows to the hosts (0: nothing new was written). */
  run: number;
}

/**
 * Undo audited run `id` of schedule `s` by `who`: the sheet restored and
 * saved, the undo kept as a run the hosts sync. An unknown run throws the
 * core's INVALID_INPUT (the route answers 404).
 */
export async function undoScheduleRun(
  db: Db,
  s: Schedule,
  id: string,
  opts: { who: string; now: () => number; process: string; waitMs: number },
): Promise<ServerUndo> {
  const owner = `undo:${opts.process}`;
  await claimForUndo(db, s, owner, opts.waitMs);
  try {
    const book = new Workbook([{ name: PORTFOLIO_SHEET, cells: await loadSheet(db, s) }]);
    const driver = auditDriver(db, s, book);
    const undo = await runAsync(undoRun(id, { who: opts.who, now: opts.now }), driver);
    if (undo.already) return { undo, run: 0 };
    const cells = book.sheet(PORTFOLIO_SHEET).cells;
    await saveSheet(db, s.id, cells);
    const restored = restoredRows(cells, await runAsync(runCells(undo.run), driver), s.language);
    const run = await store.startRun(db, s.id, owner, opts.now());
    const result = { status: "undo", message: undoMessage(undo), companies: [], changes: [], alerts: [], errors: [] };
    await store.finishRun(
      db,
      run,
      { status: "undo", estimate: 0, credits: 0, result: { ...result, undo, restored } },
      opts.now(),
    );
    return { undo, run };
  } finally {
    await db.query("update schedules set running_by = null, running_until = null where id = $1 and running_by = $2", [
      s.id,
      owner,
    ]);
  }
}

/** Each company the undo wrote: its result cells as the sheet holds them now. */
function restoredRows(
  cells: Cell[][],
  written: { key: string }[],
  lang: Schedule["language"],
): { id: string; cells: RestoredCells }[] {
  const ids = new Set(written.map((r) => /^id=(.+)$/.exec(r.key)?.[1]).filter((x): x is string => !!x));
  const header = cells[0] ?? [];
  return cells
    .slice(1)
    .filter((r) => ids.has(String(r[0] ?? "").toUpperCase()))
    .map((r) => ({ id: String(r[0]).toUpperCase(), cells: outputCellsOf(header, r, lang) }));
}

function undoMessage(u: UndoResult): { de: string; en: string } {
  return {
    de: `Lauf ${u.of} rückgängig gemacht: ${u.restored} Zellen zurückgeschrieben, ${u.kept.length} seitdem geändert und belassen.`,
    en: `Run ${u.of} undone: ${u.restored} cells written back, ${u.kept.length} changed since and kept.`,
  };
}
