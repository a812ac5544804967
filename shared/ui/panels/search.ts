/** Search: free text, optionally around a place; results inserted at the cursor or handed to Find similar. */
import { SEARCH_DEFAULTS, type CostView, type SearchOutput } from "../../app/protocol.ts";
import type { PanelState, Ui } from "../app.ts";
import { UiCallError } from "../host.ts";
import type { Bilingual } from "../../i18n/language.ts";
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
        step: props.step,
        attrs: { autocomplete: "off" },
        on: { input: (ev) => (s[key] = (ev.target as HTMLInputElement).value) },
      });
    const submit = button("search-run", ui.t("searchRun"), (b) => void run(b), { primary: true, submit: true });
    const run = (b: HTMLButtonElement) =>
      ui.run(s, b, async () => {
        // A new search: the previous results are not its answer, whatever comes of it.
        s.result = undefined;
        s.selected = new Set();
        const query = (s.query ?? "").trim();
        if (!query) {
          s.message = { kind: "error", text: { de: "Bitte einen Suchbegriff eingeben.", en: "Please enter a search term." } };
          return;
        }
        const place = (s.place ?? "").trim();
        const wrong = checkNumbers(s.size, place ? s.radiusKm : undefined);
        if (wrong) {
          s.message = { kind: "error", text: wrong };
          return;
        }
        try {
          s.result = await ui.call("search", {
            query,
            place: place || undefined,
            radiusKm: place && s.radiusKm?.trim() ? Number(s.radiusKm) : undefined,
            size: s.size?.trim() ? Number(s.size) : undefined,
          });
        } catch (e) {
          // The service knows no such place: say which, not only "not found".
          if (e instanceof UiCallError && e.error.code === "NOT_FOUND" && e.error.field === "near.place") {
            s.message = { kind: "error", text: { de: `Ort „${place}“ nicht gefunden.`, en: `Place "${place}" not found.` } };
            return;
          }
          throw e;
        }
        s.selected = new Set();
        s.message = spentMessage(ui, s.result.companies.length, s.result.credits);
        void ui.refreshAccount();
      });
    const form = h("form", {
      class: "cd-form",
      // The panel checks the numbers itself, in the UI's language; the browser's bubbles speak the browser's.
      attrs: { "aria-label": ui.t("searchTitle"), novalidate: "" },
      on: { submit: (ev) => (ev.preventDefault(), void run(submit)) },
    },
      field(ui.t("searchQuery"), input("search-query", "query", { placeholder: ui.t("searchQueryHint") })),
      h("div", { class: "cd-row" },
        field(ui.t("searchPlace"), input("search-place", "place", { placeholder: ui.t("searchPlaceHint") })),
        field(ui.t("searchRadius"), input("search-radius", "radiusKm", { type: "number", min: "0.1", max: "500", step: "any", placeholder: String(SEARCH_DEFAULTS.radiusKm) }),
          ui.t("searchRadiusHint", { km: SEARCH_DEFAULTS.radiusKm, formula: searchFormula(ui) }))),
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

/** The search function's name as the host spells it (Sheets allows no dots; the playground has no formulas, so both). */
export function searchFormula(ui: Ui): string {
  if (ui.host.kind === "excel") return "COMPANY.SEARCH";
  if (ui.host.kind === "playground") return ui.lang === "de" ? "COMPANY_SEARCH (Sheets) bzw. COMPANY.SEARCH (Excel)" : "COMPANY_SEARCH (Sheets) or COMPANY.SEARCH (Excel)";
  return "COMPANY_SEARCH";
}

/** Size 1–100 (whole), radius above 0 and at most 500 km; empty means the default. Null when both are fine. */
export function checkNumbers(size: string | undefined, radius: string | undefined): Bilingual | null {
  const sz = (size ?? "").trim();
  if (sz && !(/^\d+$/.test(sz) && Number(sz) >= 1 && Number(sz) <= 100)) {
    return { de: "Anzahl Treffer: bitte eine ganze Zahl von 1 bis 100 eingeben.", en: "Number of results: please enter a whole number from 1 to 100." };
  }
  const rd = (radius ?? "").trim().replace(",", ".");
  if (rd && !(Number.isFinite(Number(rd)) && Number(rd) > 0 && Number(rd) <= 500)) {
    return { de: "Umkreis: bitte eine Zahl größer als 0 und höchstens 500 (km) eingeben.", en: "Radius: please enter a number above 0 and at most 500 (km)." };
  }
  return null;
}

/** Messages are stored in both languages, so a language switch re-renders them too. */
export function spentMessage(_ui: Ui, n: number, credits: number) {
  const de = `${n} Treffer · ${credits === 1 ? "1 Credit" : `${credits} Credits`} verbraucht`;
  const en = `${n} results · ${credits === 1 ? "1 credit" : `${credits} credits`} spent`;
  return { kind: "info" as const, text: { de, en } };
}
