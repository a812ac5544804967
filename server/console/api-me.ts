/**
 * A user's own page (any personal token): their spend this month against
 * their budget (temporary increases included), their recent requests (bought or shared), their schedules with each one's
 * last run. Only the signed-in user's rows are read: every query here is
 * bound to ctx.user's id.
 */
import { serverNow } from "../clock.ts";
import { remaining } from "../ledger/budget.ts";
import { recentRequests, spendPerDay } from "../ledger/spend.ts";
import { listSchedules } from "../schedules/store.ts";
import { maskedWebhook } from "../schedules/model.ts";
import { json, type ConsoleRoute } from "./kit.ts";

export const meRoutes: ConsoleRoute[] = [
  {
    method: "GET",
    path: /^\/?$/,
    async handle(_req, res, ctx) {
      const user = ctx.user!;
      const now = serverNow();
      const left = await remaining(ctx.db, user, now);
      const schedules = await listSchedules(ctx.db, user.id);
      const lastRuns = await ctx.db.query<{
        schedule_id: number;
        status: string;
        finished_at: Date | string | null;
        credits: number;
      }>(
        `select distinct on (r.schedule_id) r.schedule_id, r.status, r.finished_at, r.credits
           from schedule_runs r join schedules s on s.id = r.schedule_id
          where s.user_id = $1 order by r.schedule_id, r.id desc`,
        [user.id],
      );
      json(res, 200, {
        user: user.name,
        admin: user.admin,
        month: left.month,
        spent: left.user.spent,
        budget: left.user.budget,
        perDay: await spendPerDay(ctx.db, left.month, user.id),
        requests: await recentRequests(ctx.db, user.id, 50),
        schedules: schedules.map((s) => {
          const r = lastRuns.find((x) => x.schedule_id === s.id);
          return {
            name: s.name,
            companies: s.companies.length,
            frequency: s.frequency,
            hour: s.hour,
            nextRun: s.nextRun.toISOString(),
            webhooks: s.webhooks.map(maskedWebhook),
            lastRun: r
              ? {
                  status: r.status,
                  finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
                  credits: r.credits,
                }
              : null,
          };
        }),
      });
    },
  },
];
