/**
 * Ribbon commands (ExecuteFunction): open the task pane on the panel the
 * button names. Registered with Office.actions.associate, which the shared
 * runtime requires instead of global functions.
 */
import { requestPanel } from "../taskpane/bridge.ts";

/** Ribbon function name (manifest <FunctionName>) → UI panel id. */
export const COMMAND_PANELS: Record<string, string> = {
  openSearch: "search",
  openEnrich: "enrich",
  openSimilar: "similar",
  openMonitor: "monitor",
  openSettings: "settings",
};

export function registerCommands(office: typeof Office = Office): void {
  for (const [name, panel] of Object.entries(COMMAND_PANELS)) {
    office.actions.associate(name, async (event?: Office.AddinCommands.Event) => {
      requestPanel(panel);
      try {
        await office.addin.showAsTaskpane();
      } finally {
        // Excel waits for completed(); a command that never completes blocks the ribbon.
        event?.completed();
      }
    });
  }
}
