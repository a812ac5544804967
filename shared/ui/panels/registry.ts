/**
 * The panels of the UI, in tab order. To add a panel, write a PanelDef in a
 * module of its own (definePanel) and list it here; nothing else needs to change (a Sheets
 * sidebar for it is then `buildSidebarHtml({ panel: "<id>" })`).
 */
import type { Panel } from "../panel.ts";
import { searchPanel } from "./search.ts";
import { enrichPanel } from "./enrich.ts";
import { similarPanel } from "./similar.ts";
import { monitorPanel } from "./monitor.ts";
import { settingsPanel } from "./settings.ts";
import { helpPanel } from "./help.ts";

export const PANELS: readonly Panel[] = [
  searchPanel,
  enrichPanel,
  similarPanel,
  monitorPanel,
  settingsPanel,
  helpPanel,
];

export const PANEL_IDS = PANELS.map((p) => p.id);
