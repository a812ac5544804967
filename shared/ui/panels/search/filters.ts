/** The filter form: industry with a WZ 2008 picker, state, size class, legal form, founded after/before, active only. */
import type { SearchFilterInput } from "../../../app/index.ts";
import { wzOptions } from "../../../api/index.ts";
import { FEDERAL_STATES, SIZE_CLASS_LABELS } from "../../../operations/index.ts";
import { catalogue } from "../../../i18n/index.ts";
import { h, field } from "../../dom.ts";
import type { Ui } from "../../panel.ts";
import { typedInput } from "./inputs.ts";
import type { SearchState } from "./state.ts";

/** The filter form's texts. */
export const FILTER_TEXTS = catalogue({
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
});
const L = FILTER_TEXTS;

/** The filter form. A fieldset, not a folded <details>: every control stays reachable by Tab. */
export function filterFields(ui: Ui, s: SearchState): HTMLElement {
  const f = (s.filters ??= {});
  const tx = (b: { de: string; en: string }) => b[ui.lang];
  const states = FEDERAL_STATES.map((x): [string, string] => [x.code, `${x[ui.lang]} (${x.code})`]);
  const sizes = Object.entries(SIZE_CLASS_LABELS).map(([code, l]): [string, string] => [code, l[ui.lang]]);
  return h(
    "fieldset",
    { id: "search-filters", class: "cd-filters" },
    h("legend", null, tx(L.filters)),
    field(
      tx(L.industry),
      typedInput("search-industry", f, "industry", { list: "search-wz-list", placeholder: "J62" }),
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
      field(tx(L.state), choice(ui, f, "search-state", "state", states)),
      field(tx(L.sizeClass), choice(ui, f, "search-size-class", "sizeClass", sizes)),
    ),
    field(tx(L.legalForm), typedInput("search-legal-form", f, "legalForm", { placeholder: tx(L.legalFormHint) })),
    h(
      "div",
      { class: "cd-row" },
      field(tx(L.foundedAfter), yearInput(f, "search-founded-after", "foundedAfter")),
      field(tx(L.foundedBefore), yearInput(f, "search-founded-before", "foundedBefore")),
    ),
    activeOnly(ui, f),
  );
}

/** A year the company was founded after or before (the panel checks nothing here: the service reads the text). */
function yearInput(f: SearchFilterInput, id: string, key: "foundedAfter" | "foundedBefore"): HTMLInputElement {
  return typedInput(id, f, key, { type: "number", min: "1800", max: "2100", step: "1" });
}

/** A choice of one value or "any" (the empty value). */
function choice(
  ui: Ui,
  f: SearchFilterInput,
  id: string,
  key: "state" | "sizeClass",
  options: [string, string][],
): HTMLSelectElement {
  const el = h(
    "select",
    { id, on: { change: (ev) => (f[key] = (ev.target as HTMLSelectElement).value) } },
    h("option", { value: "" }, L.any[ui.lang]),
    options.map(([value, label]) => h("option", { value }, label)),
  );
  el.value = f[key] ?? "";
  return el;
}

/** "Active companies only". */
function activeOnly(ui: Ui, f: SearchFilterInput): HTMLElement {
  return h(
    "label",
    { class: "cd-check" },
    h("input", {
      type: "checkbox",
      id: "search-active",
      checked: !!f.activeOnly,
      on: { change: (ev) => (f.activeOnly = (ev.target as HTMLInputElement).checked) },
    }),
    " ",
    L.activeOnly[ui.lang],
  );
}
