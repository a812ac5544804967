/** Help: what each panel does, what things cost, the keyboard. */
import { h } from "../dom.ts";
import type { PanelDef } from "./registry.ts";

export const helpPanel: PanelDef = {
  id: "help",
  title: { de: "Hilfe", en: "Help" },
  render(ui) {
    const item = (title: "helpSearchT" | "helpEnrichT" | "helpSimilarT" | "helpMonitorT" | "helpSettingsT" | "helpFormulasT" | "helpKeysT", body: "helpSearch" | "helpEnrich" | "helpSimilar" | "helpMonitor" | "helpSettings" | "helpFormulas" | "helpKeys") =>
      h("section", { class: "cd-help-item" }, h("h2", null, ui.t(title)), h("p", null, ui.t(body)));
    return h("div", { class: "cd-help" },
      item("helpSearchT", "helpSearch"),
      item("helpEnrichT", "helpEnrich"),
      item("helpSimilarT", "helpSimilar"),
      item("helpMonitorT", "helpMonitor"),
      item("helpSettingsT", "helpSettings"),
      item("helpFormulasT", "helpFormulas"),
      item("helpKeysT", "helpKeys"));
  },
};
