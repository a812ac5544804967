/** The companies found: pick, insert, find similar, insert all. */
import { h } from "../../dom.ts";
import type { Ui } from "../../panel.ts";
import { button, companyTable, insertButton } from "../common.ts";
import { insertAll } from "./insert-all.ts";
import type { SearchState } from "./state.ts";

export function resultsSection(ui: Ui, s: SearchState): HTMLElement | null {
  if (!s.result) return null;
  const selected = (s.selected ??= new Set());
  return h(
    "section",
    { class: "cd-results", attrs: { "aria-label": ui.t("results") } },
    h(
      "h2",
      null,
      ui.t("resultsTitle", { n: s.result.companies.length, total: s.result.total ?? s.result.companies.length }),
    ),
    companyTable(ui, "search", s.result.companies, selected, () => ui.rerender(), {
      distance: !!(s.place ?? "").trim(),
      score: true,
    }),
    h(
      "div",
      { class: "cd-actions" },
      insertButton(ui, s, "search-insert", s.result.companies, selected),
      button("search-similar", ui.t("findSimilarToSelected"), () => ui.show("similar", { ids: [...selected] }), {
        disabled: selected.size === 0,
      }),
    ),
    insertAll(ui, s),
  );
}
