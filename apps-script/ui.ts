/**
 * Menu, sidebars, settings and the one generic server call of the sidebars.
 * `onOpen` must work in every authorization mode: in NONE it may not read
 * properties, so its labels then follow the user's locale where readable.
 */
import { runSync } from "../shared/core/index.ts";
import { dispatch, dispatchFromWire, errorView, uiCall as appUiCall } from "../shared/app/index.ts";
import { mailApp } from "./mail.ts";
import type { AppDeps, SettingsView } from "../shared/app/index.ts";
import { SETTINGS_KEYS } from "../shared/app/index.ts";
import { toLanguage, type Bilingual, type Language } from "../shared/i18n/index.ts";
import { stopUsingFormulaKey, useMyKeyForFormulas } from "./formula-key.ts";
import { toCompanyDataError } from "../shared/core/index.ts";
import { createDriver, type AppsScriptDriver } from "./driver.ts";
import { gas } from "./services.ts";
import { claimRun, releaseRun } from "./run-marker.ts";
import { SheetStore } from "./doc-state.ts";
import { Pacer } from "../shared/api/index.ts";

/** Sidebar jobs stop themselves well before Apps Script's 6 minutes; the sidebar calls again to continue. */
export const SIDEBAR_BUDGET_MS = 280_000;

export const SIDEBARS = {
  search: { file: "sidebar-search", title: { de: "Firmensuche", en: "Company search" } },
  enrich: { file: "sidebar-enrich", title: { de: "Auswahl anreichern", en: "Enrich selection" } },
  similar: { file: "sidebar-similar", title: { de: "Ähnliche Firmen", en: "Find similar" } },
  monitor: { file: "sidebar-monitor", title: { de: "Portfolio überwachen", en: "Monitor portfolio" } },
  settings: { file: "sidebar-settings", title: { de: "Einstellungen", en: "Settings" } },
  help: { file: "sidebar-help", title: { de: "Hilfe", en: "Help" } },
} as const;
export type SidebarId = keyof typeof SIDEBARS;

const MENU: Record<Language, Record<SidebarId, string>> = {
  de: {
    search: "Suchen",
    enrich: "Auswahl anreichern",
    similar: "Ähnliche finden",
    monitor: "Portfolio überwachen",
    settings: "Einstellungen",
    help: "Hilfe",
  },
  en: {
    search: "Search",
    enrich: "Enrich selection",
    similar: "Find similar",
    monitor: "Monitor portfolio",
    settings: "Settings",
    help: "Help",
  },
};
/** Menu items that act without a sidebar: whose key the document's formulas use (formula-key.ts). */
const KEY_MENU: Record<Language, { use: string; stop: string }> = {
  de: { use: "Meinen Schlüssel für Formeln verwenden", stop: "Formeln: meinen Schlüssel nicht mehr verwenden" },
  en: { use: "Use my key for formulas", stop: "Formulas: stop using my key" },
};
const SHOW: Record<SidebarId, string> = {
  search: "showSearch",
  enrich: "showEnrich",
  similar: "showSimilar",
  monitor: "showMonitor",
  settings: "showSettings",
  help: "showHelp",
};

/** The saved language when the store may be read, else the user's locale, else English. */
function menuLanguage(e: { authMode?: unknown } | undefined): Language {
  const g = gas();
  const mode = e && e.authMode !== undefined ? String(e.authMode) : "";
  if (mode !== "NONE") {
    try {
      const saved = g.PropertiesService.getUserProperties().getProperty(SETTINGS_KEYS.language);
      if (saved) return toLanguage(saved, "en");
    } catch {
      /* LIMITED in some contexts: fall through */
    }
  }
  try {
    const locale = g.Session?.getActiveUserLocale();
    if (locale) return toLanguage(locale, "en");
  } catch {
    /* not available in this mode */
  }
  return "en";
}

export function onOpen(e?: { authMode?: unknown }): void {
  try {
    const lang = menuLanguage(e);
    const t = MENU[lang];
    const menu = gas().SpreadsheetApp.getUi().createAddonMenu();
    (["search", "enrich", "similar", "monitor"] as const).forEach((id) => menu.addItem(t[id], SHOW[id]));
    menu.addSeparator();
    menu.addItem(KEY_MENU[lang].use, "useMyKeyForFormulas");
    menu.addItem(KEY_MENU[lang].stop, "stopMyKeyForFormulas");
    menu.addSeparator();
    (["settings", "help"] as const).forEach((id) => menu.addItem(t[id], SHOW[id]));
    menu.addToUi();
  } catch {
    /* a menu that cannot be built must not break opening the document */
  }
}

export function onInstall(e?: { authMode?: unknown }): void {
  onOpen(e);
}

function savedLanguage(): Language {
  try {
    return toLanguage(gas().PropertiesService.getUserProperties().getProperty(SETTINGS_KEYS.language), "de");
  } catch {
    return "de";
  }
}

export function showSidebar(id: SidebarId): void {
  const g = gas();
  const s = SIDEBARS[id];
  const html = g.HtmlService.createHtmlOutputFromFile(s.file).setTitle(s.title[savedLanguage()]);
  g.SpreadsheetApp.getUi().showSidebar(html);
  // The moment formulas' answers can be kept past CacheService's 6 hours (cache.ts): never in the sidebar's way.
  try {
    createDriver().keepAnswers();
  } catch {
    /* they stay in CacheService; the next sidebar tries again */
  }
}

function deps(budgetMs: number): AppDeps {
  // One Apps Script execution: nothing survives it, so its pacer is new each time.
  return {
    host: "sheets",
    now: () => Date.now(),
    random: Math.random,
    deadline: Date.now() + budgetMs,
    documentId: "",
    mailer: mailApp(),
    pacer: new Pacer(),
  };
}

/**
 * Methods that write to the sheet or a job's checkpoint run one at a time
 * per document: they claim the run marker (run-marker.ts), not the document
 * lock, which formulas need for their budget within seconds.
 */
const EXCLUSIVE =
  /^(enrichStart|enrichStep|enrichConfirm|applyCandidate|insertSearchResults|monitorRun|monitorSaveSchedule|refreshRun|refreshSaveSettings)$/;

/** The resumable job a call continues (enrichStep's jobId), so a step can take over the marker its killed predecessor left. */
function jobOf(method: string, inputJson: string): string | undefined {
  if (method !== "enrichStep") return undefined;
  try {
    const id = (JSON.parse(inputJson) as { jobId?: unknown }).jobId;
    return typeof id === "string" && id ? `enrich:${id}` : undefined;
  } catch {
    return undefined;
  }
}

function withDriver<T>(exclusive: boolean, body: (d: AppsScriptDriver) => T, job?: string): T {
  const g = gas();
  const ss = exclusive ? g.SpreadsheetApp.getActive() : null;
  const props = ss ? new SheetStore(ss) : null;
  const lock = exclusive ? g.LockService.getDocumentLock() : null;
  const token = props ? claimRun(props, lock, Date.now(), job) : null;
  const driver = createDriver(ss ? { spreadsheet: () => ss } : {});
  try {
    return body(driver);
  } finally {
    try {
      driver.commit();
    } finally {
      if (props && token) releaseRun(props, lock, token);
    }
  }
}

/** The sidebars' one server call: an app-service method by name, JSON in, the result envelope as JSON out. */
export function uiCall(method: string, inputJson: string): string {
  try {
    const name = String(method);
    return withDriver(
      EXCLUSIVE.test(name),
      (driver) => runSync(appUiCall(deps(SIDEBAR_BUDGET_MS), name, inputJson), driver),
      jobOf(name, String(inputJson)),
    );
  } catch (e) {
    return JSON.stringify({ ok: false, error: errorView(e) });
  }
}

function userFacing(e: unknown): Error {
  const err = toCompanyDataError(e);
  return new Error(err.text(savedLanguage()));
}

export function getSettings(): SettingsView {
  try {
    return withDriver(false, (driver) => runSync(dispatch(deps(30_000), "getSettings", {}), driver));
  } catch (e) {
    throw userFacing(e);
  }
}

/** Fields: connection ("direct" | "server"), apiKey / serverToken ("" or null removes it; absent keeps it), baseUrl, serverUrl, language, formulaDailyBudget, cacheHours, matchFloor. */
export function saveSettings(settings: unknown): SettingsView {
  try {
    const input: unknown = typeof settings === "string" ? JSON.parse(settings) : settings;
    return withDriver(false, (driver) => runSync(dispatchFromWire(deps(30_000), "saveSettings", input), driver));
  } catch (e) {
    throw userFacing(e);
  }
}

function tell(says: Bilingual): void {
  const g = gas();
  g.SpreadsheetApp.getUi().alert(says[savedLanguage()]);
}

/** Menu: this document's formulas use the clicking user's key. */
export function useMyKeyForFormulasMenu(): void {
  const g = gas();
  tell(useMyKeyForFormulas(g.PropertiesService.getUserProperties(), g.PropertiesService.getDocumentProperties()));
}

/** Menu: this document's formulas go back to the owner's key. */
export function stopMyKeyForFormulasMenu(): void {
  tell(stopUsingFormulaKey(gas().PropertiesService.getDocumentProperties()));
}
