/** Search: free text, optionally around a place; results inserted at the cursor or handed to Find similar. */
import { SEARCH_DEFAULTS, type CostView, type SearchOutput } from "../../app/protocol.ts";
import type { PanelState, Ui } from "../app.ts";
import { h, field } from "../dom.ts";
import type { PanelDef } from "./registry.ts";
import { button, companyTable, costLine, insertButton } from "./common.ts";

interface SearchState extends PanelState {
  query?: string;
  place?: string;
  radiusKm?: string;
  size?: string;
  cost?: CostView | null;
  result?: SearchOutput;
  selected?: Set<string>;
}

function loadCost(ui: Ui, s: SearchState) {
  if (s.cost !== undefined) return;
  s.cost = null;
  ui.call("estimate", { operation: { kind: "search" } }).then(
    (c) => ((s.cost = c), ui.rerender()),
    () => undefined,
  );
}

export const searchPanel: PanelDef = {
  id: "search",
  title: { de: "Suche", en: "Search" },
  render(ui, state) {
    const s = state as SearchState;
    s.selected ??= new Set();
    loadCost(ui, s);
    const input = (id: string, key: keyof SearchState, props: Record<string, string> = {}) =>
      h("input", {
        id,
        type: props.type ?? "text",
        value: (s[key] as string | undefined) ?? "",
        placeholder: props.placeholder,
        min: props.min,
        max: props.max,
        attrs: { autocomplete: "off" },
        on: { input: (ev) => (s[key] = (ev.target as HTMLInputElement).value) },
      });
    const submit = button("search-run", ui.t("searchRun"), (b) => void run(b), { primary: true, submit: true });
    const run = (b: HTMLButtonElement) =>
      ui.run(s, b, async () => {
        const query = (s.query ?? "").trim();
        if (!query) {
          s.message = { kind: "error", text: { de: "Bitte einen Suchbegriff eingeben.", en: "Please enter a search term." } };
          return;
        }
        const place = (s.place ?? "").trim();
        s.result = await ui.call("search", {
          query,
          place: place || undefined,
          radiusKm: place && s.radiusKm ? Number(s.radiusKm) : undefined,
          size: s.size ? Number(s.size) : undefined,
        });
        s.selected = new Set();
        s.message = spentMessage(ui, s.result.companies.length, s.result.credits);
        void ui.refreshAccount();
      });
    const form = h("form", {
      class: "cd-form",
      attrs: { "aria-label": ui.t("searchTitle") },
      on: { submit: (ev) => (ev.preventDefault(), void run(submit)) },
    },
      field(ui.t("searchQuery"), input("search-query", "query", { placeholder: ui.t("searchQueryHint") })),
      h("div", { class: "cd-row" },
        field(ui.t("searchPlace"), input("search-place", "place", { placeholder: ui.t("searchPlaceHint") })),
        field(ui.t("searchRadius"), input("search-radius", "radiusKm", { type: "number", min: "1", max: "500", placeholder: String(SEARCH_DEFAULTS.radiusKm) }),
          ui.t("searchRadiusHint", { km: SEARCH_DEFAULTS.radiusKm }))),
      field(ui.t("searchSize"), input("search-size", "size", { type: "number", min: "1", max: "100", placeholder: String(SEARCH_DEFAULTS.size) }),
        ui.t("searchSizeHint", { n: SEARCH_DEFAULTS.size })),
      costLine(ui, "search-cost", s.cost ?? null),
      h("div", { class: "cd-actions" }, submit));

    const results = s.result
      ? h("section", { class: "cd-results", attrs: { "aria-label": ui.t("results") } },
        h("h2", null, ui.t("resultsTitle", { n: s.result.companies.length, total: s.result.total ?? s.result.companies.length })),
        companyTable(ui, "search", s.result.companies, s.selected, () => ui.rerender(), { distance: !!(s.place ?? "").trim(), score: true }),
        h("div", { class: "cd-actions" },
          insertButton(ui, s, "search-insert", s.result.companies, s.selected),
          button("search-similar", ui.t("findSimilarToSelected"), () => ui.show("similar", { ids: [...s.selected!] }), { disabled: s.selected.size === 0 })))
      : null;
    return h("div", { class: "cd-search" }, form, results);
  },
};

/** Messages are stored in both languages, so a language switch re-renders them too. */
export function spentMessage(_ui: Ui, n: number, credits: number) {
  const de = `${n} Treffer · ${credits === 1 ? "1 Credit" : `${credits} Credits`} verbraucht`;
  const en = `${n} results · ${credits === 1 ? "1 credit" : `${credits} credits`} spent`;
  return { kind: "info" as const, text: { de, en } };
}
