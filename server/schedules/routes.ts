/**
 * The schedules' HTTP API (personal token required, the server's CORS):
 *
 *   GET    /schedules                      the user's schedules (webhooks shown by host only)
 *   GET    /schedules/NAME                 one
 *   PUT    /schedules/NAME                 (or POST) register or replace: {companies, frequency, hour, weekday?, budget?, webhooks?, emails?, language?}
 *   DELETE /schedules/NAME                 remove it (its store, change log and runs with it); also POST /schedules/NAME/delete
 *   POST   /schedules/NAME/run             due now (the loop runs it at its next tick)
 *   POST   /schedules/NAME/share           {shared: true|false}: the team may read it and its runs, or no longer
 *                                          (by its `shareId`, shared-routes.ts: GET /shared-schedules/ID, read-only)
 *   GET    /schedules/NAME/runs?after=ID   finished runs after a cursor (a run id), oldest first; `cursor` is the next one to ask with
 *   GET    /schedules/NAME/audit           the audit of its runs; POST /schedules/NAME/audit/RUN/undo undoes one (audit-routes.ts)
 *
 * Errors in the API's shape and the user's language.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { CompanyDataError, toCompanyDataError } from "../../shared/core/index.ts";
import { catalogue } from "../../shared/i18n/index.ts";
import { errorAnswer, send, type ErrorAnswer } from "../errors.ts";
import { msg } from "../i18n.ts";
import { registrationRefusal, STRICT_OUTBOUND } from "../net/outbound.ts";
import type { ServerContext } from "../routes.ts";
import { scheduleConfig } from "./config.ts";
import { DEFAULT_MAX_SCHEDULES, maskedWebhook, scheduleInput, scheduleName } from "./model.ts";
import * as store from "./store.ts";
import { handleScheduleAudit } from "./audit-routes.ts";

export const SCHEDULES_PATH = "/schedules";
/** Runs per answer: a client that was away long asks again with the cursor. */
const MAX_RUNS = 100;

const text = catalogue({
  noSchedule: { de: "Diesen Zeitplan gibt es nicht.", en: "There is no such schedule." },
  tooMany: {
    de: (max: number) =>
      `Sie haben schon ${max} Zeitpläne, so viele, wie dieser Server je Benutzer erlaubt. Einen löschen oder einen bestehenden ersetzen (gleicher Name).`,
    en: (max: number) =>
      `You already have ${max} schedules, as many as this server allows per user. Delete one or replace an existing one (same name).`,
  },
  badShared: {
    de: 'Erwartet {"shared": true} oder {"shared": false}.',
    en: 'Expected {"shared": true} or {"shared": false}.',
  },
  badCursor: {
    de: "„after“ muss die Nummer eines Laufs sein (eine ganze Zahl ≥ 0).",
    en: "“after” must be a run's number (a whole number ≥ 0).",
  },
});

const json = (res: ServerResponse, status: number, body: unknown): void =>
  void res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));

export function scheduleView(s: store.Schedule) {
  return {
    name: s.name,
    companies: s.companies,
    frequency: s.frequency,
    hour: s.hour,
    weekday: s.weekday,
    budget: s.budget,
    webhooks: s.webhooks.map(maskedWebhook),
    emails: s.emails,
    language: s.language,
    nextRun: s.nextRun.toISOString(),
    // Shared with the team read-only, and the stable id a workbook's link records (the owner's view only).
    shared: s.shared,
    shareId: s.shareId,
    // Whether this server sends e-mail (COMPANY_DATA_SMTP_URL): the add-ins offer recipients only then.
    mail: scheduleConfig().mailer !== undefined,
  };
}

function invalidAnswer(e: unknown, ctx: ServerContext): ErrorAnswer {
  const err = toCompanyDataError(e);
  return errorAnswer(
    "INVALID_INPUT",
    err.text(ctx.lang),
    err.details.field !== undefined ? { field: err.details.field } : {},
  );
}

const notAllowed = (res: ServerResponse, ctx: ServerContext): void =>
  send(res, errorAnswer("METHOD_NOT_ALLOWED", msg.methodNotAllowed[ctx.lang]));
const missing = (res: ServerResponse, ctx: ServerContext): void =>
  send(res, errorAnswer("NOT_FOUND", text.noSchedule[ctx.lang]));

/** GET /schedules: the user's schedules, and whether this server sends e-mail. */
async function listSchedules(res: ServerResponse, ctx: ServerContext, method: string): Promise<void> {
  if (method !== "GET") return notAllowed(res, ctx);
  return json(res, 200, {
    schedules: (await store.listSchedules(ctx.db, ctx.user!.id)).map(scheduleView),
    mail: scheduleConfig().mailer !== undefined,
  });
}

/** DELETE /schedules/NAME (or POST …/delete): the schedule gone, or "no such schedule". */
async function deleteSchedule(res: ServerResponse, ctx: ServerContext, name: string): Promise<void> {
  return (await store.deleteSchedule(ctx.db, ctx.user!.id, name))
    ? json(res, 200, { deleted: name })
    : missing(res, ctx);
}

/** /schedules/NAME: read, delete, or register (PUT or POST) one schedule. */
async function handleOne(res: ServerResponse, ctx: ServerContext, name: string, method: string): Promise<void> {
  if (method === "GET") {
    const s = await store.findSchedule(ctx.db, ctx.user!.id, name);
    return s ? json(res, 200, scheduleView(s)) : missing(res, ctx);
  }
  if (method === "DELETE") return deleteSchedule(res, ctx, name);
  // POST as PUT: the core's HTTP effect (and Apps Script's UrlFetch through it) speaks GET and POST.
  if (method !== "PUT" && method !== "POST") return notAllowed(res, ctx);
  let body: unknown;
  try {
    body = JSON.parse(ctx.body);
  } catch {
    return send(res, errorAnswer("INVALID_INPUT", msg.badJson[ctx.lang], { field: "body" }));
  }
  try {
    return await registerSchedule(res, ctx, name, body);
  } catch (e) {
    if (e instanceof store.ScheduleCapReached)
      return send(res, errorAnswer("FORBIDDEN", text.tooMany[ctx.lang](e.max), { field: "name" }));
    if (e instanceof CompanyDataError || (e as { code?: string })?.code === "INVALID_INPUT")
      return send(res, invalidAnswer(e, ctx));
    throw e;
  }
}

/** Register or replace a schedule from its parsed body; bad input and the per-user cap throw (handleOne answers). */
async function registerSchedule(res: ServerResponse, ctx: ServerContext, name: string, body: unknown): Promise<void> {
  const user = ctx.user!;
  const input = scheduleInput(body, ctx.lang);
  // Every webhook address must lead outside (or to a host the admin allowed): refused here, checked again at send.
  for (const [i, w] of input.webhooks.entries()) {
    const refusal = registrationRefusal(ctx.outbound ?? STRICT_OUTBOUND, w, `webhooks[${i}]`);
    if (refusal) throw refusal;
  }
  const s = await store.upsertSchedule(
    ctx.db,
    user.id,
    name,
    input,
    scheduleConfig().now(),
    scheduleConfig().maxSchedules ?? DEFAULT_MAX_SCHEDULES,
  );
  ctx.log.info("schedule.registered", {
    user: user.name,
    schedule: s.id,
    companies: s.companies.length,
    frequency: s.frequency,
  });
  return json(res, 200, scheduleView(s));
}

/** GET /schedules/NAME/runs?after=ID: the finished runs after the cursor, at most MAX_RUNS. */
async function listRuns(res: ServerResponse, ctx: ServerContext, name: string): Promise<void> {
  const s = await store.findSchedule(ctx.db, ctx.user!.id, name);
  if (!s) return missing(res, ctx);
  return runsAnswer(res, ctx, s, scheduleView(s));
}

/** POST /schedules/NAME/share {shared}: the owner shares the schedule with the team read-only, or stops. */
async function shareSchedule(res: ServerResponse, ctx: ServerContext, name: string): Promise<void> {
  let shared: unknown;
  try {
    shared = (JSON.parse(ctx.body) as { shared?: unknown } | null)?.shared;
  } catch {
    return send(res, errorAnswer("INVALID_INPUT", msg.badJson[ctx.lang], { field: "body" }));
  }
  if (typeof shared !== "boolean")
    return send(res, errorAnswer("INVALID_INPUT", text.badShared[ctx.lang], { field: "shared" }));
  const s = await store.setShared(ctx.db, ctx.user!.id, name, shared);
  if (!s) return missing(res, ctx);
  ctx.log.info("schedule.shared", { user: ctx.user!.name, schedule: s.id, shared });
  return json(res, 200, scheduleView(s));
}

/**
 * The finished runs of `s` after the request's cursor (`after`), at most MAX_RUNS, with the schedule as `view`;
 * `shown` (a reader who is not the owner: shared-routes.ts) leaves out what only the owner sees.
 */
export async function runsAnswer(
  res: ServerResponse,
  ctx: ServerContext,
  s: store.Schedule,
  view: object,
  shown: (run: store.RunRecord) => store.RunRecord = (run) => run,
): Promise<void> {
  const afterText = ctx.url.searchParams.get("after") ?? "0";
  const after = /^\d{1,12}$/.test(afterText) ? Number(afterText) : NaN;
  if (Number.isNaN(after)) return send(res, errorAnswer("INVALID_INPUT", text.badCursor[ctx.lang], { field: "after" }));
  const runs = await store.runsAfter(ctx.db, s.id, after, MAX_RUNS);
  return json(res, 200, {
    schedule: view,
    runs: runs.map(shown),
    cursor: runs.length ? runs[runs.length - 1]!.id : after,
    more: runs.length === MAX_RUNS,
  });
}

export async function handleSchedules(req: IncomingMessage, res: ServerResponse, ctx: ServerContext): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  const parts = ctx.url.pathname.slice(SCHEDULES_PATH.length).split("/").filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return listSchedules(res, ctx, method);
  let name: string;
  try {
    name = scheduleName(parts[0]!);
  } catch (e) {
    return send(res, invalidAnswer(e, ctx));
  }
  const [, sub] = parts;
  if (parts.length === 1) return handleOne(res, ctx, name, method);
  // POST as DELETE, as POST as PUT in handleOne: what a client whose HTTP effect speaks GET and POST (the add-ins) sends.
  if (parts.length === 2 && sub === "delete") {
    if (method !== "POST") return notAllowed(res, ctx);
    return deleteSchedule(res, ctx, name);
  }
  if (parts.length === 2 && sub === "run") {
    if (method !== "POST") return notAllowed(res, ctx);
    return (await store.makeDue(ctx.db, ctx.user!.id, name, scheduleConfig().now()))
      ? json(res, 202, { due: name })
      : missing(res, ctx);
  }
  if (parts.length === 2 && sub === "share") {
    if (method !== "POST") return notAllowed(res, ctx);
    return shareSchedule(res, ctx, name);
  }
  if (parts.length === 2 && sub === "runs") {
    if (method !== "GET") return notAllowed(res, ctx);
    return listRuns(res, ctx, name);
  }
  if (parts.length >= 2 && sub === "audit") return handleScheduleAudit(res, ctx, name, parts.slice(2), method);
  return send(res, errorAnswer("NOT_FOUND", msg.notFound[ctx.lang]));
}
