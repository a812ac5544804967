/** The document's saved searches: save the form as it is, run one (only what is new since its last run), delete one. */
import type { AppOutput, SavedSearch } from "../../../app/index.ts";
import { PRICE } from "../../../credits/index.ts";
import { catalogue, type Bilingual } from "../../../i18n/index.ts";
import { h } from "../../dom.ts";
import { formatNumber, type Ui } from "../../panel.ts";
import { button, creditsText, spentMessage } from "../common.ts";
import { criteriaOf } from "./checks.ts";
import { typedInput } from "./inputs.ts";
import { clearResults, type SearchState } from "./state.ts";

/** The saved searches' texts. */
export const SAVED_TEXTS = catalogue({
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
const L = SAVED_TEXTS;

/** The section: a name and "save", then the list (nothing while it loads). */
export function savedSearches(ui: Ui, s: SearchState): HTMLElement {
  loadSaved(ui, s);
  const title = L.savedTitle[ui.lang];
  const name = L.saveName[ui.lang];
  const items = (s.saved ?? []).map((x, i) => savedItem(ui, s, x, i));
  return h(
    "section",
    { class: "cd-saved", attrs: { "aria-label": title } },
    h("h2", null, title),
    h(
      "div",
      { class: "cd-row" },
      typedInput("search-save-name", s, "saveName", { placeholder: name, label: name, maxLength: "60" }),
      saveButton(ui, s),
    ),
    s.saved === null
      ? null
      : items.length
        ? h("ul", { id: "search-saved-list", class: "cd-saved-list" }, items)
        : h("p", { class: "cd-empty" }, L.savedNone[ui.lang]),
  );
}

/** Asked once per panel (free): an empty list when the document's store cannot be read. */
function loadSaved(ui: Ui, s: SearchState): void {
  if (s.saved !== undefined) return;
  s.saved = null;
  ui.call("listSavedSearches", {}).then(
    (l) => ((s.saved = l), ui.rerender()),
    () => ((s.saved = []), ui.rerender()),
  );
}

/** "Save search": the form's criteria under the name typed (a name is required). */
function saveButton(ui: Ui, s: SearchState): HTMLButtonElement {
  return button(
    "search-save",
    L.save[ui.lang],
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
        s.saved = await ui.call("saveSearch", { name, ...criteriaOf(s) });
        s.message = { kind: "success", text: { de: `Suche „${name}“ gespeichert.`, en: `Search "${name}" saved.` } };
      }),
  );
}

/** One saved search: its name, when it last ran, "run" (its price) and "delete". */
function savedItem(ui: Ui, s: SearchState, x: SavedSearch, i: number): HTMLElement {
  const runPrice = creditsText(ui, PRICE.search);
  const run = button(
    `search-saved-run-${i}`,
    x.lastRun ? L.runNew[ui.lang](runPrice) : L.runAll[ui.lang](runPrice),
    (b) =>
      void ui.run(s, b, async () => {
        clearResults(s);
        const out = await ui.call("runSavedSearch", { name: x.name });
        s.result = out;
        s.saved = await ui.call("listSavedSearches", {});
        s.message = { kind: "info", text: ranText(x.name, out) };
        void ui.refreshAccount();
      }),
  );
  const remove = button(
    `search-saved-delete-${i}`,
    L.remove[ui.lang],
    (b) =>
      void ui.run(s, b, async () => {
        s.saved = await ui.call("deleteSavedSearch", { name: x.name });
      }),
  );
  return h(
    "li",
    { attrs: { "data-name": x.name } },
    h("span", { class: "cd-name" }, x.name),
    h("span", { class: "cd-sub" }, x.lastRun ? L.lastRun[ui.lang](x.lastRun) : L.never[ui.lang]),
    h("div", { class: "cd-actions" }, run, remove),
  );
}

/** What a run found: how many are new since the last run, or (a first run) how many were found; and what it spent. */
function ranText(name: string, out: AppOutput<"runSavedSearch">): Bilingual {
  if (!out.since) return spentMessage(out.companies.length, out.credits).text;
  const n = out.total ?? out.companies.length;
  return {
    de: `„${name}“: ${formatNumber(n, "de")} neu seit ${out.since} · ${out.credits === 1 ? "1 Credit" : `${out.credits} Credits`} verbraucht`,
    en: `"${name}": ${formatNumber(n, "en")} new since ${out.since} · ${out.credits === 1 ? "1 credit" : `${out.credits} credits`} spent`,
  };
}
