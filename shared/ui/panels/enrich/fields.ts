/**
 * Step 3, the output fields: the fields the service offers, grouped by what
 * they cost, each a checkbox (an earlier run's fields, else the defaults, are ticked).
 */
import type { FieldGroupView } from "../../../app/index.ts";
import type { Ui } from "../../panel.ts";
import { h } from "../../dom.ts";
import type { EnrichState } from "./state.ts";
import { stepSection } from "./step.ts";

/** Ask once for the field groups; a failure is said once and not asked again on every render. */
export function loadFields(ui: Ui, s: EnrichState): void {
  if (s.groups !== undefined) return;
  s.groups = null;
  ui.call("enrichFields", {}).then(
    (out) => {
      s.groups = out.groups;
      s.fields ??= new Set(out.defaults);
      ui.rerender();
    },
    (e) => {
      // Not undefined: that would ask again on every render, in a loop.
      s.groups = [];
      s.message = ui.errorMessage(e);
      ui.rerender();
    },
  );
}

/** One group's checkboxes; a change drops the price shown (it no longer holds). */
function groupFieldset(ui: Ui, s: EnrichState, g: FieldGroupView): HTMLElement {
  return h(
    "fieldset",
    { class: "cd-fieldset", id: `enrich-group-${g.group}` },
    h("legend", null, ui.pick(g.label)),
    h(
      "div",
      { class: "cd-checks" },
      g.fields.map((f) => {
        const box = h("input", {
          type: "checkbox",
          id: `enrich-field-${f.id}`,
          checked: s.fields?.has(f.id) ?? false,
          on: {
            change: () => {
              s.fields ??= new Set();
              if (box.checked) s.fields.add(f.id);
              else s.fields.delete(f.id);
              s.preview = undefined;
              ui.rerender();
            },
          },
        });
        return h("label", { class: "cd-choice" }, box, " ", ui.pick(f.header));
      }),
    ),
  );
}

export function fieldsSection(ui: Ui, s: EnrichState): HTMLElement {
  const groups = s.groups;
  return stepSection(
    "enrich-h-fields",
    ui.t("enrichStepFields"),
    groups === null || groups === undefined
      ? h("p", { class: "cd-note" }, ui.t("loading"))
      : h(
          "div",
          null,
          groups.map((g) => groupFieldset(ui, s, g)),
        ),
  );
}
