/** The search form: free text, optionally around a place, the filters, how many results, the price, "search". */
import { SEARCH_DEFAULTS } from "../../../app/index.ts";
import { h, field } from "../../dom.ts";
import type { Ui } from "../../panel.ts";
import { button, costLine } from "../common.ts";
import { filterFields } from "./filters.ts";
import { typedInput } from "./inputs.ts";
import { searchNow } from "./run.ts";
import type { SearchState } from "./state.ts";

export function searchForm(ui: Ui, s: SearchState): HTMLFormElement {
  const submit = button("search-run", ui.t("searchRun"), (b) => void run(b), { primary: true, submit: true });
  const run = (b: HTMLButtonElement) => ui.run(s, b, () => searchNow(ui, s));
  return h(
    "form",
    {
      class: "cd-form",
      // The panel checks the numbers itself, in the UI's language; the browser's bubbles speak the browser's.
      attrs: { "aria-label": ui.t("searchTitle"), novalidate: "" },
      on: { submit: (ev) => (ev.preventDefault(), void run(submit)) },
    },
    field(ui.t("searchQuery"), typedInput("search-query", s, "query", { placeholder: ui.t("searchQueryHint") })),
    h(
      "div",
      { class: "cd-row" },
      field(ui.t("searchPlace"), typedInput("search-place", s, "place", { placeholder: ui.t("searchPlaceHint") })),
      field(
        ui.t("searchRadius"),
        typedInput("search-radius", s, "radiusKm", {
          type: "number",
          min: "0.1",
          max: "500",
          step: "any",
          placeholder: String(SEARCH_DEFAULTS.radiusKm),
        }),
        ui.t("searchRadiusHint", { km: SEARCH_DEFAULTS.radiusKm, formula: searchFormula(ui) }),
      ),
    ),
    filterFields(ui, s),
    field(
      ui.t("searchSize"),
      typedInput("search-size", s, "size", {
        type: "number",
        min: "1",
        max: "100",
        placeholder: String(SEARCH_DEFAULTS.size),
      }),
      ui.t("searchSizeHint", { n: SEARCH_DEFAULTS.size }),
    ),
    costLine(ui, "search-cost", s.cost ?? null),
    h("div", { class: "cd-actions" }, submit),
  );
}

/** The search function's name as the host spells it (Sheets allows no dots; the playground has no formulas, so both). */
export function searchFormula(ui: Ui): string {
  if (ui.host.kind === "excel") return "COMPANY.SEARCH";
  if (ui.host.kind === "playground")
    return ui.lang === "de"
      ? "COMPANY_SEARCH (Sheets) bzw. COMPANY.SEARCH (Excel)"
      : "COMPANY_SEARCH (Sheets) or COMPANY.SEARCH (Excel)";
  return "COMPANY_SEARCH";
}
