/**
 * The audit of a schedule's runs over HTTP (personal token; only the
 * schedule's owner: another user's schedule, or a run not in this
 * schedule's audit, is 404 as a schedule that does not exist):
 *
 *   GET  /schedules/NAME/audit             the audited runs, newest first, the audit's size and limits
 *   POST /schedules/NAME/audit/RUN/undo    undo run RUN (a second undo answers the first's result)
 *
 * An undo waits for a run of the schedule in progress (up to UNDO_WAIT_MS),
 * then answers 503 with Retry-After.
 */
import type { ServerResponse } from "node:http";
import { CompanyDataError } from "../../shared/core/index.ts";
import { catalogue } from "../../shared/i18n/index.ts";
import { errorAnswer, send } from "../errors.ts";
import { msg } from "../i18n.ts";
import type { ServerContext } from "../routes.ts";
import { scheduleConfig } from "./config.ts";
import { listAudit, ScheduleBusy, undoScheduleRun } from "./audit.ts";
import * as store from "./store.ts";

const UNDO_WAIT_MS = 20_000;

const text = catalogue({
  noSchedule: { de: "Diesen Zeitplan gibt es nicht.", en: "There is no such schedule." },
  noRun: { de: "Diesen Lauf gibt es im Protokoll nicht (mehr).", en: "There is no such run in the audit (any more)." },
  busy: {
    de: "Ein Lauf dieses Zeitplans ist noch nicht fertig; bitte gleich noch einmal.",
    en: "A run of this schedule has not finished yet; please try again shortly.",
  },
});

const json = (res: ServerResponse, status: number, body: unknown): void =>
  void res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));

export async function handleScheduleAudit(
  res: ServerResponse,
  ctx: ServerContext,
  name: string,
  rest: string[],
  method: string,
): Promise<void> {
  const notAllowed = () => send(res, errorAnswer("METHOD_NOT_ALLOWED", msg.methodNotAllowed[ctx.lang]));
  const s = await store.findSchedule(ctx.db, ctx.user!.id, name);
  if (!s) return send(res, errorAnswer("NOT_FOUND", text.noSchedule[ctx.lang]));
  if (rest.length === 0) {
    if (method !== "GET") return notAllowed();
    return json(res, 200, { schedule: s.name, ...(await listAudit(ctx.db, s)) });
  }
  const [run, action] = rest;
  if (rest.length !== 2 || action !== "undo" || !run || run.length > 100)
    return send(res, errorAnswer("NOT_FOUND", msg.notFound[ctx.lang]));
  if (method !== "POST") return notAllowed();
  try {
    const cfg = scheduleConfig();
    const done = await undoScheduleRun(ctx.db, s, run, {
      who: ctx.user!.name,
      now: cfg.now,
      process: ctx.process,
      waitMs: UNDO_WAIT_MS,
    });
    ctx.log.info("schedule.undo", { user: ctx.user!.name, schedule: s.id, restored: done.undo.restored });
    return json(res, 200, done);
  } catch (e) {
    if (e instanceof ScheduleBusy)
      return send(res, errorAnswer("UNAVAILABLE", text.busy[ctx.lang], { retryAfterSeconds: 30 }));
    if (e instanceof CompanyDataError && e.details.field === "run")
      return send(res, errorAnswer("NOT_FOUND", text.noRun[ctx.lang]));
    throw e;
  }
}
