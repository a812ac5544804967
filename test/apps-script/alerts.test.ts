/**
 * Alerts from Google Sheets through the built Code.js: the Monitor sidebar's
 * uiCall saves e-mail recipients and a webhook, each finished check sends
 * what is new — the e-mail by MailApp within its daily recipient quota (the
 * harness models it), the webhook by UrlFetchApp — and a digest the quota
 * could not cover waits, is shown in the panel's status, and goes out with
 * the next day's check, while the webhook never gets the same news twice.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import { createEmulator } from "../../emulator/index.ts";
import type { HttpRequest } from "../../shared/core/http.ts";
import type { AlertChannelView } from "../../shared/monitor/alert-settings.ts";
import { createSheetsFake } from "./harness.ts";
import { nth } from "../helpers/indexed.ts";

const OUT = mkdtempSync(join(tmpdir(), "apps-script-alerts-"));
let code = "";
const DAY = 86_400_000;

beforeAll(async () => {
  await buildWithReport(OUT);
  code = readFileSync(join(OUT, "Code.js"), "utf8");
});

type Envelope<T = unknown> = { ok: boolean; value: T; error?: { message: { de: string; en: string } } };

function world(recipientsPerDay: number) {
  const clock = { t: 0 };
  const emu = createEmulator({ companies: 400, seed: 11, startDate: "2026-01-15", now: () => clock.t });
  clock.t = Date.parse(`${emu.clock.today()}T09:00:00Z`);
  const ids = emu.companies.ids().slice(0, 10);
  const posts: HttpRequest[] = [];
  const f = createSheetsFake({
    emulator: emu,
    dist: OUT,
    now: () => clock.t,
    sheets: { Portfolio: [["ID"], ...ids.map((id) => [id])] },
    onSleep: (ms) => {
      clock.t += ms;
    },
    mailRecipientsPerDay: recipientsPerDay,
    webhook: {
      match: /^https:\/\/hooks\.slack\.com\//,
      answer: (r) => {
        posts.push(r);
        return 200;
      },
    },
  });
  f.load(code);
  f.setClock(() => clock.t);
  const key = emu.createKey(1_000_000);
  for (const [k, v] of Object.entries({ apiKey: key, baseUrl: "https://api.implisense.com", language: "en" }))
    f.setUser(k, v);
  const ui = <T>(method: string, input: unknown) =>
    JSON.parse(f.call("uiCall", method, JSON.stringify(input)) as string) as Envelope<T>;
  const check = () => {
    const r = ui<{ status: string }>("monitorRun", {});
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    return r.value;
  };
  const nextDay = (days = 1) => {
    emu.clock.advance(days);
    clock.t += days * DAY;
  };
  const channels = () => ui<{ alerts: AlertChannelView[] }>("monitorStatus", {}).value.alerts;
  return { emu, f, ids, key, posts, ui, check, nextDay, channels };
}

describe("alerts from Google Sheets", () => {
  it("e-mail within MailApp's recipient quota and a webhook: the day-2 insolvency once each; a digest the quota cannot cover waits and is shown", () => {
    const w = world(3);
    const target = nth(w.ids, 3);
    w.emu.scheduleEvent(target, { day: 2, kind: "INSOLVENCY" });
    const saved = w.ui<{ alerts: AlertChannelView[] }>("monitorSaveAlerts", {
      alerts: {
        email: "risk@example.com; sales@example.com",
        webhook: "https://hooks.slack.com/services/T0/B0/secret",
      },
    });
    expect(saved.ok, JSON.stringify(saved.error)).toBe(true);
    // The panel shows the webhook's host only: the address is a secret.
    expect(saved.value.alerts).toMatchObject([
      { channel: "email", target: "risk@example.com, sales@example.com", waiting: 0 },
      { channel: "webhook", target: "hooks.slack.com/…" },
    ]);
    expect(JSON.stringify(saved.value)).not.toContain("secret");

    w.check(); // day 0: history, not news
    expect(w.f.mails).toHaveLength(0);
    expect(w.posts).toHaveLength(0);

    w.nextDay(2);
    // Someone used two of today's three recipients already: the digest to two people does not fit.
    (w.f.context.MailApp as { sendEmail(m: object): void }).sendEmail({
      to: "x@example.com,y@example.com",
      subject: "other",
      body: "",
    });
    w.check();
    expect(w.posts).toHaveLength(1);
    const body = JSON.parse(nth(w.posts, 0).body!);
    expect(body.companies.find((c: { id: string }) => c.id === target)).toMatchObject({ to: "risk" });
    expect(JSON.stringify(nth(w.posts, 0).headers)).not.toContain(w.key);
    expect(w.f.mails).toHaveLength(1); // only the other one
    const email = w.channels().find((c) => c.channel === "email")!;
    expect(email).toMatchObject({ waiting: 1, last: { ok: false, failures: 1 } });
    expect(email.last!.error!.en).toMatch(/recipient quota is used up/);

    // The next day the quota is back: the waiting digest goes out by e-mail; the webhook gets nothing again.
    w.nextDay();
    w.check();
    expect(w.f.mails).toHaveLength(2);
    const mail = nth(w.f.mails, 1);
    expect(mail.to).toEqual(["risk@example.com", "sales@example.com"]);
    expect(mail.subject).toMatch(/moved to risk/);
    expect(mail.body).toContain(target);
    expect(mail.body).toMatch(/→ Risk/);
    expect(w.posts.filter((p) => p.body!.includes(target))).toHaveLength(1);
    expect(w.channels().map((c) => ({ channel: c.channel, waiting: c.waiting, ok: c.last?.ok }))).toEqual([
      { channel: "email", waiting: 0, ok: true },
      { channel: "webhook", waiting: 0, ok: true },
    ]);

    // And never again.
    w.nextDay();
    w.check();
    expect(w.f.mails.filter((m) => m.body.includes(target))).toHaveLength(1);
    expect(w.posts.filter((p) => p.body!.includes(target))).toHaveLength(1);
  });

  it("refuses a webhook the manifest does not allow and addresses that are not e-mail, in the user's language", () => {
    const w = world(100);
    const other = w.ui("monitorSaveAlerts", { alerts: { webhook: "https://example.com/hook" } });
    expect(other.ok).toBe(false);
    expect(other.error!.message.en).toMatch(/Slack and Teams webhooks/);
    expect(other.error!.message.de).toMatch(/Slack- und Teams-Webhooks/);
    const mail = w.ui("monitorSaveAlerts", { alerts: { email: "nobody" } });
    expect(mail.ok).toBe(false);
    expect(mail.error!.message.de).toMatch(/keine E-Mail-Adresse/);
    // Teams Workflow addresses as Teams gives them (the default port written out, or the newer Power Platform host) are allowed;
    // Office 365 connector webhooks are retired (May 2026) and no longer listed.
    expect(
      w.ui("monitorSaveAlerts", { alerts: { webhook: "https://prod-01.westeurope.logic.azure.com/workflows/x?sig=y" } })
        .ok,
    ).toBe(true);
    const teams = w.ui<{ alerts: AlertChannelView[] }>("monitorSaveAlerts", {
      alerts: {
        webhook:
          "https://prod-27.germanywestcentral.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=y",
      },
    });
    expect(teams.ok, JSON.stringify(teams.error)).toBe(true);
    expect(teams.value.alerts.find((c) => c.channel === "webhook")!.target).toBe(
      "prod-27.germanywestcentral.logic.azure.com/…",
    );
    expect(
      w.ui("monitorSaveAlerts", {
        alerts: {
          webhook:
            "https://default0a1b2c3d.4e.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/abc/triggers/manual/paths/invoke?api-version=1&sig=y",
        },
      }).ok,
    ).toBe(true);
    expect(
      w.ui("monitorSaveAlerts", { alerts: { webhook: "https://contoso.webhook.office.com/webhookb2/x" } }).ok,
    ).toBe(false);
    expect(
      w.ui("monitorSaveAlerts", {
        alerts: { webhook: "https://prod-01.westeurope.logic.azure.com:8443/workflows/x?sig=y" },
      }).ok,
    ).toBe(false);
    expect(w.ui("monitorSaveAlerts", { alerts: { webhook: "" } }).ok).toBe(true);
  });
});
