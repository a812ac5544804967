/**
 * Runs the built dist/apps-script/Code.js in a node:vm context that holds
 * only what Apps Script offers: fakes of SpreadsheetApp, UrlFetchApp
 * (answered synchronously by the in-process emulator), CacheService,
 * PropertiesService, LockService, ScriptApp, HtmlService, Utilities and
 * Session. No require, process, fetch or setTimeout: a bundle that reaches
 * for them fails here as it would in Apps Script.
 * Every call on a Spreadsheet, Sheet or Range object and on SpreadsheetApp
 * is counted (builders such as newDataValidation() run in the script and
 * are counted apart).
 */
import vm from "node:vm";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { Emulator } from "../../emulator/index.ts";
import type { HttpRequest } from "../../shared/core/http.ts";

export const DIST = join(import.meta.dirname, "..", "..", "dist", "apps-script");

type Value = string | number | boolean | Date;

/** PropertiesService's limit per value (9 KB), enforced so chunking is tested. */
const PROPERTY_VALUE_LIMIT = 9 * 1024;

class FakeProperties {
  readonly map = new Map<string, string>();
  writes = 0;
  getProperties() { return Object.fromEntries(this.map); }
  getProperty(k: string) { return this.map.get(k) ?? null; }
  setProperty(k: string, v: string) { return this.setProperties({ [k]: v }); }
  setProperties(o: Record<string, string>, deleteAllOthers = false) {
    for (const [k, v] of Object.entries(o)) if (Buffer.byteLength(k + String(v)) > PROPERTY_VALUE_LIMIT) throw new Error("Argument too large: value");
    if (deleteAllOthers) this.map.clear();
    for (const [k, v] of Object.entries(o)) this.map.set(k, String(v));
    this.writes++;
    return this;
  }
  deleteProperty(k: string) { this.map.delete(k); return this; }
  deleteAllProperties() { this.map.clear(); return this; }
  getKeys() { return [...this.map.keys()]; }
}

class FakeCache {
  readonly map = new Map<string, { v: string; exp: number }>();
  constructor(private readonly now: () => number) {}
  private check(k: string, v?: string) {
    if (k.length > 250) throw new Error("Argument too large: key");
    if (v !== undefined && Buffer.byteLength(v) > 100 * 1024) throw new Error("Argument too large: value");
  }
  get(k: string) { this.check(k); const e = this.map.get(k); return e && e.exp > this.now() ? e.v : null; }
  getAll(keys: string[]) {
    const out: Record<string, string> = {};
    for (const k of keys) { const v = this.get(k); if (v !== null) out[k] = v; }
    return out;
  }
  put(k: string, v: string, ttl = 600) { this.putAll({ [k]: v }, ttl); }
  putAll(o: Record<string, string>, ttl = 600) {
    if (ttl > 21600) throw new Error("expiration too long");
    for (const [k, v] of Object.entries(o)) this.check(k, v);
    for (const [k, v] of Object.entries(o)) this.map.set(k, { v, exp: this.now() + ttl * 1000 });
  }
  remove(k: string) { this.map.delete(k); }
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
}

export function createSheetsFake(opts: SheetsOptions) {
  const now = opts.now ?? (() => Date.now());
  const calls: string[] = [];
  const builders: string[] = [];
  const fetches: HttpRequest[][] = [];
  const sleeps: number[] = [];
  const menus: { title: string; items: [string, string][] }[] = [];
  const sidebars: { file: string; title: string }[] = [];
  const grids = new Map<string, Value[][]>(Object.entries(opts.sheets ?? {}).map(([k, v]) => [k, v.map((r) => [...r])]));
  const formats = new Map<string, string[][]>();
  const backgrounds = new Map<string, (string | null)[][]>();
  const validations = new Map<string, unknown[][]>();
  const count = (name: string) => calls.push(name);

  const cell = (g: Value[][], r: number, c: number): Value => g[r - 1]?.[c - 1] ?? "";
  const setCell = <T>(m: Map<string, T[][]>, sheet: string, r: number, c: number, v: T, fill: T) => {
    let g = m.get(sheet);
    if (!g) m.set(sheet, (g = []));
    while (g.length < r) g.push([]);
    const row = g[r - 1];
    while (row.length < c) row.push(fill);
    row[c - 1] = v;
  };
  const lastRow = (g: Value[][]) => { for (let i = g.length; i > 0; i--) if (g[i - 1].some((v) => v !== "" && v !== null)) return i; return 0; };
  const lastCol = (g: Value[][]) => Math.max(0, ...g.map((r) => { for (let j = r.length; j > 0; j--) if (r[j - 1] !== "" && r[j - 1] !== null) return j; return 0; }));

  function range(sheetName: string, row: number, col: number, rows: number, cols: number): object {
    const grid = () => grids.get(sheetName) ?? [];
    const shape = (v: unknown[][], what: string) => {
      if (v.length !== rows || v.some((r) => r.length !== cols)) throw new Error(`${what}: the data has ${v.length} rows but the range has ${rows}`);
    };
    const self = {
      getValues() { count("Range.getValues"); return Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => cell(grid(), row + i, col + j))); },
      setValues(v: Value[][]) {
        count("Range.setValues"); shape(v, "setValues");
        v.forEach((r, i) => r.forEach((x, j) => {
          // In Sheets a written string that starts like a formula is parsed as one; only a leading apostrophe makes it text.
          if (typeof x === "string" && /^[=+\-@]/.test(x)) throw new Error(`formula injection: "${x}" written as a formula`);
          if (typeof x === "string" && x !== "" && formats.get(sheetName)?.[row + i - 1]?.[col + j - 1] !== "@")
            throw new Error(`text "${x}" written without the text format`);
          setCell(grids, sheetName, row + i, col + j, typeof x === "string" && x.startsWith("'") ? x.slice(1) : x, "");
        }));
        return self;
      },
      setNumberFormats(f: string[][]) { count("Range.setNumberFormats"); shape(f, "setNumberFormats"); f.forEach((r, i) => r.forEach((x, j) => setCell(formats, sheetName, row + i, col + j, x, ""))); return self; },
      setNumberFormat(f: string) { count("Range.setNumberFormat"); for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) setCell(formats, sheetName, row + i, col + j, f, ""); return self; },
      setBackgrounds(b: (string | null)[][]) { count("Range.setBackgrounds"); shape(b, "setBackgrounds"); b.forEach((r, i) => r.forEach((x, j) => setCell(backgrounds, sheetName, row + i, col + j, x, null))); return self; },
      setDataValidations(v: unknown[][]) { count("Range.setDataValidations"); shape(v, "setDataValidations"); v.forEach((r, i) => r.forEach((x, j) => setCell(validations, sheetName, row + i, col + j, x, null))); return self; },
      getRow() { count("Range.getRow"); return row; },
      getColumn() { count("Range.getColumn"); return col; },
      getNumRows() { count("Range.getNumRows"); return rows; },
      getNumColumns() { count("Range.getNumColumns"); return cols; },
      getSheet() { count("Range.getSheet"); return sheet(sheetName); },
      getDataRegion() { count("Range.getDataRegion"); const g = grid(); return range(sheetName, 1, 1, Math.max(1, lastRow(g)), Math.max(1, lastCol(g))); },
    };
    return self;
  }

  function sheet(name: string): object {
    return {
      getName() { count("Sheet.getName"); return name; },
      getRange(r: number, c: number, nr = 1, nc = 1) {
        count("Sheet.getRange");
        if (!(r >= 1 && c >= 1 && nr >= 1 && nc >= 1)) throw new Error("The coordinates of the range are outside the dimensions of the sheet.");
        return range(name, r, c, nr, nc);
      },
      getDataRange() { count("Sheet.getDataRange"); const g = grids.get(name) ?? []; return range(name, 1, 1, Math.max(1, lastRow(g)), Math.max(1, lastCol(g))); },
      getLastRow() { count("Sheet.getLastRow"); return lastRow(grids.get(name) ?? []); },
    };
  }

  const spreadsheet = {
    getSheetByName(n: string) { count("Spreadsheet.getSheetByName"); return grids.has(n) ? sheet(n) : null; },
    insertSheet(n: string) { count("Spreadsheet.insertSheet"); grids.set(n, []); return sheet(n); },
    getId() { count("Spreadsheet.getId"); return "sheet-id-1"; },
  };

  const builder = () => {
    const rule: { values?: string[]; allowInvalid?: boolean } = {};
    const b = {
      requireValueInList(v: string[]) { builders.push("requireValueInList"); rule.values = [...v]; return b; },
      setAllowInvalid(x: boolean) { builders.push("setAllowInvalid"); rule.allowInvalid = x; return b; },
      build() { builders.push("build"); return { rule }; },
    };
    return b;
  };

  const ui = {
    createAddonMenu() {
      const m = { title: "addon", items: [] as [string, string][] };
      menus.push(m);
      const api = { addItem(label: string, fn: string) { m.items.push([label, fn]); return api; }, addSeparator() { return api; }, addToUi() {} };
      return api;
    },
    createMenu(title: string) { const api = ui.createAddonMenu(); menus[menus.length - 1].title = title; return api; },
    showSidebar(html: { file: string; title: string }) { sidebars.push({ file: html.file, title: html.title }); },
  };

  const SpreadsheetApp = {
    getActiveSpreadsheet() { count("SpreadsheetApp.getActiveSpreadsheet"); return spreadsheet; },
    getActive() { count("SpreadsheetApp.getActive"); return spreadsheet; },
    getActiveRange() {
      count("SpreadsheetApp.getActiveRange");
      const s = opts.selection;
      return s ? range(s.sheet, s.row, s.col, s.rows, s.cols) : null;
    },
    getUi() { return ui; },
    newDataValidation() { builders.push("newDataValidation"); return builder(); },
  };

  const toRequest = (p: { url: string; method?: string; headers?: Record<string, string>; payload?: string; contentType?: string; muteHttpExceptions?: boolean }): HttpRequest => {
    if (!p.muteHttpExceptions) throw new Error("muteHttpExceptions must be set");
    const headers: Record<string, string> = { ...(p.headers ?? {}) };
    if (p.contentType) headers["Content-Type"] = p.contentType;
    return { method: (p.method ?? "get").toUpperCase() as "GET" | "POST", url: p.url, headers, body: p.payload };
  };
  const answer = (req: HttpRequest) => {
    if (opts.failUrl?.test(req.url)) throw new Error("Address unavailable: " + req.url);
    const res = opts.emulator.handle(req);
    if (res.drop) throw new Error("Address unavailable: " + req.url);
    // Header names as a server sends them: mixed case.
    const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k.replace(/(^|-)[a-z]/g, (m) => m.toUpperCase()), v]));
    return { getResponseCode: () => res.status, getContentText: () => res.body, getAllHeaders: () => headers, getHeaders: () => headers };
  };
  const UrlFetchApp = {
    fetchAll(params: Parameters<typeof toRequest>[0][]) {
      const reqs = params.map(toRequest);
      fetches.push(reqs);
      opts.onFetch?.(reqs);
      return reqs.map(answer);
    },
    fetch(url: string, p: Parameters<typeof toRequest>[0]) {
      const req = toRequest({ ...p, url });
      fetches.push([req]);
      return answer(req);
    },
  };

  const userProps = new FakeProperties();
  const docProps = new FakeProperties();
  const scriptProps = new FakeProperties();
  const docCache = new FakeCache(now);
  const userCache = new FakeCache(now);
  const PropertiesService = { getUserProperties: () => userProps, getDocumentProperties: () => docProps, getScriptProperties: () => scriptProps };
  const CacheService = { getDocumentCache: () => docCache, getUserCache: () => userCache, getScriptCache: () => userCache };
  let locked = false;
  const lock = { tryLock: () => (locked ? false : (locked = true)), waitLock: () => { locked = true; }, releaseLock: () => { locked = false; }, hasLock: () => locked };
  const LockService = { getDocumentLock: () => lock, getUserLock: () => lock, getScriptLock: () => lock };
  const ScriptApp = { AuthMode: { NONE: "NONE", LIMITED: "LIMITED", FULL: "FULL", CUSTOM_FUNCTION: "CUSTOM_FUNCTION" }, getProjectTriggers: () => [] };
  const HtmlService = {
    createHtmlOutputFromFile(file: string) {
      const path = join(opts.dist ?? DIST, `${file}.html`);
      if (!existsSync(path)) throw new Error(`No HTML file named ${file} was found.`);
      const out = { file, title: "", setTitle(t: string) { out.title = t; return out; }, getContent: () => readFileSync(path, "utf8") };
      return out;
    },
  };
  const Utilities = { sleep: (ms: number) => { sleeps.push(ms); } };
  const Session = { getActiveUserLocale: () => "de" };
  const Logger = { log: () => undefined };

  const context: vm.Context = vm.createContext({ SpreadsheetApp, UrlFetchApp, CacheService, PropertiesService, LockService, ScriptApp, HtmlService, Utilities, Session, Logger, console: { log() {}, warn() {}, error() {}, info() {} } });

  return {
    context, calls, builders, fetches, sleeps, menus, sidebars, grids, formats, backgrounds, validations,
    userProps, docProps, docCache,
    resetCounts() { calls.length = 0; builders.length = 0; fetches.length = 0; },
    /** Evaluate Code.js (ms taken). */
    load(code = readFileSync(join(opts.dist ?? DIST, "Code.js"), "utf8")): number {
      const t = performance.now();
      vm.runInContext(code, context, { filename: "Code.js" });
      return performance.now() - t;
    },
    /** Call a top-level function of Code.js with arguments made in the script's realm. */
    call(name: string, ...args: unknown[]): unknown {
      context.__args = args;
      return vm.runInContext(`${name}.apply(null, __args)`, context);
    },
    /** A Date of the script's realm, as Sheets passes a date cell. */
    date(y: number, m: number, d: number): Date {
      return vm.runInContext(`new Date(${y}, ${m - 1}, ${d})`, context) as Date;
    },
    /** Drive the script's clock (Date.now) from the test. */
    setClock(fn: () => number) {
      context.__clock = fn;
      vm.runInContext("Date.now = function () { return __clock(); };", context);
    },
    /** Set a user setting as the settings sidebar would store it. */
    setUser(key: string, value: string) { userProps.setProperty(`user:${key}`, value); },
  };
}

export type SheetsFake = ReturnType<typeof createSheetsFake>;
