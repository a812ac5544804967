/** The run's progress: a bar, the counts per outcome and the credits spent, and the last error. */
import type { EnrichProgressView } from "../../../app/index.ts";
import type { Ui } from "../../panel.ts";
import { h } from "../../dom.ts";
import { creditsText } from "../common.ts";

export function progressView(ui: Ui, p: EnrichProgressView): HTMLElement {
  const pct = p.total ? Math.round((p.processed / p.total) * 100) : 100;
  return h(
    "div",
    { class: "cd-progress", id: "enrich-progress" },
    h("label", { for: "enrich-progress-bar" }, ui.t("progress", { done: p.processed, total: p.total, pct })),
    h("progress", { id: "enrich-progress-bar", attrs: { max: p.total || 1, value: p.processed } }),
    h(
      "p",
      { class: "cd-note", id: "enrich-counts" },
      ui.t("progressCounts", {
        matched: p.matched,
        review: p.review,
        notFound: p.notFound,
        errors: p.errors,
        skipped: p.skipped,
        credits: creditsText(ui, p.creditsSpent),
      }),
      p.outOfCredits
        ? h(
            "span",
            { id: "enrich-count-credits", class: "cd-warn" },
            " · " + ui.t("progressOutOfCredits", { n: p.outOfCredits }),
          )
        : null,
    ),
    // Out of credits is said once, by the run's status message below (with what to do).
    p.lastError && !p.stoppedForCredits
      ? h("p", { class: "cd-status is-error", role: "alert" }, ui.pick(p.lastError.message))
      : null,
  );
}
