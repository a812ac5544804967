/**
 * Where a document's alerts go: e-mail recipients (Google Sheets only: MailApp)
 * and/or one webhook. Per document, like the schedule: the portfolio's
 * alerts belong to the workbook, not to whoever opened it last. After every
 * finished check the configured channels get what is new (alerts.ts).
 */
import { storeGet, storePut, type Operation } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import { readSaved, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import type { Bilingual } from "../i18n/index.ts";
import type { OpContext } from "../operations/index.ts";
import {
  deliverAlerts,
  DeliveryError,
  lastDelivery,
  pendingAlerts,
  type DeliveryOutcome,
  type DeliveryRecord,
  type Digest,
} from "./alerts.ts";
import { checkWebhookUrl, postWebhook } from "./webhook.ts";

export interface AlertSettings {
  /** E-mail recipients of the digest (each one counts against MailApp's daily recipient quota). */
  email: string[];
  /** Webhook address (a secret: shown masked, never logged). */
  webhook: string | null;
}

export const ALERTS_KEY = "doc:mon:alerts";
export const DEFAULT_ALERTS: AlertSettings = { email: [], webhook: null };
/** Recipients per digest: a team, not a mailing list (each costs one of the day's recipient quota). */
export const MAX_RECIPIENTS = 10;

/**
 * The webhook prefixes the Sheets add-on may post to: Apps Script fetches
 * only URLs under the manifest's `urlFetchWhitelist` ("Allowlist URLs",
 * https://developers.google.com/apps-script/manifest/allowlist-url: https
 * prefixes with a non-empty path; a leading `*` matches subdomains). Slack
 * incoming webhooks and Teams Workflow triggers ("Post to a channel when a
 * webhook request is received"), whose addresses are on
 * `prod-NN.REGION.logic.azure.com` and, for newer workflows, on
 * `….environment.api.powerplatform.com`. Teams' Office 365 connector
 * webhooks (`*.webhook.office.com`) are not listed: Microsoft retired them
 * (https://devblogs.microsoft.com/microsoft365dev/retirement-of-office-365-connectors-within-microsoft-teams/,
 * final shutdown May 2026), so such an address could only fail.
 * manifests/appsscript.json lists exactly these.
 */
export const SHEETS_WEBHOOK_PREFIXES = [
  "https://hooks.slack.com/",
  "https://*.logic.azure.com/",
  "https://*.environment.api.powerplatform.com/",
] as const;

/** Does a URL lie under an allowlist prefix (Apps Script's rule: a leading `*.` matches any subdomain)? */
export function underPrefix(url: string, prefix: string): boolean {
  const m = /^https:\/\/\*\.([^/]+)(\/.*)$/.exec(prefix);
  if (!m) return url.startsWith(prefix);
  const u = /^https:\/\/([^/?#]+)(.*)$/i.exec(url);
  if (!u) return false;
  // Every group of both patterns takes part in a match.
  const [, hostPart = "", rest = ""] = u;
  const [, domain = "", pathPrefix = ""] = m;
  const host = hostPart.toLowerCase();
  return host.endsWith("." + domain) && (rest + (rest ? "" : "/")).startsWith(pathPrefix);
}

const EMAIL = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/;
const LABEL_EMAIL: Bilingual = { de: "E-Mail-Empfänger", en: "e-mail recipients" };
const LABEL_WEBHOOK: Bilingual = { de: "Webhook-Adresse", en: "webhook address" };

/**
 * Who posts the webhook: Google's servers (Sheets, UrlFetchApp), the page
 * itself (Excel's webview, the playground: a browser `fetch`, under CORS),
 * the team server (with a team server as the connection, its schedule sends
 * the alerts: server/schedules/run.ts), or "server" for hosts that are not a
 * browser (tests).
 */
export type WebhookSender = "google" | "browser" | "team-server" | "server";

export function webhookSender(host: string, connection: "direct" | "server" = "direct"): WebhookSender {
  // With a team server the portfolio schedule runs there and its alerts leave from there (issue 24), on every host.
  if (connection === "server") return "team-server";
  if (host === "sheets") return "google";
  if (host === "excel" || host === "playground") return "browser";
  return "server";
}

/**
 * Slack's incoming webhooks and Teams' connector webhooks answer a
 * browser's CORS preflight for a JSON post with no
 * Access-Control-Allow-Origin, so a post from Excel or the playground never
 * arrives (the Fetch standard's CORS check; a JSON Content-Type is not a
 * "simple" request and needs the preflight). They work from Google's
 * servers. A Teams Workflow trigger
 * (*.logic.azure.com) is left to the receiver's CORS answer, like any other
 * https address (shared/monitor/README.md).
 */
export const NO_BROWSER_WEBHOOK_PREFIXES = ["https://hooks.slack.com/", "https://*.webhook.office.com/"] as const;

/**
 * Validate settings from the panel. `email` is a list or text with commas,
 * semicolons or line breaks; `webhook` "" clears it, undefined keeps `current`.
 * `host` "sheets" holds the webhook to the manifest's allowlist; a browser
 * host without a team server (`sender` "browser") cannot post to Slack or Teams.
 */
export function alertSettings(
  value: unknown,
  current: AlertSettings,
  host: string,
  sender: WebhookSender = webhookSender(host),
): AlertSettings {
  if (typeof value !== "object" || value === null)
    throw invalid("alerts", { de: "erwartet Einstellungen für Benachrichtigungen", en: "expected alert settings" });
  const v = value as Record<string, unknown>;
  let email = current.email;
  if (v.email !== undefined) {
    const list = Array.isArray(v.email) ? v.email.map(String) : String(v.email ?? "").split(/[,;\n]/);
    email = [...new Set(list.map((s) => s.trim()).filter(Boolean))];
    const bad = email.find((e) => !EMAIL.test(e));
    if (bad !== undefined)
      throw invalid(
        "email",
        { de: `„${bad.slice(0, 80)}“ ist keine E-Mail-Adresse`, en: `"${bad.slice(0, 80)}" is not an e-mail address` },
        LABEL_EMAIL,
      );
    if (email.length > MAX_RECIPIENTS)
      throw invalid(
        "email",
        { de: `höchstens ${MAX_RECIPIENTS} Empfänger`, en: `at most ${MAX_RECIPIENTS} recipients` },
        LABEL_EMAIL,
      );
    // Google Sheets sends with MailApp, the team server with its SMTP relay (server/schedules/mail.ts).
    if (email.length && host !== "sheets" && host !== "test" && host !== "team-server")
      throw invalid(
        "email",
        {
          de: "E-Mails verschickt nur das Google-Sheets-Add-on; hier bitte einen Webhook nutzen",
          en: "only the Google Sheets add-on sends e-mail; please use a webhook here",
        },
        LABEL_EMAIL,
      );
  }
  let webhook = current.webhook;
  if (v.webhook !== undefined) {
    const text = String(v.webhook ?? "").trim();
    webhook = text === "" ? null : checkWebhookUrl(text);
    if (webhook && host === "sheets" && !SHEETS_WEBHOOK_PREFIXES.some((p) => underPrefix(webhook!, p)))
      throw invalid(
        "webhook",
        {
          de: `Google Sheets darf nur an Slack- und Teams-Webhooks senden (${SHEETS_WEBHOOK_PREFIXES.join(", ")})`,
          en: `Google Sheets may only post to Slack and Teams webhooks (${SHEETS_WEBHOOK_PREFIXES.join(", ")})`,
        },
        LABEL_WEBHOOK,
      );
    if (webhook && sender === "browser" && NO_BROWSER_WEBHOOK_PREFIXES.some((p) => underPrefix(webhook!, p)))
      throw invalid("webhook", BROWSER_WEBHOOK_REFUSED, LABEL_WEBHOOK);
  }
  return { email, webhook };
}

export const BROWSER_WEBHOOK_REFUSED: Bilingual = {
  de: "Slack und Teams nehmen keine Benachrichtigungen aus Excel oder einem Browser an (kein CORS). Bitte eine Adresse verwenden, die Aufrufe aus dem Browser erlaubt (z. B. einen Teams-Workflow oder ein eigenes Relay), oder die Benachrichtigungen aus Google Sheets oder der Befehlszeile senden (company-data monitor --notify)",
  en: "Slack and Teams accept no alerts from Excel or a browser (no CORS). Please use an address that allows calls from a browser (e.g. a Teams Workflow or a relay of your own), or send the alerts from Google Sheets or the command line (company-data monitor --notify)",
};

const alertSettingsShape = z.object({ email: z.array(z.string()), webhook: z.nullable(z.string()) });
/** Written without a version before v1: still read (the user's recipients and webhook). */
export const SAVED_ALERTS = savedKind<AlertSettings>(1, alertSettingsShape, alertSettingsShape);

export function* loadAlertSettings(): Operation<AlertSettings> {
  const [raw] = yield* storeGet([ALERTS_KEY]);
  return readSaved(SAVED_ALERTS, raw) ?? { ...DEFAULT_ALERTS };
}

export function* saveAlertSettings(s: AlertSettings): Operation<void> {
  yield* storePut({ [ALERTS_KEY]: writeSaved(SAVED_ALERTS, s) });
}

/**
 * How a host sends e-mail (Apps Script: MailApp). Synchronous, like the
 * host's clock; hosts without one cannot take the e-mail channel.
 */
export interface Mailer {
  /** Recipients the account may still send to today. */
  remainingRecipients(): number;
  send(to: string[], subject: string, body: string): void;
}

/** The channels a check notes news for, on a host with or without a mailer. */
export function channelsOf(s: AlertSettings, mailer: Mailer | undefined): string[] {
  return [...(s.email.length && mailer ? ["email"] : []), ...(s.webhook ? ["webhook"] : [])];
}

/** The e-mail channel: the digest to every recipient, if today's recipient quota still covers them all. */
export function mailTo(mailer: Mailer, to: string[]): (d: Digest) => Operation<void> {
  return function* (d: Digest) {
    if (mailer.remainingRecipients() < to.length)
      throw new DeliveryError({
        de: "Das Tageskontingent für E-Mail-Empfänger ist aufgebraucht; die Benachrichtigung wird mit dem nächsten Lauf gesendet.",
        en: "Today's e-mail recipient quota is used up; the alert goes out with the next run.",
      });
    try {
      mailer.send(to, d.subject, d.text);
    } catch {
      // The service's own text can name addresses or quotas in its language: say it in ours.
      throw new DeliveryError({ de: "Die E-Mail konnte nicht gesendet werden.", en: "The e-mail could not be sent." });
    }
  };
}

/** Deliver what each configured channel has waiting. */
export function* deliverConfigured(
  ctx: OpContext,
  s: AlertSettings,
  mailer: Mailer | undefined,
): Operation<Partial<Record<"email" | "webhook", DeliveryOutcome>>> {
  const out: Partial<Record<"email" | "webhook", DeliveryOutcome>> = {};
  if (s.email.length && mailer) out.email = yield* deliverAlerts(ctx, "email", mailTo(mailer, s.email));
  if (s.webhook) out.webhook = yield* deliverAlerts(ctx, "webhook", postWebhook(s.webhook));
  return out;
}

/** What the panel shows per channel: how many companies are waiting and the last attempt. */
export interface AlertChannelView {
  channel: "email" | "webhook";
  /** Recipients, or the webhook's host only ("hooks.slack.com/…"): the address itself is a secret. */
  target: string;
  waiting: number;
  last: DeliveryRecord | null;
}

export const maskWebhook = (url: string) => (/^https?:\/\/([^/?#]+)/i.exec(url)?.[1] ?? "") + "/…";

export function* alertViews(ctx: OpContext, s: AlertSettings): Operation<AlertChannelView[]> {
  const views: AlertChannelView[] = [];
  if (s.email.length)
    views.push({
      channel: "email",
      target: s.email.join(", "),
      waiting: (yield* pendingAlerts(ctx, "email")).length,
      last: yield* lastDelivery(ctx, "email"),
    });
  if (s.webhook)
    views.push({
      channel: "webhook",
      target: maskWebhook(s.webhook),
      waiting: (yield* pendingAlerts(ctx, "webhook")).length,
      last: yield* lastDelivery(ctx, "webhook"),
    });
  return views;
}
