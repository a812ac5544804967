/**
 * Alerts against the in-process emulator with its clock and scheduled
 * events: an insolvency on day 2 is alerted once, on the check after it, and
 * never again; a failed delivery stays waiting and goes out with the next
 * run; a second check with nothing new costs only the free calls; a crash
 * between noting and saving never doubles or loses an alert.
 */
import { describe, expect, it } from "vitest";
import { runSync, type SyncDriver } from "../../shared/core/drivers.ts";
import type { HttpRequest, HttpResponse } from "../../shared/core/http.ts";
import { checkPortfolio } from "../../shared/monitor/check.ts";
import {
  deliverAlerts,
  DeliveryError,
  digestOf,
  lastDelivery,
  mergeNews,
  pendingAlerts,
  type Digest,
} from "../../shared/monitor/alerts.ts";
import { checkWebhookUrl, postWebhook, webhookPayload } from "../../shared/monitor/webhook.ts";
import { logLine } from "../../shared/monitor/changelog.ts";
import { alertSettings, DEFAULT_ALERTS, webhookSender } from "../../shared/monitor/alert-settings.ts";
import type { CompanyDataError } from "../../shared/core/errors.ts";
import { harness, type Harness } from "./harness.ts";
import portfolio from "../../emulator/data/reference/portfolio.json" with { type: "json" };
import { nth } from "../helpers/indexed.ts";

const TARGET = nth(portfolio.portfolio, 3).id;

function setUp(language: "de" | "en" = "en") {
  const h = harness({ language });
  h.sheets.set("Portfolio", [["ID", "Company"], ...portfolio.portfolio.map((c) => [c.id, c.name])]);
  h.emu.scheduleEvent(TARGET, { day: 2, kind: "INSOLVENCY" });
  return h;
}

/** A channel that keeps what it was sent, and fails while `failing` is set. */
function channel() {
  const sent: Digest[] = [];
  const ch = {
    sent,
    failing: false,
    *send(d: Digest) {
      if (ch.failing) throw new DeliveryError({ de: "Empfänger gestört", en: "receiver down" });
      sent.push(d);
    },
  };
  return ch;
}

const check = (h: Harness, driver: SyncDriver = h.driver) =>
  runSync(checkPortfolio(h.ctx, { alerts: ["test"] }), driver);
const deliver = (h: Harness, ch: ReturnType<typeof channel>) =>
  runSync(
    deliverAlerts(h.ctx, "test", (d) => ch.send(d)),
    h.driver,
  );
const targetIn = (d: Digest) => d.companies.find((c) => c.id === TARGET);

describe("alerts from portfolio checks", () => {
  it("an insolvency on day 2 is alerted once on the check after it, never again; the next check with nothing new costs only free calls", () => {
    const h = setUp();
    const ch = channel();
    // Day 0: the first check is history, not news.
    check(h);
    expect(deliver(h, ch).status).toBe("nothing");
    h.advance(1);
    check(h);
    deliver(h, ch);
    expect(ch.sent.every((d) => !targetIn(d))).toBe(true);

    h.advance(1); // day 2: the insolvency happens
    check(h);
    const out = deliver(h, ch);
    expect(out.status).toBe("sent");
    const news = targetIn(ch.sent.at(-1)!)!;
    expect(news.from).not.toBe("risk");
    expect(news.to).toBe("risk");
    expect(news.changes.some((c) => /insolv/i.test(c.text + c.kind))).toBe(true);
    expect(ch.sent.at(-1)!.intoRisk).toBeGreaterThanOrEqual(1);
    expect(ch.sent.at(-1)!.text).toContain("→ Risk");
    expect(runSync(pendingAlerts(h.ctx, "test"), h.driver)).toEqual([]);
    expect(runSync(lastDelivery(h.ctx, "test"), h.driver)).toMatchObject({ ok: true, failures: 0 });

    // A second check the same day: nothing new, only the free availability calls, nothing to send.
    const before = h.charged();
    const requests = h.requests.length;
    const again = check(h);
    expect(h.charged()).toBe(before);
    expect(again.spent).toBe(0);
    expect(h.requests.slice(requests).every((r) => /availability/.test(r.url))).toBe(true);
    const sentBefore = ch.sent.length;
    expect(deliver(h, ch).status).toBe("nothing");
    expect(ch.sent.length).toBe(sentBefore);

    // Later days: the insolvency is never alerted again.
    for (let day = 3; day <= 6; day++) {
      h.advance(1);
      check(h);
      deliver(h, ch);
    }
    const alertsOfTarget = ch.sent.filter(targetIn);
    expect(alertsOfTarget).toHaveLength(1);
  });

  it("a failed delivery keeps the news, is recorded, and goes out with the next run's news", () => {
    const h = setUp("de");
    const ch = channel();
    check(h);
    h.advance(2);
    check(h);
    ch.failing = true;
    const failed = deliver(h, ch);
    expect(failed.status).toBe("failed");
    expect(runSync(lastDelivery(h.ctx, "test"), h.driver)).toMatchObject({
      ok: false,
      failures: 1,
      error: { de: "Empfänger gestört" },
    });
    ch.failing = true;
    h.advance(1);
    check(h);
    deliver(h, ch);
    expect(runSync(lastDelivery(h.ctx, "test"), h.driver)).toMatchObject({ ok: false, failures: 2 });
    expect(runSync(pendingAlerts(h.ctx, "test"), h.driver).some((c) => c.id === TARGET)).toBe(true);

    ch.failing = false;
    h.advance(1);
    check(h);
    expect(deliver(h, ch).status).toBe("sent");
    expect(ch.sent).toHaveLength(1);
    const d = nth(ch.sent, 0);
    expect(d.language).toBe("de");
    expect(targetIn(d)).toMatchObject({ to: "risk" });
    expect(d.subject).toMatch(/neu im Risiko/);
    expect(d.text).toContain("→ Risiko");
    expect(runSync(lastDelivery(h.ctx, "test"), h.driver)).toMatchObject({ ok: true, failures: 0 });
    expect(deliver(h, ch).status).toBe("nothing");
  });

  it("a crash after the news was noted and before the watermarks were saved neither loses nor doubles an alert", () => {
    const h = setUp();
    const ch = channel();
    check(h);
    h.advance(2);
    h.crashAfterAppend();
    expect(() => runSync(checkPortfolio(h.ctx, { alerts: ["test"], windowRows: 4 }), h.driver)).toThrow("host crashed");
    runSync(checkPortfolio(h.ctx, { alerts: ["test"], windowRows: 4 }), h.driver);
    deliver(h, ch);
    const t = targetIn(nth(ch.sent, 0))!;
    expect(t.to).toBe("risk");
    const keys = t.changes.map((c) => c.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeGreaterThan(0);
  });

  it("each channel has its own outbox: a failing e-mail is retried without sending the webhook the same news again", () => {
    const h = setUp();
    const mail = channel();
    const hook = channel();
    const both = (k?: number) =>
      runSync(checkPortfolio(h.ctx, { alerts: ["email", "webhook"], ...(k ? { windowRows: k } : {}) }), h.driver);
    both();
    h.advance(2);
    both();
    mail.failing = true;
    expect(
      runSync(
        deliverAlerts(h.ctx, "email", (d) => mail.send(d)),
        h.driver,
      ).status,
    ).toBe("failed");
    expect(
      runSync(
        deliverAlerts(h.ctx, "webhook", (d) => hook.send(d)),
        h.driver,
      ).status,
    ).toBe("sent");
    mail.failing = false;
    h.advance(1);
    both();
    runSync(
      deliverAlerts(h.ctx, "email", (d) => mail.send(d)),
      h.driver,
    );
    runSync(
      deliverAlerts(h.ctx, "webhook", (d) => hook.send(d)),
      h.driver,
    );
    expect(mail.sent.filter(targetIn)).toHaveLength(1);
    expect(hook.sent.filter(targetIn)).toHaveLength(1);
  });

  it("the webhook posts the digest as JSON without the API key; a refusal leaves the digest waiting", () => {
    const h = setUp();
    check(h);
    h.advance(2);
    check(h);
    const posted: HttpRequest[] = [];
    let answer = 500;
    const driver: SyncDriver = {
      ...h.driver,
      http: (reqs) =>
        reqs.map((r): HttpResponse => {
          if (!r.url.startsWith("https://hooks.example.test/")) return nth(h.driver.http([r]), 0);
          posted.push(r);
          return { status: answer, headers: {}, body: "" };
        }),
    };
    const url = "https://hooks.example.test/services/T0/B0/secret";
    const first = runSync(deliverAlerts(h.ctx, "test", postWebhook(url)), driver);
    expect(first.status).toBe("failed");
    if (first.status !== "failed") return;
    expect(first.record.error!.en).toBe("The webhook refused the message (HTTP 500).");
    expect(JSON.stringify(first.record)).not.toContain("secret");
    answer = 200;
    expect(runSync(deliverAlerts(h.ctx, "test", postWebhook(url)), driver).status).toBe("sent");
    expect(posted).toHaveLength(2);
    const req = nth(posted, 1);
    expect(req.method).toBe("POST");
    expect(JSON.stringify(req.headers)).not.toContain(h.key);
    expect(req.body).not.toContain(h.key);
    const body = JSON.parse(req.body!);
    expect(body).toMatchObject({ source: "company-data", version: 1, language: "en" });
    expect(typeof body.text).toBe("string");
    const c = body.companies.find((x: { id: string }) => x.id === TARGET);
    expect(c).toMatchObject({ to: "risk", toLabel: "Risk" });
    expect(c.changes.length).toBeGreaterThan(0);
  });

  it("webhook addresses: https only (http for this machine), no credentials; the error never repeats the address", () => {
    expect(checkWebhookUrl(" https://hooks.slack.com/services/T/B/x ")).toBe("https://hooks.slack.com/services/T/B/x");
    expect(
      checkWebhookUrl("https://prod.logic.azure.com/workflows/1/triggers/manual/paths/invoke?api-version=1&sig=abc"),
    ).toContain("sig=abc");
    expect(checkWebhookUrl("http://127.0.0.1:9000/hook")).toBe("http://127.0.0.1:9000/hook");
    // The default port as Teams writes it is the same address.
    expect(
      checkWebhookUrl(
        "https://prod-12.westeurope.logic.azure.com:443/workflows/1/triggers/manual/paths/invoke?sig=abc",
      ),
    ).toBe("https://prod-12.westeurope.logic.azure.com/workflows/1/triggers/manual/paths/invoke?sig=abc");
    expect(checkWebhookUrl("http://127.0.0.1:80/hook")).toBe("http://127.0.0.1/hook");
    for (const bad of ["http://example.com/hook", "ftp://x/y", "https://user:pw@example.com/", "not a url", ""]) {
      let err: unknown;
      try {
        checkWebhookUrl(bad);
      } catch (e) {
        err = e;
      }
      const text = (err as { text(l: "de" | "en"): string }).text("de");
      expect(text).toMatch(/Webhook-Adresse/);
      if (bad) expect(text).not.toContain(bad);
    }
  });

  it("Slack and Teams webhooks only where a post can arrive: from Google's servers, not from the page itself", () => {
    expect([
      webhookSender("sheets"),
      webhookSender("excel"),
      webhookSender("playground"),
      webhookSender("test"),
    ]).toEqual(["google", "browser", "browser", "server"]);
    const slack = "https://hooks.slack.com/services/T0/B0/x";
    const teams = "https://contoso.webhook.office.com/webhookb2/x";
    const workflow = "https://prod-01.westeurope.logic.azure.com/workflows/x";
    for (const url of [slack, teams]) {
      let err: CompanyDataError | undefined;
      try {
        alertSettings({ webhook: url }, DEFAULT_ALERTS, "excel", "browser");
      } catch (e) {
        err = e as CompanyDataError;
      }
      expect(err?.details.field, url).toBe("webhook");
      expect(err?.text("en")).toMatch(/no CORS.*Google Sheets or the command line/);
      expect(err?.text("de")).toMatch(/kein CORS.*Google Sheets oder der Befehlszeile/);
      // Sheets posts from Google's servers: Slack yes; Office 365 connector webhooks are retired (issue 25) and refused there too.
      if (url === slack) expect(alertSettings({ webhook: url }, DEFAULT_ALERTS, "sheets").webhook).toBe(url);
      else expect(() => alertSettings({ webhook: url }, DEFAULT_ALERTS, "sheets")).toThrow(/logic\.azure\.com/);
    }
    // Any other https receiver (a Teams Workflow trigger among them) may allow CORS: the page posts to it itself.
    expect(
      alertSettings({ webhook: "https://alerts.example.com/h" }, DEFAULT_ALERTS, "playground", "browser").webhook,
    ).toBe("https://alerts.example.com/h");
    expect(alertSettings({ webhook: workflow }, DEFAULT_ALERTS, "excel", "browser").webhook).toBe(workflow);
  });

  it("chat markup in register text is escaped in the webhook's text", () => {
    const line = logLine("DE1234567890", "A <!channel> & Co", {
      date: "2026-03-04T10:00:00Z",
      text: "<!here> moved",
      kind: { code: "ADDRESS", name: "Address" },
    });
    const companies = mergeNews([], { changes: [line] });
    const p = webhookPayload(digestOf(companies, "en", Date.parse("2026-03-04T20:00:00Z")));
    expect(p.text).not.toMatch(/<!/);
    expect(p.text).toContain("&lt;!here&gt;");
    expect(nth(nth(p.companies as { changes: { text: string }[] }[], 0).changes, 0).text).toBe("<!here> moved");
  });

  it("news merges: a change once by its key, a move keeps where it came from, an undone move is no news", () => {
    const line = logLine("DE1234567890", "A", {
      date: "2026-03-04T10:00:00Z",
      text: "x",
      kind: { code: "ADDRESS", name: "Address" },
    });
    let box = mergeNews([], { changes: [line, line] });
    box = mergeNews(box, { changes: [line] });
    expect(nth(box, 0).changes).toHaveLength(1);
    const flag = { de: "d", en: "e" };
    let moves = mergeNews([], { moves: [{ id: "DE0000000001", name: "B", from: "none", to: "risk", flag }] });
    moves = mergeNews(moves, { moves: [{ id: "DE0000000001", name: "B", from: "none", to: "risk", flag }] });
    expect(moves).toMatchObject([{ from: "none", to: "risk" }]);
    expect(mergeNews(moves, { moves: [{ id: "DE0000000001", name: "B", from: "risk", to: "none", flag }] })).toEqual(
      [],
    );
    // An unmoved group alone is no news.
    expect(mergeNews([], { moves: [{ id: "DE0000000002", name: "C", from: "watch", to: "watch", flag }] })).toEqual([]);
  });
});
