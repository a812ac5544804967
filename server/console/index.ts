/**
 * The team console (issue 39) at /console: the page (page.ts) and its API,
 *   /console/api/admin/…  an admin token (auth "admin": 401 without a token, 403 with a user's)
 *     report, ledger.csv, budgets, soft-limit, increases, users, tokens, schedules, runs, health
 *   /console/api/me        any personal token: the user's own figures only
 * An extension of the team server (server/routes.ts); the budgets'
 * migrations are core ids 50–59 (ledger/budget-migrations.ts), the
 * schedules' 110–119. The soft limits' check runs as a service at the
 * schedules' tick.
 */
import type { Service, ServerExtension } from "../routes.ts";
import { scheduleConfig } from "../schedules/config.ts";
import { checkSoftLimits } from "../ledger/soft-alerts.ts";
import { budgetRoutes } from "./api-budgets.ts";
import { healthRoutes } from "./api-health.ts";
import { meRoutes } from "./api-me.ts";
import { scheduleRoutes } from "./api-schedules.ts";
import { spendRoutes } from "./api-spend.ts";
import { tokenRoutes } from "./api-tokens.ts";
import { dispatch } from "./kit.ts";
import { handleConsolePage } from "./page.ts";

export const CONSOLE_PATH = "/console";
const ADMIN_API = "/console/api/admin";
const ME_API = "/console/api/me";

const adminRoutes = [...spendRoutes, ...budgetRoutes, ...tokenRoutes, ...scheduleRoutes, ...healthRoutes];

/** At most this long between looks at the soft limits, whatever the schedules' tick. */
const MAX_SOFT_LIMIT_TICK_MS = 60_000;

const softLimits: Service = {
  name: "budget-soft-limits",
  async start(ctx) {
    const cfg = scheduleConfig();
    let running: Promise<void> | null = null;
    let stopped = false;
    const tick = () => {
      if (running || stopped) return;
      running = checkSoftLimits(ctx.db, scheduleConfig(), ctx.log, ctx.outbound)
        .then(() => undefined)
        .catch((e: unknown) => ctx.log.error("budget.soft-limit.failed", { error: (e as Error)?.name ?? "Error" }))
        .finally(() => {
          running = null;
        });
    };
    const timer = setInterval(tick, Math.min(cfg.tickMs, MAX_SOFT_LIMIT_TICK_MS));
    timer.unref();
    return async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    };
  },
};

export const consoleExtension: ServerExtension = {
  name: "console",
  routes: [
    { method: "GET", prefix: CONSOLE_PATH, auth: false, handler: handleConsolePage },
    {
      method: "*",
      prefix: ADMIN_API,
      auth: "admin",
      handler: (req, res, ctx) => dispatch(adminRoutes, ADMIN_API, req, res, ctx),
    },
    { method: "*", prefix: ME_API, auth: true, handler: (req, res, ctx) => dispatch(meRoutes, ME_API, req, res, ctx) },
  ],
  services: [softLimits],
};
