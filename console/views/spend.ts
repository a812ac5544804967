/** Spend (admin): a month's report (the same figures as `server report --json`), per day, unsettled rows, the ledger as CSV. */
import type { Report } from "../../server/ledger/report.ts";
import { act, api, apiText, load, num, t, when, type Console } from "../app.ts";
import { button, dayChart, empty, field, h, input, select, table, titled } from "../widgets.ts";

interface SpendData {
  month: string;
  thisMonth: string;
  report: Report;
  perDay: { day: string; user: string; credits: number }[];
  endpoints: string[];
}

const fetchSpend = (c: Console, month: string | undefined) =>
  api<SpendData>(c, `/console/api/admin/report${month ? `?month=${encodeURIComponent(month)}` : ""}`);

export function spendView(c: Console): HTMLElement {
  const d = load(c, "spend", () => fetchSpend(c, undefined));
  if (!d) return h("p", { class: "cd-note" }, t(c, "loading"));
  const r = d.report;
  return h(
    "div",
    { class: "cc-view" },
    h("h2", { class: "cd-panel-title", id: "spend-title" }, t(c, "spendTitle", { month: d.month })),
    monthForm(c, d),
    totals(c, r),
    r.totals.spent === 0 && r.totals.saved === 0 ? empty("spend-empty", t(c, "noSpend")) : null,
    r.byUser.length ? usersTable(c, r) : empty("spend-no-users", t(c, "noUsers")),
    r.lines.length ? endpointsTable(c, r) : null,
    d.perDay.length ? perDaySection(c, d) : null,
    unsettledSection(c, r),
    csvForm(c, d),
  );
}

/** The month picker: showing another month loads its report in place of this one. */
function monthForm(c: Console, d: SpendData): HTMLElement {
  const monthInput = input("spend-month", "month", d.month);
  const show = () => void act(c, async () => void (c.data.spend = await fetchSpend(c, monthInput.value || undefined)));
  return h(
    "form",
    { class: "cd-row cc-inline", on: { submit: (e) => (e.preventDefault(), show()) } },
    field(t(c, "month"), monthInput),
    button(c, "spend-show", t(c, "show"), show, { submit: true }),
  );
}

function totals(c: Console, r: Report): HTMLElement {
  return h(
    "dl",
    { class: "cc-totals", id: "spend-totals" },
    h("div", null, h("dt", null, t(c, "totalSpent")), h("dd", { id: "spend-total" }, num(r.totals.spent))),
    h("div", null, h("dt", null, t(c, "totalSettled")), h("dd", null, num(r.totals.settled))),
    h("div", null, h("dt", null, t(c, "totalPending")), h("dd", null, num(r.totals.pending))),
    h("div", null, h("dt", null, t(c, "totalSaved")), h("dd", { id: "spend-saved" }, num(r.totals.saved))),
    h(
      "div",
      null,
      h("dt", null, t(c, "teamBudget")),
      h("dd", null, r.team.budget === null ? t(c, "none") : num(r.team.budget)),
    ),
  );
}

function usersTable(c: Console, r: Report): HTMLElement {
  return table(
    "spend-users",
    t(c, "perUser"),
    [t(c, "user"), t(c, "colSpent"), t(c, "colSaved"), t(c, "colBudget")],
    r.byUser.map((u) => ({
      cells: [u.user, u.spent, u.saved, u.budget === null ? t(c, "none") : u.budget],
      attrs: { "data-user": u.user, "data-spent": String(u.spent) },
    })),
  );
}

function endpointsTable(c: Console, r: Report): HTMLElement {
  return table(
    "spend-endpoints",
    t(c, "perEndpoint"),
    [t(c, "user"), t(c, "colEndpoint"), t(c, "colRequests"), t(c, "colSettled"), t(c, "colPending")],
    r.lines.map((l) => ({ cells: [l.user, l.endpoint, l.requests, l.settled, l.pending] })),
  );
}

/** The month's credits per day as a chart, with the same figures as a table folded below it (for screen readers). */
function perDaySection(c: Console, d: SpendData): HTMLElement {
  return titled(
    "spend-h-day",
    t(c, "perDay"),
    dayChart("spend-chart", t(c, "chartLabel", { month: d.month }), d.month, d.perDay),
    h(
      "details",
      null,
      h("summary", null, t(c, "perDay")),
      table(
        "spend-days",
        t(c, "perDay"),
        [t(c, "colDay"), t(c, "user"), t(c, "credits")],
        d.perDay.map((x) => ({ cells: [x.day, x.user, x.credits] })),
      ),
    ),
  );
}

/** Ledger rows not yet settled, per user, with their ids to look up. */
function unsettledSection(c: Console, r: Report): HTMLElement {
  return titled(
    "spend-h-unsettled",
    t(c, "unsettledTitle"),
    r.unsettled.length
      ? h(
          "div",
          null,
          h("p", { class: "cd-note" }, t(c, "unsettledNote")),
          table(
            "spend-unsettled",
            t(c, "unsettledTitle"),
            [t(c, "user"), t(c, "colRows"), t(c, "credits"), t(c, "colFirst"), t(c, "colLast"), t(c, "colIds")],
            r.unsettled.map((u) => ({
              cells: [u.user, u.rows, u.credits, when(u.first), when(u.last), u.ids.join(", ")],
            })),
          ),
        )
      : empty("spend-unsettled-none", t(c, "unsettledNone")),
  );
}

function csvForm(c: Console, d: SpendData): HTMLElement {
  const month = input("csv-month", "month", d.month);
  const user = select(
    "csv-user",
    [{ value: "", label: t(c, "all") }, ...d.report.byUser.map((u) => ({ value: u.user, label: u.user }))],
    "",
  );
  const endpoint = select(
    "csv-endpoint",
    [{ value: "", label: t(c, "all") }, ...d.endpoints.map((e) => ({ value: e, label: e }))],
    "",
  );
  const download = () =>
    void act(c, async () => {
      const q = new URLSearchParams();
      if (month.value) q.set("month", month.value);
      if (user.value) q.set("user", user.value);
      if (endpoint.value) q.set("endpoint", endpoint.value);
      const csv = await apiText(c, `/console/api/admin/ledger.csv?${q.toString()}`);
      // A download of what the API answered; the token never goes into a link.
      const a = h("a", {
        attrs: {
          href: URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" })),
          download: `ledger${month.value ? "-" + month.value : ""}.csv`,
        },
      });
      document.body.appendChild(a);
      a.click();
      a.remove();
    });
  return titled(
    "csv-h",
    t(c, "csvTitle"),
    h(
      "form",
      { class: "cd-row cc-inline", on: { submit: (e) => (e.preventDefault(), download()) } },
      field(t(c, "csvMonth"), month),
      field(t(c, "user"), user),
      field(t(c, "csvEndpoint"), endpoint),
      button(c, "csv-download", t(c, "csvDownload"), download, { submit: true }),
    ),
  );
}
