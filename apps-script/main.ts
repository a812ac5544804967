/**
 * Everything the generated top-level functions of Code.js delegate to that
 * a custom function or the menu needs. The bundle exposes this object as
 * `CompanyData`; building it does no work beyond defining functions (Apps
 * Script evaluates the file on every call). What only the sidebars and the
 * triggers call is the app bundle (app-main.ts), which Code.js loads on
 * their first call (stubs.ts), so a custom function never parses it.
 */
import { runCustomFunction } from "./functions.ts";
import { onInstall, onOpen, showSidebar, stopMyKeyForFormulasMenu, useMyKeyForFormulasMenu } from "./menu.ts";

export { onInstall, onOpen };
export const fn = runCustomFunction;
export const showSearch = () => showSidebar("search");
export const showEnrich = () => showSidebar("enrich");
export const showSimilar = () => showSidebar("similar");
export const showMonitor = () => showSidebar("monitor");
export const showSettings = () => showSidebar("settings");
export const showHelp = () => showSidebar("help");
export const useMyKeyForFormulas = useMyKeyForFormulasMenu;
export const stopMyKeyForFormulas = stopMyKeyForFormulasMenu;
