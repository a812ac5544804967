/**
 * The alert digest as a webhook: one JSON POST, from any host (the `http`
 * effect: UrlFetchApp, fetch, Node).
 *
 * Payload (decided here, documented in shared/monitor/README.md):
 *   {
 *     "text": "...",            // subject + digest as plain text: what Slack and
 *                               // Teams incoming webhooks show
 *     "source": "company-data", "version": 1,
 *     "language": "de" | "en", "generatedAt": "2026-03-04T20:00:00Z",
 *     "subject": "...", "intoRisk": 1, "changes": 2,
 *     "companies": [{ "id", "name", "from", "to", "fromLabel", "toLabel", "flag",
 *                     "changes": [{ "key", "date", "kind", "text", "source" }] }]
 *   }
 * Slack incoming webhooks take `{"text": …}` and treat `&`, `<`, `>` as markup
 * (`<!channel>` would ping everyone: https://api.slack.com/reference/surfaces/formatting#escaping),
 * so `text` has those three escaped; register text is never markup. Teams'
 * connector webhooks also show `text`; the structured fields are for any
 * other receiver (a Teams Workflow, Zapier, an own service) to pick from.
 *
 * The webhook address is a secret (whoever has it can post to the channel):
 * it is never part of a message, a log line or an error text.
 */
import { http, type Operation } from "../core/index.ts";
import { header } from "../core/index.ts";
import { isLoopbackHost } from "../api/index.ts";
import { invalid } from "../core/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import { DeliveryError, type Digest } from "./alerts.ts";
import { GROUP_LABEL } from "./risk.ts";

/** Characters of `text` kept for chat channels (Slack cuts messages near 40,000); the JSON fields carry everything. */
export const WEBHOOK_TEXT_CHARS = 35_000;

const WEBHOOK_LABEL: Bilingual = { de: "Webhook-Adresse", en: "webhook address" };

/**
 * The webhook address, checked: https (http only to this machine, for tests
 * and local receivers), no user:password. Query strings are allowed (Teams
 * Workflow addresses carry their signature in one). The error never repeats
 * the address.
 */
export function checkWebhookUrl(url: string): string {
  const v = typeof url === "string" ? url.trim() : "";
  const m = /^(https?):\/\/([^/?#\s]+)([^\s]*)$/i.exec(v);
  const fail = (de: string, en: string) => invalid("webhook", { de, en }, WEBHOOK_LABEL);
  if (!m) throw fail("keine gültige https://-Adresse", "not a valid https:// address");
  // Every group of the pattern takes part in a match.
  const [, schemePart = "", authority = ""] = m;
  const scheme = schemePart.toLowerCase();
  if (authority.includes("@"))
    throw fail("Benutzername oder Passwort gehören nicht in die Adresse", "no user name or password in the address");
  const host = authority.replace(/:\d+$/, "").toLowerCase();
  if (scheme === "http" && !isLoopbackHost(host))
    throw fail("nur https:// (http:// nur für diesen Rechner)", "https:// only (http:// only for this machine)");
  // The default port written out (Teams Workflow addresses come as https://prod-NN.REGION.logic.azure.com:443/workflows/…)
  // is the same address without it; without it, it also lies under an allowlist prefix, which names no port.
  const port = /:(\d+)$/.exec(authority)?.[1];
  return port === (scheme === "https" ? "443" : "80")
    ? `${schemePart}://${authority.slice(0, -port.length - 1)}${v.slice(schemePart.length + 3 + authority.length)}`
    : v;
}

const slackEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The JSON body of a digest's webhook POST. */
export function webhookPayload(d: Digest): Record<string, unknown> {
  const full = slackEscape(`${d.subject}\n\n${d.text}`);
  const text = full.length > WEBHOOK_TEXT_CHARS ? full.slice(0, WEBHOOK_TEXT_CHARS) + "\n…" : full;
  const label = (g: keyof typeof GROUP_LABEL | null) => (g === null ? null : GROUP_LABEL[g][d.language]);
  return {
    text,
    source: "company-data",
    version: 1,
    language: d.language,
    generatedAt: d.generatedAt,
    subject: d.subject,
    intoRisk: d.intoRisk,
    changes: d.changes,
    companies: d.companies.map((c) => ({
      id: c.id,
      name: c.name,
      from: c.from,
      to: c.to,
      fromLabel: label(c.from),
      toLabel: label(c.to),
      flag: c.flag ? c.flag[d.language] : null,
      changes: c.changes,
    })),
  };
}

/**
 * Where a redirect points, for the message: scheme, host and port only (a
 * path or query may carry someone's token); relative to the webhook address.
 */
function redirectTarget(location: string | undefined, from: string): string {
  if (!location) return "?";
  try {
    return new URL(location, from).origin;
  } catch {
    return "?";
  }
}

/**
 * POST the digest; anything but a 2xx answer is a DeliveryError (the digest
 * stays waiting). A redirect is never followed (redirect "manual" in every
 * sender; UrlFetchApp never follows): the address was checked (https, http
 * only to this machine), the one it redirects to was not, and a 307/308
 * would resend the whole digest there. It is a failed delivery naming where
 * it pointed.
 */
export function postWebhook(url: string): (d: Digest) => Operation<void> {
  const target = checkWebhookUrl(url);
  return function* (d: Digest) {
    const [res] = yield* http([
      {
        method: "POST",
        url: target,
        headers: { "Content-Type": "application/json; charset=utf-8" },
        body: JSON.stringify(webhookPayload(d)),
        redirect: "manual",
      },
    ]);
    if (res.status >= 200 && res.status < 300) return;
    if (res.opaqueRedirect)
      throw new DeliveryError({
        de: "Der Webhook hat auf eine andere Adresse umgeleitet (der Browser zeigt nicht, wohin); die Nachricht wurde nicht dorthin gesendet. Bitte die endgültige Adresse eintragen.",
        en: "The webhook redirected to another address (the browser does not show where); the message was not sent there. Please enter the final address.",
      });
    if (res.status >= 300 && res.status < 400) {
      const where = redirectTarget(header(res, "location"), target);
      throw new DeliveryError({
        de: `Der Webhook hat auf ${where} umgeleitet (HTTP ${res.status}); die Nachricht wurde nicht dorthin gesendet. Bitte die endgültige Adresse eintragen.`,
        en: `The webhook redirected to ${where} (HTTP ${res.status}); the message was not sent there. Please enter the final address.`,
      });
    }
    if (res.status === 0)
      throw new DeliveryError({
        de: "Der Webhook war nicht erreichbar (keine Antwort).",
        en: "The webhook could not be reached (no answer).",
      });
    throw new DeliveryError({
      de: `Der Webhook hat die Nachricht abgelehnt (HTTP ${res.status}).`,
      en: `The webhook refused the message (HTTP ${res.status}).`,
    });
  };
}
