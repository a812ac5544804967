/**
 * A run an earlier sidebar started and did not finish (the sidebar was closed
 * or the run stopped): asked for once, offered with a Continue button.
 */
import type { Ui } from "../../panel.ts";
import { formatNumber } from "../../panel.ts";
import { h } from "../../dom.ts";
import { button } from "../common.ts";
import { drive } from "./drive.ts";
import type { EnrichState } from "./state.ts";

/** Ask once per panel whether an earlier, closed sidebar left a run unfinished. */
export function loadUnfinished(ui: Ui, s: EnrichState): void {
  if (s.unfinished !== undefined) return;
  s.unfinished = null;
  ui.call("enrichStatus", {}).then(
    (p) => {
      // A run started in this panel meanwhile is the one to show.
      if (!s.progress && p) {
        s.unfinished = p;
        ui.rerender();
      }
    },
    () => undefined, // no key yet, or nothing readable: the panel works as for a new run
  );
}

/** The offer to continue that run; null while this panel shows a run of its own, or there is none. */
export function unfinishedSection(ui: Ui, s: EnrichState): HTMLElement | null {
  const u = s.unfinished;
  if (!u || s.progress) return null;
  return h(
    "section",
    { class: "cd-step cd-resume", id: "enrich-unfinished", attrs: { "aria-labelledby": "enrich-h-unfinished" } },
    h("h2", { id: "enrich-h-unfinished" }, ui.t("unfinishedTitle")),
    h(
      "div",
      { class: "cd-actions" },
      button(
        "enrich-continue",
        ui.t("unfinishedContinue", {
          done: formatNumber(u.processed, ui.lang),
          total: formatNumber(u.total, ui.lang),
        }),
        () => {
          s.progress = u;
          s.unfinished = null;
          void drive(ui, s);
        },
        { primary: true },
      ),
    ),
  );
}
