/**
 * Portfolio monitor: check the portfolio sheet now (its exact price, from the
 * free preview loaded when the panel opens and after every run, is shown
 * beside the button, which stays disabled until it is known), switch a schedule on or off (with the estimate per run, day and
 * month shown before it can be switched on), and the last run's summary.
 * Calls the monitor* methods of shared/app/monitor.ts. All API text goes in
 * with textContent (h() children are text).
 */
import { catalogue } from "../../i18n/index.ts";
import type { MonitorStatusView } from "../../app/index.ts";
import type { RunSummary } from "../../monitor/index.ts";
import type { ScheduleEstimate } from "../../monitor/index.ts";
import type { ScheduleSettings } from "../../monitor/index.ts";
import type { PanelState, Ui } from "../panel.ts";
import { h, field } from "../dom.ts";
import { definePanel } from "../panel.ts";
import { button, creditsText } from "./common.ts";
import { alertsSection } from "./monitor-alerts.ts";
import { estimateView, summaryView } from "./monitor-views.ts";
import { serverSection } from "./monitor-server.ts";
import { startupSection } from "./monitor-startup.ts";

export { localTime } from "./monitor-views.ts";

interface MonitorState extends PanelState {
  status?: MonitorStatusView | null;
  /** The schedule as typed; the saved one until the user changes it. */
  draft?: ScheduleSettings;
  /** The user changed the form: the saved schedule, read later (after the first render), does not overwrite it. */
  edited?: boolean;
  /** undefined: not asked (or stale); null: being asked. */
  preview?: RunSummary | null;
  /** The sheet whose preview failed: not asked again on every render (the message says why; "Refresh price" retries). */
  previewFailedFor?: string;
  estimate?: ScheduleEstimate & { preview: RunSummary };
  /** The message a failed automatic price left: cleared by the next price that arrives, never another action's message. */
  previewError?: PanelState["message"];
  /** The hour field as typed, while it is not a valid hour (the draft keeps the last valid one). */
  hourText?: string;
  last?: RunSummary;
}

/** The panel's own texts. */
const T = catalogue({
  intro: {
    de: "Eine Tabelle „Portfolio“ mit einer Spalte ID oder Firma: je Firma Risikogruppe, Hinweis, letzte Kennzahl, letzte Änderung und neue Änderungen seit der letzten Prüfung; neue Änderungen landen im Blatt „Änderungen“. Ein Screening aus Registerdaten, keine Bonitätsbewertung.",
    en: 'A "Portfolio" sheet with an ID or Company column: per company risk group, flag, latest key figure, last change and new changes since the last check; new changes go to the "Changes" sheet. A screening from register data, not a credit rating.',
  },
  sheet: { de: "Tabellenblatt", en: "Sheet" },
  price: { de: "Preis aktualisieren", en: "Refresh price" },
  pricing: { de: "Preis wird ermittelt (kostenlos) …", en: "Working out the price (free) …" },
  costs: { de: "Diese Prüfung kostet", en: "This check costs" },
  costsAtMost: { de: "Diese Prüfung kostet höchstens", en: "This check costs at most" },
  atMost: { de: "höchstens", en: "at most" },
  forPrice: { de: "für", en: "for" },
  checkNow: { de: "Jetzt prüfen", en: "Check now" },
  schedule: { de: "Zeitplan", en: "Schedule" },
  frequency: { de: "Häufigkeit", en: "Frequency" },
  daily: { de: "Täglich", en: "Daily" },
  hourly: { de: "Stündlich", en: "Hourly" },
  hour: { de: "Uhrzeit (Stunde)", en: "Hour of day" },
  hourRule: {
    de: "Uhrzeit (Stunde): bitte eine ganze Zahl von 0 bis 23 eingeben.",
    en: "Hour of day: please enter a whole number from 0 to 23.",
  },
  budget: { de: "Budget je Lauf (Credits, leer = ohne)", en: "Budget per run (credits, empty = none)" },
  estimate: { de: "Kosten schätzen", en: "Estimate cost" },
  on: { de: "Zeitplan einschalten", en: "Switch schedule on" },
  off: { de: "Zeitplan ausschalten", en: "Switch schedule off" },
  isOn: { de: "Zeitplan ist eingeschaltet", en: "Schedule is on" },
  isOff: { de: "Zeitplan ist aus", en: "Schedule is off" },
  paused: { de: "Eine Prüfung ist unterbrochen und wird fortgesetzt.", en: "A check is paused and will continue." },
  estimateFirst: { de: "Bitte zuerst die Kosten schätzen.", en: "Please estimate the cost first." },
});
export { T as MONITOR_PANEL_TEXTS };

function load(ui: Ui, s: MonitorState) {
  if (s.status !== undefined) return;
  s.status = null;
  ui.call("monitorStatus", {}).then(
    (v) => {
      s.status = v;
      // The first render put the defaults in the form; kept, they would show "daily at 7, Portfolio" over a
      // schedule saved otherwise, and "Switch schedule off" would save them over the user's. Unless the
      // user has typed meanwhile, the form is the saved schedule, and a price shown for another sheet goes.
      if (!s.edited) {
        if (s.draft && s.draft.sheet !== v.schedule.sheet) {
          s.preview = undefined;
          s.previewFailedFor = undefined;
        }
        s.draft = { ...v.schedule };
      }
      loadPreview(ui, s);
      ui.rerender();
    },
    (e) => {
      // Stays null (not undefined): a failing call is not repeated on every render.
      s.message = s.previewError = ui.errorMessage(e);
      ui.rerender();
    },
  );
}

/** The exact price of "Check now" (free calls only), so it is on screen before anything is spent. */
function loadPreview(ui: Ui, s: MonitorState) {
  if (s.preview !== undefined || !s.draft || s.previewFailedFor === s.draft.sheet) return;
  s.preview = null;
  const sheet = s.draft.sheet;
  ui.call("monitorPreview", { sheet }).then(
    (v) => {
      // An answer for a sheet name the user has since changed is not this check's price.
      if (s.draft?.sheet !== sheet) return;
      s.preview = v;
      // A fresh price: the error of an earlier failed price (another sheet name, the network) no longer holds.
      if (s.message && s.previewError && s.message.text.de === s.previewError.text.de) s.message = undefined;
      s.previewError = undefined;
      ui.rerender();
    },
    (e) => {
      if (s.draft?.sheet !== sheet) return;
      s.preview = undefined;
      s.previewFailedFor = sheet;
      s.message = s.previewError = ui.errorMessage(e);
      ui.rerender();
    },
  );
}

/** The price a preview shows: its bound (unpriced entries at their maximum); `estimate` for a summary from before the bound existed. */
const priceOf = (p: RunSummary): number => (p.status === "preview" ? p.left.credits : p.estimate);
const shownIsBound = (p: RunSummary | null): boolean => !!p && p.left.unpriced > 0;

export const monitorPanel = definePanel<MonitorState>({
  id: "monitor",
  title: { de: "Portfolio-Check", en: "Portfolio check" },
  initial: () => ({}),
  render(ui, s) {
    load(ui, s);
    const d = (s.draft ??= { enabled: false, frequency: "daily", hour: 7, budget: null, sheet: "Portfolio" });
    loadPreview(ui, s);
    const sheetInput = sheetField(ui, s, d);
    const freq = frequencySelect(ui, s, d);
    // An hour outside 0–23 (or none) cannot be scheduled: said beside the field, and the buttons that would send it wait.
    const hourOk = d.frequency === "hourly" || s.hourText === undefined;
    const enabled = s.status?.schedule.enabled === true;
    const last = s.last ?? s.status?.last ?? null;
    return h(
      "div",
      { class: "cd-monitor" },
      h("p", { class: "cd-intro", id: "monitor-intro" }, ui.pick(T.intro)),
      field(ui.pick(T.sheet), sheetInput),
      checkActions(ui, s, d),
      s.status?.paused ? h("p", { class: "cd-note", id: "monitor-paused" }, ui.pick(T.paused)) : null,
      h("h2", null, ui.pick(T.schedule)),
      h("p", { class: "cd-note", id: "monitor-state" }, ui.pick(enabled ? T.isOn : T.isOff)),
      field(ui.pick(T.frequency), freq),
      field(ui.pick(T.hour), hourInput(s, d, hourOk, ui)),
      hourOk ? null : h("p", { class: "cd-status is-error", id: "monitor-hour-error" }, ui.pick(T.hourRule)),
      field(ui.pick(T.budget), budgetInput(s, d)),
      scheduleActions(ui, s, d, hourOk),
      estimateView(ui, s.estimate),
      s.status ? alertsSection(ui, s) : null,
      s.status ? h("p", { class: "cd-note", id: "monitor-host-note" }, ui.pick(s.status.hostNote)) : null,
      serverSection(ui, s),
      startupSection(ui, s),
      last ? summaryView(ui, last, "monitor-last") : null,
    );
  },
});

/** The sheet of the portfolio; a new name drops the price shown for the old one. */
function sheetField(ui: Ui, s: MonitorState, d: ScheduleSettings): HTMLElement {
  return h("input", {
    id: "monitor-sheet",
    type: "text",
    value: d.sheet,
    on: {
      input: (ev) => {
        d.sheet = (ev.target as HTMLInputElement).value;
        s.edited = true;
        if (s.preview) {
          // The shown price was another sheet's: Check now waits for this one's.
          s.preview = undefined;
          ui.rerender();
        }
      },
      // After the focus has moved on: re-rendering inside the change a Tab fires would remove the field mid-blur.
      change: () => (loadPreview(ui, s), setTimeout(() => ui.rerender(), 0)),
    },
  });
}

/** "Check now" with its price, the price line and "Price": the check never spends more than the price shown. */
function checkActions(ui: Ui, s: MonitorState, d: ScheduleSettings): HTMLElement {
  const priceBtn = button(
    "monitor-price",
    ui.pick(T.price),
    (b) =>
      void ui.run(s, b, async () => {
        s.previewFailedFor = undefined;
        s.preview = null;
        try {
          s.preview = await ui.call("monitorPreview", { sheet: d.sheet });
        } catch (e) {
          s.preview = undefined;
          s.previewFailedFor = d.sheet;
          s.previewError = ui.errorMessage(e);
          throw e;
        }
        s.message = { kind: "info", text: s.preview.message };
      }),
  );
  const price = s.preview ?? null;
  // The price shown: exact for what the free checks priced, the maximum for what they could not (monitor/estimate.ts).
  const shown = price ? priceOf(price) : null;
  const checkBtn = button(
    "monitor-check",
    price
      ? `${ui.pick(T.checkNow)} (${ui.pick(shownIsBound(price) ? T.atMost : T.forPrice)} ${creditsText(ui, shown!)})`
      : ui.pick(T.checkNow),
    (b) =>
      void ui.run(s, b, async () => {
        let r: RunSummary;
        let steps = 0;
        // The shown price caps the run (all its steps): it never spends more than the user saw.
        const budget = d.budget === null ? shown : Math.min(d.budget, shown ?? d.budget);
        do r = await ui.call("monitorRun", { sheet: d.sheet, budget });
        while (r.status === "paused" && ++steps < 50);
        s.last = r;
        s.message = { kind: r.status === "done" ? "success" : "info", text: r.message };
        // The status again: the check delivered its alerts (or says why not).
        s.status = undefined;
        // The next check's price (usually 0 right after one): shown again before the button can spend.
        s.preview = undefined;
        loadPreview(ui, s);
        void ui.refreshAccount();
      }),
    { primary: true, disabled: !price },
  );
  checkBtn.setAttribute("aria-describedby", "monitor-cost");
  const previewLine = h(
    "span",
    {
      class: "cd-cost",
      id: "monitor-cost",
      attrs: { "data-credits": shown ?? undefined, "data-bound": shownIsBound(price) ? "true" : undefined },
    },
    price ? `${ui.pick(shownIsBound(price) ? T.costsAtMost : T.costs)} ${creditsText(ui, shown!)}` : ui.pick(T.pricing),
  );
  return h("div", { class: "cd-actions cd-check" }, checkBtn, previewLine, priceBtn);
}

function frequencySelect(ui: Ui, s: MonitorState, d: ScheduleSettings): HTMLSelectElement {
  const freq = h(
    "select",
    {
      id: "monitor-frequency",
      on: {
        change: (ev) => (
          (d.frequency = (ev.target as HTMLSelectElement).value as ScheduleSettings["frequency"]),
          (s.edited = true),
          (s.estimate = undefined),
          ui.rerender()
        ),
      },
    },
    h("option", { value: "daily" }, ui.pick(T.daily)),
    h("option", { value: "hourly" }, ui.pick(T.hourly)),
  );
  freq.value = d.frequency;
  return freq;
}

/** The hour of a daily check; an hour outside 0–23 is kept as typed (s.hourText) and said beside the field. */
function hourInput(s: MonitorState, d: ScheduleSettings, hourOk: boolean, ui: Ui): HTMLElement {
  return h("input", {
    id: "monitor-hour",
    type: "number",
    min: "0",
    max: "23",
    step: "1",
    value: s.hourText ?? String(d.hour),
    disabled: d.frequency === "hourly",
    attrs: {
      "aria-invalid": hourOk ? undefined : "true",
      "aria-describedby": hourOk ? undefined : "monitor-hour-error",
    },
    on: {
      input: (ev) => {
        const v = (ev.target as HTMLInputElement).value.trim();
        const n = Number(v);
        const valid = v !== "" && Number.isInteger(n) && n >= 0 && n <= 23;
        if (valid) d.hour = n;
        s.edited = true;
        const before = s.hourText === undefined;
        s.hourText = valid ? undefined : v;
        s.estimate = undefined;
        if (before !== valid) ui.rerender();
      },
    },
  });
}

function budgetInput(s: MonitorState, d: ScheduleSettings): HTMLElement {
  return h("input", {
    id: "monitor-budget",
    type: "number",
    min: "1",
    value: d.budget === null ? "" : String(d.budget),
    on: {
      input: (ev) => {
        const v = (ev.target as HTMLInputElement).value;
        d.budget = v === "" ? null : Number(v);
        s.edited = true;
        s.estimate = undefined;
      },
    },
  });
}

/** "Estimate" and the schedule's switch: switching on waits for an estimate. */
function scheduleActions(ui: Ui, s: MonitorState, d: ScheduleSettings, hourOk: boolean): HTMLElement {
  const estimateBtn = button(
    "monitor-estimate",
    ui.pick(T.estimate),
    (b) =>
      void ui.run(s, b, async () => {
        s.estimate = await ui.call("monitorEstimate", { schedule: { ...d, enabled: false } });
      }),
    { disabled: !hourOk },
  );
  const enabled = s.status?.schedule.enabled === true;
  const toggle = button(
    "monitor-toggle",
    ui.pick(enabled ? T.off : T.on),
    (b) =>
      void ui.run(s, b, async () => {
        if (!enabled && !s.estimate) {
          s.message = { kind: "error", text: T.estimateFirst };
          return;
        }
        // The user's zone: a team server keeps the hour in UTC (shared/app/monitor-server.ts).
        s.status = await ui.call("monitorSaveSchedule", {
          schedule: { ...d, enabled: !enabled },
          utcOffsetMinutes: -new Date().getTimezoneOffset(),
        });
        s.message = { kind: "success", text: s.status.schedule.enabled ? T.isOn : T.isOff };
      }),
    { disabled: !enabled && (!s.estimate || !hourOk) },
  );
  return h("div", { class: "cd-actions" }, estimateBtn, toggle);
}
