/**
 * The app bundle: what the sidebars (google.script.run) and the time-driven
 * trigger call. Built apart from Code.js into an HTML file of the project
 * (scripts/build-apps-script.ts), which Apps Script does not evaluate on
 * every call; Code.js reads and evaluates it on the first call of one of
 * these functions (stubs.ts). Exposed as `CompanyDataApp`.
 */
export { getSettings, saveSettings } from "./ui.ts";
// uiCall also sets or removes the monitor's time-driven trigger after a schedule is saved.
export { uiCallWithMonitor as uiCall, monitorTick } from "./monitor.ts";
