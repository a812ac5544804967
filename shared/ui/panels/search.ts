/**
 * Search: free text, optionally around a place and narrowed by filters
 * (industry with a WZ 2008 picker, state, size class, legal form, founded
 * after/before, active only); results inserted at the cursor or handed to
 * Find similar. When the service finds more than one page, "insert all N"
 * shows its price first (pages of 100 at 1 credit, cached pages free) and
 * can leave out companies a standing list already has.
 *
 * The parts live in ./search/: the form (form.ts, filters.ts), what its
 * values mean (checks.ts), the search itself (run.ts), the saved searches
 * (saved.ts), the results (results.ts) and "insert all" (insert-all.ts).
 */
import { definePanel, type Ui } from "../panel.ts";
import { h } from "../dom.ts";
import { searchForm } from "./search/form.ts";
import { resultsSection } from "./search/results.ts";
import { savedSearches } from "./search/saved.ts";
import type { SearchState } from "./search/state.ts";

/** The price of a search, asked once per panel (free). */
function loadCost(ui: Ui, s: SearchState) {
  if (s.cost !== undefined) return;
  s.cost = null;
  ui.call("estimate", { operation: { kind: "search" } }).then(
    (c) => ((s.cost = c), ui.rerender()),
    () => undefined,
  );
}

export const searchPanel = definePanel<SearchState>({
  id: "search",
  title: { de: "Suche", en: "Search" },
  initial: () => ({}),
  render(ui, s) {
    s.selected ??= new Set();
    loadCost(ui, s);
    return h("div", { class: "cd-search" }, searchForm(ui, s), savedSearches(ui, s), resultsSection(ui, s));
  },
});
