/**
 * The Apps Script SyncDriver: UrlFetchApp for HTTP, Utilities.sleep,
 * CacheService + durable layer for the cache, the store (`user:` keys in
 * the user's properties; `doc:` keys where doc-state.ts puts them: the
 * add-on's hidden state sheet, the spreadsheet's project metadata, or the
 * document's properties for what formulas write), SheetHost for sheet I/O.
 *
 * Outside a document (a time-driven trigger) getDocumentProperties() can be
 * null (https://developers.google.com/apps-script/reference/properties/properties-service#getDocumentProperties():
 * "null if the script is not … bound to a Google Workspace file"): the keys
 * a scheduled run needs are in the spreadsheet, which the tick opens by id;
 * the few kept in the document's properties then fail with a clear message,
 * never silently through the user's store.
 *
 * Sheet writes are gathered (see sheet.ts). So that a job killed by the
 * platform never has its checkpoint ahead of the sheet, document-store
 * writes made while sheet writes are pending wait with them: `commit()`
 * writes the sheet first, then the store. A stop between the two repeats
 * work (answered from the cache), never loses it. The state sheet's writes
 * are gathered too (state-session.ts): read once per execution, written at
 * `commit()` or at the latest COMMIT_AFTER_MS after the first pending one.
 *
 * The document store is shared with the durable answer cache; when a state
 * write does not fit (500 KB a store), the cache gives its space back and
 * the write is tried again; if it still does not fit, the write fails with
 * a clear message (STORAGE_FULL), never Apps Script's exception.
 */
import type { SyncDriver } from "../shared/core/index.ts";
import type { SheetRequest } from "../shared/core/index.ts";
import { fetchAll } from "./http.ts";
import { readValues, storeGrowth, writeValues } from "./properties.ts";
import { AnswerCache } from "./cache.ts";
import { StateSession } from "./state-session.ts";
import { SheetHost } from "./sheet.ts";
import { gas } from "./services.ts";
import { HostError, STORE_QUOTA_BYTES, storageFull, storeBytes } from "./quota.ts";
import {
  ANSWER_SHEET,
  homeOf,
  MetadataStore,
  migrateFromProperties,
  SheetStore,
  type Home,
  type KeyValues,
} from "./doc-state.ts";

export interface AppsScriptDriver extends SyncDriver {
  /** Write gathered sheet changes, then the store writes that waited for them; release a held lock. */
  commit(): void;
  /** Copy the long-lived answers formulas left in CacheService into the answer sheet (cache.ts); answers how many. */
  keepAnswers(): number;
}

export interface DriverOptions {
  now?: () => number;
  /**
   * Store keys read-modified-written under the document lock: the lock is
   * taken when one is read and released when it is written (or at the next
   * HTTP call or commit). Custom functions run up to 30 at a time; this keeps
   * their daily-budget reservations from racing.
   */
  lockedKeys?: RegExp;
  /** The spreadsheet to read and write (a scheduled check opens it by id); default the active one. */
  spreadsheet?: () => GoogleAppsScript.Spreadsheet.Spreadsheet | null;
  /** No new request starts after this time (epoch ms): UrlFetchApp has no timeout of its own. */
  lastRequestStart?: number;
  /** Store values read in place of what the store holds (the document's formula key for `user:apiKey`); never written. */
  storeOverrides?: Record<string, string>;
  /** A custom function's call: it may read the spreadsheet but never write it (no state-sheet writes, no migration). */
  formula?: boolean;
  /**
   * The state sheet's session of this execution (state-session.ts), when the
   * caller holds the run marker in it: then `commit` leaves the state's last
   * write to the caller, whose release of the marker joins it. Without it the
   * driver opens its own and `commit` flushes it.
   */
  state?: StateSession;
}

/** Why a document key cannot be read or written here. */
export const NO_DOCUMENT_STORE = {
  de: "Google gibt diesem Lauf keinen Zugriff auf den Speicher der Tabelle (kein Dokument-Kontext). Bitte die Tabelle öffnen und den Vorgang dort starten.",
  en: "Google gives this run no access to the spreadsheet's storage (no document context). Please open the spreadsheet and start it there.",
} as const;

/** Pending sheet writes are committed at the latest after this long, so a hard stop loses little. */
const COMMIT_AFTER_MS = 20_000;

/** How long a formula waits for another one's budget reservation. */
const LOCK_WAIT_MS = 5_000;
/** How long a cache merge waits for the lock (merges take milliseconds). */
const CACHE_LOCK_WAIT_MS = 2_000;

export function createDriver(opts: DriverOptions = {}): AppsScriptDriver {
  const g = gas();
  const now = opts.now ?? (() => Date.now());
  let docProps: GoogleAppsScript.Properties.Properties | null | undefined;
  let userProps: GoogleAppsScript.Properties.Properties | undefined;
  const doc = () => {
    if (docProps === undefined) {
      try {
        docProps = g.PropertiesService.getDocumentProperties();
      } catch {
        docProps = null;
      }
    }
    if (!docProps) throw new HostError(NO_DOCUMENT_STORE, "document");
    return docProps;
  };
  const user = () => (userProps ??= g.PropertiesService.getUserProperties());
  const spreadsheet = () => (opts.spreadsheet ? opts.spreadsheet() : g.SpreadsheetApp.getActive());
  let homes: { sheet: StateSession; meta: KeyValues } | undefined;
  /** The spreadsheet's stores; the first use outside a formula moves what an earlier version left in the document's properties. */
  const home = (h: Exclude<Home, "props">): KeyValues => {
    if (!homes) {
      const ss = spreadsheet();
      if (!ss) throw new HostError(NO_DOCUMENT_STORE, "document");
      homes = {
        sheet:
          opts.state ??
          new StateSession(
            ss,
            () => g.LockService.getDocumentLock(),
            () => g.SpreadsheetApp.flush(),
          ),
        meta: new MetadataStore(ss, g.SpreadsheetApp.DeveloperMetadataVisibility.PROJECT),
      };
      let props: GoogleAppsScript.Properties.Properties | null = null;
      try {
        props = opts.formula ? null : doc();
      } catch {
        props = null;
      }
      if (props) migrateFromProperties(props, homes);
    }
    return homes[h];
  };
  let cache: AnswerCache | undefined;
  const answers = () => {
    if (!cache) {
      let fast: GoogleAppsScript.Cache.Cache | null = null;
      try {
        fast = g.CacheService.getDocumentCache() ?? g.CacheService.getUserCache();
      } catch {
        fast = null;
      }
      let durable: GoogleAppsScript.Properties.Properties | null = null;
      try {
        durable = doc();
      } catch {
        durable = null;
      }
      let ss: GoogleAppsScript.Spreadsheet.Spreadsheet | null = null;
      try {
        ss = spreadsheet();
      } catch {
        ss = null;
      }
      cache = new AnswerCache(
        fast,
        durable,
        now,
        shortLock,
        ss ? { store: new SheetStore(ss, false, ANSWER_SHEET, false), writable: !opts.formula } : null,
      );
    }
    return cache;
  };
  let sheets: SheetHost | undefined;
  const sheetHost = () => (sheets ??= new SheetHost(g.SpreadsheetApp, opts.spreadsheet, g.Utilities));
  const waiting: Record<string, string | null> = {};
  let pendingSince: number | null = null;

  const isUser = (k: string) => k.startsWith("user:");
  let lock: GoogleAppsScript.Lock.Lock | null = null;
  const takeLock = (keys: string[]) => {
    if (lock || !opts.lockedKeys || !keys.some((k) => opts.lockedKeys!.test(k))) return;
    try {
      const l = g.LockService.getDocumentLock();
      // Not getting it within the wait only risks the overshoot the budget module describes.
      if (l && l.tryLock(LOCK_WAIT_MS)) lock = l;
    } catch {
      lock = null;
    }
  };
  /** The document lock for a moment (the answer cache's merge); the body runs even when it is not to be had. */
  function shortLock<T>(body: () => T): T {
    if (lock) return body(); // this execution holds it already (a budget reservation)
    let l: GoogleAppsScript.Lock.Lock | null = null;
    let held = false;
    try {
      l = g.LockService.getDocumentLock();
      held = !!l && l.tryLock(CACHE_LOCK_WAIT_MS);
    } catch {
      held = false;
    }
    try {
      return body();
    } finally {
      if (held) l!.releaseLock();
    }
  }
  const releaseLock = () => {
    if (!lock) return;
    try {
      lock.releaseLock();
    } finally {
      lock = null;
    }
  };

  /**
   * Write document-store entries; when they would not fit, the answer cache
   * yields first. Decided by the store's measured size against its 500 KB
   * before writing, never by the text of Apps Script's exception (it is
   * localised). A write that fails although the measure says it fits gets
   * all of the cache's space and one more try; then it is STORAGE_FULL.
   */
  function writeDoc(entries: Record<string, string | null>): void {
    const props = doc();
    const growth = (all: Record<string, string>) => storeGrowth(all, entries);
    let all = props.getProperties();
    if (storeBytes(all) + growth(all) > STORE_QUOTA_BYTES) {
      answers().yieldSpace(storeBytes(all) + growth(all) - STORE_QUOTA_BYTES + 4096);
      all = props.getProperties();
      if (storeBytes(all) + growth(all) > STORE_QUOTA_BYTES) throw storageFull();
    }
    try {
      return writeValues(props, entries, all);
    } catch {
      if (answers().yieldSpace(Infinity) === 0) throw storageFull();
    }
    try {
      return writeValues(props, entries);
    } catch {
      throw storageFull();
    }
  }

  /** Document keys from their homes, in the order asked. */
  function readDoc(keys: string[]): (string | null)[] {
    const found = new Map<string, string | null>();
    for (const h of ["props", "sheet", "meta"] as const) {
      const mine = keys.filter((k) => homeOf(k) === h);
      if (!mine.length) continue;
      const vals = h === "props" ? readValues(doc(), mine) : home(h).read(mine);
      mine.forEach((k, i) => found.set(k, vals[i] ?? null));
    }
    return keys.map((k) => found.get(k) ?? null);
  }

  /** Document keys to their homes. */
  function writeHomes(entries: Record<string, string | null>): void {
    const by: Record<Home, Record<string, string | null>> = { props: {}, sheet: {}, meta: {} };
    for (const [k, v] of Object.entries(entries)) by[homeOf(k)][k] = v;
    if (Object.keys(by.props).length) writeDoc(by.props);
    if (Object.keys(by.sheet).length) home("sheet").write(by.sheet);
    if (Object.keys(by.meta).length) home("meta").write(by.meta);
  }

  /** `state`: also write the state sheet's pending entries (the caller's release writes them otherwise, see `opts.state`). */
  function commit(state = !opts.state): void {
    if (sheets?.hasPending()) sheets.flush();
    const keys = Object.keys(waiting);
    if (keys.length) {
      const entries: Record<string, string | null> = {};
      for (const [k, v] of Object.entries(waiting)) {
        entries[k] = v;
        delete waiting[k];
      }
      writeHomes(entries);
    }
    if (state) homes?.sheet.flush();
    pendingSince = null;
    stateSince = null;
    releaseLock();
  }

  /** When the state sheet got its first write since its last flush: it is written at the latest COMMIT_AFTER_MS later, as sheet writes are. */
  let stateSince: number | null = null;
  const maybeCommit = () => {
    if (stateSince === null && homes?.sheet.hasPending()) stateSince = now();
    const since = Math.min(pendingSince ?? Infinity, stateSince ?? Infinity);
    if (now() - since >= COMMIT_AFTER_MS) commit(true);
  };

  return {
    http(requests) {
      releaseLock();
      maybeCommit();
      // Too late to start: answered as timeouts, unsent (and so unpaid).
      if (opts.lastRequestStart !== undefined && now() >= opts.lastRequestStart)
        return requests.map(() => ({ status: 0, headers: {}, body: "", networkError: "timeout" as const }));
      return fetchAll(g.UrlFetchApp, requests);
    },
    sleep(ms) {
      maybeCommit();
      g.Utilities.sleep(Math.max(0, Math.min(ms, 300_000)));
    },
    cacheGet: (keys) => answers().getMany(keys),
    cachePut: (entries, ttl) => answers().putMany(entries, ttl),
    storeGet(keys) {
      takeLock(keys);
      const userKeys = keys.filter(isUser);
      const docKeys = keys.filter((k) => !isUser(k));
      const u = userKeys.length ? readValues(user(), userKeys) : [];
      const d = readDoc(docKeys);
      let ui = 0;
      let di = 0;
      return keys.map((k) => {
        const override = opts.storeOverrides?.[k];
        if (isUser(k)) {
          const v = u[ui++] ?? null; // readValues answers every key asked
          return override ?? v;
        }
        const v = d[di++] ?? null;
        return k in waiting ? (waiting[k] ?? null) : v;
      });
    },
    storePut(entries) {
      const u: Record<string, string | null> = {};
      const d: Record<string, string | null> = {};
      for (const [k, v] of Object.entries(entries)) (isUser(k) ? u : d)[k] = v;
      if (Object.keys(u).length) writeValues(user(), u);
      if (!Object.keys(d).length) return;
      if (sheets?.hasPending()) {
        Object.assign(waiting, d);
        maybeCommit();
      } else {
        // Entries still waiting from before the sheet writes were flushed (by a fresh read) go with these, the newer
        // winning: left waiting, commit() would later write their older values over these.
        for (const k of Object.keys(waiting)) {
          if (!(k in d)) d[k] = waiting[k] ?? null;
          delete waiting[k];
        }
        writeHomes(d);
      }
      if (opts.lockedKeys && Object.keys(d).some((k) => opts.lockedKeys!.test(k))) releaseLock();
    },
    sheet(request: SheetRequest) {
      const host = sheetHost();
      const result = host.handle(request);
      if (host.hasPending() && pendingSince === null) pendingSince = now();
      maybeCommit();
      return result;
    },
    commit: () => commit(),
    keepAnswers: () => answers().keepFromFast(),
  };
}
