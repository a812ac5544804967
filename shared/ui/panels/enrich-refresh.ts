/**
 * The Enrich panel's "Keep current" section: a scheduled refresh of the
 * enriched table (rows older than N days), daily or weekly at an hour, under
 * a monthly credit ceiling. The estimate (next run and 30 days at most, the
 * ceiling, what this month spent) is on screen before the schedule can be
 * switched on or a refresh started; the last run's summary below. Calls the
 * refresh* methods of shared/app/refresh.ts. API text goes in as text.
 */
import type { EnrichConfig } from "../../app/index.ts";
import type { RefreshStatusView } from "../../app/index.ts";
import type { RefreshEstimate } from "../../refresh/index.ts";
import type { RefreshSummary } from "../../refresh/index.ts";
import type { RefreshSettings, RefreshTable } from "../../refresh/index.ts";
import type { Bilingual } from "../../i18n/index.ts";
import type { ColumnMapping } from "../../enrich/index.ts";
import type { PanelState, Ui } from "../panel.ts";
import { formatNumber } from "../panel.ts";
import { h, field } from "../dom.ts";
import { button, creditsText } from "./common.ts";
import { localTime } from "./monitor.ts";

const T = {
  title: { de: "Aktuell halten (geplante Aktualisierung)", en: "Keep current (scheduled refresh)" },
  intro: {
    de: "Zeilen, deren Stand älter als N Tage ist, werden nach Zeitplan neu abgefragt. Geänderte Werte stehen alt → neu in der Spalte „Änderungen“ und je Wert als Zeile im Blatt „Aktualisierungen“. Eine Monatsgrenze für Credits wird nie überschritten.",
    en: 'Rows whose as-of date is older than N days are fetched again on a schedule. Values that changed are shown old → new in the "Changes" column and as one line each in the "Refresh log" sheet. A monthly credit ceiling is never exceeded.',
  },
  table: { de: "Tabelle", en: "Table" },
  noTable: {
    de: "Noch keine Tabelle: oben die angereicherte Tabelle markieren und lesen.",
    en: "No table yet: select and read the enriched table above.",
  },
  days: { de: "Aktualisieren, wenn älter als (Tage)", en: "Refresh when older than (days)" },
  frequency: { de: "Häufigkeit", en: "Frequency" },
  daily: { de: "Täglich", en: "Daily" },
  weekly: { de: "Wöchentlich", en: "Weekly" },
  hour: { de: "Uhrzeit (Stunde)", en: "Hour of day" },
  ceiling: { de: "Monatsgrenze (Credits)", en: "Monthly ceiling (credits)" },
  estimate: { de: "Kosten schätzen", en: "Estimate cost" },
  on: { de: "Aktualisierung einschalten", en: "Switch refresh on" },
  off: { de: "Aktualisierung ausschalten", en: "Switch refresh off" },
  isOn: { de: "Geplante Aktualisierung ist eingeschaltet", en: "Scheduled refresh is on" },
  isOff: { de: "Geplante Aktualisierung ist aus", en: "Scheduled refresh is off" },
  now: { de: "Jetzt aktualisieren", en: "Refresh now" },
  estimateFirst: { de: "Bitte zuerst die Kosten schätzen.", en: "Please estimate the cost first." },
  month: { de: "Diesen Monat verbraucht", en: "Spent this month" },
  of: { de: "von", en: "of" },
  last: { de: "Letzte Aktualisierung", en: "Last refresh" },
  paused: {
    de: "Eine Aktualisierung ist unterbrochen und wird fortgesetzt.",
    en: "A refresh is paused and will continue.",
  },
  badNumber: {
    de: "Bitte ganze Zahlen eingeben: Tage ab 1, Stunde 0 bis 23, Monatsgrenze ab 1.",
    en: "Please enter whole numbers: days from 1, hour 0 to 23, ceiling from 1.",
  },
} as const;

/** Help text for the Help panel. */
export const REFRESH_HELP: { title: Bilingual; body: Bilingual } = {
  title: { de: "Aktuell halten", en: "Keep current" },
  body: {
    de: "Im Bereich Anreichern unter „Aktuell halten“: Zeilen älter als N Tage werden täglich oder wöchentlich neu abgefragt (Google Sheets per Zeit-Trigger auch bei geschlossener Tabelle, Excel beim Öffnen und per Timer, die Kommandozeile mit company-data refresh aus cron). Geänderte Werte stehen alt → neu in der Spalte „Änderungen“ und im Blatt „Aktualisierungen“. Vor dem Einschalten zeigt die Schätzung den nächsten Lauf und die nächsten 30 Tage; die Monatsgrenze wird nie überschritten, Zeilen darüber warten auf den nächsten Monat.",
    en: 'In Enrich under "Keep current": rows older than N days are fetched again daily or weekly (Google Sheets by a time-driven trigger even while closed, Excel on opening and on a timer, the command line with company-data refresh from cron). Values that changed are shown old → new in the "Changes" column and the "Refresh log" sheet. Before it is switched on, the estimate shows the next run and the next 30 days; the monthly ceiling is never exceeded, rows beyond it wait for the next month.',
  },
};

interface Draft {
  days: string;
  frequency: RefreshSettings["frequency"];
  hour: string;
  ceiling: string;
}

export interface RefreshSectionState {
  status?: RefreshStatusView | null;
  draft?: Draft;
  estimate?: RefreshEstimate;
  last?: RefreshSummary;
}

/** The refresh's table from the Enrich panel's current table (header row + data rows, as the job reads it). */
export function refreshTableOf(c: EnrichConfig): RefreshTable {
  const mapping: ColumnMapping = {};
  for (const [role, col] of Object.entries(c.mapping)) if (col !== null) mapping[role as keyof ColumnMapping] = col;
  return {
    sheet: c.sheet,
    row: c.headerRow,
    col: c.col,
    rows: c.rows + 1,
    cols: c.cols,
    mapping,
    fields: c.fields,
    mode: c.mode,
  };
}

const wholeIn = (v: string, min: number, max: number): number | null => {
  const n = Number(v.trim());
  return v.trim() !== "" && Number.isInteger(n) && n >= min && n <= max ? n : null;
};

function load(ui: Ui, r: RefreshSectionState) {
  if (r.status !== undefined) return;
  r.status = null;
  ui.call("refreshStatus", {}).then(
    (v) => {
      r.status = v;
      const s = r.status.settings;
      r.draft ??= {
        days: String(s.olderThanDays),
        frequency: s.frequency,
        hour: String(s.hour),
        ceiling: String(s.monthCeiling),
      };
      ui.rerender();
    },
    () => undefined, // no key yet: the section works with the defaults and says what fails when the user acts
  );
}

const tableText = (t: RefreshTable, ui: Ui) =>
  `${t.sheet}, ${ui.pick({ de: "Kopfzeile", en: "header row" })} ${t.row}, ${formatNumber(t.rows - 1, ui.lang)} ${ui.pick({ de: "Zeilen", en: "rows" })}`;

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
      h(
        "li",
        { id: "refresh-last-month" },
        `${ui.pick(T.month)}: ${formatNumber(r.month.spent, ui.lang)} ${ui.pick(T.of)} ${creditsText(ui, r.month.ceiling)}`,
      ),
    ),
  );
}

/** The section. `table`: the Enrich panel's current table (null when none is read); else the saved one is shown. */
export function refreshSection(
  ui: Ui,
  s: PanelState & { refresh?: RefreshSectionState },
  table: RefreshTable | null,
): HTMLElement {
  const r = (s.refresh ??= {});
  load(ui, r);
  const saved = r.status?.settings;
  const d = (r.draft ??= { days: "30", frequency: "weekly", hour: "6", ceiling: "100" });
  const chosen = table ?? saved?.table ?? null;
  const days = wholeIn(d.days, 1, 3650);
  const hour = wholeIn(d.hour, 0, 23);
  const ceiling = wholeIn(d.ceiling, 1, 10_000_000);
  const valid = days !== null && hour !== null && ceiling !== null;
  const settings = (): Partial<RefreshSettings> => ({
    table: chosen,
    olderThanDays: days ?? 30,
    frequency: d.frequency,
    hour: hour ?? 6,
    monthCeiling: ceiling ?? 100,
  });
  const edit = (key: keyof Draft) => (ev: Event) => {
    const before = valid;
    (d as unknown as Record<string, string>)[key] = (ev.target as HTMLInputElement).value;
    // Other figures, another price: the switch waits for a new estimate.
    const hadEstimate = !!r.estimate;
    r.estimate = undefined;
    const now =
      wholeIn(d.days, 1, 3650) !== null &&
      wholeIn(d.hour, 0, 23) !== null &&
      wholeIn(d.ceiling, 1, 10_000_000) !== null;
    if (hadEstimate || before !== now) ui.rerender();
  };
  const number = (id: string, key: keyof Draft, min: string, max?: string) =>
    h("input", { id, type: "number", min, max, step: "1", value: d[key], on: { input: edit(key) } });
  const freq = h(
    "select",
    {
      id: "refresh-frequency",
      on: {
        change: (ev) => (
          (d.frequency = (ev.target as HTMLSelectElement).value as Draft["frequency"]),
          (r.estimate = undefined),
          ui.rerender()
        ),
      },
    },
    h("option", { value: "daily" }, ui.pick(T.daily)),
    h("option", { value: "weekly" }, ui.pick(T.weekly)),
  );
  freq.value = d.frequency;

  const estimateBtn = button(
    "refresh-estimate",
    ui.pick(T.estimate),
    (b) =>
      void ui.run(s, b, async () => {
        r.estimate = await ui.call("refreshEstimate", { refresh: { ...settings(), enabled: false } });
      }),
    { disabled: !chosen || !valid },
  );
  const enabled = saved?.enabled === true;
  const toggle = button(
    "refresh-toggle",
    ui.pick(enabled ? T.off : T.on),
    (b) =>
      void ui.run(s, b, async () => {
        if (!enabled && !r.estimate) {
          s.message = { kind: "error", text: T.estimateFirst };
          return;
        }
        r.status = await ui.call("refreshSaveSettings", { refresh: { ...settings(), enabled: !enabled } });
        s.message = { kind: "success", text: r.status.settings.enabled ? T.isOn : T.isOff };
      }),
    { disabled: !enabled && (!r.estimate || !valid) },
  );
  // Refresh now spends at most the next run shown; it waits for the estimate like the switch.
  const est = r.estimate;
  const runBtn = button(
    "refresh-run",
    est
      ? `${ui.pick(T.now)} (${ui.pick({ de: "höchstens", en: "at most" })} ${creditsText(ui, est.nextRun)})`
      : ui.pick(T.now),
    (b) =>
      void ui.run(s, b, async () => {
        // The settings shown are the ones the run uses (saved first, the switch as it is).
        r.status = await ui.call("refreshSaveSettings", { refresh: { ...settings(), enabled } });
        let out: RefreshSummary;
        let steps = 0;
        do out = await ui.call("refreshRun", {});
        while (out.status === "paused" && ++steps < 50);
        r.last = out;
        s.message = { kind: out.status === "done" ? "success" : "info", text: out.message };
        r.status = undefined; // the month's spend and the last run, read again
        r.estimate = undefined; // the next price is another one: shown again before anything is spent
        void ui.refreshAccount();
      }),
    { disabled: !est || !valid },
  );

  const month = r.status?.month;
  const last = r.last ?? r.status?.last ?? null;
  return h(
    "section",
    { class: "cd-step cd-refresh", id: "enrich-refresh", attrs: { "aria-labelledby": "enrich-h-refresh" } },
    h("h2", { id: "enrich-h-refresh" }, ui.pick(T.title)),
    h("p", { class: "cd-note" }, ui.pick(T.intro)),
    h("p", { id: "refresh-table" }, chosen ? `${ui.pick(T.table)}: ${tableText(chosen, ui)}` : ui.pick(T.noTable)),
    h("p", { class: "cd-note", id: "refresh-state" }, ui.pick(enabled ? T.isOn : T.isOff)),
    field(ui.pick(T.days), number("refresh-days", "days", "1")),
    field(ui.pick(T.frequency), freq),
    field(ui.pick(T.hour), number("refresh-hour", "hour", "0", "23")),
    field(ui.pick(T.ceiling), number("refresh-ceiling", "ceiling", "1")),
    valid ? null : h("p", { class: "cd-status is-error", id: "refresh-number-error" }, ui.pick(T.badNumber)),
    h("div", { class: "cd-actions" }, estimateBtn, toggle, runBtn),
    est
      ? h(
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
        )
      : null,
    month
      ? h(
          "p",
          { class: "cd-note", id: "refresh-month" },
          `${ui.pick(T.month)}: ${formatNumber(month.spent, ui.lang)} ${ui.pick(T.of)} ${creditsText(ui, month.ceiling)}`,
        )
      : null,
    r.status?.paused ? h("p", { class: "cd-note", id: "refresh-paused" }, ui.pick(T.paused)) : null,
    r.status ? h("p", { class: "cd-note", id: "refresh-host-note" }, ui.pick(r.status.hostNote)) : null,
    last ? summaryView(ui, last) : null,
  );
}
