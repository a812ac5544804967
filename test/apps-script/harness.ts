/**
 * Runs the built dist/apps-script/Code.js in a node:vm context that holds
 * only what Apps Script offers: fakes of SpreadsheetApp, UrlFetchApp
 * (answered synchronously by the in-process emulator), CacheService,
 * PropertiesService (9 KB a value, 500 KB a store), LockService, ScriptApp, HtmlService, Utilities and
 * Session. No require, process, fetch or setTimeout: a bundle that reaches
 * for them fails here as it would in Apps Script.
 * A trigger's handler (fire, runSchedule) runs outside the document: no
 * active spreadsheet or UI, and the document's store and lock as
 * `triggerContext` says (null by default, as the references allow).
 * Every rule modelled cites its reference beside it; apps-script/README.md
 * lists them with the tests that use them.
 * Every call on a Spreadsheet, Sheet, Range, Protection or DeveloperMetadata
 * object and on SpreadsheetApp is counted (builders such as
 * newDataValidation() run in the script and are counted apart; LockService,
 * CacheService and PropertiesService are other services, not counted).
 */
import vm from "node:vm";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { Emulator } from "../../emulator/index.ts";
import type { HttpRequest } from "../../shared/core/http.ts";
import { nth } from "../helpers/indexed.ts";
import { ANSWER_SHEET, STATE_SHEET } from "../../apps-script/doc-state.ts";
import type { AppsScriptProject } from "../../scripts/build-apps-script.ts";

export const DIST = join(import.meta.dirname, "..", "..", "dist", "apps-script");

type Value = string | number | boolean | Date;

/** PropertiesService's limit per value (9 KB), enforced so chunking is tested. */
export const PROPERTY_VALUE_LIMIT = 9 * 1024;
/** PropertiesService's limit per store (500 KB of keys and values), enforced so running out of room is tested. */
export const PROPERTY_STORE_LIMIT = 500 * 1024;
/**
 * Apps Script's exception texts follow the user's language (a German account
 * reads German), so the fake throws a text no English pattern matches: code
 * must decide by measured sizes, never by the message.
 */
export const QUOTA_MESSAGE =
  "Sie haben das Kontingent für den Property-Speicher überschritten. Entfernen Sie einige Properties und versuchen Sie es erneut.";

const entryBytes = (k: string, v: string) => Buffer.byteLength(k) + Buffer.byteLength(v);

export class FakeProperties {
  readonly map = new Map<string, string>();
  writes = 0;
  /** Writes refused for the store's quota. */
  refused = 0;
  constructor(readonly limit = PROPERTY_STORE_LIMIT) {}
  /** Bytes held (keys and values). */
  bytes() {
    let n = 0;
    for (const [k, v] of this.map) n += entryBytes(k, v);
    return n;
  }
  getProperties() {
    return Object.fromEntries(this.map);
  }
  getProperty(k: string) {
    return this.map.get(k) ?? null;
  }
  setProperty(k: string, v: string) {
    return this.setProperties({ [k]: v });
  }
  setProperties(o: Record<string, string>, deleteAllOthers = false) {
    for (const [k, v] of Object.entries(o))
      if (entryBytes(k, String(v)) > PROPERTY_VALUE_LIMIT) throw new Error("Argument too large: value");
    // All or nothing: a write that would take the store over its quota changes nothing.
    let after = deleteAllOthers ? 0 : this.bytes();
    for (const [k, v] of Object.entries(o))
      after += entryBytes(k, String(v)) - (!deleteAllOthers && this.map.has(k) ? entryBytes(k, this.map.get(k)!) : 0);
    if (after > this.limit) {
      this.refused++;
      throw new Error(QUOTA_MESSAGE);
    }
    if (deleteAllOthers) this.map.clear();
    for (const [k, v] of Object.entries(o)) this.map.set(k, String(v));
    this.writes++;
    return this;
  }
  deleteProperty(k: string) {
    this.map.delete(k);
    return this;
  }
  deleteAllProperties() {
    this.map.clear();
    return this;
  }
  getKeys() {
    return [...this.map.keys()];
  }
}

/**
 * CacheService's Cache with its documented limits
 * (https://developers.google.com/apps-script/reference/cache/cache): keys up
 * to 250 characters, values up to 100 KB, lifetimes up to 21,600 s, and at
 * most 1,000 items: "if more than 1,000 items are written, the cache stores
 * the 900 items farthest from expiration". Every item written is counted.
 */
export const CACHE_MAX_ITEMS = 1000;
export const CACHE_KEPT_ITEMS = 900;
export class FakeCache {
  readonly map = new Map<string, { v: string; exp: number }>();
  /** Items written (putAll counts each), and items the 1,000-item rule evicted. */
  written = 0;
  evicted = 0;
  constructor(private readonly now: () => number) {}
  private check(k: string, v?: string) {
    if (k.length > 250) throw new Error("Argument too large: key");
    if (v !== undefined && Buffer.byteLength(v) > 100 * 1024) throw new Error("Argument too large: value");
  }
  get(k: string) {
    this.check(k);
    const e = this.map.get(k);
    return e && e.exp > this.now() ? e.v : null;
  }
  getAll(keys: string[]) {
    const out: Record<string, string> = {};
    for (const k of keys) {
      const v = this.get(k);
      if (v !== null) out[k] = v;
    }
    return out;
  }
  put(k: string, v: string, ttl = 600) {
    this.putAll({ [k]: v }, ttl);
  }
  putAll(o: Record<string, string>, ttl = 600) {
    if (ttl > 21600) throw new Error("expiration too long");
    for (const [k, v] of Object.entries(o)) this.check(k, v);
    for (const [k, v] of Object.entries(o)) {
      this.map.delete(k);
      this.map.set(k, { v, exp: this.now() + ttl * 1000 });
      this.written++;
    }
    if (this.map.size > CACHE_MAX_ITEMS) {
      const now = this.now();
      for (const [k, e] of this.map) if (e.exp <= now) this.map.delete(k);
    }
    if (this.map.size > CACHE_MAX_ITEMS) {
      const keep = [...this.map.entries()].sort((a, b) => b[1].exp - a[1].exp).slice(0, CACHE_KEPT_ITEMS);
      this.evicted += this.map.size - keep.length;
      this.map.clear();
      for (const [k, e] of keep) this.map.set(k, e);
    }
  }
  remove(k: string) {
    this.map.delete(k);
  }
  removeAll(keys: string[]) {
    for (const k of keys) this.map.delete(k);
  }
}

export interface SheetsOptions {
  emulator: Emulator;
  /** Where the built add-on is (default dist/apps-script). */
  dist?: string;
  /** Sheets and their cells, row by row. */
  sheets?: Record<string, Value[][]>;
  /** The active selection: sheet, 1-based row/col, size. */
  selection?: { sheet: string; row: number; col: number; rows: number; cols: number };
  now?: () => number;
  /** Make UrlFetchApp throw (as on a network failure) for URLs matching this. */
  failUrl?: RegExp;
  /** Called with each batch given to fetchAll (tests interrupt runs from here). */
  onFetch?: (requests: HttpRequest[]) => void;
  /** Session.getActiveUserLocale(): the user's Google account language (default "de"). */
  locale?: string;
  /**
   * Whether getUserTriggers(spreadsheet) lists the add-on's time-driven
   * triggers of this document (default true). Google's reference does not
   * say; with false, only getProjectTriggers() lists them, so code must
   * find its trigger either way.
   */
  clockTriggersPerDocument?: boolean;
  /** Called for every Utilities.sleep (a test clock moves by it, as the script's time would). */
  onSleep?: (ms: number) => void;
  /** What a formula set with Range.setFormula evaluates to (the fake has no calculation engine). */
  calc?: (formula: string) => Value;
  /** MailApp's recipients per day (default 100, a consumer account; see createMailApp). */
  mailRecipientsPerDay?: number;
  /** Answer requests to URLs matching `match` (webhook receivers) instead of the emulator: the HTTP status. */
  webhook?: { match: RegExp; answer: (req: HttpRequest) => number };
  /**
   * What a time-driven trigger's execution gets besides no active
   * spreadsheet (SpreadsheetApp.getActive() is null there: Google's "Triggers
   * for Editor add-ons", https://developers.google.com/workspace/add-ons/concepts/editor-triggers,
   * time-driven triggers run without the editor open). Default: both null,
   * the unhappy case the references allow
   * (https://developers.google.com/apps-script/reference/lock/lock-service#getDocumentLock():
   * "if this method is called outside of the context of a containing document … null is returned";
   * https://developers.google.com/apps-script/reference/properties/properties-service#getDocumentProperties():
   * null "if the script is not … bound to a Google Workspace file").
   */
  triggerContext?: { documentProperties?: boolean; documentLock?: boolean };
  /** The spreadsheet's time zone (Spreadsheet.getSpreadsheetTimeZone()); default Europe/Berlin, as the manifest. */
  spreadsheetTimeZone?: string;
}

/** Characters in one cell (Google: "Files you can store in Google Drive", Google Sheets). */
export const CELL_MAX_CHARS = 50_000;
/** Characters of all developer metadata of a spreadsheet (Sheets API guide "Read, write, and search metadata"). */
export const METADATA_MAX_CHARS = 30_000;

/** The spreadsheet the fake runs in. */
export const DOCUMENT_ID = "sheet-id-1";

export function createSheetsFake(opts: SheetsOptions) {
  const now = opts.now ?? (() => Date.now());
  const calls: string[] = [];
  /** Sheets written since the last SpreadsheetApp.flush (which sheet a flush commits, for the counter). */
  const unflushed = new Set<string>();
  const builders: string[] = [];
  const fetches: HttpRequest[][] = [];
  const sleeps: number[] = [];
  /** Cells that hold a formula ("sheet:row:col" → its text); the grid holds its value. */
  const formulaCells = new Map<string, string>();
  const formulaKey = (sheet: string, r: number, c: number) => `${sheet}:${r}:${c}`;
  const menus: { title: string; items: [string, string][] }[] = [];
  const sidebars: { file: string; title: string }[] = [];
  const alerts: string[] = [];
  const grids = new Map<string, Value[][]>(
    Object.entries(opts.sheets ?? {}).map(([k, v]) => [k, v.map((r) => [...r])]),
  );
  const formats = new Map<string, string[][]>();
  const backgrounds = new Map<string, (string | null)[][]>();
  const validations = new Map<string, unknown[][]>();
  /** Cells written with a leading apostrophe (quote prefix), with the value Sheets keeps. */
  const quoted: { sheet: string; row: number; col: number; value: string }[] = [];
  /** Apostrophes written into plain-text cells, where they show. */
  const shownApostrophes: { sheet: string; row: number; col: number; value: string }[] = [];
  /**
   * An execution cut off by the platform (the 6-minute limit, a closed tab): after `cutAfter` more Spreadsheet
   * calls every call throws, as nothing of a stopped script runs any more (its finally blocks included).
   * The limit and its error text ("Exceeded maximum execution time"): Apps Script quotas, "Script runtime
   * 6 min / execution", https://developers.google.com/apps-script/guides/services/quotas#current_limitations
   */
  const cut = { after: null as number | null };
  const counted = (name: string) => {
    if (cut.after !== null && cut.after-- <= 0) {
      cut.after = 0;
      throw new Error("Exceeded maximum execution time");
    }
    return calls.push(name);
  };
  const count = (name: string) => counted(name);
  /**
   * Calls on the add-on's own state sheet are counted as "state:…", those on its answer sheet (cache.ts) as
   * "answers:…", apart from those on the user's tables.
   */
  const countOn = (sheetName: string) => (name: string) =>
    counted(sheetName === STATE_SHEET ? `state:${name}` : sheetName === ANSWER_SHEET ? `answers:${name}` : name);

  const cell = (g: Value[][], r: number, c: number): Value => g[r - 1]?.[c - 1] ?? "";
  const setCell = <T>(m: Map<string, T[][]>, sheet: string, r: number, c: number, v: T, fill: T) => {
    let g = m.get(sheet);
    if (!g) m.set(sheet, (g = []));
    while (g.length < r) g.push([]);
    const row = nth(g, r - 1);
    while (row.length < c) row.push(fill);
    row[c - 1] = v;
  };
  const lastRow = (g: Value[][]) => {
    for (let i = g.length; i > 0; i--) if (nth(g, i - 1).some((v) => v !== "" && v !== null)) return i;
    return 0;
  };
  const lastCol = (g: Value[][]) =>
    Math.max(
      0,
      ...g.map((r) => {
        for (let j = r.length; j > 0; j--) if (r[j - 1] !== "" && r[j - 1] !== null) return j;
        return 0;
      }),
    );

  /** What Sheets does with written values (Range.setValues, Sheet.appendRow), as modelled at `setValues`. */
  function writeCells(sheetName: string, row: number, col: number, v: Value[][]): void {
    // A cell holds at most 50,000 characters (Google: "Files you can store in Google Drive", spreadsheets).
    for (const r of v)
      for (const x of r)
        if (typeof x === "string" && x.length > CELL_MAX_CHARS)
          throw new Error(
            `Your input contains more than the maximum of ${CELL_MAX_CHARS} characters in a single cell.`,
          );
    v.forEach((r, i) =>
      r.forEach((x, j) => {
        const fmt = formats.get(sheetName)?.[row + i - 1]?.[col + j - 1] ?? "";
        let stored: Value = x;
        if (typeof x === "string" && x !== "") {
          if (fmt === "@") {
            if (x.startsWith("'")) shownApostrophes.push({ sheet: sheetName, row: row + i, col: col + j, value: x });
          } else if (x.startsWith("'")) {
            quoted.push({ sheet: sheetName, row: row + i, col: col + j, value: x.slice(1) });
            stored = x.slice(1);
          } else if (/^[=+\-@]/.test(x)) throw new Error(`formula injection: "${x}" written as a formula`);
          else if (sheetsWouldParse(x)) throw new Error(`text "${x}" would be converted by Sheets`);
        }
        setCell(grids, sheetName, row + i, col + j, stored, "");
        formulaCells.delete(formulaKey(sheetName, row + i, col + j));
      }),
    );
    unflushed.add(sheetName);
  }

  function range(sheetName: string, row: number, col: number, rows: number, cols: number): object {
    const count = countOn(sheetName);
    const grid = () => grids.get(sheetName) ?? [];
    const shape = (v: unknown[][], what: string) => {
      if (v.length !== rows || v.some((r) => r.length !== cols))
        throw new Error(`${what}: the data has ${v.length} rows but the range has ${rows}`);
    };
    const self = {
      getValues() {
        count("Range.getValues");
        return Array.from({ length: rows }, (_, i) =>
          Array.from({ length: cols }, (_, j) => cell(grid(), row + i, col + j)),
        );
      },
      /**
       * What Sheets does with written values, as modelled here (the quote
       * prefix and plain-text behaviour are checked only against
       * documentation and forum reports; apps-script/README.md has the manual test):
       * - a string behind a leading apostrophe is text, the apostrophe hidden
       *   (a quote prefix), except in a cell formatted as plain text ("@"),
       *   where it is taken literally and shows;
       * - in a plain-text cell any string is kept as it is;
       * - otherwise a string starting with = + - @ becomes a formula (flagged
       *   here as an error), and one Sheets would parse (number, date, time,
       *   percent, currency, boolean) changes its value (flagged too).
       */
      setValues(v: Value[][]) {
        count("Range.setValues");
        readOnlyInFormula("setValues");
        shape(v, "setValues");
        writeCells(sheetName, row, col, v);
        return self;
      },
      /** Range.getFormulas: each cell's formula, "" where it holds a value. */
      getFormulas() {
        count("Range.getFormulas");
        return Array.from({ length: rows }, (_, i) =>
          Array.from({ length: cols }, (_, j) => formulaCells.get(formulaKey(sheetName, row + i, col + j)) ?? ""),
        );
      },
      /** Range.setFormula: the top-left cell's formula, its value calculated. */
      setFormula(f: string) {
        count("Range.setFormula");
        readOnlyInFormula("setFormula");
        formulaCells.set(formulaKey(sheetName, row, col), f);
        setCell(grids, sheetName, row, col, opts.calc?.(f) ?? "", "");
        return self;
      },
      getNumberFormats() {
        count("Range.getNumberFormats");
        return Array.from({ length: rows }, (_, i) =>
          Array.from({ length: cols }, (_, j) => formats.get(sheetName)?.[row + i - 1]?.[col + j - 1] || "General"),
        );
      },
      setNumberFormats(f: string[][]) {
        count("Range.setNumberFormats");
        shape(f, "setNumberFormats");
        f.forEach((r, i) => r.forEach((x, j) => setCell(formats, sheetName, row + i, col + j, x, "")));
        return self;
      },
      setNumberFormat(f: string) {
        count("Range.setNumberFormat");
        for (let i = 0; i < rows; i++)
          for (let j = 0; j < cols; j++) setCell(formats, sheetName, row + i, col + j, f, "");
        return self;
      },
      setBackgrounds(b: (string | null)[][]) {
        count("Range.setBackgrounds");
        shape(b, "setBackgrounds");
        b.forEach((r, i) => r.forEach((x, j) => setCell(backgrounds, sheetName, row + i, col + j, x, null)));
        return self;
      },
      setDataValidations(v: unknown[][]) {
        count("Range.setDataValidations");
        shape(v, "setDataValidations");
        v.forEach((r, i) => r.forEach((x, j) => setCell(validations, sheetName, row + i, col + j, x, null)));
        return self;
      },
      getRow() {
        count("Range.getRow");
        return row;
      },
      getColumn() {
        count("Range.getColumn");
        return col;
      },
      getNumRows() {
        count("Range.getNumRows");
        return rows;
      },
      getNumColumns() {
        count("Range.getNumColumns");
        return cols;
      },
      getSheet() {
        count("Range.getSheet");
        return sheet(sheetName);
      },
      getDataRegion() {
        count("Range.getDataRegion");
        const g = grid();
        return range(sheetName, 1, 1, Math.max(1, lastRow(g)), Math.max(1, lastCol(g)));
      },
    };
    return self;
  }

  function sheet(name: string): object {
    const count = countOn(name);
    return {
      getName() {
        count("Sheet.getName");
        return name;
      },
      hideSheet() {
        count("Sheet.hideSheet");
        readOnlyInFormula("hideSheet");
        hidden.add(name);
      },
      isSheetHidden() {
        count("Sheet.isSheetHidden");
        return hidden.has(name);
      },
      protect() {
        count("Sheet.protect");
        readOnlyInFormula("protect");
        const p = {
          setWarningOnly(w: boolean) {
            count("Protection.setWarningOnly");
            protectedSheets.set(name, w ? "warning" : "editors");
            return p;
          },
        };
        return p;
      },
      getRange(r: number, c: number, nr = 1, nc = 1) {
        count("Sheet.getRange");
        if (!(r >= 1 && c >= 1 && nr >= 1 && nc >= 1))
          throw new Error("The coordinates of the range are outside the dimensions of the sheet.");
        return range(name, r, c, nr, nc);
      },
      getDataRange() {
        count("Sheet.getDataRange");
        const g = grids.get(name) ?? [];
        return range(name, 1, 1, Math.max(1, lastRow(g)), Math.max(1, lastCol(g)));
      },
      getLastRow() {
        count("Sheet.getLastRow");
        return lastRow(grids.get(name) ?? []);
      },
      /**
       * Sheet.getSheetValues: "Returns the rectangular grid of values for this range starting at the
       * given coordinates. A -1 value given as the row or column position is equivalent to getting the
       * very last row or column that has data in the sheet"
       * (https://developers.google.com/apps-script/reference/spreadsheet/sheet#getSheetValues(Integer,Integer,Integer,Integer)).
       * One call, where getDataRange().getValues() is two. What it answers on a sheet without data is
       * not documented: modelled as a range of no rows, which getRange refuses ("The number of rows in
       * the range must be at least 1"), so the code's fallback is what runs.
       */
      getSheetValues(r: number, c: number, nr: number, nc: number) {
        count("Sheet.getSheetValues");
        const g = grids.get(name) ?? [];
        const rows = nr === -1 ? lastRow(g) - r + 1 : nr;
        const cols = nc === -1 ? lastCol(g) - c + 1 : nc;
        if (!(r >= 1 && c >= 1) || rows < 1 || cols < 1)
          throw new Error("The number of rows in the range must be at least 1.");
        return Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => cell(g, r + i, c + j)));
      },
      /**
       * Sheet.appendRow: "Appends a row to the bottom of the current data region in the sheet"
       * (https://developers.google.com/apps-script/reference/spreadsheet/sheet#appendRow(Object)):
       * below the last row with content, never over a row; one call.
       */
      appendRow(values: Value[]) {
        count("Sheet.appendRow");
        readOnlyInFormula("appendRow");
        const g = grids.get(name) ?? [];
        if (!grids.has(name)) grids.set(name, g);
        writeCells(name, lastRow(g) + 1, 1, [values]);
        return sheet(name);
      },
    };
  }

  const spreadsheet = {
    getSheetByName(n: string) {
      countOn(n)("Spreadsheet.getSheetByName");
      return grids.has(n) ? sheet(n) : null;
    },
    insertSheet(n: string) {
      countOn(n)("Spreadsheet.insertSheet");
      readOnlyInFormula("insertSheet");
      grids.set(n, []);
      return sheet(n);
    },
    getDeveloperMetadata() {
      count("state:Spreadsheet.getDeveloperMetadata");
      return metadata.map(metaView);
    },
    addDeveloperMetadata(key: string, value: string, visibility: string) {
      count("state:Spreadsheet.addDeveloperMetadata");
      readOnlyInFormula("addDeveloperMetadata");
      const m = { key, value, visibility };
      metadata.push(m);
      checkMetadataSize();
      return spreadsheet;
    },
    getId() {
      count("Spreadsheet.getId");
      return DOCUMENT_ID;
    },
    getSpreadsheetTimeZone() {
      count("Spreadsheet.getSpreadsheetTimeZone");
      return opts.spreadsheetTimeZone ?? "Europe/Berlin";
    },
  };
  /** Whether this execution runs inside the open document (false while a time-driven trigger's handler runs), and whether it is a custom function's. */
  const where = { inDocument: true, deleted: false, customFunction: false };
  const hidden = new Set<string>();
  const protectedSheets = new Map<string, "warning" | "editors">();
  /**
   * A custom function may read the spreadsheet but not change it: "Read only
   * (can use most get*() methods, but not set*())"
   * (https://developers.google.com/apps-script/guides/sheets/functions#using_apps_script_services).
   */
  const readOnlyInFormula = (method: string) => {
    if (where.customFunction) throw new Error(`You do not have permission to call ${method}`);
  };
  /**
   * Developer metadata (https://developers.google.com/workspace/sheets/api/guides/metadata):
   * PROJECT visibility is seen by the script that wrote it only; all
   * metadata of a spreadsheet together is limited to 30,000 characters.
   */
  const metadata: { key: string; value: string; visibility: string }[] = [];
  const checkMetadataSize = () => {
    if (metadata.reduce((n, m) => n + m.key.length + m.value.length, 0) > METADATA_MAX_CHARS)
      throw new Error("Developer metadata size limit exceeded.");
  };
  // DeveloperMetadata is a Spreadsheet-service object: its methods are counted as the state's calls.
  const metaView = (m: { key: string; value: string; visibility: string }) => ({
    getKey: () => (count("state:DeveloperMetadata.getKey"), m.key),
    getValue: () => (count("state:DeveloperMetadata.getValue"), m.value),
    getVisibility: () => (count("state:DeveloperMetadata.getVisibility"), m.visibility),
    setValue(v: string) {
      count("state:DeveloperMetadata.setValue");
      readOnlyInFormula("setValue");
      const old = m.value;
      m.value = v;
      try {
        checkMetadataSize();
      } catch (e) {
        m.value = old;
        throw e;
      }
      return metaView(m);
    },
    remove() {
      count("state:DeveloperMetadata.remove");
      readOnlyInFormula("remove");
      const i = metadata.indexOf(m);
      if (i >= 0) metadata.splice(i, 1);
    },
  });
  const trig = { documentProperties: false, documentLock: false, ...opts.triggerContext };

  const builder = () => {
    const rule: { values?: string[]; allowInvalid?: boolean } = {};
    const b = {
      requireValueInList(v: string[]) {
        builders.push("requireValueInList");
        rule.values = [...v];
        return b;
      },
      setAllowInvalid(x: boolean) {
        builders.push("setAllowInvalid");
        rule.allowInvalid = x;
        return b;
      },
      build() {
        builders.push("build");
        return { rule };
      },
    };
    return b;
  };

  const ui = {
    createAddonMenu() {
      const m = { title: "addon", items: [] as [string, string][] };
      menus.push(m);
      const api = {
        addItem(label: string, fn: string) {
          m.items.push([label, fn]);
          return api;
        },
        addSeparator() {
          return api;
        },
        addToUi() {},
      };
      return api;
    },
    createMenu(title: string) {
      const api = ui.createAddonMenu();
      nth(menus, menus.length - 1).title = title;
      return api;
    },
    showSidebar(html: { file: string; title: string }) {
      sidebars.push({ file: html.file, title: html.title });
    },
    alert(text: string) {
      alerts.push(text);
      return "OK";
    },
  };

  const SpreadsheetApp = {
    /**
     * SpreadsheetApp.flush: "Applies all pending Spreadsheet changes"
     * (https://developers.google.com/apps-script/reference/spreadsheet/spreadsheet-app#flush()); the
     * fake writes at once, so it only counts the call, on the state sheet when that sheet was written
     * since the last flush (the state session commits its write before releasing the lock).
     */
    flush() {
      count(unflushed.has(STATE_SHEET) ? "state:SpreadsheetApp.flush" : "SpreadsheetApp.flush");
      unflushed.clear();
    },
    getActiveSpreadsheet() {
      count("SpreadsheetApp.getActiveSpreadsheet");
      return where.inDocument ? spreadsheet : null;
    },
    getActive() {
      count("SpreadsheetApp.getActive");
      return where.inDocument ? spreadsheet : null;
    },
    openById(id: string) {
      count("SpreadsheetApp.openById");
      // Custom functions may not open other spreadsheets (https://developers.google.com/apps-script/guides/sheets/functions#using_apps_script_services).
      if (id !== DOCUMENT_ID || where.deleted || where.customFunction)
        throw new Error("Unexpected error while getting the method or property openById on object SpreadsheetApp.");
      return spreadsheet;
    },
    getActiveRange() {
      count("SpreadsheetApp.getActiveRange");
      if (!where.inDocument) return null;
      const s = opts.selection;
      return s ? range(s.sheet, s.row, s.col, s.rows, s.cols) : null;
    },
    getUi() {
      if (!where.inDocument) throw new Error("Cannot call SpreadsheetApp.getUi() from this context.");
      return ui;
    },
    DeveloperMetadataVisibility: { DOCUMENT: "DOCUMENT", PROJECT: "PROJECT" },
    newDataValidation() {
      builders.push("newDataValidation");
      return builder();
    },
  };

  const toRequest = (p: {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    payload?: string;
    contentType?: string;
    muteHttpExceptions?: boolean;
  }): HttpRequest => {
    if (!p.muteHttpExceptions) throw new Error("muteHttpExceptions must be set");
    const headers: Record<string, string> = { ...(p.headers ?? {}) };
    if (p.contentType) headers["Content-Type"] = p.contentType;
    return { method: (p.method ?? "get").toUpperCase() as "GET" | "POST", url: p.url, headers, body: p.payload };
  };
  const answer = (req: HttpRequest) => {
    if (opts.failUrl?.test(req.url)) throw new Error("Address unavailable: " + req.url);
    if (opts.webhook?.match.test(req.url)) {
      const status = opts.webhook.answer(req);
      return {
        getResponseCode: () => status,
        getContentText: () => "",
        getAllHeaders: () => ({}),
        getHeaders: () => ({}),
      };
    }
    const res = opts.emulator.handle(req);
    if (res.drop) throw new Error("Address unavailable: " + req.url);
    // Header names as a server sends them: mixed case.
    const headers = Object.fromEntries(
      Object.entries(res.headers).map(([k, v]) => [k.replace(/(^|-)[a-z]/g, (m) => m.toUpperCase()), v]),
    );
    return {
      getResponseCode: () => res.status,
      getContentText: () => res.body,
      getAllHeaders: () => headers,
      getHeaders: () => headers,
    };
  };
  const UrlFetchApp = {
    fetchAll(params: Parameters<typeof toRequest>[0][]) {
      scriptApp.checkTime();
      const reqs = params.map(toRequest);
      fetches.push(reqs);
      opts.onFetch?.(reqs);
      return reqs.map(answer);
    },
    fetch(url: string, p: Parameters<typeof toRequest>[0]) {
      scriptApp.checkTime();
      const req = toRequest({ ...p, url });
      fetches.push([req]);
      return answer(req);
    },
  };

  const userProps = new FakeProperties();
  const users = {
    current: "owner",
    stores: new Map<string, FakeProperties>([["owner", userProps]]),
    props(u: string) {
      let p = users.stores.get(u);
      if (!p) users.stores.set(u, (p = new FakeProperties()));
      return p;
    },
  };
  const docProps = new FakeProperties();
  const scriptProps = new FakeProperties();
  const docCache = new FakeCache(now);
  const userCache = new FakeCache(now);
  const PropertiesService = {
    getUserProperties: () => users.props(users.current),
    getDocumentProperties: () => (where.inDocument || trig.documentProperties ? docProps : null),
    getScriptProperties: () => scriptProps,
  };
  // getDocumentCache: "null if the script is not contained in a document" (https://developers.google.com/apps-script/reference/cache/cache-service#getDocumentCache()).
  const CacheService = {
    getDocumentCache: () => (where.inDocument ? docCache : null),
    getUserCache: () => userCache,
    getScriptCache: () => userCache,
  };
  let locked = false;
  /**
   * Sheets written but not committed when the lock was released: "if you are working with a spreadsheet,
   * you should call SpreadsheetApp.flush() prior to releasing the lock, to commit all pending changes to
   * the spreadsheet while you still have exclusive access to it"
   * (https://developers.google.com/apps-script/reference/lock/lock#releaseLock()). The fake writes at
   * once, so it records the breach instead of losing the write.
   */
  const releasedUnflushed: string[] = [];
  const lock = {
    tryLock: () => (locked ? false : (locked = true)),
    waitLock: () => {
      locked = true;
    },
    releaseLock: () => {
      if (locked && unflushed.size) releasedUnflushed.push(...unflushed);
      locked = false;
    },
    hasLock: () => locked,
  };
  const LockService = {
    getDocumentLock: () => (where.inDocument || trig.documentLock ? lock : null),
    getUserLock: () => lock,
    getScriptLock: () => lock,
  };
  const scriptApp = createScriptApp({
    now,
    documentId: () => DOCUMENT_ID,
    user: () => users.current,
    clockTriggersPerDocument: opts.clockTriggersPerDocument ?? true,
  });
  const ScriptApp = scriptApp.service;
  /** HTML files handed in with the code (load(project)), before those of the dist directory. */
  const htmlFiles = new Map<string, string>();
  /** Every HTML file the script read, in order (the app bundle is read only by the calls that need it). */
  const htmlReads: string[] = [];
  /**
   * HtmlService.createHtmlOutputFromFile (https://developers.google.com/apps-script/reference/html/html-service):
   * a file of the project by name, an error when there is none; the HTML service refuses HTML it finds
   * malformed ("Error — if the HTML is malformed", createHtmlOutput). Modelled narrowly: outside <script> and
   * <style> elements, a "<" that starts no tag is malformed — so JavaScript kept bare in an HTML file (`a<b`)
   * is refused here, as the real service may refuse it, and must sit inside a <script> element.
   */
  const malformedHtml = (text: string) =>
    /<(?![a-zA-Z/!])/.test(text.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ""));
  const HtmlService = {
    createHtmlOutputFromFile(file: string) {
      const path = join(opts.dist ?? DIST, `${file}.html`);
      if (!htmlFiles.has(file) && !existsSync(path)) throw new Error(`No HTML file named ${file} was found.`);
      htmlReads.push(file);
      const text = htmlFiles.get(file) ?? readFileSync(path, "utf8");
      if (malformedHtml(text)) throw new Error(`Malformed HTML content: ${file}.html`);
      const out = {
        file,
        title: "",
        setTitle(t: string) {
          out.title = t;
          return out;
        },
        getContent: () => text,
      };
      return out;
    },
  };
  const Utilities = {
    sleep: (ms: number) => {
      scriptApp.checkTime();
      sleeps.push(ms);
      opts.onSleep?.(ms);
    },
    /** The patterns the add-on uses: "yyyy-MM-dd" and "Z" (+hhmm). */
    formatDate(d: Date, tz: string, pattern: string) {
      const p = berlinParts(d.getTime(), tz);
      if (pattern === "yyyy-MM-dd") return `${p.y}-${String(p.m).padStart(2, "0")}-${String(p.d).padStart(2, "0")}`;
      if (pattern === "Z") {
        const off = Math.round(
          (Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - Math.floor(d.getTime() / 1000) * 1000) / 60_000,
        );
        const a = Math.abs(off);
        return `${off < 0 ? "-" : "+"}${String(Math.floor(a / 60)).padStart(2, "0")}${String(a % 60).padStart(2, "0")}`;
      }
      throw new Error(`formatDate pattern not faked: ${pattern}`);
    },
  };
  // https://developers.google.com/apps-script/reference/base/session#getActiveUserLocale(): "the language setting of the
  // current user as a string—for example, en"; "" where it cannot be told.
  const Session = { getActiveUserLocale: () => opts.locale ?? "de" };
  const Logger = { log: () => undefined };

  const mail = createMailApp(now, opts.mailRecipientsPerDay ?? 100);
  const MailApp = mail.service;
  const context: vm.Context = vm.createContext({
    SpreadsheetApp,
    UrlFetchApp,
    CacheService,
    PropertiesService,
    LockService,
    ScriptApp,
    HtmlService,
    Utilities,
    Session,
    Logger,
    MailApp,
    console: { log() {}, warn() {}, error() {}, info() {} },
  });

  /**
   * Run one trigger's handler as Apps Script does at `at` (the clock must
   * already say so): a fresh execution with the 6-minute limit, outside the
   * document (no active spreadsheet, no UI; store and lock as `triggerContext` says).
   */
  const fire = (t: FakeTrigger): unknown => {
    const e = scriptApp.eventFor(t);
    where.inDocument = false;
    // A trigger runs as the user who created it (https://developers.google.com/apps-script/guides/triggers/installable).
    const caller = users.current;
    users.current = t.owner ?? "owner";
    try {
      return scriptApp.execute(() => {
        context.__args = [e];
        if (vm.runInContext(`typeof ${t.handler}`, context) !== "function")
          throw new Error(`Script function not found: ${t.handler}`);
        return vm.runInContext(`${t.handler}.apply(null, __args)`, context);
      });
    } finally {
      where.inDocument = true;
      users.current = caller;
    }
  };

  return {
    context,
    calls,
    builders,
    fetches,
    sleeps,
    /** Formula cells ("sheet:row:col" → text); a test puts the user's own formulas here, with the value in the grid. */
    formulaCells,
    menus,
    sidebars,
    alerts,
    grids,
    formats,
    backgrounds,
    validations,
    quoted,
    shownApostrophes,
    /** E-mails MailApp sent. */
    mails: mail.sent,
    userProps,
    docProps,
    docCache,
    userCache,
    /** The spreadsheet is deleted (or unshared): openById fails. */
    deleteDocument() {
      where.deleted = true;
    },
    /** Every installable trigger of this user (all documents), as Apps Script keeps them. */
    triggers: scriptApp.triggers,
    /** A trigger another document of this user installed (to check that this one never touches it). */
    addForeignTrigger: scriptApp.addForeign,
    /** When a trigger fires next after `after` (epoch ms). */
    nextFire: scriptApp.nextFire,
    fire,
    /**
     * Fire this document's triggers in time order between `from` and `to`,
     * moving the test's clock with `setNow` to each fire time. Handlers may
     * replace triggers; the next fire time is looked up after each run.
     * Answers the fire times and what each run returned or threw.
     */
    runSchedule(
      from: number,
      to: number,
      setNow: (ms: number) => void,
    ): { at: number; handler: string; kind: FakeTrigger["kind"]; error?: string }[] {
      const log: { at: number; handler: string; kind: FakeTrigger["kind"]; error?: string }[] = [];
      let cursor = from;
      for (let guard = 0; guard < 1000; guard++) {
        const next = scriptApp.triggers
          .filter((t) => t.documentId === DOCUMENT_ID)
          .map((t) => ({ t, at: scriptApp.nextFire(t, cursor) }))
          .sort((a, b) => a.at - b.at)[0];
        if (!next || next.at >= to) break;
        setNow(next.at);
        try {
          fire(next.t);
          log.push({ at: next.at, handler: next.t.handler, kind: next.t.kind });
        } catch (e) {
          log.push({
            at: next.at,
            handler: next.t.handler,
            kind: next.t.kind,
            error: e instanceof Error ? e.message : String(e),
          });
        }
        cursor = Math.max(next.at + 1, now());
      }
      return log;
    },
    /** Sheets written and not committed with SpreadsheetApp.flush when a lock was released (see `lock`). */
    releasedUnflushed,
    /** Cut the execution off after `n` more Spreadsheet calls (null: never); see `counted`. */
    cutAfter(n: number | null) {
      cut.after = n;
    },
    resetCounts() {
      calls.length = 0;
      builders.length = 0;
      fetches.length = 0;
    },
    /** The HTML files the script read so far, in order. */
    htmlReads,
    /**
     * Evaluate Code.js (ms taken): the dist directory's, or a project built in
     * memory (scripts/build-apps-script.ts buildProject), whose HTML files
     * (the app bundle) the script then reads instead of the dist directory's.
     */
    load(project: string | AppsScriptProject = readFileSync(join(opts.dist ?? DIST, "Code.js"), "utf8")): number {
      const code = typeof project === "string" ? project : project.code;
      if (typeof project !== "string")
        for (const [name, text] of Object.entries(project.files)) htmlFiles.set(name, text);
      const t = performance.now();
      vm.runInContext(code, context, { filename: "Code.js" });
      return performance.now() - t;
    },
    /** Call a top-level function of Code.js with arguments made in the script's realm. */
    call(name: string, ...args: unknown[]): unknown {
      context.__args = args;
      // The registry's functions run as custom functions: read-only on the spreadsheet.
      where.customFunction = /^(COMPANY_|PERSON_)/.test(name);
      try {
        return vm.runInContext(`${name}.apply(null, __args)`, context);
      } finally {
        where.customFunction = false;
      }
    },
    /**
     * Calls from here on run as another Google user of the spreadsheet (an
     * editor who is not the trigger's owner): their own user store and their
     * own triggers (getProjectTriggers lists "the current user's" triggers:
     * https://developers.google.com/apps-script/reference/script/script-app#getProjectTriggers()).
     * "owner" is the user the tests start as.
     */
    actAs(user: string) {
      users.current = user;
    },
    /** The add-on's hidden state sheet as key → value (doc-state.ts's layout: key in A, the value over B…, each cell behind "~"). */
    state(): Map<string, string> {
      const out = new Map<string, string>();
      for (const r of grids.get(STATE_SHEET) ?? []) {
        const k = typeof r[0] === "string" ? r[0].slice(1) : "";
        if (k)
          out.set(
            k,
            r
              .slice(1)
              .map((v) => (typeof v === "string" ? v.slice(1) : ""))
              .join(""),
          );
      }
      return out;
    },
    /** Change one value in the state sheet behind the add-on's back (another editor, an old version). */
    setState(key: string, value: string) {
      const row = (grids.get(STATE_SHEET) ?? []).find((r) => r[0] === `~${key}`);
      if (!row) throw new Error(`no state ${key}`);
      row.splice(1, row.length - 1, `~${value}`);
    },
    hidden,
    protectedSheets,
    metadata,
    /** A user's store (the owner's is `userProps`). */
    userPropsOf(user: string) {
      return users.props(user);
    },
    /** A Date of the script's realm, as Sheets passes a date cell: midnight in the spreadsheet's time zone. */
    date(y: number, m: number, d: number): Date {
      return vm.runInContext(
        `new Date(${zoned(y, m, d, 0, 0, opts.spreadsheetTimeZone ?? "Europe/Berlin")})`,
        context,
      ) as Date;
    },
    /** Drive the script's clock (Date.now) from the test. */
    setClock(fn: () => number) {
      context.__clock = fn;
      vm.runInContext("Date.now = function () { return __clock(); };", context);
    },
    /** Set a user setting as the settings sidebar would store it. */
    setUser(key: string, value: string) {
      userProps.setProperty(`user:${key}`, value);
    },
  };
}

export type SheetsFake = ReturnType<typeof createSheetsFake>;

/** Text Sheets would read as something else when typed or written without a quote prefix: number, date, time, percent, currency, boolean. */
export function sheetsWouldParse(s: string): boolean {
  const t = s.trim();
  return (
    /^(TRUE|FALSE|WAHR|FALSCH)$/i.test(t) ||
    /^[(]?[$€£]?\s*[\d.,]+(e[-+]?\d+)?\s*[%€$]?[)]?$/i.test(t) ||
    /^\d{1,4}[-./]\d{1,2}([-./]\d{1,4})?$/.test(t) ||
    /^\d{1,2}:\d{2}(:\d{2})?$/.test(t)
  );
}

/**
 * ScriptApp's trigger API as an editor add-on sees it: installable
 * time-driven triggers built with newTrigger(fn).timeBased(), owned by the
 * user who created them, tied to the document the add-on ran in, with the
 * add-on limits: one time-driven trigger per user and document, never more
 * often than hourly, everyHours only 1, 2, 4, 6, 8 or 12; atHour only with
 * everyDays/everyWeeks; 20 triggers per user and script. A trigger's handler
 * runs as a fresh execution limited to 6 minutes; every UrlFetchApp call and
 * sleep checks the limit, as Apps Script stops a script that overruns.
 */
export interface FakeTrigger {
  uid: string;
  handler: string;
  documentId: string;
  createdAt: number;
  kind: "hourly" | "daily" | "weekly" | "once";
  /** everyHours(n) / everyDays(n) / everyWeeks(n). */
  every: number;
  hour: number | null;
  minute: number | null;
  at: number | null;
  /** Time zone of atHour (inTimezone, else the script's). */
  timeZone?: string;
  /** The user who created it (and as whom it runs); default "owner". */
  owner?: string;
}

export const EXECUTION_LIMIT_MS = 6 * 60_000;
const ADDON_CLOCK_LIMIT =
  "This add-on has created too many time-based triggers in this document for this Google user account.";

function berlinParts(ms: number, tz: string) {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: tz,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return { y: get("year"), m: get("month"), d: get("day"), h: get("hour"), min: get("minute"), s: get("second") };
}

/** Epoch ms of a wall-clock time in `tz`. */
function zoned(y: number, m: number, d: number, h: number, min: number, tz: string): number {
  const want = Date.UTC(y, m - 1, d, h, min);
  let guess = want;
  for (let i = 0; i < 3; i++) {
    const p = berlinParts(guess, tz);
    guess += want - Date.UTC(p.y, p.m - 1, p.d, p.h, p.min);
  }
  return guess;
}

export function createScriptApp(o: {
  now: () => number;
  documentId: () => string;
  user?: () => string;
  clockTriggersPerDocument: boolean;
  timeZone?: string;
}) {
  const me = () => o.user?.() ?? "owner";
  const own = (t: FakeTrigger) => (t.owner ?? "owner") === me();
  const tz = o.timeZone ?? "Europe/Berlin";
  const triggers: FakeTrigger[] = [];
  let seq = 0;
  let execution: { start: number } | null = null;
  const EventType = {
    CLOCK: "CLOCK",
    ON_OPEN: "ON_OPEN",
    ON_EDIT: "ON_EDIT",
    ON_FORM_SUBMIT: "ON_FORM_SUBMIT",
    ON_CHANGE: "ON_CHANGE",
  };
  const TriggerSource = { CLOCK: "CLOCK", SPREADSHEETS: "SPREADSHEETS" };

  const view = (t: FakeTrigger) => ({
    getHandlerFunction: () => t.handler,
    getEventType: () => EventType.CLOCK,
    getTriggerSource: () => TriggerSource.CLOCK,
    getTriggerSourceId: () => null,
    getUniqueId: () => t.uid,
    __fake: t,
  });

  const clockBuilder = (handler: string) => {
    const spec: {
      tz?: string;
      hours?: number;
      days?: number;
      weeks?: number;
      minutes?: number;
      hour?: number;
      minute?: number;
      after?: number;
      at?: number;
    } = {};
    const b = {
      everyMinutes(n: number) {
        spec.minutes = n;
        return b;
      },
      everyHours(n: number) {
        if (![1, 2, 4, 6, 8, 12].includes(n)) throw new Error("The number of hours must be 1, 2, 4, 6, 8 or 12.");
        spec.hours = n;
        return b;
      },
      everyDays(n: number) {
        if (!(Number.isInteger(n) && n >= 1)) throw new Error("Invalid argument: days");
        spec.days = n;
        return b;
      },
      everyWeeks(n: number) {
        if (!(Number.isInteger(n) && n >= 1)) throw new Error("Invalid argument: weeks");
        spec.weeks = n;
        return b;
      },
      atHour(h: number) {
        if (!(Number.isInteger(h) && h >= 0 && h <= 23)) throw new Error("Invalid argument: hour");
        spec.hour = h;
        return b;
      },
      nearMinute(m: number) {
        if (!(Number.isInteger(m) && m >= 0 && m <= 59)) throw new Error("Invalid argument: minute");
        spec.minute = m;
        return b;
      },
      after(ms: number) {
        spec.after = ms;
        return b;
      },
      at(d: Date) {
        spec.at = d.getTime();
        return b;
      },
      inTimezone(tz: string) {
        spec.tz = tz;
        return b;
      },
      create() {
        if (spec.minutes !== undefined)
          throw new Error("Add-ons can't create time-based triggers that run more often than once an hour.");
        if (spec.hour !== undefined && spec.days === undefined && spec.weeks === undefined)
          throw new Error("atHour can only be used with everyDays or everyWeeks.");
        const recurrences = [spec.hours, spec.days, spec.weeks, spec.after, spec.at].filter(
          (x) => x !== undefined,
        ).length;
        if (recurrences !== 1)
          throw new Error("A time-based trigger needs exactly one of everyHours, everyDays, everyWeeks, after or at.");
        const doc = o.documentId();
        const mine = triggers.filter((t) => t.documentId === doc && own(t));
        if (mine.length >= 1) throw new Error(ADDON_CLOCK_LIMIT);
        // Localised as for a German account: code must count triggers, not read this text.
        if (triggers.filter(own).length >= 20)
          throw new Error(
            "Dieses Skript hat zu viele Trigger. Trigger müssen aus dem Skript gelöscht werden, bevor weitere hinzugefügt werden können.",
          );
        const t: FakeTrigger = {
          uid: String(4_200_000 + ++seq),
          handler,
          documentId: doc,
          createdAt: o.now(),
          kind:
            spec.hours !== undefined
              ? "hourly"
              : spec.days !== undefined
                ? "daily"
                : spec.weeks !== undefined
                  ? "weekly"
                  : "once",
          every: spec.hours ?? spec.days ?? spec.weeks ?? 0,
          hour: spec.hour ?? null,
          // Without nearMinute, Google picks a minute and keeps it.
          minute: spec.minute ?? (spec.hour !== undefined ? (seq * 17) % 60 : null),
          at: spec.at ?? (spec.after !== undefined ? o.now() + spec.after : null),
          // Without inTimezone the script's time zone (the manifest's) applies.
          timeZone: spec.tz ?? tz,
          owner: me(),
        };
        triggers.push(t);
        return view(t);
      },
    };
    return b;
  };

  const service = {
    AuthMode: { NONE: "NONE", LIMITED: "LIMITED", FULL: "FULL", CUSTOM_FUNCTION: "CUSTOM_FUNCTION" },
    EventType,
    TriggerSource,
    newTrigger(handler: string) {
      if (typeof handler !== "string" || !handler) throw new Error("Invalid argument: functionName");
      return {
        timeBased: () => clockBuilder(handler),
        forSpreadsheet() {
          throw new Error("not faked: spreadsheet triggers");
        },
      };
    },
    getProjectTriggers: () => triggers.filter(own).map(view),
    getUserTriggers(doc: { getId(): string }) {
      if (!o.clockTriggersPerDocument) return [];
      const id = doc.getId();
      return triggers.filter((t) => t.documentId === id && own(t)).map(view);
    },
    deleteTrigger(t: { getUniqueId(): string }) {
      const i = triggers.findIndex((x) => x.uid === t.getUniqueId() && own(x));
      // Deleting a trigger that is already gone is an error in Apps Script too.
      if (i < 0) throw new Error("Trigger not found.");
      triggers.splice(i, 1);
    },
  };

  function nextFire(t: FakeTrigger, after: number): number {
    if (t.kind === "once") return t.at! > after ? t.at! : Infinity;
    if (t.kind === "hourly") {
      const step = t.every * 3_600_000;
      return t.createdAt + Math.max(1, Math.floor((after - t.createdAt) / step) + 1) * step;
    }
    // Daily/weekly at the hour (local time) and the trigger's minute, counted from its first day.
    const stepDays = t.kind === "weekly" ? 7 * t.every : t.every;
    const z = t.timeZone ?? tz;
    const c = berlinParts(t.createdAt, z);
    let first = zoned(c.y, c.m, c.d, t.hour ?? c.h, t.minute ?? 0, z);
    if (first <= t.createdAt) first = zoned(c.y, c.m, c.d + 1, t.hour ?? c.h, t.minute ?? 0, z);
    const f = berlinParts(first, z);
    for (let k = 0; k < 10_000; k++) {
      const at = zoned(f.y, f.m, f.d + k * stepDays, f.h, f.min, z);
      if (at > after) return at;
    }
    return Infinity;
  }

  return {
    service,
    triggers,
    nextFire,
    addForeign(handler: string, documentId: string): FakeTrigger {
      const t: FakeTrigger = {
        uid: String(9_000_000 + ++seq),
        handler,
        documentId,
        createdAt: o.now(),
        kind: "daily",
        every: 1,
        hour: 6,
        minute: 0,
        at: null,
      };
      triggers.push(t);
      return t;
    },
    eventFor(t: FakeTrigger) {
      const p = berlinParts(o.now(), "UTC");
      return {
        authMode: "FULL",
        triggerUid: t.uid,
        year: p.y,
        month: p.m,
        "day-of-month": p.d,
        hour: p.h,
        minute: p.min,
        second: p.s,
        timezone: "UTC",
      };
    },
    /** Run `body` as one execution with Apps Script's time limit. */
    execute<T>(body: () => T): T {
      execution = { start: o.now() };
      try {
        const out = body();
        checkTime();
        return out;
      } finally {
        execution = null;
      }
    },
    checkTime,
  };

  function checkTime(): void {
    if (execution && o.now() - execution.start > EXECUTION_LIMIT_MS) throw new Error("Exceeded maximum execution time");
  }
}

/**
 * MailApp as the reference describes it
 * (https://developers.google.com/apps-script/reference/mail/mail-app):
 * getRemainingDailyQuota() is "the number of recipients you can send emails
 * to for the rest of the day"; the quota counts recipients, not messages
 * (Quotas for Google Services: 100 a day for consumer accounts, 1,500 for
 * Workspace). Over the quota sendEmail throws "Service invoked too many times
 * for one day: email." The day is the UTC day of the script's clock (Google
 * does not say when the quota's day starts: a test must not depend on it).
 */
export function createMailApp(now: () => number, perDay: number) {
  const sent: { to: string[]; subject: string; body: string; at: number }[] = [];
  const day = () => Math.floor(now() / 86_400_000);
  const usedToday = () =>
    sent.filter((m) => Math.floor(m.at / 86_400_000) === day()).reduce((n, m) => n + m.to.length, 0);
  const service = {
    getRemainingDailyQuota: () => Math.max(0, perDay - usedToday()),
    sendEmail(message: { to: string; subject: string; body: string }) {
      if (typeof message !== "object" || !message.to || message.subject === undefined)
        throw new Error("Invalid argument: message");
      const to = message.to
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      if (usedToday() + to.length > perDay) throw new Error("Service invoked too many times for one day: email.");
      sent.push({ to, subject: message.subject, body: message.body, at: now() });
    },
  };
  return { service, sent };
}
