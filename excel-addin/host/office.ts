/**
 * The Office globals, touched only here and only when called (never at
 * bundle evaluation): OfficeRuntime.storage, the workbook's id, the display
 * language, the entity-value requirement set.
 */
import { toLanguage, type Language } from "../../shared/i18n/language.ts";
import type { KeyValueStorage } from "./storage.ts";
import { createExcelDriver, type ExcelDriver } from "./driver.ts";
import { handleSheetRequest } from "./sheet.ts";

const DOC_ID_SETTING = "companyData.workbookId";

export function officeStorage(): KeyValueStorage {
  const s = OfficeRuntime.storage;
  return {
    getItems: (keys) => s.getItems(keys) as Promise<Record<string, string | null>>,
    setItems: (entries) => s.setItems(entries),
    removeItems: (keys) => s.removeItems(keys),
  };
}

let docIdPromise: Promise<string> | undefined;

/**
 * A random id kept in the workbook's own settings: it identifies the
 * workbook for `doc:` keys (budget, ledger, checkpoints) and travels with
 * the file. It is the only thing the add-in writes there; never the key.
 */
export function workbookId(): Promise<string> {
  docIdPromise ??= (async () => {
    const settings = Office.context?.document?.settings;
    if (!settings) return "no-document";
    const existing = settings.get(DOC_ID_SETTING);
    if (typeof existing === "string" && existing) return existing;
    const id = crypto.randomUUID();
    settings.set(DOC_ID_SETTING, id);
    await new Promise<void>((resolve) => settings.saveAsync(() => resolve()));
    return id;
  })();
  return docIdPromise;
}

export function displayLanguage(): Language {
  return toLanguage(Office.context?.displayLanguage, "en");
}

export function entityValuesSupported(): boolean {
  return Boolean(Office.context?.requirements?.isSetSupported("ExcelApi", "1.16"));
}

let driver: ExcelDriver | undefined;

/** One driver per bundle: its memory cache lives as long as the shared runtime. */
export function officeDriver(): ExcelDriver {
  driver ??= createExcelDriver({
    fetch: (url, init) => fetch(url, init),
    storage: officeStorage(),
    docId: workbookId,
    sheet: (request) => handleSheetRequest(Excel, request),
  });
  return driver;
}
