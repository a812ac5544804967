/**
 * A schedule its owner shared with the team, read-only, by its stable id
 * (issue 42, item 1): a colleague who opens the owner's workbook with a
 * personal token of their own syncs its runs into the workbook through these,
 * by the share id the workbook's link records (shared/app/monitor-server.ts).
 *
 *   GET /shared-schedules/ID               the schedule as a reader sees it (no webhooks, no recipients, no budget)
 *   GET /shared-schedules/ID/runs?after=N  its finished runs after a cursor, as GET /schedules/NAME/runs
 *                                          (to a reader not the owner without the e-mail recipients)
 *
 * Rules: only authenticated users of this server (the route requires a
 * personal token); the owner reads their own always, anyone else only while it
 * is shared; unshared, unknown and malformed ids answer the same 404 as a
 * schedule that does not exist (no existence leak); every other method is
 * 405: changing, running, undoing or deleting a schedule stays under
 * /schedules/NAME, which looks the name up under the caller's own user, so a
 * colleague can never reach another user's schedule there.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { catalogue } from "../../shared/i18n/index.ts";
import { errorAnswer, send } from "../errors.ts";
import { msg } from "../i18n.ts";
import type { ServerContext } from "../routes.ts";
import { scheduleConfig } from "./config.ts";
import { runsAnswer } from "./routes.ts";
import * as store from "./store.ts";

export const SHARED_SCHEDULES_PATH = "/shared-schedules";
/** A share id as migration 140 makes them: 32 hex digits. */
const SHARE_ID = /^[0-9a-f]{32}$/;

const text = catalogue({
  noSchedule: { de: "Diesen Zeitplan gibt es nicht.", en: "There is no such schedule." },
});

/** What a reader sees of a shared schedule: when it runs, whose it is, whether it is the caller's own. */
export function sharedView(s: store.Schedule, owner: string, mine: boolean) {
  return {
    name: s.name,
    shareId: s.shareId,
    shared: s.shared,
    owner,
    mine,
    companies: s.companies.length,
    frequency: s.frequency,
    hour: s.hour,
    weekday: s.weekday,
    language: s.language,
    nextRun: s.nextRun.toISOString(),
    mail: scheduleConfig().mailer !== undefined,
  };
}

export async function handleSharedSchedules(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: ServerContext,
): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  const parts = ctx.url.pathname.slice(SHARED_SCHEDULES_PATH.length).split("/").filter(Boolean);
  const [id, sub] = parts;
  const shape = parts.length === 1 || (parts.length === 2 && sub === "runs");
  if (!id || !shape) return send(res, errorAnswer("NOT_FOUND", msg.notFound[ctx.lang]));
  if (method !== "GET") return send(res, errorAnswer("METHOD_NOT_ALLOWED", msg.methodNotAllowed[ctx.lang]));
  const user = ctx.user!;
  const found = SHARE_ID.test(id) ? await store.findShared(ctx.db, id, user.id) : null;
  if (!found) return send(res, errorAnswer("NOT_FOUND", text.noSchedule[ctx.lang]));
  const view = sharedView(found.schedule, found.owner, found.schedule.userId === user.id);
  if (parts.length === 1) return void res.writeHead(200, JSON_TYPE).end(JSON.stringify(view));
  return runsAnswer(res, ctx, found.schedule, view, view.mine ? undefined : withoutRecipients);
}

/**
 * A run as a reader who is not the owner sees it: the e-mail alert's target (the owner's recipients'
 * addresses) left out; a webhook's is its host already (send.ts). The rest is what the workbook's sync writes.
 */
function withoutRecipients(run: store.RunRecord): store.RunRecord {
  const result = run.result as { alerts?: { channel?: string; target?: string }[] } | null;
  if (!result || !Array.isArray(result.alerts)) return run;
  const alerts = result.alerts.map((a) => (a?.channel === "email" ? { ...a, target: "…" } : a));
  return { ...run, result: { ...result, alerts } };
}

const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };
