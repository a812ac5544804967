/**
 * Everything the generated top-level functions of Code.js delegate to. The
 * bundle exposes this object as `CompanyData`; building it does no work
 * beyond defining functions (Apps Script evaluates the file on every call).
 */
import { runCustomFunction } from "./functions.ts";
import {
  getSettings,
  onInstall,
  onOpen,
  saveSettings,
  showSidebar,
  stopMyKeyForFormulasMenu,
  useMyKeyForFormulasMenu,
} from "./ui.ts";

export { getSettings, onInstall, onOpen, saveSettings };
// uiCall also sets or removes the monitor's time-driven trigger after a schedule is saved.
export { uiCallWithMonitor as uiCall, monitorTick } from "./monitor.ts";
export const fn = runCustomFunction;
export const showSearch = () => showSidebar("search");
export const showEnrich = () => showSidebar("enrich");
export const showSimilar = () => showSidebar("similar");
export const showMonitor = () => showSidebar("monitor");
export const showSettings = () => showSidebar("settings");
export const showHelp = () => showSidebar("help");
export const useMyKeyForFormulas = useMyKeyForFormulasMenu;
export const stopMyKeyForFormulas = stopMyKeyForFormulasMenu;
