/**
 * The Enrich panel's "Keep current" section: a scheduled refresh of the
 * enriched table (rows older than N days), daily or weekly at an hour, under
 * a monthly credit ceiling. The estimate (next run and 30 days at most, the
 * ceiling, what this month spent) is on screen before the schedule can be
 * switched on or a refresh started; the last run's summary below. Calls the
 * refresh* methods of shared/app/refresh.ts. API text goes in as text.
 * The settings form, the buttons and the status lines are modules of their own here.
 */
import type { RefreshTable } from "../../../../refresh/index.ts";
import type { PanelState, Ui } from "../../../panel.ts";
import { formatNumber } from "../../../panel.ts";
import { h } from "../../../dom.ts";
import { refreshActions } from "./actions.ts";
import { DEFAULT_DRAFT, draftNumbers, loadStatus, settingsOf, type RefreshSectionState } from "./draft.ts";
import { settingsForm } from "./form.ts";
import { refreshEstimateView, statusView } from "./status.ts";
import { T } from "./texts.ts";

export type { RefreshSectionState } from "./draft.ts";
export { REFRESH_HELP } from "./texts.ts";

const tableText = (t: RefreshTable, ui: Ui) =>
  `${t.sheet}, ${ui.pick({ de: "Kopfzeile", en: "header row" })} ${t.row}, ${formatNumber(t.rows - 1, ui.lang)} ${ui.pick({ de: "Zeilen", en: "rows" })}`;

/** The section. `table`: the Enrich panel's current table (null when none is read); else the saved one is shown. */
export function refreshSection(
  ui: Ui,
  s: PanelState & { refresh?: RefreshSectionState },
  table: RefreshTable | null,
): HTMLElement {
  const r = (s.refresh ??= {});
  loadStatus(ui, r);
  const saved = r.status?.settings;
  const d = (r.draft ??= { ...DEFAULT_DRAFT });
  const chosen = table ?? saved?.table ?? null;
  const numbers = draftNumbers(d);
  const enabled = saved?.enabled === true;
  return h(
    "section",
    { class: "cd-step cd-refresh", id: "enrich-refresh", attrs: { "aria-labelledby": "enrich-h-refresh" } },
    h("h2", { id: "enrich-h-refresh" }, ui.pick(T.title)),
    h("p", { class: "cd-note" }, ui.pick(T.intro)),
    h("p", { id: "refresh-table" }, chosen ? `${ui.pick(T.table)}: ${tableText(chosen, ui)}` : ui.pick(T.noTable)),
    h("p", { class: "cd-note", id: "refresh-state" }, ui.pick(enabled ? T.isOn : T.isOff)),
    settingsForm(ui, r, d, numbers.valid),
    refreshActions(ui, s, r, {
      table: chosen,
      // Read when a button is pressed: a number typed since the last render counts (typing re-renders only when validity turns).
      settings: () => settingsOf(chosen, d, draftNumbers(d)),
      valid: numbers.valid,
      enabled,
    }),
    r.estimate ? refreshEstimateView(ui, r.estimate) : null,
    statusView(ui, r.status, r.last),
  );
}
