/**
 * Health (admin): the doctor's verdict and drift (server/doctor/), whether
 * paid requests are paused until an acknowledgement, the API's
 * reachability (the doctor's last look: its probes are free calls), the
 * database (a round trip) and the server's version; "Check now" runs the
 * doctor again (free), "Acknowledge" does what `server ack-drift` does.
 */
import { readFileSync } from "node:fs";
import { reportLines } from "../../shared/doctor/index.ts";
import { checkService } from "../doctor/index.ts";
import { acknowledge, readState, refusing } from "../doctor/state.ts";
import type { ServerContext } from "../routes.ts";
import { json, type ConsoleRoute } from "./kit.ts";

function readVersion(): string {
  try {
    return String(
      (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string })
        .version ?? "?",
    );
  } catch {
    return "?";
  }
}
const VERSION = readVersion();

/** The last look at the API from this process (the doctor keeps no report when the API did not answer). */
let lastLook: { at: string; verdict: string } | null = null;

async function health(ctx: ServerContext) {
  const t0 = Date.now();
  let database: { kind: string; ok: boolean; ms: number };
  try {
    await ctx.db.query("select 1");
    database = { kind: ctx.db.kind, ok: true, ms: Date.now() - t0 };
  } catch {
    database = { kind: ctx.db.kind, ok: false, ms: Date.now() - t0 };
  }
  const state = await readState(ctx.db);
  const saved = state ? { at: state.checkedAt, verdict: state.verdict } : null;
  const look = lastLook && (!saved || lastLook.at > saved.at) ? lastLook : saved;
  return {
    version: VERSION,
    process: ctx.process,
    database,
    api: look ? { reachable: look.verdict !== "unreachable", verdict: look.verdict, checkedAt: look.at } : null,
    doctor: state
      ? {
          verdict: state.verdict,
          checkedAt: state.checkedAt,
          breaking: state.breaking ? state.breaking.split("\n") : [],
          acknowledged: state.acknowledged ? state.acknowledged.split("\n") : [],
          refusing: refusing(state),
          report: state.report ? reportLines(state.report, ctx.lang) : [],
        }
      : null,
  };
}

export const healthRoutes: ConsoleRoute[] = [
  {
    method: "GET",
    path: /^\/health$/,
    async handle(_req, res, ctx) {
      json(res, 200, await health(ctx));
    },
  },
  {
    method: "POST",
    path: /^\/health\/check$/,
    async handle(_req, res, ctx) {
      const report = await checkService(ctx);
      lastLook = { at: new Date().toISOString(), verdict: report?.verdict ?? "not run" };
      json(res, 200, await health(ctx));
    },
  },
  {
    method: "POST",
    path: /^\/health\/ack$/,
    async handle(_req, res, ctx) {
      const state = await acknowledge(ctx.db);
      ctx.log.info("console.ack-drift", { by: ctx.user!.name, findings: state?.breaking.split("\n").length ?? 0 });
      json(res, 200, await health(ctx));
    },
  },
];
