/**
 * Spend (admin): a month's report (server/ledger/report.ts, the same figures
 * as `server report --json`), spend per day for the chart, and the ledger as
 * CSV with filters (user, endpoint, month).
 */
import { serverNow } from "../clock.ts";
import { monthOf } from "../ledger/budget.ts";
import { monthReport } from "../ledger/report.ts";
import { ledgerCsv, ledgerEndpoints, spendPerDay } from "../ledger/spend.ts";
import { json, monthOfParam, userOf, type ConsoleRoute } from "./kit.ts";

export const spendRoutes: ConsoleRoute[] = [
  {
    method: "GET",
    path: /^\/report$/,
    async handle(_req, res, ctx) {
      const month = monthOfParam(ctx.url.searchParams.get("month"), monthOf(serverNow()));
      const [report, perDay, endpoints] = await Promise.all([
        monthReport(ctx.db, month),
        spendPerDay(ctx.db, month),
        ledgerEndpoints(ctx.db),
      ]);
      json(res, 200, { month, thisMonth: monthOf(serverNow()), report, perDay, endpoints });
    },
  },
  {
    method: "GET",
    path: /^\/ledger\.csv$/,
    async handle(_req, res, ctx) {
      const q = ctx.url.searchParams;
      const month = q.get("month") ? monthOfParam(q.get("month"), "") : undefined;
      const user = q.get("user") ? userOf(q.get("user")) : undefined;
      const endpoint = q.get("endpoint") || undefined;
      const csv = await ledgerCsv(ctx.db, { month, user, endpoint });
      const name = ["ledger", month, user, endpoint]
        .filter(Boolean)
        .join("-")
        .replace(/[^\w.-]/g, "_");
      res
        .writeHead(200, {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${name}.csv"`,
          "cache-control": "no-store",
        })
        .end(csv);
    },
  },
];
