/**
 * The price before the run: rows to process, the credits and time of the fast
 * and the free way (the chosen one marked), the ceiling note and what each
 * field group adds. Shown before anything is spent.
 */
import type { EnrichPreviewView } from "../../../app/index.ts";
import type { Ui } from "../../panel.ts";
import { formatNumber } from "../../panel.ts";
import { h } from "../../dom.ts";
import { creditsText } from "../common.ts";

/** A duration as the user reads it: seconds under 90, minutes above. */
const seconds = (ui: Ui, n: number) =>
  n < 90
    ? ui.t("seconds", { n: formatNumber(Math.max(1, Math.round(n)), ui.lang) })
    : ui.t("minutes", { n: formatNumber(Math.round(n / 60), ui.lang) });

export function estimateView(ui: Ui, p: EnrichPreviewView, mode: "batch" | "free" | undefined): HTMLElement {
  return h(
    "div",
    { class: "cd-preview", id: "enrich-preview" },
    h("p", null, ui.t("previewRows", { rows: p.rowsToProcess, all: p.rows, distinct: p.distinct })),
    h(
      "ul",
      null,
      h(
        "li",
        { class: mode === "batch" ? "is-chosen" : "" },
        ui.t("previewBatch", { credits: creditsText(ui, p.batch.credits), time: seconds(ui, p.batch.seconds) }),
      ),
      h(
        "li",
        { class: mode === "free" ? "is-chosen" : "" },
        ui.t("previewFree", { credits: creditsText(ui, p.free.credits), time: seconds(ui, p.free.seconds) }),
      ),
    ),
    h("p", { class: "cd-note", id: "enrich-preview-ceiling" }, ui.t("previewCeiling")),
    p.estimate.breakdown.length
      ? h(
          "ul",
          { class: "cd-breakdown" },
          p.estimate.breakdown.map((b) => h("li", null, `${ui.pick(b.label)}: ${creditsText(ui, b.credits)}`)),
        )
      : null,
  );
}
