/**
 * Where a document's state lives (issue 25): where a time-driven trigger
 * can reach it, and where every editor's sidebar sees the same.
 *
 * A time-driven trigger of an editor add-on runs outside the document:
 * getDocumentProperties() "returns null" "when document properties are not
 * available" (https://developers.google.com/apps-script/reference/properties/properties-service#getDocumentProperties()),
 * and the document lock may be null too
 * (https://developers.google.com/apps-script/reference/lock/lock-service#getDocumentLock()).
 * What the tick opens for sure is the spreadsheet, by id. So the state lives
 * in the spreadsheet itself:
 *
 * - `sheet`: a hidden sheet the add-on owns (STATE_SHEET), one key per row,
 *   the value in the cells beside it (a cell holds 50,000 characters; a
 *   spreadsheet 10 million cells). Watermarks, the change log's "already
 *   logged", alert outboxes, the run marker, schedules, refresh settings and
 *   month spend, the spend ledger, job checkpoints, saved searches.
 * - `meta`: developer metadata with PROJECT visibility for the alert
 *   settings, because the webhook address is a secret (anyone who has it can
 *   post to the channel) and a hidden sheet is readable by every editor and
 *   in every download. Project metadata is visible to this script only; the
 *   Sheets API limits a spreadsheet's metadata to 30,000 characters
 *   (https://developers.google.com/workspace/sheets/api/guides/metadata), so
 *   only this small value goes there.
 * - `props`: the document's properties (500 KB, 9 KB a value) for what
 *   formulas write: a custom function may not write the sheet ("Read only
 *   (can use most get*() methods, but not set*())",
 *   https://developers.google.com/apps-script/guides/sheets/functions#using_apps_script_services)
 *   but always runs with the document's properties. The formulas' daily
 *   budget and their part of the spend ledger stay there; the tick needs
 *   neither.
 *
 * Not the user's store keyed by spreadsheet id: it holds 500 KB per user
 * across all documents (https://developers.google.com/apps-script/guides/services/quotas,
 * "Properties value size"/"Properties total storage"), a monitored portfolio
 * alone takes up to about 480 KB, and another editor's sidebar would not see
 * the state the owner's trigger wrote.
 *
 * Values are written with a leading "~", so Sheets never reads one as a
 * formula, number or date; a custom function can read the sheet, never write it.
 */
import { readValues, writeValues } from "./properties.ts";
import { sheetValues } from "./sheet-values.ts";

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Props = GoogleAppsScript.Properties.Properties;

/** A key-value store as the add-on uses it: many keys read or written at once; null deletes. */
export interface KeyValues {
  read(keys: string[]): (string | null)[];
  write(entries: Record<string, string | null>): void;
}

export const STATE_SHEET = "Company data (add-on)";
/** Paid answers kept beyond CacheService's 6 hours (cache.ts). */
export const ANSWER_SHEET = "Company data (answers)";
/** Characters of a value per cell: Sheets takes 50,000, less the leading marker. */
export const CELL_CHARS = 49_000;
const SAFE = "~";
const strip = (v: unknown) => (typeof v === "string" && v.startsWith(SAFE) ? v.slice(1) : "");

/**
 * The state sheet as a store. Each write reads the sheet again first and
 * writes one block (another execution may have added a row meanwhile).
 * Reads are fresh with `fresh` (the run marker, read back after its write);
 * otherwise one read per execution, kept up to date by its own writes: runs
 * that change the state hold the run marker, so no other run writes it
 * meanwhile.
 */
export class SheetStore implements KeyValues {
  private found: Sheet | null = null;
  private cached: unknown[][] | null = null;
  constructor(
    private readonly ss: Spreadsheet,
    private readonly fresh = true,
    private readonly name = STATE_SHEET,
    /** Read again before each write (state); the answer sheet does not: a row lost to a concurrent write is an answer bought again, never state. */
    private readonly rereadOnWrite = true,
  ) {}

  private sheet(create: boolean): Sheet | null {
    if (this.found) return this.found;
    let s = this.ss.getSheetByName(this.name);
    if (!s && create) {
      s = this.ss.insertSheet(this.name);
      s.hideSheet();
      // A warning, not a lock: every editor's sidebar and trigger must still write it.
      s.protect().setWarningOnly(true);
    }
    return (this.found = s);
  }

  private grid(reread = this.fresh): unknown[][] {
    if (this.cached && !reread) return this.cached;
    const s = this.sheet(false);
    return (this.cached = s ? sheetValues(s) : []);
  }

  private static parse(grid: unknown[][]): Map<string, string> {
    const out = new Map<string, string>();
    for (const row of grid) {
      const key = strip(row[0]);
      if (key) out.set(key, row.slice(1).map(strip).join(""));
    }
    return out;
  }

  all(): Map<string, string> {
    return SheetStore.parse(this.grid());
  }

  read(keys: string[]): (string | null)[] {
    const map = this.all();
    return keys.map((k) => map.get(k) ?? null);
  }

  write(entries: Record<string, string | null>): void {
    if (!Object.keys(entries).length) return;
    const grid = this.grid(this.rereadOnWrite).map((r) => r.map((v) => (typeof v === "string" ? v : "")));
    const touched = placeEntries(grid, entries);
    if (!touched.length) return;
    const from = Math.min(...touched);
    const to = Math.max(...touched);
    const block = grid.slice(from, to + 1);
    const width = Math.max(2, ...grid.map((r) => r.length));
    this.sheet(true)!
      .getRange(from + 1, 1, block.length, width)
      .setValues(block.map((r) => Array.from({ length: width }, (_, j) => r[j] ?? "")));
    this.cached = grid;
  }
}

/** The key a row of a store sheet holds ("" for a free row). */
export const keyOf = (row: readonly unknown[]): string => strip(row[0]);

/** The cells of one entry: the key, then the value in parts of CELL_CHARS, each behind the marker. */
export function rowCells(key: string, value: string): string[] {
  const cells = [SAFE + key];
  for (let p = 0; p === 0 || p < value.length; p += CELL_CHARS) cells.push(SAFE + value.slice(p, p + CELL_CHARS));
  return cells;
}

/**
 * Place entries (null deletes) in a store sheet's grid, in place: a key
 * keeps its row, a new key takes the first free row or a new one at the end.
 * Answers the rows that changed (0-based).
 */
export function placeEntries(grid: string[][], entries: Record<string, string | null>): number[] {
  const rowOf = new Map<string, number>();
  const free: number[] = [];
  grid.forEach((r, i) => {
    const k = keyOf(r);
    if (k) rowOf.set(k, i);
    else free.push(i);
  });
  const touched: number[] = [];
  for (const [k, v] of Object.entries(entries)) {
    let i = rowOf.get(k);
    if (v === null || v === undefined) {
      if (i === undefined) continue;
      grid[i] = [];
      rowOf.delete(k);
    } else {
      i ??= free.shift() ?? grid.push([]) - 1;
      grid[i] = rowCells(k, v);
      rowOf.set(k, i);
    }
    touched.push(i);
  }
  return touched;
}

const META_PREFIX = "companyData:";

/** Developer metadata of the spreadsheet, visible to this script only (the webhook's secret address). */
export class MetadataStore implements KeyValues {
  constructor(
    private readonly ss: Spreadsheet,
    private readonly project: GoogleAppsScript.Spreadsheet.DeveloperMetadataVisibility,
  ) {}

  private find(key: string) {
    return this.ss.getDeveloperMetadata().find((m) => m.getKey() === META_PREFIX + key) ?? null;
  }

  read(keys: string[]): (string | null)[] {
    return keys.map((k) => this.find(k)?.getValue() ?? null);
  }

  write(entries: Record<string, string | null>): void {
    for (const [k, v] of Object.entries(entries)) {
      const m = this.find(k);
      if (v === null) m?.remove();
      else if (m) m.setValue(v);
      else this.ss.addDeveloperMetadata(META_PREFIX + k, v, this.project);
    }
  }
}

/** Which store holds a key (see the module comment). */
export type Home = "props" | "sheet" | "meta";
/** Keys formulas write (custom functions may write the document's properties, not the sheet). */
const FORMULA_SIDE = /^doc:budget:|^doc:ledger:.*:formulas$/;
const SECRET = /^doc:mon:alerts$/;
export const homeOf = (key: string): Home => (FORMULA_SIDE.test(key) ? "props" : SECRET.test(key) ? "meta" : "sheet");

/** Keys the host itself keeps beside the core's `doc:` keys (run marker, trigger record, tick failure). */
export const HOST_STATE = /^companyData\.(running|monitorTrigger|tickFailure)$/;

/**
 * Move what earlier versions kept in the document's properties to its new
 * home (the sidebar, the menu or a tick with a document context runs this).
 * A key already in its new home is newer there and is only removed from the
 * properties; values are written before they are removed, so a stop in
 * between repeats the move and loses nothing.
 */
export function migrateFromProperties(props: Props, stores: Record<Exclude<Home, "props">, KeyValues>): void {
  const all = props.getProperties();
  const keys = Object.keys(all).filter(
    (k) => !k.includes("#") && ((k.startsWith("doc:") && homeOf(k) !== "props") || HOST_STATE.test(k)),
  );
  if (!keys.length) return;
  const values = readValues(props, keys, all);
  for (const home of ["sheet", "meta"] as const) {
    const mine = keys.filter((k) => (HOST_STATE.test(k) ? "sheet" : homeOf(k)) === home);
    if (!mine.length) continue;
    const there = stores[home].read(mine);
    const move: Record<string, string> = {};
    mine.forEach((k, i) => {
      const v = values[keys.indexOf(k)];
      if (there[i] === null && typeof v === "string") move[k] = v;
    });
    stores[home].write(move);
  }
  writeValues(props, Object.fromEntries(keys.map((k) => [k, null])), all);
}
