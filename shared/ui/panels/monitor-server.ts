/**
 * The Monitor panel's team-server section (issue 24): with a team server as
 * the connection the portfolio schedule runs on the server, also while the
 * workbook is closed. Shown: whether it is registered there, its next run
 * and the last server run written into this workbook; "Fetch results now"
 * (monitorSync) writes what the server's runs found since. When the panel
 * opens with a registered schedule it fetches once by itself (the
 * playground's "on open"; Excel's runtime also does it on open and on a
 * timer, excel-addin/server-sync.ts).
 *
 * Sharing (issue 42): the owner's copy shows whether colleagues who open the
 * workbook sync the schedule's runs (shared with the team read-only) and a
 * switch; a colleague's copy says whose schedule it is and that it only
 * fetches its results (shared/app/monitor-share.ts).
 */
import { catalogue } from "../../i18n/index.ts";
import type { MonitorStatusView, MonitorSyncView } from "../../app/index.ts";
import type { PanelState, Ui } from "../panel.ts";
import { h } from "../dom.ts";
import { button, creditsText } from "./common.ts";
import { localTime } from "./monitor-views.ts";

const T = catalogue({
  title: { de: "Team-Server", en: "Team server" },
  on: { de: "Der Zeitplan ist auf dem Team-Server eingeschaltet.", en: "The schedule is on, on the team server." },
  off: { de: "Auf dem Team-Server ist kein Zeitplan eingeschaltet.", en: "No schedule is on, on the team server." },
  next: { de: "Nächster Lauf", en: "Next run" },
  lastRun: { de: "Letzter Lauf auf dem Server", en: "Last run on the server" },
  synced: { de: "Zuletzt abgeholt", en: "Last fetched" },
  fetch: { de: "Ergebnisse jetzt holen", en: "Fetch results now" },
  nothing: { de: "Keine neuen Läufe seit dem letzten Abholen.", en: "No new runs since the last fetch." },
  sharedOn: {
    de: "Mit dem Team geteilt (nur lesen): Kolleginnen und Kollegen, die diese Arbeitsmappe mit ihrem eigenen Token öffnen, holen die Ergebnisse des Zeitplans in die Mappe; ändern, ausführen oder löschen kann ihn nur, wer ihn eingeschaltet hat.",
    en: "Shared with the team (read-only): colleagues who open this workbook with their own token fetch the schedule's results into it; only whoever switched it on can change, run or delete it.",
  },
  sharedOff: {
    de: "Nicht geteilt: Nur Sie holen die Ergebnisse; wer die Mappe mit einem eigenen Token öffnet, bekommt keine.",
    en: "Not shared: only you fetch the results; anyone who opens the workbook with a token of their own gets none.",
  },
  share: { de: "Mit dem Team teilen (nur lesen)", en: "Share with the team (read-only)" },
  unshare: { de: "Nicht mehr teilen", en: "Stop sharing" },
  foreign: {
    de: (owner: string) =>
      `Dieser Zeitplan gehört ${owner} und ist mit dem Team geteilt (nur lesen): Diese Kopie holt seine Ergebnisse; ändern kann ihn nur ${owner}.`,
    en: (owner: string) =>
      `This schedule belongs to ${owner} and is shared with the team (read-only): this copy fetches its results; only ${owner} can change it.`,
  },
});

type ServerState = PanelState & { status?: MonitorStatusView | null; serverFetched?: boolean };

const fetchedText = (v: MonitorSyncView) =>
  v.runs === 0
    ? T.nothing
    : {
        de: `${v.runs} ${v.runs === 1 ? "Lauf" : "Läufe"} übernommen: ${v.rows} Zeilen aktualisiert, ${v.lines} neue Änderungen im Protokoll.`,
        en: `${v.runs} ${v.runs === 1 ? "run" : "runs"} taken over: ${v.rows} rows updated, ${v.lines} new changes in the log.`,
      };

/** Fetch the server's runs into the workbook, then ask for the status again (it shows the last run). */
async function fetchRuns(ui: Ui, s: ServerState): Promise<void> {
  const v = await ui.call("monitorSync", {});
  s.message = { kind: "success", text: fetchedText(v) };
  s.status = undefined;
}

/** Whose schedule it is and, for the owner, whether the team may read it, with the switch. */
function shareView(ui: Ui, s: ServerState): HTMLElement | null {
  const server = s.status?.server;
  if (!server) return null;
  if (server.owner !== undefined) {
    const owner = server.owner;
    return h(
      "p",
      { class: "cd-note", id: "monitor-server-owner" },
      ui.pick({ de: T.foreign.de(owner), en: T.foreign.en(owner) }),
    );
  }
  const toggle = button(
    "monitor-server-share",
    ui.pick(server.shared ? T.unshare : T.share),
    (b) =>
      void ui.run(s, b, async () => {
        s.status = await ui.call("monitorShare", { shared: !server.shared });
        s.message = { kind: "success", text: s.status.server?.shared ? T.sharedOn : T.sharedOff };
      }),
  );
  toggle.setAttribute("aria-describedby", "monitor-server-shared");
  return h(
    "div",
    { class: "cd-share" },
    h(
      "p",
      { class: "cd-note", id: "monitor-server-shared", attrs: { "data-shared": server.shared ? "on" : "off" } },
      ui.pick(server.shared ? T.sharedOn : T.sharedOff),
    ),
    h("div", { class: "cd-actions" }, toggle),
  );
}

export function serverSection(ui: Ui, s: ServerState): HTMLElement | null {
  const server = s.status?.server;
  if (!server) return null;
  if (server.registered && !s.serverFetched) {
    s.serverFetched = true;
    fetchRuns(ui, s).then(
      () => ui.rerender(),
      (e) => ((s.message = ui.errorMessage(e)), ui.rerender()),
    );
  }
  const last = server.lastRun;
  const when = (iso: string | null) => (iso ? localTime(iso, ui.lang) : "–");
  return h(
    "div",
    { class: "cd-server-schedule", id: "monitor-server" },
    h("h2", null, ui.pick(T.title)),
    h("p", { class: "cd-note", id: "monitor-server-state" }, ui.pick(server.registered ? T.on : T.off)),
    server.registered ? h("p", { id: "monitor-server-next" }, `${ui.pick(T.next)}: ${when(server.nextRun)}`) : null,
    last
      ? h(
          "p",
          { id: "monitor-server-last" },
          `${ui.pick(T.lastRun)} (${when(last.finishedAt)}): ${ui.pick(last.message)} · ${creditsText(ui, last.credits)}`,
        )
      : null,
    server.syncedAt ? h("p", { class: "cd-note" }, `${ui.pick(T.synced)}: ${when(server.syncedAt)}`) : null,
    server.unreachable ? h("p", { class: "cd-status is-error" }, ui.pick(server.unreachable)) : null,
    shareView(ui, s),
    server.registered
      ? h(
          "div",
          { class: "cd-actions" },
          button("monitor-server-sync", ui.pick(T.fetch), (b) => void ui.run(s, b, () => fetchRuns(ui, s))),
        )
      : null,
  );
}
