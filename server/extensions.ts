/**
 * Modules that extend the team server (see routes.ts): one import line each,
 * for their registerRoute / registerService / registerHealthCheck /
 * registerMigration calls. The core's own migrations come first.
 */
import "./db/core-migrations.ts";
import "./doctor/index.ts";
// The reconciliation service (W3C Reconciliation API 0.2) at /reconcile.
import "./reconcile.ts";
// Portfolio schedules at /schedules: the check runs on the server at the hour (issue 24).
import "./schedules/index.ts";
// The price of an enrichment against the team's answers at /team/estimate (issue 37).
import "./estimate.ts";
// The team console at /console (issue 39): its page, its API, the budgets soft limits.
import "./console/index.ts";
