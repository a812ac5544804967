/**
 * Step 4, how to run: fast (batch, paid) or free, and which rows (all, new or
 * failed, or older than N days). A change drops the price shown.
 */
import type { Ui } from "../../panel.ts";
import { h } from "../../dom.ts";
import type { EnrichState } from "./state.ts";
import { stepSection } from "./step.ts";

type Radio = (name: string, id: string, checked: boolean, label: string, onPick: () => void) => HTMLElement;

/** A radio whose pick drops the price shown (it was for the other choice). */
const radioOf =
  (ui: Ui, s: EnrichState): Radio =>
  (name, id, checked, label, onPick) =>
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

function modeFieldset(ui: Ui, s: EnrichState, radio: Radio): HTMLElement {
  return h(
    "fieldset",
    { class: "cd-fieldset" },
    h("legend", null, ui.t("enrichMode")),
    radio("enrich-mode", "enrich-mode-batch", s.mode === "batch", ui.t("modeBatch"), () => (s.mode = "batch")),
    radio("enrich-mode", "enrich-mode-free", s.mode === "free", ui.t("modeFree"), () => (s.mode = "free")),
  );
}

/** Which rows: all, new or failed, or older than the days typed beside it (the field is live only for that choice). */
function rerunFieldset(ui: Ui, s: EnrichState, radio: Radio): HTMLElement {
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
  const older = s.rerun === "olderThan";
  return h(
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
      radio("enrich-rerun", "enrich-rerun-older", older, ui.t("rerunOlder"), () => (s.rerun = "olderThan")),
      days,
      " ",
      ui.t("days"),
    ),
  );
}

export function howSection(ui: Ui, s: EnrichState): HTMLElement {
  const radio = radioOf(ui, s);
  return stepSection("enrich-h-how", ui.t("enrichStepHow"), modeFieldset(ui, s, radio), rerunFieldset(ui, s, radio));
}
