/**
 * Step 2, the columns: which column holds the name, city, postcode, register,
 * id, website, VAT id or LEI, as detected and as the user corrects it.
 */
import type { ColumnRole, SelectionView } from "../../../app/index.ts";
import type { Ui } from "../../panel.ts";
import { h, field } from "../../dom.ts";
import type { EnrichState } from "./state.ts";
import { stepSection } from "./step.ts";

const ROLES: ColumnRole[] = ["name", "city", "zip", "register", "id", "website", "vatId", "lei"];

/** One role's column chooser: none, or one of the selection's headers. */
function roleSelect(
  ui: Ui,
  s: EnrichState,
  mapping: Record<ColumnRole, number | null>,
  sel: SelectionView,
  role: ColumnRole,
): HTMLElement {
  const select = h(
    "select",
    {
      id: `enrich-col-${role}`,
      on: {
        change: () => {
          const v = select.value;
          mapping[role] = v === "" ? null : Number(v);
          s.preview = undefined;
          ui.rerender(); // the Start button must not keep a price that no longer holds
        },
      },
    },
    h("option", { value: "" }, ui.t("columnNone")),
    sel.headers.map((hd, i) => h("option", { value: String(i) }, hd || ui.t("columnN", { n: i + 1 }))),
  );
  select.value = mapping[role] === null ? "" : String(mapping[role]);
  return field(ui.t(`role_${role}`), select);
}

export function columnsSection(
  ui: Ui,
  s: EnrichState,
  sel: SelectionView,
  mapping: Record<ColumnRole, number | null>,
): HTMLElement {
  return stepSection(
    "enrich-h-cols",
    ui.t("enrichStepColumns"),
    h(
      "div",
      { class: "cd-grid2" },
      ROLES.map((role) => roleSelect(ui, s, mapping, sel, role)),
    ),
  );
}
