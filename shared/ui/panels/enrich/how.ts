/**
 * Step 4, how to run: fast (batch, paid) or free, and which rows (all, new or
 * failed, or older than N days). A change drops the price shown.
 */
import type { Ui } from "../../panel.ts";
import { h } from "../../dom.ts";
import type { EnrichState } from "./state.ts";

export function howSection(ui: Ui, s: EnrichState): HTMLElement {
  const radio = (name: string, id: string, checked: boolean, label: string, onPick: () => void) =>
    h(
      "label",
      { class: "cd-choice" },
      h("input", {
        type: "radio",
        name,
        id,
        checked,
        on: { change: () => (onPick(), (s.preview = undefined), ui.rerender()) },
      }),
      " ",
      label,
    );
  const days = h("input", {
    id: "enrich-days",
    type: "number",
    min: "1",
    max: "3650",
    value: s.days ?? "30",
    disabled: s.rerun !== "olderThan",
    attrs: { "aria-label": ui.t("rerunDays") },
    on: {
      input: () => ((s.days = days.value), (s.preview = undefined)),
      change: () => ui.rerender(),
    },
  });
  return h(
    "section",
    { class: "cd-step", attrs: { "aria-labelledby": "enrich-h-how" } },
    h("h2", { id: "enrich-h-how" }, ui.t("enrichStepHow")),
    h(
      "fieldset",
      { class: "cd-fieldset" },
      h("legend", null, ui.t("enrichMode")),
      radio("enrich-mode", "enrich-mode-batch", s.mode === "batch", ui.t("modeBatch"), () => (s.mode = "batch")),
      radio("enrich-mode", "enrich-mode-free", s.mode === "free", ui.t("modeFree"), () => (s.mode = "free")),
    ),
    h(
      "fieldset",
      { class: "cd-fieldset" },
      h("legend", null, ui.t("rerun")),
      radio("enrich-rerun", "enrich-rerun-all", s.rerun === "all", ui.t("rerunAll"), () => (s.rerun = "all")),
      radio(
        "enrich-rerun",
        "enrich-rerun-new",
        s.rerun === "newOrFailed",
        ui.t("rerunNew"),
        () => (s.rerun = "newOrFailed"),
      ),
      h(
        "div",
        { class: "cd-inline" },
        radio(
          "enrich-rerun",
          "enrich-rerun-older",
          s.rerun === "olderThan",
          ui.t("rerunOlder"),
          () => (s.rerun = "olderThan"),
        ),
        days,
        " ",
        ui.t("days"),
      ),
    ),
  );
}
