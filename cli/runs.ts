/**
 * `company-data runs --out FILE [--json]` and `company-data revert --out FILE
 * --run ID`: the audit of the runs that wrote FILE, and the undo of one
 * (shared/undo/: a cell changed since is kept and listed, a row gone is
 * listed, the revert is itself a run and can be reverted).
 *
 *   FILE.runs.jsonl   the audit beside the output (mode 0600: it holds the
 *                     list's old values): the journal store of job-files.ts
 *                     for the `doc:audit:` keys only
 *
 * A revert takes FILE.lock (the lock of enrich and refresh) and waits for a
 * run that holds it. Its order survives a kill -9 anywhere: the undo's cells
 * go to the journal first, then FILE is replaced atomically (beside it, then
 * renamed), then the undo is marked done; run again, it comes to the same
 * file byte for byte (shared/undo/undo.ts).
 */
import { existsSync } from "node:fs";
import { userInfo } from "node:os";
import { runAsync, type AsyncDriver } from "../shared/core/index.ts";
import { beginUndo, listRuns, type RunsView, type UndoResult } from "../shared/undo/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { acquireLock, nodeDriver } from "../node/index.ts";
import { ExitError, type Io } from "./io.ts";
import { EXIT, msg } from "./i18n.ts";
import { CsvSheets, FileStore, readTable, writeTableFile } from "./job-files.ts";

export const auditFileOf = (output: string) => `${output}.runs.jsonl`;
const AUDIT_KEY = /^doc:audit:/;
/** How long a revert waits for the run that holds the output's lock. */
const LOCK_WAIT_MS = 10 * 60_000;

/** The audit file of an output: a journal store, private. */
export const openAuditFile = (output: string) => new FileStore(auditFileOf(output), 0o600);

/** `driver` with the audit's keys kept in `audit` (the rest of the store as before). */
export function auditedDriver(driver: AsyncDriver, audit: FileStore): AsyncDriver {
  return {
    ...driver,
    storeGet: async (keys) => {
      const mine = keys.filter((k) => AUDIT_KEY.test(k));
      const rest = keys.filter((k) => !AUDIT_KEY.test(k));
      const a = audit.get(mine);
      const r = rest.length ? await driver.storeGet(rest) : [];
      return keys.map((k) => (AUDIT_KEY.test(k) ? (a[mine.indexOf(k)] ?? null) : (r[rest.indexOf(k)] ?? null)));
    },
    storePut: async (entries) => {
      const mine: Record<string, string | null> = {};
      const rest: Record<string, string | null> = {};
      for (const [k, v] of Object.entries(entries)) (AUDIT_KEY.test(k) ? mine : rest)[k] = v;
      if (Object.keys(mine).length) audit.put(mine);
      if (Object.keys(rest).length) await driver.storePut(rest);
    },
  };
}

export interface RunsArgs {
  output: string;
  json: boolean;
  lang: Language;
}

const T = {
  noAudit: {
    en: (f: string) => `No run has written ${f} yet (no ${auditFileOf(f)}).`,
    de: (f: string) => `Noch kein Lauf hat ${f} geschrieben (keine ${auditFileOf(f)}).`,
  },
  size: {
    en: (v: RunsView) =>
      `Audit: ${v.size.runs} runs, ${v.size.cells} cells, ${v.size.chars} characters (kept: the last ${v.limits.runs} runs, at most ${v.limits.cells} cells; the oldest go first). An undo does not refund credits.`,
    de: (v: RunsView) =>
      `Protokoll: ${v.size.runs} Läufe, ${v.size.cells} Zellen, ${v.size.chars} Zeichen (behalten: die letzten ${v.limits.runs} Läufe, höchstens ${v.limits.cells} Zellen; die ältesten fallen zuerst weg). Rückgängig machen erstattet keine Credits.`,
  },
  waiting: {
    en: (f: string) => `Waiting for the run that is writing ${f} …`,
    de: (f: string) => `Warte auf den Lauf, der gerade ${f} schreibt …`,
  },
  reverted: {
    en: (r: UndoResult) =>
      r.already
        ? `Run ${r.of} was reverted already (run ${r.run}); nothing written now.`
        : `Run ${r.of} reverted as run ${r.run}: ${r.restored} cells in ${r.rows} rows restored. Credits are not refunded.`,
    de: (r: UndoResult) =>
      r.already
        ? `Lauf ${r.of} wurde schon rückgängig gemacht (Lauf ${r.run}); jetzt nichts geschrieben.`
        : `Lauf ${r.of} rückgängig gemacht als Lauf ${r.run}: ${r.restored} Zellen in ${r.rows} Zeilen wiederhergestellt. Credits werden nicht erstattet.`,
  },
  kept: {
    en: (cell: string, now: string, run: string) =>
      `kept (you changed it): ${cell} holds "${now}" (the run wrote "${run}")`,
    de: (cell: string, now: string, run: string) =>
      `behalten (von Ihnen geändert): ${cell} enthält „${now}“ (der Lauf schrieb „${run}“)`,
  },
  deleted: {
    en: (row: string) => `row not found (deleted or its input changed): ${row}`,
    de: (row: string) => `Zeile nicht gefunden (gelöscht oder Eingabe geändert): ${row}`,
  },
} as const;

/** The store of a command that only reads and writes the audit (no network). */
function auditDriver(sheets: CsvSheets | null, audit: FileStore): AsyncDriver {
  const base = nodeDriver();
  return auditedDriver({ ...base, sheet: async (req) => sheets?.handle(req) }, audit);
}

/** `runs`: the runs that wrote FILE, newest first (stdout), the audit's size (stderr). */
export async function runsCommand(args: RunsArgs, io: Io): Promise<number> {
  if (!existsSync(auditFileOf(args.output))) throw new ExitError(EXIT.INPUT, T.noAudit[args.lang](args.output));
  const view = await runAsync(listRuns(), auditDriver(null, openAuditFile(args.output)));
  if (args.json) io.out(JSON.stringify(view, null, 2));
  else
    for (const r of view.runs) {
      const mark = r.undoneBy ? `  undone by ${r.undoneBy}` : r.undoOf ? `  undo of ${r.undoOf}` : "";
      io.out(
        `${r.id}\t${r.at}\t${r.kind}\t${r.who || "-"}\t${r.rows} rows\t${r.cells} cells\t${r.credits} credits${r.state === "running" ? "\t(unfinished)" : ""}${mark}`,
      );
    }
  io.err(T.size[args.lang](view));
  return EXIT.OK;
}

export interface RevertArgs extends RunsArgs {
  run: string;
}

async function lockOutput(output: string, lang: Language, io: Io): Promise<() => void> {
  const file = `${output}.lock`;
  const until = Date.now() + LOCK_WAIT_MS;
  for (let said = false; ; said = true) {
    const lock = acquireLock(file);
    if (lock.ok) return () => lock.release();
    if (Date.now() >= until) throw new ExitError(EXIT.LOCKED, msg.locked[lang](output, lock.owner?.pid ?? null, file));
    if (!said) io.err(T.waiting[lang](output));
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Who runs this command, for the audit (the OS account name). */
export const whoRuns = () => {
  try {
    return userInfo().username;
  } catch {
    return "";
  }
};

/** `revert`: FILE with run ID taken back; what was kept and what was gone is listed. */
export async function revertCommand(args: RevertArgs, io: Io): Promise<number> {
  const { output, lang } = args;
  if (!existsSync(auditFileOf(output))) throw new ExitError(EXIT.INPUT, T.noAudit[lang](output));
  const release = await lockOutput(output, lang, io);
  try {
    const audit = openAuditFile(output);
    const view = await runAsync(listRuns(), auditDriver(null, audit));
    const sheetName = view.runs.find((r) => r.id === args.run)?.sheet ?? "";
    const list = await readTable(output, lang);
    const sheets = new CsvSheets({ sheet: "", path: "", delimiter: list.delimiter });
    sheets.addSheet(sheetName, list.rows);
    const driver = auditDriver(sheets, audit);
    const begun = await runAsync(beginUndo(args.run, { who: whoRuns(), now: () => Date.now() }), driver);
    if (!begun.result.already) writeTableFile(output, sheets.table(sheetName), list.delimiter);
    await runAsync(begun.finish(), driver);
    audit.compact();
    report(begun.result, args, io);
    return EXIT.OK;
  } finally {
    release();
  }
}

function report(r: UndoResult, args: RevertArgs, io: Io): void {
  const { lang } = args;
  if (args.json) io.out(JSON.stringify(r, null, 2));
  io.err(T.reverted[lang](r));
  for (const k of r.kept) io.err(T.kept[lang](k.cell, String(k.now ?? ""), String(k.run ?? "")));
  for (const d of r.deleted) io.err(T.deleted[lang](d));
}
