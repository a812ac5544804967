/**
 * The Office globals, touched only here and only when called (never at
 * bundle evaluation): OfficeRuntime.storage, the workbook's identity, the
 * display language, the data-type requirement set.
 */
import { withStartLanguage } from "../../shared/app/index.ts";
import { toLanguage, type Language } from "../../shared/i18n/index.ts";
import type { KeyValueStorage } from "./storage.ts";
import { withWorkbookAudit, workbookStore } from "./audit-sheet.ts";
import { createExcelDriver, type ExcelDriver } from "./driver.ts";
import { handleSheetRequest } from "./sheet.ts";
import { documentState, type DocumentState, type FileSettings } from "./document-state.ts";
import { giveBackLease, LEASE_MS, moveStateIntoFile, renewLease, takeLease, withDocumentState } from "./file-store.ts";
import type { WorkbookLeases } from "../workbook-lease.ts";
import {
  readIdentity,
  type WorkbookIdentity,
  type SettingsBag,
  ensureIdentity,
  awaitIdentity,
  newWorkbookId,
} from "./identity.ts";

export function officeStorage(): KeyValueStorage {
  const s = OfficeRuntime.storage;
  return {
    getItems: (keys) => s.getItems(keys),
    setItems: (entries) => s.setItems(entries),
    removeItems: (keys) => s.removeItems(keys),
    getKeys: () => s.getKeys(),
  };
}

const settingsBag = (): SettingsBag | undefined => Office.context?.document?.settings as SettingsBag | undefined;

export function displayLanguage(): Language {
  return toLanguage(Office.context?.displayLanguage, "en");
}

/**
 * The task pane's Office.onReady: create the workbook's id and pin the
 * card's property language in the workbook's settings (the only writes to
 * the workbook; never the key). Custom functions only read them.
 */
export function initWorkbookIdentity(): Promise<WorkbookIdentity> {
  return ensureIdentity(settingsBag(), displayLanguage(), () => newWorkbookId(crypto));
}

/** For custom functions: the identity, read-only (waits for the task pane's start when the workbook has none yet). */
export function workbookIdentity(): Promise<WorkbookIdentity> {
  return awaitIdentity(settingsBag(), displayLanguage(), () => newWorkbookId(crypto));
}

export const workbookId = async (): Promise<string> => (await workbookIdentity()).id;

export { readIdentity };

/**
 * Whether this Excel can show COMPANY.CARD's entity value: custom functions
 * return data types from CustomFunctionsRuntime 1.4 on (Microsoft, "Custom
 * Functions requirement sets": web, Microsoft 365 on Windows from 2208, Mac
 * from 16.64; not perpetual Office 2021/2024), not from ExcelApi 1.16 (that
 * set is the Excel.run data-type API).
 */
export function entityValuesSupported(): boolean {
  return Boolean(Office.context?.requirements?.isSetSupported("CustomFunctionsRuntime", "1.4"));
}

const STATE_SLOT = "__companyDataWorkbookState";

/**
 * The workbook's state in its settings (./document-state.ts), one per page
 * (the functions and the task pane share it, and with it the order of its
 * saves); undefined without a document (a test page): the state then stays
 * on this device.
 */
export function workbookState(): DocumentState | undefined {
  const bag = settingsBag() as FileSettings | undefined;
  if (!bag) return undefined;
  const page = globalThis as unknown as Record<string, DocumentState | undefined>;
  return (page[STATE_SLOT] ??= documentState(bag));
}

/** The task pane's start: a workbook from before moves what this device holds for it into the file. */
export async function moveWorkbookStateIntoFile(): Promise<number> {
  const state = workbookState();
  return state ? moveStateIntoFile(officeStorage(), (await workbookIdentity()).id, state) : 0;
}

const DEVICE_KEY = "cd:device:id";

/** This device's random name (OfficeRuntime.storage: per device), made once. */
async function deviceName(): Promise<string> {
  const storage = officeStorage();
  const found = (await storage.getItems([DEVICE_KEY]))[DEVICE_KEY];
  if (typeof found === "string" && found) return found;
  const made = newWorkbookId(crypto);
  await storage.setItems({ [DEVICE_KEY]: made }).catch(() => undefined);
  return made;
}

/** The workbook's leases (../workbook-lease.ts), held in its file under this device's name. */
export function workbookLeases(): WorkbookLeases | undefined {
  const state = workbookState();
  if (!state) return undefined;
  const owner = deviceName();
  return {
    take: async (job) => takeLease(state, job, { owner: await owner }),
    renew: async (job) => renewLease(state, job, { owner: await owner }),
    giveBack: async (job) => giveBackLease(state, job, await owner),
    renewEveryMs: LEASE_MS / 3,
  };
}

const DRIVER_SLOT = "__companyDataDriver";

/**
 * One driver per page, shared by the functions and the task pane bundles
 * (they meet on the global object): one memory cache that lives as long as
 * the shared runtime, and one account of what the durable cache takes, so
 * its cap holds for the page, not per bundle.
 */
export function officeDriver(): ExcelDriver {
  const page = globalThis as unknown as Record<string, ExcelDriver | undefined>;
  let driver = page[DRIVER_SLOT];
  if (!driver) {
    const device = createExcelDriver({
      fetch: (url, init) => fetch(url, init),
      storage: officeStorage(),
      docId: workbookId,
      sheet: (request) => handleSheetRequest(Excel, request),
    });
    // The audit of writes travels with the workbook in its own sheet (./audit-sheet.ts), the workbook's other
    // state in its settings (./document-state.ts); secrets, the formula budget and the cache stay on this device.
    const state = workbookState();
    // While the user has saved no language, Excel's display language is the settings' (the pane, the sheets'
    // status words and the API's Accept-Language agree; shared/app/start-language.ts).
    driver = page[DRIVER_SLOT] = withStartLanguage(
      withWorkbookAudit(
        state ? withDocumentState(device, state) : device,
        workbookStore(() => Excel),
      ),
      displayLanguage,
    );
    // Start-up: delete expired cache entries now, not when the store is already full.
    void driver.cache.durableBytes();
  }
  return driver;
}
