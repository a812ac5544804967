/**
 * Step 3 of the portfolio check, the write: what each row of a window shows
 * (result, "left to do", error, ambiguous with its candidate dropdown, an id
 * that names another company) and where the row is now. The table is read
 * fresh right before the write and rows are found by their key, so a sort or
 * an edit during the check never puts a result or an id into another
 * company's row; a deleted row gets nothing.
 */
import { sheet, type Operation } from "../core/index.ts";
import { CompanyDataError } from "../core/index.ts";
import type { Bilingual, Language } from "../i18n/index.ts";
import type { Availability } from "../operations/index.ts";
import { noSuchSheet, type Cell } from "../core/index.ts";
import { namesAgree, pairByKey } from "../enrich/index.ts";
import { doubtText } from "../operations/index.ts";
import { availabilityOf, type PortfolioProgress } from "./check-progress.ts";
import { portfolioKey, type Row } from "./check-read.ts";
import { candidateLabel, type Layout, type OutputKey } from "./layout.ts";
import { GROUP_COLOUR, GROUP_LABEL } from "./risk.ts";
import type { CompanyState } from "./watermark.ts";
import { headerAuditRows, windowAuditRows, type CheckAudit } from "./check-audit.ts";

const AMBIGUOUS_COLOUR = "#fce5cd";
const GREY = "#efefef";

const STATUS_TEXT = {
  ambiguous: (n: number): { group: Bilingual; flag: Bilingual } => ({
    group: { de: "Mehrdeutig", en: "Ambiguous" },
    flag: {
      de: `Bitte die Firma in der ID-Spalte wählen (${n} ${n === 1 ? "Kandidat" : "Kandidaten"})`,
      en: `Pick the company in the ID column (${n} ${n === 1 ? "candidate" : "candidates"})`,
    },
  }),
  notFound: {
    group: { de: "Nicht gefunden", en: "Not found" },
    flag: { de: "Keine Firma zu diesem Eintrag", en: "No company for this entry" },
  },
  left: { de: "Offen", en: "Left to do" },
  leftFlag: (e: CompanyDataError): Bilingual => ({
    de: `Noch nicht geprüft (${e.text("de")}); die Prüfung wird damit fortgesetzt.`,
    en: `Not checked yet (${e.text("en")}); the check continues with it.`,
  }),
};

/** An id in a row whose company the service calls something else than the row does. */
const ID_MISMATCH = {
  group: { de: "ID prüfen", en: "Check ID" },
  flag: (id: string, service: string, row: string): Bilingual => ({
    de: `Die ID ${id} gehört zu „${service}“, nicht zu „${row}“; bitte die ID prüfen oder löschen (dann wird der Name neu aufgelöst).`,
    en: `The ID ${id} belongs to "${service}", not to "${row}"; please check the ID or clear it (the name is then resolved again).`,
  }),
};

/**
 * Where the window's rows stand now (1-based sheet rows; null for a row
 * deleted or edited since the table was read), by key with duplicates in
 * order: a fresh read right before the window's write, so a sort during the
 * check never puts a result or an id into another company's row.
 */
function* placeRows(
  sheetName: string,
  layout: Layout,
  keysThen: readonly string[],
  windowRows: readonly Row[],
): Operation<{ pos: (number | null)[]; now: Cell[][] }> {
  const now = yield* sheet<Cell[][] | null>({ op: "readAll", sheet: sheetName, fresh: true });
  if (!now) throw noSuchSheet(sheetName);
  const pairs = pairByKey(
    keysThen.slice(1),
    now.slice(1).map((c) => portfolioKey(c, layout)),
  );
  const at = new Map<number, number>();
  pairs.forEach((i, j) => {
    if (i !== null) at.set(i + 1, j + 2);
  });
  return { pos: windowRows.map((row) => at.get(row.r) ?? null), now };
}

/** Runs of consecutive entries whose sheet rows follow each other: [start, end) of each, skipping rows that are gone. */
function placedRuns(pos: readonly (number | null)[]): [number, number][] {
  const runs: [number, number][] = [];
  for (let k = 0; k < pos.length;) {
    if (pos[k] === null) {
      k++;
      continue;
    }
    let end = k + 1;
    while (end < pos.length && pos[end] !== null && pos[end] === pos[end - 1]! + 1) end++;
    runs.push([k, end]);
    k = end;
  }
  return runs;
}

const shortInstant = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

function resultCells(
  lang: Language,
  row: Row,
  st: CompanyState | null | undefined,
  avail: Availability | undefined,
  err: CompanyDataError | undefined,
): { cells: Partial<Record<OutputKey, Cell>>; colour: string } {
  if (row.kind === "ambiguous") {
    const t = STATUS_TEXT.ambiguous(row.candidates.length);
    // The one verdict's reason (operations/contradiction.ts) before the request to pick.
    const flag = row.doubt ? `${doubtText(row.doubt, lang)}. ${t.flag[lang]}` : t.flag[lang];
    return { cells: { group: t.group[lang], flag }, colour: AMBIGUOUS_COLOUR };
  }
  if (row.kind === "not_found")
    return { cells: { group: STATUS_TEXT.notFound.group[lang], flag: STATUS_TEXT.notFound.flag[lang] }, colour: GREY };
  if (row.kind === "pending") {
    const flag = STATUS_TEXT.leftFlag(err ?? row.error ?? new CompanyDataError("INTERNAL"))[lang];
    // A company left to do keeps its last result; the flag says it is not newer and why.
    if (!st) return { cells: { group: STATUS_TEXT.left[lang], flag }, colour: GREY };
    const prev = resultCells(lang, { ...row, kind: "company" }, st, avail, undefined);
    return { cells: { ...prev.cells, flag: `${st.result.text[lang]} · ${flag}` }, colour: prev.colour };
  }
  const e = err ?? row.error;
  if (row.kind === "error" || (e && !st))
    return {
      cells: { group: lang === "de" ? "Fehler" : "Error", flag: (e ?? new CompanyDataError("INTERNAL")).text(lang) },
      colour: GREY,
    };
  if (!st) return { cells: {}, colour: "" };
  const r = st.result;
  return {
    cells: {
      group: GROUP_LABEL[r.group][lang],
      // A failed refresh keeps the last result and says why it is not newer.
      flag: e ? `${r.text[lang]} · ${e.text(lang)}` : r.text[lang],
      netIncome: r.keyFigure?.netIncome ?? "",
      year: r.keyFigure?.year ?? "",
      lastChange: avail?.lastChangeDate ?? st.lastChange ?? "",
      newChanges: st.newChanges,
      checked: shortInstant(st.checkedAt),
    },
    colour: GROUP_COLOUR[r.group],
  };
}

/** Runs of adjacent columns among `cols` (0-based, any order): each run's first column (1-based) and which entries of `cols` it holds, in column order. */
function adjacentRuns(cols: number[]): { col: number; keys: number[] }[] {
  const order = cols.map((c, k) => ({ c, k })).sort((a, b) => a.c - b.c);
  const runs: { col: number; keys: number[] }[] = [];
  for (const { c, k } of order) {
    const last = runs[runs.length - 1];
    // The run so far covers 0-based columns last.col - 1 … last.col - 2 + its length.
    if (last && c === last.col - 1 + last.keys.length) last.keys.push(k);
    else runs.push({ col: c + 1, keys: [k] });
  }
  return runs;
}

/** Write one value per row into some columns: one block per run of adjacent columns. */
function* writeColumns(sheetName: string, firstRow: number, cols: number[], values: Cell[][]): Operation<void> {
  for (const run of adjacentRuns(cols)) {
    yield* sheet({
      op: "write",
      sheet: sheetName,
      row: firstRow,
      col: run.col,
      values: values.map((row) => run.keys.map((k) => row[k] ?? "")),
    });
  }
}

function* colourColumns(sheetName: string, firstRow: number, cols: number[], colours: string[][]): Operation<void> {
  for (const run of adjacentRuns(cols)) {
    yield* sheet({
      op: "colour",
      sheet: sheetName,
      row: firstRow,
      col: run.col,
      colours: colours.map((row) => run.keys.map((k) => row[k] ?? "")),
    });
  }
}

/** The header cells the layout added (result columns, an ID column), written once before the first window. */
export function* writeNewHeaders(
  sheetName: string,
  layout: Layout,
  audit?: CheckAudit,
  header: readonly Cell[] = [],
): Operation<void> {
  if (!layout.newHeaders.size) return;
  if (audit) yield* audit.rec.record(sheetName, headerAuditRows(audit.table, header, layout.newHeaders));
  const cols = [...layout.newHeaders.keys()];
  yield* writeColumns(sheetName, 1, cols, [cols.map((c) => layout.newHeaders.get(c) ?? "")]);
}

/** What the write of a window needs to know about the table and its companies. */
export interface WindowWrite {
  lang: Language;
  sheetName: string;
  layout: Layout;
  /** The table as read at the check's start, and each row's key then. */
  table: readonly Cell[][];
  keysThen: readonly string[];
  progress: PortfolioProgress;
  states: ReadonlyMap<string, CompanyState | null>;
  /** Result cells a team server's undo restored (server-sync.ts), written as they are instead of a result. */
  restored?: ReadonlyMap<string, Partial<Record<OutputKey, Cell>>>;
  /** The run's audit (shared/undo/): every cell a window changes is recorded right before it is written. */
  audit?: CheckAudit;
}

/** The colour of a group's label (a restored result's), in either language; none for another text. */
function colourOfGroup(label: Cell | undefined): string {
  for (const g of Object.keys(GROUP_LABEL) as (keyof typeof GROUP_LABEL)[])
    if (label === GROUP_LABEL[g].de || label === GROUP_LABEL[g].en) return GROUP_COLOUR[g];
  return "";
}

/** What the check shows for one row of the window: its result cells, or null where the row keeps its cells. */
function shownResult(w: WindowWrite, row: Row): ReturnType<typeof resultCells> | null {
  const { lang, progress, states } = w;
  const id = row.id;
  const back = id ? w.restored?.get(id) : undefined;
  if (back) return { cells: back, colour: colourOfGroup(back.group) };
  const isDeferred = id !== null && progress.is(id, "deferred");
  const a = id ? availabilityOf(progress.get(id)) : undefined;
  const shown: Row =
    id && progress.is(id, "left")
      ? { ...row, kind: "pending" }
      : id && progress.is(id, "notFound")
        ? { ...row, kind: "not_found" }
        : row;
  const err = id ? progress.errorOf(id) : undefined;
  const rc = isDeferred || row.kind === "empty" ? null : resultCells(lang, shown, id ? states.get(id) : null, a, err);
  // An id the row brought along is checked against the row's name with the name the profile gave (now or before).
  const serviceName = id && row.fromCell && row.name ? (states.get(id)?.name ?? null) : null;
  if (rc && id && serviceName && row.name && !namesAgree(row.name, serviceName))
    return {
      cells: { group: ID_MISMATCH.group[lang], flag: ID_MISMATCH.flag(id, serviceName, row.name)[lang] },
      colour: AMBIGUOUS_COLOUR,
    };
  return rc;
}

/** The window's blocks as the check would write them, row by row in the window's order. */
function windowBlocks(w: WindowWrite, windowRows: readonly Row[], outCols: readonly OutputKey[]) {
  const { layout } = w;
  const b = {
    values: [] as Cell[][],
    colours: [] as string[][],
    idValues: [] as Cell[][],
    kept: [] as boolean[],
    dropdowns: [] as string[][],
    idChanged: false,
    anyDropdown: false,
  };
  for (const row of windowRows) {
    const cells = w.table[row.r] ?? [];
    const id = row.id;
    const rc = shownResult(w, row);
    b.values.push(outCols.map((k) => (rc ? (rc.cells[k] ?? "") : (cells[layout.out[k]] ?? ""))));
    b.kept.push(!rc);
    b.colours.push(outCols.map((k) => (rc && (k === "group" || k === "flag") ? rc.colour : "")));
    b.idValues.push([row.writeId && id ? id : (cells[layout.idCol] ?? "")]);
    if (row.writeId && id) b.idChanged = true;
    b.dropdowns.push(row.kind === "ambiguous" ? row.candidates.map(candidateLabel) : []);
    if (row.kind === "ambiguous" || row.writeId) b.anyDropdown = true;
  }
  return b;
}

/** Colours for the rows of one placed run that have a new result (deferred and empty rows keep theirs). */
function* recolourRun(w: WindowWrite, at: number, cols: number[], rows: readonly Row[], colours: string[][]) {
  const recolour = rows.map((row) => !(row.kind === "empty" || (row.id !== null && w.progress.is(row.id, "deferred"))));
  for (let k = 0; k < recolour.length;) {
    if (!recolour[k]) {
      k++;
      continue;
    }
    let stop = k;
    while (stop < recolour.length && recolour[stop]) stop++;
    yield* colourColumns(w.sheetName, at + k, cols, colours.slice(k, stop));
    k = stop;
  }
}

/**
 * Writes the window's result columns as one block (+ the ID column where it
 * changed, + candidate dropdowns), per run of rows that still follow each
 * other; colours only for rows with a new result (deferred and empty rows keep theirs).
 */
export function* writeWindow(w: WindowWrite, windowRows: readonly Row[]): Operation<void> {
  const { layout } = w;
  const outCols = Object.keys(layout.out) as OutputKey[];
  const { values, colours, idValues, kept, dropdowns, idChanged, anyDropdown } = windowBlocks(w, windowRows, outCols);
  // The rows where they are now; per run of rows that still follow each other: one block of values,
  // colours only for rows with a new result (deferred and empty rows keep theirs), ids, dropdowns.
  const cols = outCols.map((k) => layout.out[k]);
  const { pos, now: cellsNow } = yield* placeRows(w.sheetName, layout, w.keysThen, windowRows);
  // Cells the check keeps as they are (no new result, an id not rewritten) are written back as they are now.
  pos.forEach((p, k) => {
    const row = windowRows[k];
    if (p === null || !row) return;
    const current = cellsNow[p - 1] ?? [];
    if (kept[k]) values[k] = outCols.map((key) => current[layout.out[key]] ?? "");
    if (!row.writeId || !row.id) idValues[k] = [current[layout.idCol] ?? ""];
  });
  if (w.audit) {
    const id = idChanged ? { col: layout.idCol, values: idValues } : null;
    yield* w.audit.rec.record(w.sheetName, windowAuditRows(w.audit.table, pos, cellsNow, cols, values, id));
  }
  for (const [start, end] of placedRuns(pos)) {
    const at = pos[start]!; // placedRuns starts a run only at a placed row
    yield* writeColumns(w.sheetName, at, cols, values.slice(start, end));
    yield* recolourRun(w, at, cols, windowRows.slice(start, end), colours.slice(start, end));
    if (idChanged) yield* writeColumns(w.sheetName, at, [layout.idCol], idValues.slice(start, end));
    if (anyDropdown)
      yield* sheet({
        op: "dropdowns",
        sheet: w.sheetName,
        row: at,
        col: layout.idCol + 1,
        options: dropdowns.slice(start, end),
      });
  }
  for (const row of windowRows) row.writeId = false;
}
