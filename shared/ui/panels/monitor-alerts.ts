/**
 * The Monitor panel's alert section: where the digest of new risk moves and
 * register changes goes after every finished check (e-mail recipients on
 * Google Sheets or from a team server with SMTP, a webhook on every host:
 * Slack and Teams only where the sender can reach them, i.e. Google's
 * servers or the team server, never the page itself), and per channel whether the last
 * delivery arrived — a failed one says why and that it is retried with the
 * next run. Calls monitorSaveAlerts (shared/app/monitor.ts). The webhook's
 * address is a secret: the panel only ever gets its host back.
 */
import { catalogue } from "../../i18n/index.ts";
import type { AlertsInput, MonitorStatusView } from "../../app/index.ts";
import type { AlertChannelView } from "../../monitor/index.ts";
import type { PanelState, Ui } from "../panel.ts";
import { h, field } from "../dom.ts";
import { button } from "./common.ts";

const T = catalogue({
  title: { de: "Benachrichtigungen", en: "Alerts" },
  intro: {
    de: "Nach jeder Prüfung: Firmen, die ins Risiko wechseln (oder es verlassen), und neue Registeränderungen, jede nur einmal.",
    en: "After every check: companies moving into (or out of) risk, and new register changes, each only once.",
  },
  email: { de: "E-Mail an (mit Komma getrennt)", en: "E-mail to (comma-separated)" },
  webhook: { de: "Webhook-Adresse (Slack, Teams; leer = keiner)", en: "Webhook address (Slack, Teams; empty = none)" },
  webhookBrowser: { de: "Webhook-Adresse (leer = keiner)", en: "Webhook address (empty = none)" },
  webhookBrowserHint: {
    de: "Gesendet von dieser Seite: Die Adresse muss Aufrufe aus dem Browser erlauben (CORS). Slack- und Teams-Webhooks tun das nicht; sie erreichen Sie mit einem Team-Server (Einstellungen › Verbindung: Team-Server, er sendet sie), aus Google Sheets oder mit company-data monitor --notify.",
    en: "Sent from this page: the address must allow calls from a browser (CORS). Slack and Teams webhooks do not; reach them with a team server (Settings › Connection: Team server, which sends them), from Google Sheets or with company-data monitor --notify.",
  },
  webhookServer: {
    de: "Webhook-Adresse (Slack, Teams oder eine andere https-Adresse; leer = keiner)",
    en: "Webhook address (Slack, Teams or another https address; empty = none)",
  },
  serverHint: {
    de: "Gesendet vom Team-Server nach jedem seiner Läufe, auch bei geschlossener Arbeitsmappe.",
    en: "Sent by the team server after each of its runs, also while the workbook is closed.",
  },
  webhookKept: { de: "gespeichert: ", en: "saved: " },
  save: { de: "Benachrichtigungen speichern", en: "Save alerts" },
  saved: { de: "Benachrichtigungen gespeichert.", en: "Alerts saved." },
  never: { de: "noch nichts gesendet", en: "nothing sent yet" },
});
export { T as ALERTS_PANEL_TEXTS };

/** Where an alert went, by channel. */
export const CHANNEL_LABEL = catalogue({
  email: { de: "E-Mail", en: "E-mail" },
  webhook: { de: "Webhook", en: "Webhook" },
});

interface AlertsDraft {
  email: string;
  /** undefined: keep the saved webhook. */
  webhook?: string;
}

const when = (iso: string, lang: Ui["lang"]) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(lang === "de" ? "de-DE" : "en-GB", {
        day: "2-digit",
        month: "2-digit",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
      });
};

function channelLine(ui: Ui, c: AlertChannelView): HTMLElement {
  const name = `${ui.pick(CHANNEL_LABEL[c.channel])} (${c.target})`;
  const waiting = c.waiting
    ? ui.pick({
        de: `${c.waiting} ${c.waiting === 1 ? "Firma wartet" : "Firmen warten"} auf Zustellung.`,
        en: `${c.waiting} ${c.waiting === 1 ? "company is" : "companies are"} waiting to be sent.`,
      })
    : "";
  const last = c.last;
  const text = !last
    ? ui.pick(T.never)
    : last.ok
      ? ui.pick({ de: `zuletzt zugestellt ${when(last.at, "de")}`, en: `last delivered ${when(last.at, "en")}` })
      : ui.pick({
          de: `NICHT zugestellt (${when(last.at, "de")}, ${last.failures}. Versuch): ${last.error?.de ?? ""} Wird mit dem nächsten Lauf erneut gesendet.`,
          en: `NOT delivered (${when(last.at, "en")}, attempt ${last.failures}): ${last.error?.en ?? ""} Sent again with the next run.`,
        });
  return h(
    "li",
    { class: last && !last.ok ? "cd-alert-failed" : "cd-alert-ok", attrs: { "data-channel": c.channel } },
    `${name}: ${text}${waiting ? " " + waiting : ""}`,
  );
}

/** The section; `s.status` is the monitor panel's status (it is replaced by what the save answers). */
export function alertsSection(
  ui: Ui,
  s: PanelState & { status?: MonitorStatusView | null; alertsDraft?: AlertsDraft },
): HTMLElement {
  const views = s.status?.alerts ?? [];
  const savedEmail = views.find((v) => v.channel === "email")?.target ?? "";
  const savedHook = views.find((v) => v.channel === "webhook")?.target;
  const d = (s.alertsDraft ??= { email: savedEmail });
  // Slack and Teams are offered only where a post can arrive: not from the page itself (no CORS).
  const sender = s.status?.webhookSender ?? "google";
  // E-mail goes out by MailApp (the Sheets add-on), or from a team server that has an SMTP relay.
  const canMail = sender === "team-server" ? s.status?.server?.mail === true : ui.host.kind === "sheets";
  const email = canMail
    ? h("input", {
        id: "monitor-alert-email",
        type: "text",
        value: d.email,
        on: { input: (ev) => (d.email = (ev.target as HTMLInputElement).value) },
      })
    : null;
  const webhook = h("input", {
    id: "monitor-alert-webhook",
    type: "url",
    value: d.webhook ?? "",
    placeholder: savedHook
      ? `${ui.pick(T.webhookKept)}${savedHook}`
      : sender === "browser"
        ? "https://…"
        : "https://hooks.slack.com/services/…",
    on: { input: (ev) => (d.webhook = (ev.target as HTMLInputElement).value) },
  });
  const save = button(
    "monitor-alert-save",
    ui.pick(T.save),
    (b) =>
      void ui.run(s, b, async () => {
        const alerts: AlertsInput = {};
        if (canMail) alerts.email = d.email;
        if (d.webhook !== undefined) alerts.webhook = d.webhook;
        s.status = await ui.call("monitorSaveAlerts", { alerts });
        s.alertsDraft = undefined;
        s.message = { kind: "success", text: T.saved };
      }),
  );
  return h(
    "div",
    { class: "cd-alerts", id: "monitor-alerts" },
    h("h2", null, ui.pick(T.title)),
    h("p", { class: "cd-note" }, ui.pick(T.intro)),
    email ? field(ui.pick(T.email), email) : null,
    sender === "browser"
      ? field(ui.pick(T.webhookBrowser), webhook, ui.pick(T.webhookBrowserHint))
      : sender === "team-server"
        ? field(ui.pick(T.webhookServer), webhook, ui.pick(T.serverHint))
        : field(ui.pick(T.webhook), webhook),
    h("div", { class: "cd-actions" }, save),
    views.length ? h("ul", { id: "monitor-alert-status" }, ...views.map((v) => channelLine(ui, v))) : null,
  );
}
