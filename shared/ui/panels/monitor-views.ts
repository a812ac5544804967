/**
 * The Monitor panel's read-only views: a run's summary, the schedule's
 * estimate, and times in the user's own zone (also the refresh section's).
 */
import { catalogue } from "../../i18n/index.ts";
import type { RunSummary, ScheduleEstimate } from "../../monitor/index.ts";
import type { Ui } from "../panel.ts";
import { formatNumber } from "../panel.ts";
import { h } from "../dom.ts";
import { creditsText } from "./common.ts";

const T = catalogue({
  last: { de: "Letzte Prüfung", en: "Last check" },
});

/** A run's time in the user's own time zone, named, e.g. "12.06.2026, 09:30 MESZ". */
export function localTime(iso: string, lang: Ui["lang"]): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString(lang === "de" ? "de-DE" : "en-GB", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  });
}

export function summaryView(ui: Ui, r: RunSummary, id: string): HTMLElement {
  const when = r.finishedAt ? localTime(r.finishedAt, ui.lang) : "";
  return h(
    "div",
    { class: "cd-summary", id },
    // The time carries its zone's name ("MESZ", "UTC"): no second word for it.
    h("p", null, `${ui.pick(T.last)}${when ? ` (${when})` : ""}: ${ui.pick(r.message)}`),
    h(
      "ul",
      null,
      h(
        "li",
        { class: "cd-risk" },
        `${ui.pick({ de: "Risiko", en: "Risk" })}: ${formatNumber(r.groups.risk, ui.lang)}`,
      ),
      h(
        "li",
        { class: "cd-watch" },
        `${ui.pick({ de: "Beobachten", en: "Watch" })}: ${formatNumber(r.groups.watch, ui.lang)}`,
      ),
      h(
        "li",
        { class: "cd-none" },
        `${ui.pick({ de: "Keine Auffälligkeiten", en: "No flags" })}: ${formatNumber(r.groups.none, ui.lang)}`,
      ),
      r.ambiguous
        ? h(
            "li",
            null,
            `${ui.pick({ de: "Mehrdeutig (bitte wählen)", en: "Ambiguous (please pick)" })}: ${r.ambiguous}`,
          )
        : null,
      h("li", null, `${ui.pick({ de: "Neue Änderungen", en: "New changes" })}: ${formatNumber(r.newChanges, ui.lang)}`),
      // The whole run, every step of a check continued after a pause: what the spend log and the balance show.
      h(
        "li",
        { id: `${id}-spent` },
        `${ui.pick({ de: "Verbraucht", en: "Spent" })}: ${creditsText(ui, r.runSpent ?? r.spent)}`,
      ),
    ),
  );
}

/** What the schedule costs: next run, and at most per run, day and month. */
export function estimateView(ui: Ui, estimate: ScheduleEstimate | undefined): HTMLElement | null {
  return estimate
    ? h(
        "div",
        { class: "cd-estimate", id: "monitor-estimate-view" },
        h("p", null, ui.pick(estimate.text)),
        h(
          "ul",
          null,
          h("li", null, `${ui.pick({ de: "Nächster Lauf", en: "Next run" })}: ${creditsText(ui, estimate.nextRun)}`),
          h(
            "li",
            null,
            `${ui.pick({ de: "Je Lauf höchstens", en: "Per run at most" })}: ${creditsText(ui, estimate.perRun)}`,
          ),
          h(
            "li",
            null,
            `${ui.pick({ de: "Je Tag höchstens", en: "Per day at most" })}: ${creditsText(ui, estimate.perDay)}`,
          ),
          h(
            "li",
            null,
            `${ui.pick({ de: "Je Monat höchstens", en: "Per month at most" })}: ${creditsText(ui, estimate.perMonth)}`,
          ),
        ),
      )
    : null;
}
