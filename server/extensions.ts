/**
 * The modules that extend the team server (see routes.ts), as the list the
 * server's entry (cli.ts `serve`) passes to startTeamServer: a module not in
 * this list has no route, service, health check or paid gate on the server,
 * whatever imports it. Importing this file also registers every module's
 * migrations (db/migrations.ts), which every command that opens the database
 * needs; the core's own come first.
 */
import "./db/core-migrations.ts";
import { adminExtension } from "./admin/routes.ts";
import { consoleExtension } from "./console/index.ts";
import { doctorExtension } from "./doctor/index.ts";
import { estimateExtension } from "./estimate.ts";
import type { ServerExtension } from "./routes.ts";
import { schedulesExtension } from "./schedules/index.ts";
import { reconcileExtension } from "./reconcile.ts";

export const TEAM_SERVER_EXTENSIONS: readonly ServerExtension[] = [
  // The free self-test at start, its report in the deep health check, its refusal of paid requests on drift.
  doctorExtension,
  // The reconciliation service (W3C Reconciliation API 0.2) at /reconcile.
  reconcileExtension,
  // Portfolio schedules at /schedules: the check runs on the server at the hour (issue 24).
  schedulesExtension,
  // The price of an enrichment against the team's answers at /team/estimate (issue 37).
  estimateExtension,
  // The team console at /console (issue 39): its page, its API, the budgets' soft limits.
  consoleExtension,
  // The admin API at /admin for an admin token (the admin channel serves the same handler).
  adminExtension,
];
