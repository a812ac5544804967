/**
 * One run of a schedule: the CLI's and the add-ins' portfolio check
 * (shared/monitor checkPortfolio, unchanged) over the schedule's companies,
 * with
 *  - a sheet in memory (the playground's workbook model): the "Portfolio"
 *    sheet of ids, and the change log seeded with the lines logged before,
 *    so the core's line keys hold across runs; new lines are written to the
 *    database the moment the core appends them (before it saves watermarks);
 *  - the document store in the database (watermarks, last results, alert
 *    outboxes), per schedule;
 *  - every API call through the team server's own purchase path (ctx.call:
 *    shared answers, the user's and the team's budgets, the ledger, the
 *    team's pacer), billed to the schedule's user, with answers bought since
 *    the run started (a stored profile may predate an insolvency);
 *  - alerts from here: webhooks posted with a timeout, e-mail through the
 *    server's SMTP relay.
 * The run's budget is the core's per-run budget: the plan is priced with the
 * free availability calls first, and companies past the budget wait for the
 * next run. The result (companies screened, new changes, credits, alerts,
 * errors) is kept in schedule_runs.
 */
import {
  runAsync,
  fnv1a32,
  http,
  type AsyncDriver,
  type HttpRequest,
  type HttpResponse,
} from "../../shared/core/index.ts";
import { CompanyDataError } from "../../shared/core/index.ts";
import { Pacer, type RateLimitOverrides } from "../../shared/api/index.ts";
import { catalogue, type Bilingual, type Language } from "../../shared/i18n/index.ts";
import type { OpContext } from "../../shared/operations/index.ts";
import {
  CHANGES_HEADERS,
  CHANGES_SHEETS,
  checkPortfolio,
  checkWebhookUrl,
  deliverAlerts,
  DeliveryError,
  loadStates,
  MAX_STALLED_CALLS,
  PORTFOLIO_SHEET,
  postWebhook,
  type CompanyState,
  type DeliveryOutcome,
  type RunSummary,
} from "../../shared/monitor/index.ts";
import { runToEnd } from "../../shared/schedule/index.ts";
import { fetchHttp, type FetchLike } from "../../shared/web/index.ts";
import { Workbook } from "../../shared/sheet/index.ts";
import type { AuthUser } from "../auth/tokens.ts";
import type { InwardKind } from "../net/addresses.ts";
import { outboundFetch, OutboundRefused, refusalText, STRICT_OUTBOUND } from "../net/outbound.ts";
import { specOf } from "../proxy.ts";
import type { ServiceContext } from "../routes.ts";
import { maskedWebhook } from "./model.ts";
import type { ScheduleMailer } from "./mail.ts";
import * as store from "./store.ts";
import type { LogRow, Schedule } from "./store.ts";
import { errorMessage } from "../error-text.ts";
import { auditRunId, loadSheet, saveSheet } from "./audit.ts";

/** Never contacted: the core's client builds requests to it, which ctx.call answers (as the reconciliation service does). */
const TEAM_BASE = "http://team-server.invalid";
/** The e-mail channel's "request": answered by the server's mailer, never sent over HTTP. */
const MAIL_URL = "mail:digest";
/** The team's pacer paces every call (server/upstream.ts); the check's own client must not pace them a second time. */
const UNPACED_LIMIT = { burst: 1_000_000, perSecond: 1_000_000 };
const UNPACED: RateLimitOverrides = {
  suggest: UNPACED_LIMIT,
  resolve: UNPACED_LIMIT,
  availability: UNPACED_LIMIT,
  account: UNPACED_LIMIT,
};

export interface RunOptions {
  /** The server's clock (epoch ms): injectable, so a test can move days. */
  now: () => number;
  /** Per webhook post. */
  webhookTimeoutMs: number;
  mailer?: ScheduleMailer;
}

/** A company the run screened (its row in the portfolio sheet). */
export interface ScreenedRow {
  id: string;
  name: string | null;
  group: "risk" | "watch" | "none";
  code: string;
  flag: Bilingual;
  keyFigure: { year: number; netIncome: number | null; revenue: number | null } | null;
  /** The register's last change date at this check (the portfolio sheet's "Last change" column). */
  lastChange: string | null;
  checkedAt: string;
  newChanges: number;
}

export interface AlertResult {
  channel: "webhook" | "email";
  /** The webhook's host, or the recipients. */
  target: string;
  status: "nothing" | "sent" | "failed" | "not-configured";
  error?: Bilingual;
}

export interface RunResult {
  status: string;
  message: Bilingual;
  /** The plan's price (free availability calls first: the price before the spend). */
  estimate: number;
  /** Credits at the catalogue's prices the check counted against its budget. */
  spent: number;
  /** Credits the team actually paid (answers the team had already bought cost nothing). */
  charged: number;
  counts: Pick<RunSummary, "companies" | "checked" | "unchanged" | "errors" | "notFound" | "ambiguous" | "newChanges">;
  left: RunSummary["left"];
  companies: ScreenedRow[];
  /** The change log lines this run appended: date, company id, company, kind, text, source, key. */
  changes: LogRow[];
  alerts: AlertResult[];
  errors: Bilingual[];
}

/** The run's own texts (DE/EN), kept on the run as they are. */
const text = catalogue({
  notConfigured: {
    de: "Dieser Server hat keinen E-Mail-Versand eingerichtet (COMPANY_DATA_SMTP_URL).",
    en: "This server has no e-mail relay configured (COMPANY_DATA_SMTP_URL).",
  },
  mailFailed: { de: "Die E-Mail konnte nicht gesendet werden.", en: "The e-mail could not be sent." },
  noToken: {
    de: "Der Benutzer dieses Zeitplans hat keinen gültigen persönlichen Token mehr; es wurde nichts gekauft.",
    en: "The user of this schedule has no valid personal token any more; nothing was bought.",
  },
  runFailed: {
    de: "Die Prüfung ist mit einem internen Fehler abgebrochen; sie wird beim nächsten Termin wiederholt.",
    en: "The check stopped with an internal error; it is repeated at the next slot.",
  },
});

/** The webhook channel of one address: its own outbox, named by the address's hash (never the address). */
export const webhookChannel = (url: string) => `webhook-${fnv1a32(url).toString(16)}`;

/** The schedule's user, while they hold a live token (a revoked user's schedules spend nothing). */
async function liveUser(ctx: ServiceContext, userId: number): Promise<AuthUser | null> {
  const [u] = await ctx.db.query<{ id: number; name: string; month_budget: number | null }>(
    `select u.id, u.name, u.month_budget from users u
     where u.id = $1 and exists (select 1 from tokens t where t.user_id = u.id
       and (t.revoked_at is null or t.revoked_at > now()) and (t.expires_at is null or t.expires_at > now()))`,
    [userId],
  );
  return u ? { id: u.id, name: u.name, monthBudget: u.month_budget, admin: false } : null;
}

/** Where the check's effects go for one run. */
function runDriver(
  ctx: ServiceContext,
  s: Schedule,
  runId: number,
  user: AuthUser,
  book: Workbook,
  logSheet: string,
  opts: RunOptions,
  record: Pick<RunResult, "charged" | "changes">,
  boughtAfter: Date,
  refused: Map<string, InwardKind>,
): AsyncDriver {
  // User-given addresses only through the outbound check (server/net/outbound.ts): resolved, checked, connected.
  const guarded = outboundFetch(ctx.outbound ?? STRICT_OUTBOUND);
  const webhookFetch: FetchLike = async (url, init) => {
    try {
      return await guarded(url, init);
    } catch (e) {
      if (e instanceof OutboundRefused) {
        refused.set(url, e.kind);
        ctx.log.warn("schedule.webhook.refused", { schedule: s.id, kind: e.kind });
      }
      throw e;
    }
  };
  const api = async (r: HttpRequest): Promise<HttpResponse> => {
    const lang: Language = /^en/i.test(r.headers["Accept-Language"] ?? "") ? "en" : "de";
    const parsed = specOf(r.method, new URL(r.url), r.body ?? "", lang);
    const a = parsed.ok ? await ctx.call(user, parsed.spec, lang, { boughtAfter }) : parsed.answer;
    record.charged += Number(a.headers["x-credits-charged"] ?? 0) || 0;
    return { status: a.status, headers: a.headers, body: a.body };
  };
  const mail = async (r: HttpRequest): Promise<HttpResponse> => {
    const m = JSON.parse(r.body ?? "{}") as { to: string[]; subject: string; text: string };
    try {
      await opts.mailer!.send(m.to, m.subject, m.text);
      return { status: 200, headers: {}, body: "" };
    } catch (e) {
      // The relay's own text can name addresses and servers: its kind to the log, ours to the run.
      ctx.log.warn("schedule.mail.failed", { schedule: s.id, error: (e as Error)?.name ?? "Error" });
      return { status: 502, headers: {}, body: "" };
    }
  };
  return {
    http: (reqs) =>
      Promise.all(
        reqs.map((r) =>
          r.url.startsWith(TEAM_BASE + "/")
            ? api(r)
            : r.url === MAIL_URL
              ? mail(r)
              : fetchHttp(webhookFetch, r, opts.webhookTimeoutMs),
        ),
      ),
    sleep: (ms) => new Promise<void>((r) => setTimeout(r, Math.min(ms, 60_000)).unref()),
    // Monitoring asks for today's answers: no cache of the check's own (the team's shared answers are the server's).
    cacheGet: async (keys) => keys.map(() => null),
    cachePut: async () => undefined,
    storeGet: (keys) => store.storeGet(ctx.db, s.id, keys),
    storePut: (entries) => store.storePut(ctx.db, s.id, entries),
    sheet: async (req) => {
      // The change log's lines are in the database before the core saves the watermarks that follow them.
      if (req.op === "append" && req.sheet === logSheet) {
        const rows = req.rows.map((row) => [...row]);
        await store.appendLog(ctx.db, s.id, runId, rows);
        record.changes.push(...rows);
      }
      return book.handle(req);
    },
  };
}

/** The e-mail channel's send: the digest as one message to every recipient. */
function mailDigest(to: string[]) {
  return function* (d: { subject: string; text: string }) {
    const body = JSON.stringify({ to, subject: d.subject, text: d.text });
    const [res] = yield* http([{ method: "POST", url: MAIL_URL, headers: {}, body }]);
    if (res.status !== 200) throw new DeliveryError(text.mailFailed);
  };
}

const textOf = (e: unknown): Bilingual =>
  e instanceof CompanyDataError ? { de: e.text("de"), en: e.text("en") } : text.runFailed;

/** Run the check of a claimed schedule and keep its result; never throws for the check's own failures. */
export async function runSchedule(ctx: ServiceContext, s: Schedule, opts: RunOptions): Promise<RunResult> {
  const runId = await store.startRun(ctx.db, s.id, ctx.process, opts.now());
  const [{ now: dbNow }] = (await ctx.db.query<{ now: Date | string }>("select now() as now")) as [
    { now: Date | string },
  ];
  const result: RunResult = {
    status: "failed",
    message: text.runFailed,
    estimate: 0,
    spent: 0,
    charged: 0,
    counts: {
      companies: s.companies.length,
      checked: 0,
      unchanged: 0,
      errors: 0,
      notFound: 0,
      ambiguous: 0,
      newChanges: 0,
    },
    left: { companies: 0, credits: 0, unpriced: 0 },
    companies: [],
    changes: [],
    alerts: [],
    errors: [],
  };
  try {
    const user = await liveUser(ctx, s.userId);
    if (!user) {
      result.status = "refused";
      result.message = text.noToken;
      result.errors.push(text.noToken);
      return result;
    }
    await check(ctx, s, runId, user, opts, new Date(dbNow), result);
  } catch (e) {
    ctx.log.error("schedule.run.failed", {
      schedule: s.id,
      error: (e as Error)?.name ?? "Error",
      message: errorMessage(e).slice(0, 300),
    });
    result.status = "failed";
    result.message = textOf(e);
    result.errors.push(textOf(e));
  } finally {
    await store.finishRun(
      ctx.db,
      runId,
      { status: result.status, estimate: result.estimate, credits: result.charged, result },
      opts.now(),
    );
  }
  return result;
}

/** The workbook as the last run left it: the audit of this run's writes has each cell's old value (./audit.ts). */
async function loadBook(ctx: ServiceContext, s: Schedule, logSheet: string): Promise<Workbook> {
  const logged = await store.logRows(ctx.db, s.id);
  return new Workbook([
    { name: PORTFOLIO_SHEET, cells: await loadSheet(ctx.db, s) },
    ...(logged.length ? [{ name: logSheet, cells: [CHANGES_HEADERS[s.language], ...logged] }] : []),
  ]);
}

/** The core's context for the check: its client speaks to ctx.call (TEAM_BASE), its store is the schedule's own. */
function checkContext(s: Schedule, opts: RunOptions): OpContext {
  return {
    client: {
      apiKey: "team-server",
      baseUrl: TEAM_BASE,
      language: s.language,
      now: opts.now,
      random: Math.random,
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 0,
    maxBatch: 100,
    scope: `schedule-${s.id}`,
    rateLimits: UNPACED,
  };
}

/** The check's summary onto the run's record (the estimate summed over the check's steps). */
function keepSummary(result: RunResult, summary: RunSummary, estimate: number): void {
  result.status = summary.status;
  result.message = summary.message;
  result.estimate = estimate;
  result.spent = summary.runSpent;
  result.counts = {
    companies: summary.companies,
    checked: summary.checked,
    unchanged: summary.unchanged,
    errors: summary.errors,
    notFound: summary.notFound,
    ambiguous: summary.ambiguous,
    newChanges: summary.newChanges,
  };
  result.left = summary.left;
}

/** The companies this run screened (their state names this run), as their portfolio rows show them. */
function screenedRows(states: ReadonlyMap<string, CompanyState | null>, runId: string): ScreenedRow[] {
  const rows: ScreenedRow[] = [];
  for (const [id, st] of states)
    if (st && st.run === runId)
      rows.push({
        id,
        name: st.name,
        group: st.result.group,
        code: st.result.code,
        flag: st.result.text,
        keyFigure: st.result.keyFigure,
        lastChange: st.lastChange,
        checkedAt: st.checkedAt,
        newChanges: st.newChanges,
      });
  return rows;
}

/** Alerts: what each channel has waiting (news of this run and of runs whose delivery failed), delivered now. */
async function deliverChannels(
  s: Schedule,
  opCtx: OpContext,
  driver: AsyncDriver,
  channels: { webhooks: { url: string; channel: string }[]; mailTo: string[]; refused: Map<string, InwardKind> },
  result: RunResult,
): Promise<void> {
  const { webhooks, mailTo, refused } = channels;
  for (const w of webhooks)
    result.alerts.push(
      alertOf(
        "webhook",
        maskedWebhook(w.url),
        await runAsync(deliverAlerts(opCtx, w.channel, guardedWebhook(w.url, refused)), driver),
      ),
    );
  if (mailTo.length)
    result.alerts.push(
      alertOf("email", mailTo.join(", "), await runAsync(deliverAlerts(opCtx, "email", mailDigest(mailTo)), driver)),
    );
  else if (s.emails.length)
    result.alerts.push({
      channel: "email",
      target: s.emails.join(", "),
      status: "not-configured",
      error: text.notConfigured,
    });
}

async function check(
  ctx: ServiceContext,
  s: Schedule,
  runId: number,
  user: AuthUser,
  opts: RunOptions,
  boughtAfter: Date,
  result: RunResult,
): Promise<void> {
  const logSheet = CHANGES_SHEETS[s.language];
  const book = await loadBook(ctx, s, logSheet);
  // The run's record counts what was paid and logged as it happens, also when the check stops half-way.
  const refused = new Map<string, InwardKind>();
  const driver = runDriver(ctx, s, runId, user, book, logSheet, opts, result, boughtAfter, refused);
  const opCtx = checkContext(s, opts);
  const webhooks = s.webhooks.map((url) => ({ url, channel: webhookChannel(url) }));
  const mailTo = s.emails.length && opts.mailer ? s.emails : [];
  const checkOpts = {
    sheet: PORTFOLIO_SHEET,
    changesSheet: logSheet,
    budget: s.budget,
    alerts: [...webhooks.map((w) => w.channel), ...(mailTo.length ? ["email"] : [])],
    audit: { who: user.name, id: auditRunId(runId) },
  };
  // A check pauses when only failed calls are left; the core bounds how often it continues for them (as the CLI).
  let estimate = 0;
  const summary = await runToEnd(async () => {
    const step = await runAsync(checkPortfolio(opCtx, checkOpts), driver);
    estimate += step.estimate;
    return step;
  }, MAX_STALLED_CALLS + 1).finally(() => saveSheet(ctx.db, s.id, book.sheet(PORTFOLIO_SHEET).cells));
  keepSummary(result, summary, estimate);
  const states = await runAsync(loadStates(opCtx, s.companies), driver);
  for (const row of screenedRows(states, summary.runId)) result.companies.push(row);
  await deliverChannels(s, opCtx, driver, { webhooks, mailTo, refused }, result);
}

/** postWebhook, with the reason when the send-time check refused the address (it resolved inward). */
function guardedWebhook(url: string, refused: ReadonlyMap<string, InwardKind>) {
  const post = postWebhook(url);
  const target = checkWebhookUrl(url);
  return function* (d: Parameters<typeof post>[0]) {
    try {
      yield* post(d);
    } catch (e) {
      const kind = refused.get(target);
      throw kind ? new DeliveryError(refusalText(kind)) : e;
    }
  };
}

function alertOf(channel: "webhook" | "email", target: string, o: DeliveryOutcome): AlertResult {
  if (o.status === "nothing") return { channel, target, status: "nothing" };
  return { channel, target, status: o.status, ...(o.record.error ? { error: o.record.error } : {}) };
}
