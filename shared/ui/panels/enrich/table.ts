/**
 * Step 1, the table: read the user's selection (header row and data rows),
 * detect which columns hold what, and say what was read.
 */
import type { Ui } from "../../panel.ts";
import { h } from "../../dom.ts";
import { button } from "../common.ts";
import type { EnrichState } from "./state.ts";
import { stepSection } from "./step.ts";

const NO_DATA_ROWS = {
  de: "Die Auswahl enthält nur die Kopfzeile, keine Datenzeilen. Bitte die Tabelle mit ihren Zeilen markieren und erneut einlesen.",
  en: "The selection holds only the header row, no data rows. Please select the table with its rows and read it again.",
};

/** 1 → A, 27 → AA: how the sheet names the column. */
export function columnLetter(n: number): string {
  let out = "";
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) out = String.fromCharCode(65 + ((x - 1) % 26)) + out;
  return out;
}

/** Read the selection and detect its columns; a header row alone is refused (nothing to price or start). */
async function readTable(ui: Ui, s: EnrichState): Promise<void> {
  const sel = await ui.call("readSelection", {});
  s.preview = undefined;
  if (sel.rows < 2) {
    s.selection = undefined;
    s.mapping = undefined;
    s.message = { kind: "error", text: NO_DATA_ROWS };
    return;
  }
  const cols = await ui.call("detectColumns", { headers: sel.headers });
  s.selection = sel;
  s.mapping = cols.mapping;
  s.preview = undefined;
  // An earlier run's block beside the table: a rerun writes into it, so it keeps that run's fields.
  if (sel.output?.fields) s.fields = new Set(sel.output.fields);
}

export function tableSection(ui: Ui, s: EnrichState): HTMLElement {
  return stepSection(
    "enrich-h-table",
    ui.t("enrichStepTable"),
    h("p", { class: "cd-intro" }, ui.t("enrichIntro")),
    h(
      "div",
      { class: "cd-actions" },
      button("enrich-read", ui.t("readSelection"), (b) => void ui.run(s, b, () => readTable(ui, s)), {
        primary: !s.selection,
      }),
    ),
    s.selection
      ? h(
          "p",
          { class: "cd-note", id: "enrich-selection" },
          ui.t("selectionInfo", {
            sheet: s.selection.sheet,
            rows: Math.max(0, s.selection.rows - 1),
            cols: s.selection.cols,
          }),
        )
      : null,
    s.selection?.output
      ? h(
          "p",
          { class: "cd-note", id: "enrich-existing-output" },
          ui.t("existingOutput", { col: columnLetter(s.selection.output.col) }),
        )
      : null,
  );
}
