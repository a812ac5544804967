/**
 * The portfolio schedule on a team server (issue 24), from the add-ins:
 * with "Team server" as the connection, switching the schedule on registers
 * the portfolio (the company ids of the portfolio sheet, frequency and hour,
 * the budget per run, the alert webhook and e-mail recipients, the
 * language) with the server, which runs the same core check at the hour,
 * whether or not the workbook is open, and sends the alerts; switching it
 * off removes it there. `monitorSync` fetches the server's runs since the
 * last fetch and writes them into the portfolio sheet and the change log
 * (shared/monitor/server-sync.ts: the local check's guarded writes).
 *
 * What this workbook knows of its server schedule is one versioned record
 * in its document store (`doc:mon:server`, ./server-link.ts): the schedule's
 * name, its share id, the server it is registered with, the cursor (the last
 * run written: moved only after the sheet writes succeeded, so a failed write
 * is fetched and written again, and the writes' guards make that harmless),
 * and the last run. A colleague's copy of the workbook syncs the owner's
 * schedule by its share id while the owner shares it (./monitor-share.ts).
 * In direct mode every method here is the local one.
 *
 * Why the server and not the page: Excel runs the add-in in a webview under
 * the same-origin policy (Microsoft, "Addressing same-origin policy
 * limitations in Office Add-ins",
 * https://learn.microsoft.com/office/dev/add-ins/develop/addressing-same-origin-policy-limitations),
 * so an API or a webhook that answers no CORS cannot be reached from it,
 * and nothing of the add-in runs while the workbook is closed; the server
 * calls both server to server, at the hour.
 *
 * "Check now" stays local in server mode (monitorRun through the server's
 * proxy): the user sees its price first and its result at once, and the
 * team's budgets and shared answers apply as to any call; its alerts are
 * left to the server's next run (shared/app/monitor.ts notes none), so a
 * change is never alerted twice.
 */
import { sheet } from "../core/index.ts";
import { CompanyDataError, invalid, noSuchSheet, type Cell, type Operation } from "../core/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import type { OpContext } from "../operations/index.ts";
import {
  alertSettings,
  deleteServerSchedule,
  loadAlertSettings,
  loadSchedule,
  portfolioIds,
  registerServerSchedule,
  saveAlertSettings,
  scheduleSettings,
  serverRunsSince,
  serverSchedules,
  writeServerRuns,
  type AlertChannelView,
  type ScheduleSettings,
  type ServerRun,
} from "../monitor/index.ts";
import { record } from "./input.ts";
import { monitorShareLink, refuseForeign, sharedView } from "./monitor-share.ts";
import { loadLink, saveLink, sharedChoice, type AlertOutcome, type ServerLink } from "./server-link.ts";
import { monitorSaveAlertsMethod, monitorSaveScheduleMethod, monitorStatusMethod } from "./monitor.ts";
import type { AppDeps, MonitorStatusView, MonitorSyncView, ServerRunView, ServerScheduleStatus } from "./protocol.ts";
import { withSession } from "./session.ts";
import { loadSettings } from "./settings.ts";

export { SERVER_LINK_KEY } from "./server-link.ts";

const T = {
  hostNote: {
    de: "Der Zeitplan läuft auf dem Team-Server, auch während die Arbeitsmappe geschlossen ist; der Server sendet die Benachrichtigungen. Beim Öffnen (und danach alle paar Minuten) holt das Add-in, was die Läufe seitdem gefunden haben, und schreibt es in die Portfolio-Tabelle und das Änderungsprotokoll. „Jetzt prüfen“ prüft sofort über den Server.",
    en: 'The schedule runs on the team server, also while the workbook is closed; the server sends the alerts. On opening (and every few minutes after) the add-in fetches what the runs found since and writes it into the portfolio sheet and the change log. "Check now" checks at once through the server.',
  },
  noIds: {
    de: "keine Zeile mit Firmen-ID: Der Server prüft IDs. Bitte zuerst „Jetzt prüfen“ (es trägt die IDs ein), dann den Zeitplan einschalten",
    en: 'no row with a company id: the server checks ids. Please "Check now" first (it fills them in), then switch the schedule on',
  },
  noMail: {
    de: "Dieser Team-Server versendet keine E-Mails (kein SMTP eingerichtet); bitte einen Webhook nutzen",
    en: "This team server sends no e-mail (no SMTP relay configured); please use a webhook",
  },
  unreachable: {
    de: "Der Team-Server war gerade nicht erreichbar; angezeigt wird der letzte bekannte Stand.",
    en: "The team server could not be reached just now; what was last known is shown.",
  },
} satisfies Record<string, Bilingual>;

const LABEL_SHEET: Bilingual = { de: "Portfolio-Tabelle", en: "portfolio sheet" };
const LABEL_EMAIL: Bilingual = { de: "E-Mail-Empfänger", en: "e-mail recipients" };

function* serverMode(): Operation<boolean> {
  return (yield* loadSettings()).connection === "server";
}

/** The server's hour (UTC) of a local hour, for a user `offset` minutes east of UTC (whole hours of the offset). */
export const utcHour = (hour: number, offset: number) => (((hour - Math.trunc(offset / 60)) % 24) + 24) % 24;

function offsetOf(input: Record<string, unknown>, fallback: number): number {
  const v = input.utcOffsetMinutes;
  return typeof v === "number" && Number.isInteger(v) && v >= -14 * 60 && v <= 14 * 60 ? v : fallback;
}

/** Register the portfolio of `s.sheet` with the schedule and the alert channels; answers the link as it is now. */
function* register(ctx: OpContext, link: ServerLink, s: ScheduleSettings, offset: number): Operation<ServerLink> {
  const lang = ctx.client.language;
  const table = yield* sheet<Cell[][] | null>({ op: "readAll", sheet: s.sheet });
  if (!table) throw noSuchSheet(s.sheet);
  const { ids } = portfolioIds(table, lang);
  if (ids.length === 0) throw invalid("sheet", T.noIds, LABEL_SHEET);
  const alerts = yield* loadAlertSettings();
  const view = yield* registerServerSchedule(ctx.client, link.name, {
    companies: ids,
    frequency: s.frequency,
    hour: utcHour(s.hour, offset),
    budget: s.budget,
    webhooks: alerts.webhook ? [alerts.webhook] : [],
    emails: alerts.email,
    language: lang,
    shared: sharedChoice(link),
  });
  // A schedule registered with another server starts its runs from the first.
  const cursor = link.server === ctx.client.baseUrl ? link.cursor : 0;
  return {
    ...link,
    server: ctx.client.baseUrl,
    registered: true,
    cursor,
    utcOffsetMinutes: offset,
    mail: view.mail === true,
    nextRun: view.nextRun,
    shared: view.shared ?? sharedChoice(link),
    // A server before sharing answers no id: the link then reads by name, as before.
    shareId: view.shareId ?? null,
  };
}

/** monitorSaveSchedule: with a team server the schedule is registered there (or removed) before it is saved here. */
export function* monitorSaveScheduleServerAware(deps: AppDeps, input: unknown): Operation<MonitorStatusView> {
  if (!(yield* serverMode())) return yield* monitorSaveScheduleMethod(deps, input);
  const i = record(input);
  const current = yield* loadSchedule();
  const wanted = { ...current, ...record(i.schedule, "schedule") };
  let link = yield* loadLink(deps);
  const offset = offsetOf(i, link.utcOffsetMinutes);
  link = yield* withSession(deps, "monitor", function* ({ ctx }) {
    // A colleague's copy changes nothing of the owner's schedule (./monitor-share.ts).
    yield* refuseForeign(ctx.client, link);
    // Checked as the local save checks it, before anything goes to the server.
    if (wanted.enabled === true) return yield* register(ctx, link, scheduleSettings(wanted), offset);
    if (link.registered) yield* deleteServerSchedule(ctx.client, link.name);
    return { ...link, registered: false, cursor: 0, nextRun: null, lastRun: null };
  });
  yield* saveLink(link);
  yield* monitorSaveScheduleMethod(deps, input);
  return yield* monitorStatusServerAware(deps, {});
}

/** monitorSaveAlerts: with a team server the server sends them (webhook of any kind, e-mail if it has SMTP); a registered schedule gets them at once. */
export function* monitorSaveAlertsServerAware(deps: AppDeps, input: unknown): Operation<MonitorStatusView> {
  if (!(yield* serverMode())) return yield* monitorSaveAlertsMethod(deps, input);
  const i = record(input);
  const alerts = alertSettings(record(i.alerts, "alerts"), yield* loadAlertSettings(), "team-server", "team-server");
  let link = yield* loadLink(deps);
  const schedule = yield* loadSchedule();
  link = yield* withSession(deps, "monitor", function* ({ ctx }) {
    yield* refuseForeign(ctx.client, link);
    const mail = link.registered ? link.mail : (yield* serverSchedules(ctx.client)).mail;
    if (alerts.email.length && !mail) throw invalid("email", T.noMail, LABEL_EMAIL);
    yield* saveAlertSettings(alerts);
    return schedule.enabled && link.registered
      ? yield* register(ctx, link, schedule, link.utcOffsetMinutes)
      : { ...link, mail };
  });
  yield* saveLink(link);
  return yield* monitorStatusServerAware(deps, {});
}

const viewOf = (r: ServerRun): ServerRunView => ({
  id: r.id,
  finishedAt: r.finishedAt,
  status: r.status,
  message: r.result?.message ?? { de: r.status, en: r.status },
  credits: r.credits,
});

/** The last outcome per channel the runs reported (a run with nothing to send leaves the one before). */
function alertOutcomes(before: Record<string, AlertOutcome>, runs: readonly ServerRun[]): Record<string, AlertOutcome> {
  const out = { ...before };
  for (const r of runs)
    for (const a of r.result?.alerts ?? []) {
      if (a.status === "nothing") continue;
      out[a.channel] = {
        ok: a.status === "sent",
        at: r.finishedAt ?? r.startedAt,
        ...(a.error ? { error: a.error } : {}),
      };
    }
  return out;
}

/**
 * monitorSync: the server's runs since the cursor, written into the
 * portfolio sheet and the change log; the cursor moves only once the writes
 * are done. Nothing to do in direct mode or without a registered schedule.
 */
export function* monitorSyncMethod(deps: AppDeps, _input: unknown): Operation<MonitorSyncView> {
  const none: MonitorSyncView = { runs: 0, companies: 0, rows: 0, lines: 0, lastRun: null };
  if (!(yield* serverMode())) return none;
  const link = yield* loadLink(deps);
  if (!link.registered) return { ...none, lastRun: link.lastRun };
  const schedule = yield* loadSchedule();
  return yield* withSession(deps, "monitor", function* ({ ctx }) {
    // Another server now: the schedule lives on the one it was registered with, which this connection cannot reach.
    if (link.server !== ctx.client.baseUrl) return { ...none, lastRun: link.lastRun };
    // By the share id when known: the owner's copy and a colleague's (while shared) read the same runs.
    const found = yield* serverRunsSince(ctx.client, link.name, link.cursor, link.shareId);
    const audit = { who: deps.who ?? "", now: () => ctx.client.now() };
    const written = yield* writeServerRuns(ctx.client.language, schedule.sheet, found.runs, audit);
    const last = found.runs.at(-1);
    const lastRun = last ? viewOf(last) : link.lastRun;
    yield* saveLink({
      ...link,
      cursor: found.cursor,
      lastRun,
      syncedAt: new Date(ctx.client.now()).toISOString(),
      alerts: alertOutcomes(link.alerts, found.runs),
    });
    return { runs: found.runs.length, ...written, lastRun };
  });
}

/** The channels as the server delivers them: the recipients and the webhook's host, with the server's last outcome. */
function serverAlertViews(configured: AlertChannelView[], link: ServerLink): AlertChannelView[] {
  return configured.map((v) => {
    const o = link.alerts[v.channel];
    return {
      ...v,
      waiting: 0,
      last: o
        ? {
            at: o.at,
            ok: o.ok,
            channel: v.channel,
            companies: 0,
            changes: 0,
            failures: o.ok ? 0 : 1,
            ...(o.error ? { error: o.error } : {}),
          }
        : null,
    };
  });
}

/** monitorStatus, and with a team server: the schedule on the server, its last run, whether it sends e-mail. */
export function* monitorStatusServerAware(deps: AppDeps, input: unknown): Operation<MonitorStatusView> {
  const base = yield* monitorStatusMethod(deps, input);
  if (!(yield* serverMode())) return base;
  let link = yield* loadLink(deps);
  let unreachable: Bilingual | undefined;
  let owner: string | null = null;
  try {
    const seen = yield* withSession(deps, "monitor", function* ({ ctx }) {
      const shared = yield* sharedView(ctx.client, link);
      if (shared) {
        const seenLink = { ...link, nextRun: shared.nextRun, mail: shared.mail };
        return shared.mine
          ? { link: { ...seenLink, shared: shared.shared }, owner: null }
          : { link: seenLink, owner: shared.owner };
      }
      const { schedules, mail } = yield* serverSchedules(ctx.client);
      const mine = schedules.find((s) => s.name === link.name);
      return {
        // A link from before sharing learns its schedule's id and sharing here (the owner's copy).
        link: {
          ...link,
          mail,
          nextRun: mine?.nextRun ?? null,
          shared: mine?.shared ?? link.shared,
          shareId: (link.registered && mine?.shareId) || link.shareId || null,
        },
        owner: null,
      };
    });
    link = seen.link;
    owner = seen.owner;
    // A colleague's look leaves the owner's record as it is (their e-mail setting and sharing are the owner's).
    if (!owner) yield* saveLink(link);
  } catch (e) {
    // No token yet, offline, an old server: the status still shows what was last known, and says why.
    if (!(e instanceof CompanyDataError)) throw e;
    unreachable = T.unreachable;
  }
  const server: ServerScheduleStatus = {
    name: link.name,
    registered: link.registered,
    nextRun: link.nextRun,
    mail: link.mail,
    lastRun: link.lastRun,
    syncedAt: link.syncedAt,
    shared: sharedChoice(link),
    ...(owner ? { owner } : {}),
    ...(unreachable ? { unreachable } : {}),
  };
  return { ...base, hostNote: T.hostNote, alerts: serverAlertViews(base.alerts, link), server };
}

/** monitorShare {shared}: the owner shares the workbook's schedule with the team read-only, or stops; answers the status. */
export function* monitorShareMethod(deps: AppDeps, input: unknown): Operation<MonitorStatusView> {
  if (yield* serverMode()) yield* monitorShareLink(deps, input);
  return yield* monitorStatusServerAware(deps, {});
}
