/**
 * Search: free text, optionally around a place and narrowed by filters
 * (industry with a WZ 2008 picker, state, size class, legal form, founded
 * after/before, active only); results inserted at the cursor or handed to
 * Find similar. When the service finds more than one page, "insert all N"
 * shows its price first (pages of 100 at 1 credit, cached pages free) and
 * can leave out companies a standing list already has.
 */
import {
  SEARCH_DEFAULTS,
  type CostView,
  type SavedSearch,
  type SearchAllPriceView,
  type SearchFilterInput,
  type SearchInput,
  type SearchOutput,
} from "../../app/index.ts";
import { wzOptions } from "../../api/index.ts";
import { FEDERAL_STATES, SIZE_CLASS_LABELS } from "../../operations/index.ts";
import { formatNumber } from "../panel.ts";
import type { PanelState, Ui } from "../panel.ts";
import { UiCallError } from "../host.ts";
import { catalogue, type Bilingual } from "../../i18n/index.ts";
import { h, field } from "../dom.ts";
import { definePanel } from "../panel.ts";
import { button, companyTable, costLine, creditsText, insertButton } from "./common.ts";
import { PRICE } from "../../credits/index.ts";

interface SearchState extends PanelState {
  query?: string;
  place?: string;
  radiusKm?: string;
  size?: string;
  filters?: SearchFilterInput;
  cost?: CostView | null;
  result?: SearchOutput;
  /** What the shown results were searched with: "insert all" pages through exactly that. */
  searched?: SearchInput;
  /** The price of inserting all results (null while it loads). */
  allPrice?: SearchAllPriceView | null;
  excludeOn?: boolean;
  excludeSheet?: string;
  /** The document's saved searches (null while they load). */
  saved?: SavedSearch[] | null;
  saveName?: string;
  selected?: Set<string>;
}

/** The fields of the search form kept as typed. */
type TypedKey = "query" | "place" | "radiusKm" | "size";

/** The panel's own texts (the filter form and "insert all"). */
const L = catalogue({
  filters: { de: "Filter", en: "Filters" },
  industry: { de: "Branche (WZ 2008)", en: "Industry (WZ 2008)" },
  industryHint: {
    de: "Code oder Anfang eines Codes, z. B. J62 oder 62.01; mehrere mit Komma.",
    en: "A code or the start of one, e.g. J62 or 62.01; several separated by commas.",
  },
  state: { de: "Bundesland", en: "Federal state" },
  sizeClass: { de: "Größenklasse", en: "Size class" },
  legalForm: { de: "Rechtsform", en: "Legal form" },
  legalFormHint: { de: "z. B. GmbH, AG", en: "e.g. GmbH, AG" },
  foundedAfter: { de: "Gegründet nach (Jahr)", en: "Founded after (year)" },
  foundedBefore: { de: "Gegründet vor (Jahr)", en: "Founded before (year)" },
  activeOnly: { de: "Nur aktive Firmen", en: "Active companies only" },
  any: { de: "alle", en: "any" },
  allTitle: { de: "Alle Treffer einfügen", en: "Insert all results" },
  allPriceLoading: { de: "Preis wird berechnet …", en: "Working out the price …" },
  allPrice: {
    de: (n: string, pages: number, credits: string) =>
      `Alle ${n} Treffer: ${pages} Seiten zu 100, ${credits} (Seiten im Zwischenspeicher kosten nichts).`,
    en: (n: string, pages: number, credits: string) =>
      `All ${n} results: ${pages} pages of 100, ${credits} (pages in the cache cost nothing).`,
  },
  beyond: {
    de: (n: string) => `Der Dienst liefert höchstens ${n} Treffer; für den Rest die Suche mit Filtern eingrenzen.`,
    en: (n: string) => `The service returns at most ${n} results; narrow the search with filters to reach the rest.`,
  },
  insertAll: {
    de: (n: string, c: string) => `Alle ${n} einfügen (${c})`,
    en: (n: string, c: string) => `Insert all ${n} (${c})`,
  },
  exclude: {
    de: "Firmen auslassen, die schon in diesem Blatt stehen:",
    en: "Leave out companies already in this sheet:",
  },
  excludeSheet: { de: "Blattname", en: "Sheet name" },
  savedTitle: { de: "Gespeicherte Suchen", en: "Saved searches" },
  saveName: { de: "Name für diese Suche", en: "Name for this search" },
  save: { de: "Suche speichern", en: "Save search" },
  savedNone: {
    de: "Noch keine gespeicherten Suchen in diesem Dokument.",
    en: "No saved searches in this document yet.",
  },
  never: { de: "noch nie ausgeführt", en: "never run" },
  lastRun: { de: (d: string) => `zuletzt ${d}`, en: (d: string) => `last run ${d}` },
  runAll: { de: (c: string) => `Ausführen (${c})`, en: (c: string) => `Run (${c})` },
  runNew: { de: (c: string) => `Neue seit letztem Lauf (${c})`, en: (c: string) => `New since last run (${c})` },
  remove: { de: "Löschen", en: "Delete" },
});
export { L as SEARCH_PANEL_TEXTS };

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
    const input = (id: string, key: TypedKey, props: Record<string, string> = {}) =>
      h("input", {
        id,
        type: props.type ?? "text",
        value: s[key] ?? "",
        placeholder: props.placeholder,
        min: props.min,
        max: props.max,
        step: props.step,
        attrs: { autocomplete: "off" },
        on: { input: (ev) => (s[key] = (ev.target as HTMLInputElement).value) },
      });
    const submit = button("search-run", ui.t("searchRun"), (b) => void run(b), { primary: true, submit: true });
    const run = (b: HTMLButtonElement) => ui.run(s, b, () => searchNow(ui, s));
    const form = h(
      "form",
      {
        class: "cd-form",
        // The panel checks the numbers itself, in the UI's language; the browser's bubbles speak the browser's.
        attrs: { "aria-label": ui.t("searchTitle"), novalidate: "" },
        on: { submit: (ev) => (ev.preventDefault(), void run(submit)) },
      },
      field(ui.t("searchQuery"), input("search-query", "query", { placeholder: ui.t("searchQueryHint") })),
      h(
        "div",
        { class: "cd-row" },
        field(ui.t("searchPlace"), input("search-place", "place", { placeholder: ui.t("searchPlaceHint") })),
        field(
          ui.t("searchRadius"),
          input("search-radius", "radiusKm", {
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
        input("search-size", "size", {
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

    return h("div", { class: "cd-search" }, form, savedSearches(ui, s), resultsSection(ui, s));
  },
});

/** The document's saved searches: save the form as it is, run one (only what is new since its last run), delete one. */
function savedSearches(ui: Ui, s: SearchState): HTMLElement {
  const tx = (b: { de: string; en: string }) => b[ui.lang];
  if (s.saved === undefined) {
    s.saved = null;
    ui.call("listSavedSearches", {}).then(
      (l) => ((s.saved = l), ui.rerender()),
      () => ((s.saved = []), ui.rerender()),
    );
  }
  const nameInput = h("input", {
    id: "search-save-name",
    type: "text",
    value: s.saveName ?? "",
    placeholder: tx(L.saveName),
    attrs: { autocomplete: "off", "aria-label": tx(L.saveName), maxlength: "60" },
    on: { input: (ev) => (s.saveName = (ev.target as HTMLInputElement).value) },
  });
  const saveBtn = button(
    "search-save",
    tx(L.save),
    (b) =>
      void ui.run(s, b, async () => {
        const name = (s.saveName ?? "").trim();
        if (!name) {
          s.message = {
            kind: "error",
            text: { de: "Bitte einen Namen für die Suche eingeben.", en: "Please enter a name for the search." },
          };
          return;
        }
        const place = (s.place ?? "").trim();
        s.saved = await ui.call("saveSearch", {
          name,
          query: (s.query ?? "").trim(),
          place: place || undefined,
          radiusKm: place && s.radiusKm?.trim() ? Number(s.radiusKm) : undefined,
          ...(filtersGiven(s.filters) ? { filters: filtersGiven(s.filters) } : {}),
        });
        s.message = { kind: "success", text: { de: `Suche „${name}“ gespeichert.`, en: `Search "${name}" saved.` } };
      }),
  );
  const runPrice = creditsText(ui, PRICE.search);
  const rows = (s.saved ?? []).map((x, i) =>
    h(
      "li",
      { attrs: { "data-name": x.name } },
      h("span", { class: "cd-name" }, x.name),
      h("span", { class: "cd-sub" }, x.lastRun ? L.lastRun[ui.lang](x.lastRun) : tx(L.never)),
      h(
        "div",
        { class: "cd-actions" },
        button(
          `search-saved-run-${i}`,
          x.lastRun ? L.runNew[ui.lang](runPrice) : L.runAll[ui.lang](runPrice),
          (b) =>
            void ui.run(s, b, async () => {
              s.result = undefined;
              s.searched = undefined;
              s.allPrice = undefined;
              s.selected = new Set();
              const out = await ui.call("runSavedSearch", { name: x.name });
              s.result = out;
              s.saved = await ui.call("listSavedSearches", {});
              const n = out.total ?? out.companies.length;
              s.message = {
                kind: "info",
                text: out.since
                  ? {
                      de: `„${x.name}“: ${formatNumber(n, "de")} neu seit ${out.since} · ${out.credits === 1 ? "1 Credit" : `${out.credits} Credits`} verbraucht`,
                      en: `"${x.name}": ${formatNumber(n, "en")} new since ${out.since} · ${out.credits === 1 ? "1 credit" : `${out.credits} credits`} spent`,
                    }
                  : spentMessage(ui, out.companies.length, out.credits).text,
              };
              void ui.refreshAccount();
            }),
        ),
        button(
          `search-saved-delete-${i}`,
          tx(L.remove),
          (b) =>
            void ui.run(s, b, async () => {
              s.saved = await ui.call("deleteSavedSearch", { name: x.name });
            }),
        ),
      ),
    ),
  );
  return h(
    "section",
    { class: "cd-saved", attrs: { "aria-label": tx(L.savedTitle) } },
    h("h3", null, tx(L.savedTitle)),
    h("div", { class: "cd-row" }, nameInput, saveBtn),
    s.saved === null
      ? null
      : rows.length
        ? h("ul", { id: "search-saved-list", class: "cd-saved-list" }, rows)
        : h("p", { class: "cd-empty" }, tx(L.savedNone)),
  );
}

/** The filters the user filled in, or undefined when none is. */
function filtersGiven(f: SearchFilterInput | undefined): SearchFilterInput | undefined {
  if (!f) return undefined;
  const out: SearchFilterInput = {};
  for (const k of ["industry", "state", "sizeClass", "legalForm", "foundedAfter", "foundedBefore"] as const) {
    const v = f[k]?.trim();
    if (v) out[k] = v;
  }
  if (f.activeOnly) out.activeOnly = true;
  return Object.keys(out).length ? out : undefined;
}

/** The filter form. */
function filterFields(ui: Ui, s: SearchState): HTMLElement {
  const f = (s.filters ??= {});
  const tx = (b: { de: string; en: string }) => b[ui.lang];
  const text = (
    id: string,
    key: "industry" | "legalForm" | "foundedAfter" | "foundedBefore",
    props: Record<string, string> = {},
  ) =>
    h("input", {
      id,
      type: props.type ?? "text",
      value: f[key] ?? "",
      placeholder: props.placeholder,
      min: props.min,
      max: props.max,
      step: props.step,
      attrs: { autocomplete: "off", list: props.list },
      on: { input: (ev) => (f[key] = (ev.target as HTMLInputElement).value) },
    });
  const select = (id: string, key: "state" | "sizeClass", options: [string, string][]) => {
    const el = h(
      "select",
      { id, on: { change: (ev) => (f[key] = (ev.target as HTMLSelectElement).value) } },
      h("option", { value: "" }, tx(L.any)),
      options.map(([value, label]) => h("option", { value }, label)),
    );
    el.value = f[key] ?? "";
    return el;
  };
  // A fieldset, not a folded <details>: every control stays reachable by Tab.
  return h(
    "fieldset",
    { id: "search-filters", class: "cd-filters" },
    h("legend", null, tx(L.filters)),
    field(
      tx(L.industry),
      text("search-industry", "industry", { list: "search-wz-list", placeholder: "J62" }),
      tx(L.industryHint),
    ),
    // The picker: every WZ class the table knows, with its title in the UI's language.
    h(
      "datalist",
      { id: "search-wz-list" },
      wzOptions(ui.lang).map((o) => h("option", { value: o })),
    ),
    h(
      "div",
      { class: "cd-row" },
      field(
        tx(L.state),
        select(
          "search-state",
          "state",
          FEDERAL_STATES.map((x) => [x.code, `${x[ui.lang]} (${x.code})`]),
        ),
      ),
      field(
        tx(L.sizeClass),
        select(
          "search-size-class",
          "sizeClass",
          Object.entries(SIZE_CLASS_LABELS).map(([code, l]) => [code, l[ui.lang]]),
        ),
      ),
    ),
    field(tx(L.legalForm), text("search-legal-form", "legalForm", { placeholder: tx(L.legalFormHint) })),
    h(
      "div",
      { class: "cd-row" },
      field(
        tx(L.foundedAfter),
        text("search-founded-after", "foundedAfter", { type: "number", min: "1800", max: "2100", step: "1" }),
      ),
      field(
        tx(L.foundedBefore),
        text("search-founded-before", "foundedBefore", { type: "number", min: "1800", max: "2100", step: "1" }),
      ),
    ),
    h(
      "label",
      { class: "cd-check" },
      h("input", {
        type: "checkbox",
        id: "search-active",
        checked: !!f.activeOnly,
        on: { change: (ev) => (f.activeOnly = (ev.target as HTMLInputElement).checked) },
      }),
      " ",
      tx(L.activeOnly),
    ),
  );
}

/** The price of "insert all": asked once per search (free; nothing is sent to the service). */
function loadAllPrice(ui: Ui, s: SearchState) {
  const searched = s.searched;
  if (!searched || !s.result) return;
  s.allPrice = null;
  ui.call("searchAllPrice", { ...searched, total: s.result.total ?? 0 }).then(
    (p) => {
      if (s.searched === searched) {
        s.allPrice = p;
        ui.rerender();
      }
    },
    () => {
      if (s.searched === searched) {
        s.allPrice = undefined;
        ui.rerender();
      }
    },
  );
}

/** "Insert all N": the price first, an optional sheet whose companies are left out, then pages of 100 written at the cursor. */
function insertAll(ui: Ui, s: SearchState): HTMLElement | null {
  const r = s.result;
  if (!r || !s.searched || (r.total ?? 0) <= r.companies.length) return null;
  const tx = (b: { de: string; en: string }) => b[ui.lang];
  const price = s.allPrice;
  const n = price ? formatNumber(price.results, ui.lang) : "";
  const priceLine = price
    ? h(
        "p",
        { class: "cd-cost", id: "search-all-cost" },
        L.allPrice[ui.lang](n, price.pages, creditsText(ui, price.credits)),
        price.results < (r.total ?? 0) ? h("span", { class: "cd-sub" }, " " + L.beyond[ui.lang](n)) : null,
      )
    : h("p", { class: "cd-cost", id: "search-all-cost" }, price === null ? tx(L.allPriceLoading) : ui.t("costUnknown"));
  const sheetInput = h("input", {
    id: "search-exclude-sheet",
    type: "text",
    value: s.excludeSheet ?? "",
    placeholder: tx(L.excludeSheet),
    attrs: { autocomplete: "off", "aria-label": tx(L.excludeSheet) },
    on: { input: (ev) => (s.excludeSheet = (ev.target as HTMLInputElement).value) },
  });
  const go = button(
    "search-insert-all",
    price ? L.insertAll[ui.lang](n, creditsText(ui, price.credits)) : tx(L.allTitle),
    (b) =>
      void ui.run(s, b, async () => {
        if (!price || !s.searched) return;
        const excludeSheet = s.excludeOn ? s.excludeSheet?.trim() || undefined : undefined;
        try {
          const out = await ui.call("insertAllSearchResults", {
            ...s.searched,
            total: r.total ?? 0,
            credits: price.credits,
            excludeSheet,
          });
          const left = out.excluded
            ? {
                de: `, ${formatNumber(out.excluded, "de")} ausgelassen (schon im Blatt)`,
                en: `, ${formatNumber(out.excluded, "en")} left out (already in the sheet)`,
              }
            : { de: "", en: "" };
          const spent = {
            de: out.credits === 1 ? "1 Credit" : `${formatNumber(out.credits, "de")} Credits`,
            en: out.credits === 1 ? "1 credit" : `${formatNumber(out.credits, "en")} credits`,
          };
          s.message = {
            kind: "success",
            text: {
              de: `${formatNumber(out.companies, "de")} Firmen in ${out.sheet} eingefügt${left.de} · ${spent.de} verbraucht.`,
              en: `${formatNumber(out.companies, "en")} companies inserted into ${out.sheet}${left.en} · ${spent.en} spent.`,
            },
          };
          void ui.refreshAccount();
          loadAllPrice(ui, s);
        } catch (e) {
          // The price changed since it was shown (cache expired, more results): show the new one, spend nothing.
          if (e instanceof UiCallError && e.error.field === "credits") loadAllPrice(ui, s);
          throw e;
        }
      }),
    { disabled: !price },
  );
  return h(
    "section",
    { class: "cd-insert-all", attrs: { "aria-label": tx(L.allTitle) } },
    h("h3", null, tx(L.allTitle)),
    priceLine,
    h(
      "label",
      { class: "cd-check" },
      h("input", {
        type: "checkbox",
        id: "search-exclude",
        checked: !!s.excludeOn,
        on: { change: (ev) => ((s.excludeOn = (ev.target as HTMLInputElement).checked), ui.rerender()) },
      }),
      " ",
      tx(L.exclude),
    ),
    s.excludeOn ? sheetInput : null,
    h("div", { class: "cd-actions" }, go),
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

/** Size 1–100 (whole), radius above 0 and at most 500 km; empty means the default. Null when both are fine. */
export function checkNumbers(size: string | undefined, radius: string | undefined): Bilingual | null {
  const sz = (size ?? "").trim();
  if (sz && !(/^\d+$/.test(sz) && Number(sz) >= 1 && Number(sz) <= 100)) {
    return {
      de: "Anzahl Treffer: bitte eine ganze Zahl von 1 bis 100 eingeben.",
      en: "Number of results: please enter a whole number from 1 to 100.",
    };
  }
  const rd = (radius ?? "").trim().replace(",", ".");
  if (rd && !(Number.isFinite(Number(rd)) && Number(rd) > 0 && Number(rd) <= 500)) {
    return {
      de: "Umkreis: bitte eine Zahl größer als 0 und höchstens 500 (km) eingeben.",
      en: "Radius: please enter a number above 0 and at most 500 (km).",
    };
  }
  return null;
}

/** Messages are stored in both languages, so a language switch re-renders them too. */
export function spentMessage(_ui: Ui, n: number, credits: number) {
  const de = `${n} Treffer · ${credits === 1 ? "1 Credit" : `${credits} Credits`} verbraucht`;
  const en = `${n} results · ${credits === 1 ? "1 credit" : `${credits} credits`} spent`;
  return { kind: "info" as const, text: { de, en } };
}

/** One search from the form: checked before anything is sent; the old results go whatever comes of it. */
async function searchNow(ui: Ui, s: SearchState): Promise<void> {
  // A new search: the previous results are not its answer, whatever comes of it.
  s.result = undefined;
  s.searched = undefined;
  s.allPrice = undefined;
  s.selected = new Set();
  const query = (s.query ?? "").trim();
  const place = (s.place ?? "").trim();
  const filters = filtersGiven(s.filters);
  if (!query && !place && !filters) {
    s.message = {
      kind: "error",
      text: {
        de: "Bitte einen Suchbegriff, einen Ort oder einen Filter eingeben.",
        en: "Please enter a search term, a place or a filter.",
      },
    };
    return;
  }
  const wrong = checkNumbers(s.size, place ? s.radiusKm : undefined);
  if (wrong) {
    s.message = { kind: "error", text: wrong };
    return;
  }
  const searched: SearchInput = {
    query,
    place: place || undefined,
    radiusKm: place && s.radiusKm?.trim() ? Number(s.radiusKm) : undefined,
    ...(filters ? { filters } : {}),
  };
  try {
    s.result = await ui.call("search", { ...searched, size: s.size?.trim() ? Number(s.size) : undefined });
    s.searched = searched;
  } catch (e) {
    // The service knows no such place: say which, not only "not found".
    if (e instanceof UiCallError && e.error.code === "NOT_FOUND" && e.error.field === "near.place") {
      s.message = {
        kind: "error",
        text: { de: `Ort „${place}“ nicht gefunden.`, en: `Place "${place}" not found.` },
      };
      return;
    }
    throw e;
  }
  s.selected = new Set();
  s.message = spentMessage(ui, s.result.companies.length, s.result.credits);
  void ui.refreshAccount();
  if ((s.result.total ?? 0) > s.result.companies.length) loadAllPrice(ui, s);
}

/** The companies found: pick, insert, find similar, insert all. */
function resultsSection(ui: Ui, s: SearchState): HTMLElement | null {
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
