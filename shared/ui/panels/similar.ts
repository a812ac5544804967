/** Find similar: companies like the chosen ones (semantic similarity) or peers of one company. */
import type { CostView, SimilarOutput } from "../../app/index.ts";
import type { PanelState, Ui } from "../panel.ts";
import { h, field } from "../dom.ts";
import { companyIdsIn } from "../../api/index.ts";
import { definePanel } from "../panel.ts";
import { button, companyTable, costLine, insertButton, spentMessage } from "./common.ts";
import { checkNumbers } from "./search/checks.ts";

interface SimilarState extends PanelState {
  ids?: string;
  kind?: "similar" | "peers";
  size?: string;
  cost?: Record<string, CostView | null>;
  result?: SimilarOutput;
  selected?: Set<string>;
}

export const parseIds = (text: string) => [...new Set(companyIdsIn(text.toUpperCase()))];

function loadCost(ui: Ui, s: SimilarState, kind: "similar" | "peers") {
  s.cost ??= {};
  if (kind in s.cost) return;
  s.cost[kind] = null;
  ui.call("estimate", { operation: { kind: "call", endpoint: kind } }).then(
    (c) => ((s.cost![kind] = c), ui.rerender()),
    () => undefined,
  );
}

export const similarPanel = definePanel<SimilarState>({
  id: "similar",
  title: { de: "Ähnliche Firmen", en: "Find similar" },
  initial: () => ({}),
  render(ui, s) {
    s.kind ??= "similar";
    s.selected ??= new Set();
    const handoff = s.handoff;
    if (handoff) {
      if (handoff.ids.length) s.ids = handoff.ids.join("\n");
      s.handoff = undefined;
    }
    loadCost(ui, s, s.kind);
    const idsBox = h("textarea", {
      id: "similar-ids",
      attrs: { rows: 4, spellcheck: "false" },
      placeholder: "DEJK7QV0PK24",
      on: { input: (ev) => (s.ids = (ev.target as HTMLTextAreaElement).value) },
    });
    idsBox.value = s.ids ?? "";
    const kindRadio = (kind: "similar" | "peers", label: string) =>
      h(
        "label",
        { class: "cd-choice" },
        h("input", {
          type: "radio",
          name: "similar-kind",
          id: `similar-kind-${kind}`,
          value: kind,
          checked: s.kind === kind,
          on: { change: () => ((s.kind = kind), ui.rerender()) },
        }),
        " ",
        label,
      );
    const sizeInput = h("input", {
      id: "similar-size",
      type: "number",
      min: "1",
      max: "100",
      placeholder: "10",
      value: s.size ?? "",
      on: { input: (ev) => (s.size = (ev.target as HTMLInputElement).value) },
    });
    const runBtn = runButton(ui, s);
    const fromSelection = selectionButton(ui, s);
    return h(
      "div",
      { class: "cd-similar" },
      h("p", { class: "cd-intro" }, ui.t("similarIntro")),
      field(ui.t("similarIds"), idsBox, ui.t("similarIdsHint")),
      h("div", { class: "cd-actions" }, fromSelection),
      h(
        "fieldset",
        { class: "cd-fieldset" },
        h("legend", null, ui.t("similarKind")),
        kindRadio("similar", ui.t("similarKindSimilar")),
        kindRadio("peers", ui.t("similarKindPeers")),
      ),
      field(ui.t("searchSize"), sizeInput),
      costLine(ui, "similar-cost", s.cost?.[s.kind] ?? null),
      h("div", { class: "cd-actions" }, runBtn),
      results(ui, s),
    );
  },
});

/** "Find": the companies like the given ids (or the first id's peers), after the same checks as the search panel. */
function runButton(ui: Ui, s: SimilarState): HTMLElement {
  return button(
    "similar-run",
    ui.t("similarRun"),
    (b) =>
      void ui.run(s, b, async () => {
        const ids = parseIds(s.ids ?? "");
        if (ids.length === 0) {
          s.message = {
            kind: "error",
            text: {
              de: "Bitte mindestens eine Firmen-ID angeben (DE + 10 Zeichen).",
              en: "Please give at least one company id (DE + 10 characters).",
            },
          };
          return;
        }
        // The same rule in the same words as the search panel's "Anzahl Treffer", before anything is sent.
        const badSize = checkNumbers(s.size, undefined);
        if (badSize) {
          s.message = { kind: "error", text: badSize };
          return;
        }
        s.result = await ui.call("similar", {
          ids,
          kind: s.kind!,
          size: s.size?.trim() ? Number(s.size) : undefined,
        });
        s.selected = new Set();
        s.message = spentMessage(s.result.companies.length, s.result.credits);
        void ui.refreshAccount();
      }),
    { primary: true },
  );
}

/** "Use selection": the company ids found in the sheet's selection. */
function selectionButton(ui: Ui, s: SimilarState): HTMLElement {
  return button(
    "similar-from-selection",
    ui.t("useSelection"),
    (b) =>
      void ui.run(s, b, async () => {
        const sel = await ui.call("readSelection", {});
        if (sel.ids.length === 0) {
          s.message = {
            kind: "error",
            text: { de: "In der Auswahl steht keine Firmen-ID.", en: "The selection holds no company id." },
          };
          return;
        }
        s.ids = sel.ids.join("\n");
      }),
  );
}

/** The companies found, to pick and insert. */
function results(ui: Ui, s: SimilarState): HTMLElement | null {
  if (!s.result) return null;
  const selected = (s.selected ??= new Set());
  return h(
    "section",
    { class: "cd-results", attrs: { "aria-label": ui.t("results") } },
    companyTable(ui, "similar", s.result.companies, selected, () => ui.rerender(), { score: true }),
    h("div", { class: "cd-actions" }, insertButton(ui, s, "similar-insert", s.result.companies, selected)),
  );
}
