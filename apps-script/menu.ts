/**
 * The add-on menu, the sidebars and the two menu items for the formulas' key:
 * the part of the user interface that lives in Code.js, beside the custom
 * functions. `onOpen` must work in every authorization mode: in NONE it may
 * not read properties, so its labels then follow the user's locale where
 * readable. What the sidebars call on the server is ui.ts, in the server part.
 */
import { SETTINGS_KEYS } from "../shared/app/index.ts";
import { toLanguage, type Bilingual, type Language } from "../shared/i18n/index.ts";
import { stopUsingFormulaKey, useMyKeyForFormulas } from "./formula-key.ts";
import { createDriver } from "./driver.ts";
import { gas } from "./services.ts";

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
  return localeLanguage();
}

/**
 * The language of the user's Google account (Session.getActiveUserLocale), by the one rule: de… German,
 * anything else (or nothing known) English.
 */
export function localeLanguage(): Language {
  try {
    const locale = gas().Session?.getActiveUserLocale();
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

export function savedLanguage(): Language {
  try {
    const saved = gas().PropertiesService.getUserProperties().getProperty(SETTINGS_KEYS.language);
    return saved ? toLanguage(saved, localeLanguage()) : localeLanguage();
  } catch {
    return localeLanguage();
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
