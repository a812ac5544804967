/**
 * "Insert all N": when the service finds more than one page, the price first
 * (pages of 100 at 1 credit, cached pages free), an optional sheet whose
 * companies are left out, then pages of 100 written at the cursor.
 */
import type { AppOutput, SearchAllPriceView, SearchOutput } from "../../../app/index.ts";
import { catalogue, type Bilingual } from "../../../i18n/index.ts";
import { h } from "../../dom.ts";
import { UiCallError } from "../../host.ts";
import { formatNumber, type Ui } from "../../panel.ts";
import { button, creditsText } from "../common.ts";
import { typedInput } from "./inputs.ts";
import type { SearchState } from "./state.ts";

/** The texts of "insert all". */
export const INSERT_ALL_TEXTS = catalogue({
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
});
const L = INSERT_ALL_TEXTS;

/** The price of "insert all": asked once per search (free; nothing is sent to the service). */
export function loadAllPrice(ui: Ui, s: SearchState): void {
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

/** The section, only when the search found more than it showed. */
export function insertAll(ui: Ui, s: SearchState): HTMLElement | null {
  const r = s.result;
  if (!r || !s.searched || (r.total ?? 0) <= r.companies.length) return null;
  const title = L.allTitle[ui.lang];
  return h(
    "section",
    { class: "cd-insert-all", attrs: { "aria-label": title } },
    h("h2", null, title),
    priceLine(ui, r, s.allPrice),
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
      L.exclude[ui.lang],
    ),
    s.excludeOn
      ? typedInput("search-exclude-sheet", s, "excludeSheet", {
          placeholder: L.excludeSheet[ui.lang],
          label: L.excludeSheet[ui.lang],
        })
      : null,
    h("div", { class: "cd-actions" }, insertAllButton(ui, s, r)),
  );
}

/** The price (or that it loads, or that it is unknown), and where the service stops returning results. */
function priceLine(ui: Ui, r: SearchOutput, price: SearchAllPriceView | null | undefined): HTMLElement {
  if (!price)
    return h(
      "p",
      { class: "cd-cost", id: "search-all-cost" },
      price === null ? L.allPriceLoading[ui.lang] : ui.t("costUnknown"),
    );
  const n = formatNumber(price.results, ui.lang);
  return h(
    "p",
    { class: "cd-cost", id: "search-all-cost" },
    L.allPrice[ui.lang](n, price.pages, creditsText(ui, price.credits)),
    price.results < (r.total ?? 0) ? h("span", { class: "cd-sub" }, " " + L.beyond[ui.lang](n)) : null,
  );
}

/** "Insert all N (price)": disabled until the price is known; it sends that price, so a changed one spends nothing. */
function insertAllButton(ui: Ui, s: SearchState, r: SearchOutput): HTMLButtonElement {
  const price = s.allPrice;
  return button(
    "search-insert-all",
    price
      ? L.insertAll[ui.lang](formatNumber(price.results, ui.lang), creditsText(ui, price.credits))
      : L.allTitle[ui.lang],
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
          s.message = { kind: "success", text: insertedText(out) };
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
}

/** How many were inserted where, how many left out, what it spent. */
function insertedText(out: AppOutput<"insertAllSearchResults">): Bilingual {
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
  return {
    de: `${formatNumber(out.companies, "de")} Firmen in ${out.sheet} eingefügt${left.de} · ${spent.de} verbraucht.`,
    en: `${formatNumber(out.companies, "en")} companies inserted into ${out.sheet}${left.en} · ${spent.en} spent.`,
  };
}
