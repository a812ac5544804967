/**
 * The Monitor panel's "Start when the workbook opens" section (Excel only:
 * shown when the status carries `startup`, shared/app/monitor-startup.ts).
 * While a schedule is on, Excel starts the add-in with the workbook; the
 * setting travels in the file, and whoever opens it without the add-in gets
 * "ADD-IN ERROR" (OfficeDev/office-js#3558). The section says so and offers
 * the switch, which holds for everyone who opens this workbook.
 */
import { catalogue } from "../../i18n/index.ts";
import type { MonitorStatusView } from "../../app/index.ts";
import type { PanelState, Ui } from "../panel.ts";
import { h } from "../dom.ts";
import { button } from "./common.ts";

const T = catalogue({
  title: { de: "Beim Öffnen der Arbeitsmappe starten", en: "Start when the workbook opens" },
  on: {
    de: "Diese Arbeitsmappe startet das Add-in beim Öffnen, solange ein Zeitplan eingeschaltet ist: Prüfungen und Ergebnisse kommen, ohne dass jemand den Aufgabenbereich öffnet. Die Einstellung wird in der Datei gespeichert. Wer die Mappe ohne dieses Add-in öffnet (etwa eine Kollegin oder ein Kollege, dem Sie sie schicken), sieht beim Öffnen „ADD-IN ERROR“; die Daten der Mappe sind davon nicht betroffen.",
    en: 'This workbook starts the add-in when it opens while a schedule is on: checks and results come in without anyone opening the task pane. The setting is saved in the file. Anyone who opens the workbook without this add-in (a colleague you send it to) sees "ADD-IN ERROR" when it opens; the workbook\'s data is not affected.',
  },
  off: {
    de: "Diese Arbeitsmappe startet das Add-in nicht beim Öffnen: Wer sie ohne das Add-in öffnet, sieht keinen Fehler. Fällige Prüfungen und die Ergebnisse des Team-Servers kommen, sobald jemand mit dem Add-in den Aufgabenbereich öffnet.",
    en: "This workbook does not start the add-in when it opens: anyone who opens it without the add-in sees no error. Due checks and the team server's results come in when someone with the add-in opens the task pane.",
  },
  turnOff: { de: "Nicht mehr beim Öffnen starten", en: "Don't start when it opens" },
  turnOn: { de: "Beim Öffnen starten", en: "Start when it opens" },
  forAll: {
    de: "Gilt für alle, die diese Arbeitsmappe öffnen.",
    en: "Applies to everyone who opens this workbook.",
  },
  nowOff: {
    de: "Die Arbeitsmappe startet das Add-in nicht mehr beim Öffnen (ab dem nächsten Öffnen).",
    en: "The workbook no longer starts the add-in when it opens (from the next opening on).",
  },
  nowOn: {
    de: "Die Arbeitsmappe startet das Add-in beim Öffnen, solange ein Zeitplan eingeschaltet ist.",
    en: "The workbook starts the add-in when it opens while a schedule is on.",
  },
});
export { T as MONITOR_STARTUP_TEXTS };

type StartupState = PanelState & { status?: MonitorStatusView | null };

/** Shown while a schedule is on, in Excel; null elsewhere. */
export function startupSection(ui: Ui, s: StartupState): HTMLElement | null {
  const startup = s.status?.startup;
  if (!startup || !s.status?.schedule.enabled) return null;
  const toggle = button(
    "monitor-startup-toggle",
    ui.pick(startup.on ? T.turnOff : T.turnOn),
    (b) =>
      void ui.run(s, b, async () => {
        s.status = await ui.call("monitorStartup", { on: !startup.on });
        s.message = { kind: "success", text: s.status.startup?.on ? T.nowOn : T.nowOff };
      }),
  );
  toggle.setAttribute("aria-describedby", "monitor-startup-note monitor-startup-all");
  return h(
    "div",
    { class: "cd-startup", id: "monitor-startup" },
    h("h3", null, ui.pick(T.title)),
    h(
      "p",
      { class: "cd-note", id: "monitor-startup-note", attrs: { "data-startup": startup.on ? "on" : "off" } },
      ui.pick(startup.on ? T.on : T.off),
    ),
    h("p", { class: "cd-note", id: "monitor-startup-all" }, ui.pick(T.forAll)),
    h("div", { class: "cd-actions" }, toggle),
  );
}
