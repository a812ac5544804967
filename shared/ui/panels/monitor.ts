/**
 * Portfolio monitor. Placeholder until the monitoring module lands: it
 * replaces this file with a panel that calls its monitor* methods
 * (shared/app/monitor.ts) and keeps the id "monitor".
 */
import { h } from "../dom.ts";
import type { PanelDef } from "./registry.ts";

export const monitorPanel: PanelDef = {
  id: "monitor",
  title: { de: "Portfolio-Check", en: "Portfolio check" },
  render(ui) {
    return h("div", { class: "cd-monitor" },
      h("p", { class: "cd-intro", id: "monitor-intro" }, ui.t("monitorIntro")),
      h("p", { class: "cd-note" }, ui.t("monitorSoon")));
  },
};
