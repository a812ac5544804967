/**
 * The scheduler loop of one server process: every tick it claims due
 * schedules one by one (store.ts claimDue: one statement, so several
 * processes on one database never run a schedule twice), runs each
 * (run.ts) while renewing its claim, and gives the claim back with the next
 * slot. Its timers are unref'd (they never keep a process alive) and cleared
 * on shutdown, which waits for the run in progress. A failing run is
 * recorded on the run and never stops the loop.
 */
import type { ServiceContext } from "../routes.ts";
import type { ScheduleConfig } from "./config.ts";
import { runSchedule } from "./run.ts";
import { claimDue, releaseClaim, renewClaim } from "./store.ts";
import { errorMessage } from "../error-text.ts";

/** Run every schedule due now, one after another; answers how many ran. `stopping` ends it between runs. */
export async function runDue(
  ctx: ServiceContext,
  cfg: ScheduleConfig,
  stopping: () => boolean = () => false,
): Promise<number> {
  let ran = 0;
  while (!stopping()) {
    const s = await claimDue(ctx.db, ctx.process, cfg.now(), cfg.leaseMs);
    if (!s) break;
    const renew = setInterval(() => {
      renewClaim(ctx.db, s.id, ctx.process, cfg.leaseMs).catch(() => undefined);
    }, cfg.leaseMs / 3);
    renew.unref();
    try {
      const r = await runSchedule(ctx, s, {
        now: cfg.now,
        webhookTimeoutMs: cfg.webhookTimeoutMs,
        mailer: cfg.mailer,
      });
      ctx.log.info("schedule.run", { schedule: s.id, status: r.status, credits: r.charged, changes: r.changes.length });
    } finally {
      clearInterval(renew);
      await releaseClaim(ctx.db, s, ctx.process, cfg.now());
    }
    ran++;
  }
  return ran;
}

/** Start the loop; the function returned stops it and waits for the run in progress. */
export function startScheduler(ctx: ServiceContext, cfg: ScheduleConfig): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> | null = null;
  // A tick while the last one still runs is skipped: one loop per process.
  const tick = () => {
    if (running || stopped) return;
    running = runDue(ctx, cfg, () => stopped)
      .then(() => undefined)
      .catch((e: unknown) =>
        ctx.log.error("schedule.tick.failed", {
          error: (e as Error)?.name ?? "Error",
          message: errorMessage(e).slice(0, 300),
        }),
      )
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, cfg.tickMs);
  timer.unref();
  tick();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
