/** A user's own page: spend this month against their budget, recent requests (bought or shared), their schedules. */
import type { RecentRequest } from "../../server/ledger/spend.ts";
import { api, load, num, t, when, type Console } from "../app.ts";
import { dayChart, empty, h, table, titled } from "../widgets.ts";

export interface MeData {
  user: string;
  admin: boolean;
  month: string;
  spent: number;
  budget: number | null;
  perDay: { day: string; user: string; credits: number }[];
  requests: RecentRequest[];
  schedules: {
    name: string;
    companies: number;
    frequency: string;
    hour: number;
    nextRun: string;
    lastRun: { status: string; finishedAt: string | null; credits: number } | null;
  }[];
}

export const fetchMe = (c: Console) => api<MeData>(c, "/console/api/me");

export function meView(c: Console): HTMLElement {
  const d = load(c, "me", () => fetchMe(c));
  if (!d) return h("p", { class: "cd-note" }, t(c, "loading"));
  const meter =
    d.budget !== null
      ? h("meter", {
          id: "me-meter",
          attrs: {
            min: 0,
            max: Math.max(1, d.budget),
            value: d.spent,
            high: Math.max(1, d.budget) * 0.8,
            "aria-labelledby": "me-spent",
          },
        })
      : null;
  return h(
    "div",
    { class: "cc-view" },
    h("h2", { class: "cd-panel-title" }, t(c, "meTitle", { month: d.month })),
    h(
      "p",
      { id: "me-spent", class: "cc-big", attrs: { "data-spent": d.spent, "data-budget": d.budget ?? "" } },
      d.budget !== null
        ? t(c, "meSpent", { spent: num(d.spent), budget: num(d.budget) })
        : t(c, "meNoBudget", { spent: num(d.spent) }),
    ),
    meter,
    d.perDay.length ? dayChart("me-chart", t(c, "chartLabel", { month: d.month }), d.month, d.perDay) : null,
    titled(
      "me-h-req",
      t(c, "meRequests"),
      d.requests.length
        ? table(
            "me-requests",
            t(c, "meRequests"),
            [t(c, "when"), t(c, "colEndpoint"), t(c, "colCompany"), t(c, "credits"), t(c, "colSource")],
            d.requests.map((r) => ({
              cells: [
                when(r.at),
                r.endpoint,
                r.company,
                r.credits,
                r.source === "shared"
                  ? t(c, "sourceShared", { n: num(r.saved) })
                  : `${t(c, "sourceBought")} (${r.status})`,
              ],
            })),
          )
        : empty("me-requests-none", t(c, "meRequestsNone")),
    ),
    titled(
      "me-h-sched",
      t(c, "meSchedules"),
      d.schedules.length
        ? table(
            "me-schedules",
            t(c, "meSchedules"),
            [t(c, "colSchedule"), t(c, "colCompanies"), t(c, "colNextRun"), t(c, "colLastRun")],
            d.schedules.map((s) => ({
              cells: [
                s.name,
                s.companies,
                when(s.nextRun),
                s.lastRun
                  ? `${s.lastRun.status} · ${when(s.lastRun.finishedAt)} · ${num(s.lastRun.credits)}`
                  : t(c, "never"),
              ],
            })),
          )
        : empty("me-schedules-none", t(c, "meSchedulesNone")),
    ),
  );
}
