/**
 * Schedules (admin): every schedule on the server, its price before "run
 * now" (free availability calls only: server/schedules/price.ts), run now,
 * pause and resume, transfer to another user, and the run history across
 * all schedules (server/schedules/admin.ts).
 */
import type { AuthUser } from "../auth/tokens.ts";
import { serverNow } from "../clock.ts";
import { allSchedules, runHistory, runNow, scheduleById, setPaused, transferSchedule } from "../schedules/admin.ts";
import { priceRun } from "../schedules/price.ts";
import { findSchedule } from "../schedules/store.ts";
import type { ServerContext } from "../routes.ts";
import { bodyOf, CONSOLE_TEXTS, fail, json, userOf, wholeNumber, type ConsoleRoute } from "./kit.ts";

const HISTORY_PAGE = 50;

/** The schedule of an id and its owner (for the owner's free calls), or null. */
async function loaded(ctx: ServerContext, id: number) {
  const row = await scheduleById(ctx.db, id);
  if (!row) return null;
  const s = await findSchedule(ctx.db, row.user_id, row.name);
  const [u] = await ctx.db.query<{ id: number; name: string; month_budget: number | null }>(
    "select id, name, month_budget from users where id = $1",
    [row.user_id],
  );
  if (!s || !u) return null;
  const owner: AuthUser = { id: u.id, name: u.name, monthBudget: u.month_budget, admin: false };
  return { s, owner };
}

export const scheduleRoutes: ConsoleRoute[] = [
  {
    method: "GET",
    path: /^\/schedules$/,
    async handle(_req, res, ctx) {
      json(res, 200, { now: new Date(serverNow()).toISOString(), schedules: await allSchedules(ctx.db) });
    },
  },
  {
    method: "GET",
    path: /^\/schedules\/(\d{1,9})\/price$/,
    async handle(_req, res, ctx, m) {
      const found = await loaded(ctx, Number(m[1]));
      if (!found) return fail(res, ctx, "NOT_FOUND", CONSOLE_TEXTS.noSchedule[ctx.lang]);
      json(res, 200, await priceRun(ctx, found.s, found.owner, serverNow()));
    },
  },
  {
    method: "POST",
    path: /^\/schedules\/(\d{1,9})\/run$/,
    async handle(_req, res, ctx, m) {
      // The price the admin saw and confirmed, recorded with the action.
      const price = wholeNumber(bodyOf(ctx).price, "price", 0, 1_000_000_000);
      if (!(await runNow(ctx.db, Number(m[1]), serverNow(), ctx.user!.name, price)))
        return fail(res, ctx, "NOT_FOUND", CONSOLE_TEXTS.noSchedule[ctx.lang]);
      ctx.log.info("console.schedule.run", { by: ctx.user!.name, schedule: Number(m[1]), price });
      json(res, 202, { due: true });
    },
  },
  {
    method: "POST",
    path: /^\/schedules\/(\d{1,9})\/(pause|resume)$/,
    async handle(_req, res, ctx, m) {
      if (!(await setPaused(ctx.db, Number(m[1]), m[2] === "pause", ctx.user!.name)))
        return fail(res, ctx, "NOT_FOUND", CONSOLE_TEXTS.noSchedule[ctx.lang]);
      ctx.log.info("console.schedule." + m[2], { by: ctx.user!.name, schedule: Number(m[1]) });
      json(res, 200, { ok: true });
    },
  },
  {
    method: "POST",
    path: /^\/schedules\/(\d{1,9})\/transfer$/,
    async handle(_req, res, ctx, m) {
      const to = userOf(bodyOf(ctx).to, "to");
      const out = await transferSchedule(ctx.db, Number(m[1]), to, ctx.user!.name);
      if (out === "no-schedule") return fail(res, ctx, "NOT_FOUND", CONSOLE_TEXTS.noSchedule[ctx.lang]);
      if (out === "no-user") return fail(res, ctx, "NOT_FOUND", CONSOLE_TEXTS.noUser[ctx.lang](to));
      if (out === "name-taken") return fail(res, ctx, "INVALID_INPUT", CONSOLE_TEXTS.nameTaken[ctx.lang]);
      ctx.log.info("console.schedule.transfer", { by: ctx.user!.name, schedule: Number(m[1]), to });
      json(res, 200, { ok: true });
    },
  },
  {
    method: "GET",
    path: /^\/runs$/,
    async handle(_req, res, ctx) {
      const before = ctx.url.searchParams.get("before");
      const runs = await runHistory(
        ctx.db,
        HISTORY_PAGE,
        before ? wholeNumber(before, "before", 1, 2_000_000_000) : undefined,
      );
      json(res, 200, { runs, more: runs.length === HISTORY_PAGE });
    },
  },
];
