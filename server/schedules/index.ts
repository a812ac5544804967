/**
 * Portfolio schedules on the team server (issue 24): a user registers a
 * portfolio with its schedule and alert channels; the server runs the
 * portfolio check at the hour, whether or not anyone has a workbook open,
 * alerts, and keeps every run's result for the clients to fetch. An extension
 * of the team server (server/routes.ts); migrations 100–199.
 */
import "./migrations.ts";
import type { ServerExtension, ServiceContext } from "../routes.ts";
import { scheduleConfig } from "./config.ts";
import { handleSchedules, SCHEDULES_PATH } from "./routes.ts";
import { startScheduler } from "./scheduler.ts";
import { handleSharedSchedules, SHARED_SCHEDULES_PATH } from "./shared-routes.ts";

/** Deep health: how many schedules are overdue by more than two ticks (a loop that stopped shows here). */
async function overdueCheck(ctx: ServiceContext): Promise<{ ok: boolean; detail: { overdue: number } }> {
  const cfg = scheduleConfig();
  const [row] = await ctx.db.query<{ n: number }>(
    "select count(*)::int as n from schedules where next_run < $1 and running_by is null",
    [new Date(cfg.now() - 2 * cfg.tickMs - 60_000)],
  );
  const overdue = row?.n ?? 0;
  return { ok: overdue === 0, detail: { overdue } };
}

export const schedulesExtension: ServerExtension = {
  name: "schedules",
  // A registration of MAX_COMPANIES ids (15 characters each in JSON) with its webhooks and recipients fits well in 256 KB.
  routes: [
    { method: "*", prefix: SCHEDULES_PATH, auth: true, maxBodyBytes: 256 * 1024, handler: handleSchedules },
    // Read-only, by a schedule's share id (issue 42): a colleague's copy of the owner's workbook syncs through it.
    { method: "*", prefix: SHARED_SCHEDULES_PATH, auth: true, maxBodyBytes: 1024, handler: handleSharedSchedules },
  ],
  services: [{ name: "schedules", start: async (ctx) => startScheduler(ctx, scheduleConfig()) }],
  healthChecks: { schedules: overdueCheck },
};
