/**
 * Portfolio monitor: check the portfolio sheet now (its exact price shown
 * first), switch a schedule on or off (with the estimate per run, day and
 * month shown before it can be switched on), and the last run's summary.
 * Calls the monitor* methods of shared/app/monitor.ts. All API text goes in
 * with textContent (h() children are text).
 */
import type { MonitorStatusView } from "../../app/monitor.ts";
import type { RunSummary } from "../../monitor/check.ts";
import type { ScheduleEstimate } from "../../monitor/estimate.ts";
import type { ScheduleSettings } from "../../monitor/schedule.ts";
import type { PanelState, Ui } from "../app.ts";
import { formatNumber } from "../app.ts";
import { h, field } from "../dom.ts";
import type { PanelDef } from "./registry.ts";
import { button, creditsText } from "./common.ts";

interface MonitorState extends PanelState {
  status?: MonitorStatusView | null;
  draft?: ScheduleSettings;
  preview?: RunSummary;
  estimate?: ScheduleEstimate & { preview: RunSummary };
  last?: RunSummary;
}

const T = {
  intro: {
    de: "Eine Tabelle „Portfolio“ mit einer Spalte ID oder Firma: je Firma Risikogruppe, Hinweis, letzte Kennzahl, letzte Änderung und neue Änderungen seit der letzten Prüfung; neue Änderungen landen im Blatt „Changes“. Ein Screening aus Registerdaten, keine Bonitätsbewertung.",
    en: "A \"Portfolio\" sheet with an ID or Company column: per company risk group, flag, latest key figure, last change and new changes since the last check; new changes go to the \"Changes\" sheet. A screening from register data, not a credit rating.",
  },
  sheet: { de: "Tabellenblatt", en: "Sheet" },
  price: { de: "Preis prüfen", en: "Show price" },
  checkNow: { de: "Jetzt prüfen", en: "Check now" },
  schedule: { de: "Zeitplan", en: "Schedule" },
  frequency: { de: "Häufigkeit", en: "Frequency" },
  daily: { de: "Täglich", en: "Daily" },
  hourly: { de: "Stündlich", en: "Hourly" },
  hour: { de: "Uhrzeit (Stunde)", en: "Hour of day" },
  budget: { de: "Budget je Lauf (Credits, leer = ohne)", en: "Budget per run (credits, empty = none)" },
  estimate: { de: "Kosten schätzen", en: "Estimate cost" },
  on: { de: "Zeitplan einschalten", en: "Switch schedule on" },
  off: { de: "Zeitplan ausschalten", en: "Switch schedule off" },
  isOn: { de: "Zeitplan ist eingeschaltet", en: "Schedule is on" },
  isOff: { de: "Zeitplan ist aus", en: "Schedule is off" },
  last: { de: "Letzte Prüfung", en: "Last check" },
  paused: { de: "Eine Prüfung ist unterbrochen und wird fortgesetzt.", en: "A check is paused and will continue." },
  estimateFirst: { de: "Bitte zuerst die Kosten schätzen.", en: "Please estimate the cost first." },
} as const;

function load(ui: Ui, s: MonitorState) {
  if (s.status !== undefined) return;
  s.status = null;
  ui.call("monitorStatus", {}).then(
    (v) => {
      s.status = v as MonitorStatusView;
      s.draft ??= { ...s.status.schedule };
      ui.rerender();
    },
    (e) => {
      s.status = undefined;
      s.message = ui.errorMessage(e);
      ui.rerender();
    },
  );
}

function summaryView(ui: Ui, r: RunSummary, id: string): HTMLElement {
  const when = r.finishedAt ? r.finishedAt.slice(0, 16).replace("T", " ") : "";
  return h("div", { class: "cd-summary", id },
    h("p", null, `${ui.pick(T.last)}${when ? ` (${when} UTC)` : ""}: ${ui.pick(r.message)}`),
    h("ul", null,
      h("li", { class: "cd-risk" }, `${ui.pick({ de: "Risiko", en: "Risk" })}: ${formatNumber(r.groups.risk, ui.lang)}`),
      h("li", { class: "cd-watch" }, `${ui.pick({ de: "Beobachten", en: "Watch" })}: ${formatNumber(r.groups.watch, ui.lang)}`),
      h("li", { class: "cd-none" }, `${ui.pick({ de: "Keine Auffälligkeiten", en: "No flags" })}: ${formatNumber(r.groups.none, ui.lang)}`),
      r.ambiguous ? h("li", null, `${ui.pick({ de: "Mehrdeutig (bitte wählen)", en: "Ambiguous (please pick)" })}: ${r.ambiguous}`) : null,
      h("li", null, `${ui.pick({ de: "Neue Änderungen", en: "New changes" })}: ${formatNumber(r.newChanges, ui.lang)}`),
      h("li", null, `${ui.pick({ de: "Verbraucht", en: "Spent" })}: ${creditsText(ui, r.spent)}`)));
}

export const monitorPanel: PanelDef = {
  id: "monitor",
  title: { de: "Portfolio-Check", en: "Portfolio check" },
  render(ui, state) {
    const s = state as MonitorState;
    load(ui, s);
    const d = (s.draft ??= { enabled: false, frequency: "daily", hour: 7, budget: null, sheet: "Portfolio" });
    const sheetInput = h("input", { id: "monitor-sheet", type: "text", value: d.sheet, on: { input: (ev) => (d.sheet = (ev.target as HTMLInputElement).value) } });

    const priceBtn = button("monitor-price", ui.pick(T.price), (b) =>
      void ui.run(s, b, async () => {
        s.preview = (await ui.call("monitorPreview", { sheet: d.sheet })) as RunSummary;
        s.message = { kind: "info", text: s.preview.message };
      }));
    const checkBtn = button("monitor-check", ui.pick(T.checkNow), (b) =>
      void ui.run(s, b, async () => {
        let r: RunSummary;
        let steps = 0;
        do r = (await ui.call("monitorRun", { sheet: d.sheet, budget: d.budget })) as RunSummary;
        while (r.status === "paused" && ++steps < 50);
        s.last = r;
        s.preview = undefined;
        s.message = { kind: r.status === "done" ? "success" : "info", text: r.message };
        void ui.refreshAccount();
      }), { primary: true });
    const previewLine = s.preview
      ? h("p", { class: "cd-cost", id: "monitor-cost" }, `${ui.pick({ de: "Diese Prüfung kostet", en: "This check costs" })} ${creditsText(ui, s.preview.estimate)}`)
      : null;

    const freq = h("select", { id: "monitor-frequency", on: { change: (ev) => ((d.frequency = (ev.target as HTMLSelectElement).value as ScheduleSettings["frequency"]), (s.estimate = undefined), ui.rerender()) } },
      h("option", { value: "daily" }, ui.pick(T.daily)),
      h("option", { value: "hourly" }, ui.pick(T.hourly)));
    freq.value = d.frequency;
    const hour = h("input", { id: "monitor-hour", type: "number", min: "0", max: "23", value: String(d.hour), disabled: d.frequency === "hourly",
      on: { input: (ev) => (d.hour = Number((ev.target as HTMLInputElement).value) || 0) } });
    const budget = h("input", { id: "monitor-budget", type: "number", min: "1", value: d.budget === null ? "" : String(d.budget),
      on: { input: (ev) => { const v = (ev.target as HTMLInputElement).value; d.budget = v === "" ? null : Number(v); s.estimate = undefined; } } });

    const estimateBtn = button("monitor-estimate", ui.pick(T.estimate), (b) =>
      void ui.run(s, b, async () => {
        s.estimate = (await ui.call("monitorEstimate", { schedule: { ...d, enabled: false } })) as MonitorState["estimate"];
      }));
    const enabled = s.status?.schedule.enabled === true;
    const toggle = button("monitor-toggle", ui.pick(enabled ? T.off : T.on), (b) =>
      void ui.run(s, b, async () => {
        if (!enabled && !s.estimate) {
          s.message = { kind: "error", text: T.estimateFirst };
          return;
        }
        s.status = (await ui.call("monitorSaveSchedule", { schedule: { ...d, enabled: !enabled } })) as MonitorStatusView;
        s.message = { kind: "success", text: s.status.schedule.enabled ? T.isOn : T.isOff };
      }), { disabled: !enabled && !s.estimate });
    const estimateView = s.estimate
      ? h("div", { class: "cd-estimate", id: "monitor-estimate-view" },
          h("p", null, ui.pick(s.estimate.text)),
          h("ul", null,
            h("li", null, `${ui.pick({ de: "Nächster Lauf", en: "Next run" })}: ${creditsText(ui, s.estimate.nextRun)}`),
            h("li", null, `${ui.pick({ de: "Je Lauf höchstens", en: "Per run at most" })}: ${creditsText(ui, s.estimate.perRun)}`),
            h("li", null, `${ui.pick({ de: "Je Tag höchstens", en: "Per day at most" })}: ${creditsText(ui, s.estimate.perDay)}`),
            h("li", null, `${ui.pick({ de: "Je Monat höchstens", en: "Per month at most" })}: ${creditsText(ui, s.estimate.perMonth)}`)))
      : null;

    const last = s.last ?? s.status?.last ?? null;
    return h("div", { class: "cd-monitor" },
      h("p", { class: "cd-intro", id: "monitor-intro" }, ui.pick(T.intro)),
      field(ui.pick(T.sheet), sheetInput),
      h("div", { class: "cd-actions" }, priceBtn, checkBtn),
      previewLine,
      s.status?.paused ? h("p", { class: "cd-note", id: "monitor-paused" }, ui.pick(T.paused)) : null,
      h("h3", null, ui.pick(T.schedule)),
      h("p", { class: "cd-note", id: "monitor-state" }, ui.pick(enabled ? T.isOn : T.isOff)),
      field(ui.pick(T.frequency), freq),
      field(ui.pick(T.hour), hour),
      field(ui.pick(T.budget), budget),
      h("div", { class: "cd-actions" }, estimateBtn, toggle),
      estimateView,
      s.status ? h("p", { class: "cd-note", id: "monitor-host-note" }, ui.pick(s.status.hostNote)) : null,
      last ? summaryView(ui, last, "monitor-last") : null);
  },
};
