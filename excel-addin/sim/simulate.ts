/**
 * A simulated custom-functions runtime (Node only; never bundled): loads the
 * BUILT functions.js in a fresh V8 context with fake CustomFunctions, Office
 * and OfficeRuntime globals, collects what it associates, and lets tests and
 * the benchmark call the functions the way Excel does — many cells at once,
 * ranges as 2-D arrays. fetch goes to an emulator in-process.
 */
import { readFileSync } from "node:fs";
import { createContext, runInContext } from "node:vm";
import type { HttpRequest, HttpResponse } from "../../shared/core/index.ts";
import { memoryStorage, type KeyValueStorage } from "../host/storage.ts";
import { ensureIdentity, type SettingsBag } from "../host/identity.ts";
import { toLanguage } from "../../shared/i18n/index.ts";

export class SimError {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}

export const ERROR_CODES = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
} as const;

export interface SimOptions {
  /** Path of the built functions.js. */
  bundle: string;
  /** Answers one request (an emulator's handle(), or a fault). */
  handle(req: HttpRequest): HttpResponse | Promise<HttpResponse>;
  /** OfficeRuntime.storage; pass the same one again to simulate a reload. */
  storage?: KeyValueStorage & { data?: Map<string, string> };
  /** Workbook settings (where the workbook id lives); the same map again = the same workbook. */
  workbookSettings?: Map<string, unknown>;
  /** Whether this Excel has CustomFunctionsRuntime 1.4 (data types from custom functions); default yes. */
  entityValues?: boolean;
  displayLanguage?: string;
  /**
   * Whether the task pane's page starts with the functions (default yes: in
   * the shared runtime the runtime's page is the task pane's, and its
   * Office.onReady creates the workbook's identity). `false` models a
   * functions-only start: functions then wait for the identity.
   */
  paneStarts?: boolean;
}

export interface SimRuntime {
  functions: Map<string, (...args: unknown[]) => Promise<unknown>>;
  storage: KeyValueStorage & { data?: Map<string, string> };
  /** Requests sent, in order (method + path). */
  requests: { method: string; path: string; body?: string }[];
  /** Run the task pane's start now (what Office.onReady in taskpane/main.ts does for the workbook's identity). */
  startPane(): Promise<void>;
  /** How often the functions wrote the workbook's settings (custom functions must not: expect 0). */
  settingsWrites(): number;
}

/** The runtime's fetch, answered by `handle` (status 0: a network failure, as fetch rejects); every request noted. */
function fakeFetch(handle: SimOptions["handle"], requests: SimRuntime["requests"]) {
  return async (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => {
    const u = new URL(url);
    requests.push({ method: init.method, path: u.pathname, body: init.body });
    const res = await handle({
      method: init.method as HttpRequest["method"],
      url,
      headers: init.headers,
      body: init.body,
    });
    if (res.status === 0) throw new TypeError("Failed to fetch");
    return {
      status: res.status,
      headers: {
        forEach: (cb: (v: string, k: string) => void) => Object.entries(res.headers).forEach(([k, v]) => cb(v, k)),
      },
      text: async () => res.body,
    };
  };
}

export function loadFunctions(opts: SimOptions): SimRuntime {
  const functions = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  const storage = opts.storage ?? memoryStorage();
  const settings = opts.workbookSettings ?? new Map<string, unknown>();
  const requests: SimRuntime["requests"] = [];
  // Office.Settings as "Persist add-in state and settings" describes it: set() changes the in-memory
  // bag, saveAsync() writes it into the file. Functions must not call either ("Call Excel APIs from a
  // custom function": keep calls read-only); writes outside the pane's start are counted.
  let writes = 0;
  let paneWriting = false;
  const bag: SettingsBag = {
    get: (k: string) => settings.get(k) ?? null,
    set: (k: string, v: unknown) => {
      if (!paneWriting) writes++;
      settings.set(k, v);
    },
    saveAsync: (cb?: (r: { status?: string }) => void) => {
      if (!paneWriting) writes++;
      cb?.({ status: "succeeded" });
    },
  };
  const fetchFake = fakeFetch((req) => opts.handle(req), requests);
  const globals = {
    CustomFunctions: {
      associate: (id: string, fn: (...args: unknown[]) => Promise<unknown>) => {
        if (functions.has(id)) throw new Error(`associated twice: ${id}`);
        functions.set(id, fn);
      },
      Error: SimError,
      ErrorCode: ERROR_CODES,
    },
    Office: {
      context: {
        displayLanguage: opts.displayLanguage ?? "de-DE",
        // CustomFunctionsRuntime 1.4 brings data types to custom functions (Microsoft, "Custom Functions requirement sets").
        requirements: {
          isSetSupported: (set: string, v: string) =>
            (set === "CustomFunctionsRuntime" && (opts.entityValues ?? true) && Number(v) <= 1.4) ||
            (set === "ExcelApi" && Number(v) <= 1.16),
        },
        document: { settings: bag },
      },
    },
    OfficeRuntime: { storage },
    fetch: fetchFake,
    setTimeout,
    clearTimeout,
    AbortController,
    crypto: globalThis.crypto,
    console,
    URL,
    TextEncoder,
    TextDecoder,
  };
  const context = createContext(globals);
  runInContext(readFileSync(opts.bundle, "utf8"), context, { filename: "functions.js" });
  const startPane = async () => {
    paneWriting = true;
    try {
      await ensureIdentity(
        bag,
        toLanguage(opts.displayLanguage ?? "de-DE", "en"),
        () => globalThis.crypto.randomUUID(),
        context,
      );
    } finally {
      paneWriting = false;
    }
  };
  if (opts.paneStarts ?? true) void startPane();
  return { functions, storage, requests, startPane, settingsWrites: () => writes };
}

/** Call a function for many cells in the same moment, as Excel does for a filled column; every answer settles. */
export async function recalc(
  fn: (...args: unknown[]) => Promise<unknown>,
  cells: unknown[][],
): Promise<PromiseSettledResult<unknown>[]> {
  return Promise.allSettled(cells.map((args) => fn(...args)));
}
