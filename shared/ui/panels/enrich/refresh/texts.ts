/** The "Keep current" section's own texts, and its entry in the Help panel. */
import type { Bilingual } from "../../../../i18n/index.ts";

export const T = {
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
