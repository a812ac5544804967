/**
 * What the section says of the refresh: the estimate (next run, 30 days, per
 * month at most), this month's spend against the ceiling, a paused run, the
 * host's note on when it runs, and the last run's summary. API text is text.
 */
import type { RefreshStatusView } from "../../../../app/index.ts";
import type { RefreshEstimate, RefreshSummary } from "../../../../refresh/index.ts";
import type { Ui } from "../../../panel.ts";
import { formatNumber } from "../../../panel.ts";
import { h } from "../../../dom.ts";
import { creditsText } from "../../common.ts";
import { localTime } from "../../monitor.ts";
import { T } from "./texts.ts";

export function refreshEstimateView(ui: Ui, est: RefreshEstimate): HTMLElement {
  return h(
    "div",
    {
      class: "cd-estimate",
      id: "refresh-estimate-view",
      attrs: { "data-next-run": est.nextRun, "data-per-month": est.perMonth },
    },
    h("p", null, ui.pick(est.text)),
    h(
      "ul",
      null,
      h(
        "li",
        null,
        `${ui.pick({ de: "Nächster Lauf höchstens", en: "Next run at most" })}: ${creditsText(ui, est.nextRun)}`,
      ),
      h(
        "li",
        null,
        `${ui.pick({ de: "Nächste 30 Tage höchstens", en: "Next 30 days at most" })}: ${creditsText(ui, est.next30Days)}`,
      ),
      h(
        "li",
        null,
        `${ui.pick({ de: "Je Monat höchstens (Grenze)", en: "Per month at most (ceiling)" })}: ${creditsText(ui, est.perMonth)}`,
      ),
    ),
  );
}

/** "Spent this month: 12 of 100 credits". */
const monthText = (ui: Ui, m: { spent: number; ceiling: number }) =>
  `${ui.pick(T.month)}: ${formatNumber(m.spent, ui.lang)} ${ui.pick(T.of)} ${creditsText(ui, m.ceiling)}`;

function summaryView(ui: Ui, r: RefreshSummary): HTMLElement {
  const when = localTime(r.finishedAt, ui.lang);
  return h(
    "div",
    { class: "cd-summary", id: "refresh-last" },
    h("p", null, `${ui.pick(T.last)}${when ? ` (${when})` : ""}: ${ui.pick(r.message)}`),
    h(
      "ul",
      null,
      h(
        "li",
        null,
        `${ui.pick({ de: "Zeilen aktualisiert", en: "Rows refreshed" })}: ${formatNumber(r.refreshed, ui.lang)}`,
      ),
      h(
        "li",
        null,
        `${ui.pick({ de: "Werte geändert", en: "Values changed" })}: ${formatNumber(r.changedValues, ui.lang)}`,
      ),
      h("li", { id: "refresh-last-month" }, monthText(ui, r.month)),
    ),
  );
}

/** The status lines under the buttons (each only when there is something to say) and the last run (this panel's, else the saved one). */
export function statusView(
  ui: Ui,
  status: RefreshStatusView | null | undefined,
  last: RefreshSummary | undefined,
): (HTMLElement | null)[] {
  const shown = last ?? status?.last ?? null;
  return [
    status?.month ? h("p", { class: "cd-note", id: "refresh-month" }, monthText(ui, status.month)) : null,
    status?.paused ? h("p", { class: "cd-note", id: "refresh-paused" }, ui.pick(T.paused)) : null,
    status ? h("p", { class: "cd-note", id: "refresh-host-note" }, ui.pick(status.hostNote)) : null,
    shown ? summaryView(ui, shown) : null,
  ];
}
