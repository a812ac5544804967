/**
 * The server's sender of one alert that is not a portfolio run's (the
 * budgets' soft limits, server/ledger/soft-alerts.ts): the same webhook POST
 * as a run's alerts (shared/monitor postWebhook: checked address, no
 * redirect followed, Slack/Teams `text`), over the same network and timeout
 * as run.ts (server/net/ outboundFetch, webhookTimeoutMs), and e-mail through
 * the same relay (ScheduleConfig mailer). Whatever hardens the schedules'
 * outbound path (an address check) covers this one through the same config.
 */
import { runAsync } from "../../shared/core/index.ts";
import type { Bilingual, Language } from "../../shared/i18n/index.ts";
import { DeliveryError, maskWebhook, postWebhook } from "../../shared/monitor/index.ts";
import { fetchHttp } from "../../shared/web/index.ts";
import { outboundFetch, STRICT_OUTBOUND } from "../net/outbound.ts";
import type { ServiceContext } from "../routes.ts";
import type { ScheduleConfig } from "./config.ts";

export interface AlertMessage {
  language: Language;
  subject: string;
  text: string;
}

export interface SendOutcome {
  channel: "webhook" | "email";
  /** The webhook's host (never its address), or the recipients. */
  target: string;
  status: "sent" | "failed" | "not-configured";
  error?: Bilingual;
}

type Digest = Parameters<ReturnType<typeof postWebhook>>[0];

const NO_STORE = async (keys: string[]) => keys.map(() => null);

/**
 * The network a user-given webhook address is posted over: the one run.ts
 * posts a schedule's alerts over, the outbound address check of server/net/
 * (resolved, checked, connected to exactly the checked addresses).
 */
const webhookFetch = (ctx: Pick<ServiceContext, "outbound">) => outboundFetch(ctx.outbound ?? STRICT_OUTBOUND);

async function webhook(
  ctx: Pick<ServiceContext, "log" | "outbound">,
  url: string,
  m: AlertMessage,
  cfg: ScheduleConfig,
): Promise<SendOutcome> {
  const target = maskWebhook(url);
  const digest: Digest = {
    ...m,
    companies: [],
    intoRisk: 0,
    changes: 0,
    generatedAt: new Date(cfg.now()).toISOString(),
  };
  try {
    await runAsync(postWebhook(url)(digest), {
      http: (reqs) => Promise.all(reqs.map((r) => fetchHttp(webhookFetch(ctx), r, cfg.webhookTimeoutMs))),
      sleep: (ms) => new Promise<void>((r) => setTimeout(r, Math.min(ms, 60_000)).unref()),
      cacheGet: NO_STORE,
      cachePut: async () => undefined,
      storeGet: NO_STORE,
      storePut: async () => undefined,
    });
    return { channel: "webhook", target, status: "sent" };
  } catch (e) {
    const error =
      e instanceof DeliveryError
        ? e.text
        : { de: "Der Webhook war nicht erreichbar.", en: "The webhook could not be reached." };
    return { channel: "webhook", target, status: "failed", error };
  }
}

/** Send `m` to every webhook and (one message) to the recipients; one outcome per channel. */
export async function sendAlert(
  ctx: Pick<ServiceContext, "log" | "outbound">,
  to: { webhooks: string[]; emails: string[] },
  m: AlertMessage,
  cfg: ScheduleConfig,
): Promise<SendOutcome[]> {
  const out: SendOutcome[] = [];
  for (const url of to.webhooks) out.push(await webhook(ctx, url, m, cfg));
  if (to.emails.length) {
    const target = to.emails.join(", ");
    if (!cfg.mailer)
      out.push({
        channel: "email",
        target,
        status: "not-configured",
        error: {
          de: "Dieser Server hat keinen E-Mail-Versand eingerichtet (COMPANY_DATA_SMTP_URL).",
          en: "This server has no e-mail relay configured (COMPANY_DATA_SMTP_URL).",
        },
      });
    else
      try {
        await cfg.mailer.send(to.emails, m.subject, m.text);
        out.push({ channel: "email", target, status: "sent" });
      } catch {
        out.push({
          channel: "email",
          target,
          status: "failed",
          error: { de: "Die E-Mail konnte nicht gesendet werden.", en: "The e-mail could not be sent." },
        });
      }
  }
  return out;
}
