/** Help: what each panel does, what things cost, the keyboard. Formula names follow the host's spelling. */
import { h } from "../dom.ts";
import type { HostKind } from "../../app/index.ts";
import type { StringKey } from "../strings.ts";
import type { Ui } from "../panel.ts";
import { definePanel, type PanelState } from "../panel.ts";
import { REFRESH_HELP } from "./enrich/refresh/index.ts";

/** Sheets does not allow dots in function names, Excel namespaces them: COMPANY_RESOLVE vs COMPANY.RESOLVE. */
export function formulaExample(host: HostKind): string {
  return host === "excel" ? "=COMPANY.RESOLVE(A2)" : "=COMPANY_RESOLVE(A2)";
}

function formulasText(ui: Ui): string {
  if (ui.host.kind === "playground") return ui.t("helpFormulasPlayground");
  return ui.t("helpFormulas", { formula: formulaExample(ui.host.kind) });
}

export const helpPanel = definePanel<PanelState>({
  id: "help",
  title: { de: "Hilfe", en: "Help" },
  initial: () => ({}),
  render(ui) {
    const item = (title: StringKey, body: string, id: string) =>
      h("section", { class: "cd-help-item", id: `help-${id}` }, h("h2", null, ui.t(title)), h("p", null, body));
    return h(
      "div",
      { class: "cd-help" },
      item("helpSearchT", ui.t("helpSearch"), "search"),
      item("helpEnrichT", ui.t("helpEnrich"), "enrich"),
      item("helpMatchingT", ui.t("helpMatching"), "matching"),
      item("helpSimilarT", ui.t("helpSimilar"), "similar"),
      h(
        "section",
        { class: "cd-help-item", id: "help-refresh" },
        h("h2", null, ui.pick(REFRESH_HELP.title)),
        h("p", null, ui.pick(REFRESH_HELP.body)),
      ),
      item("helpMonitorT", ui.t("helpMonitor"), "monitor"),
      item("helpSettingsT", ui.t("helpSettings"), "settings"),
      item("helpFormulasT", formulasText(ui), "formulas"),
      item("helpKeysT", ui.t("helpKeys"), "keys"),
    );
  },
});
