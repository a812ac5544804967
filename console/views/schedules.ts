/** Schedules (admin): every schedule, run now (its price first), pause, transfer; the run history of all schedules. */
import type { AdminSchedule, HistoryRun } from "../../server/schedules/admin.ts";
import type { RunPrice } from "../../server/schedules/price.ts";
import { act, api, load, num, t, when, type Console } from "../app.ts";
import { button, empty, h, select, table, titled } from "../widgets.ts";

interface SchedulesData {
  schedules: AdminSchedule[];
  runs: HistoryRun[];
  users: string[];
}

async function fetchAll(c: Console): Promise<SchedulesData> {
  const [s, r, u] = await Promise.all([
    api<{ schedules: AdminSchedule[] }>(c, "/console/api/admin/schedules"),
    api<{ runs: HistoryRun[] }>(c, "/console/api/admin/runs"),
    api<{ users: { name: string }[] }>(c, "/console/api/admin/users"),
  ]);
  return { schedules: s.schedules, runs: r.runs, users: u.users.map((x) => x.name) };
}
const reload = async (c: Console) => void (c.data.schedules = await fetchAll(c));

/** The price asked before a run: shown, then confirmed or cancelled. */
interface Asked {
  id: number;
  price: RunPrice | null;
}

const frequency = (s: AdminSchedule) => `${s.frequency} ${String(s.hour).padStart(2, "0")}:00 UTC`;

export function schedulesView(c: Console): HTMLElement {
  const d = load(c, "schedules", () => fetchAll(c));
  if (!d) return h("p", { class: "cd-note" }, t(c, "loading"));
  const asked = c.data.runAsk as Asked | undefined;
  return h(
    "div",
    { class: "cc-view" },
    h(
      "div",
      { class: "cd-row cc-head" },
      h("h2", { class: "cd-panel-title" }, t(c, "schedulesTitle")),
      button(c, "schedules-refresh", t(c, "refresh"), () => void act(c, () => reload(c))),
    ),
    asked ? priceBox(c, d, asked) : null,
    d.schedules.length ? schedulesTable(c, d) : empty("schedules-none", t(c, "schedulesNone")),
    titled("runs-h", t(c, "historyRuns"), d.runs.length ? runsTable(c, d.runs) : empty("runs-none", t(c, "runsNone"))),
  );
}

/** The schedules, one row each: owner, timing, last run, alerts and the actions on it. */
function schedulesTable(c: Console, d: SchedulesData): HTMLElement {
  return table(
    "schedules-table",
    t(c, "schedulesTitle"),
    [
      t(c, "colOwner"),
      t(c, "colSchedule"),
      t(c, "colCompanies"),
      t(c, "colNextRun"),
      t(c, "colLastRun"),
      t(c, "colAlerts"),
      t(c, "colActions"),
    ],
    d.schedules.map((s) => ({
      cells: [
        s.owner,
        h("span", null, s.name, h("span", { class: "cd-sub" }, frequency(s))),
        s.companies,
        s.paused ? `${t(c, "paused")} (${s.paused.by ?? "?"})` : when(s.nextRun),
        s.lastRun
          ? `${s.lastRun.status} · ${when(s.lastRun.finishedAt ?? s.lastRun.startedAt)} · ${num(s.lastRun.credits)} ${t(c, "credits")}`
          : t(c, "never"),
        t(c, "alertsCount", { sent: num(s.alerts.sent), failed: num(s.alerts.failed) }),
        actions(c, d, s),
      ],
      attrs: { "data-schedule": String(s.id), "data-owner": s.owner, "data-name": s.name },
    })),
  );
}

/** The run history of all schedules, one row a run. */
function runsTable(c: Console, runs: HistoryRun[]): HTMLElement {
  return table(
    "runs-table",
    t(c, "historyRuns"),
    [
      t(c, "colRun"),
      t(c, "colSchedule"),
      t(c, "colOwner"),
      t(c, "when"),
      t(c, "status"),
      t(c, "credits"),
      t(c, "colChanges"),
    ],
    runs.map((r) => ({
      cells: [
        r.id,
        r.schedule,
        r.owner,
        when(r.finishedAt ?? r.startedAt),
        r.status,
        r.credits,
        r.changes.length ? changesList(r.changes) : t(c, "noChanges"),
      ],
      attrs: { "data-run": String(r.id), "data-schedule": String(r.scheduleId) },
    })),
  );
}

/** A run's changes folded under their count, so a long run does not stretch the table. */
function changesList(changes: HistoryRun["changes"]): HTMLElement {
  return h(
    "details",
    null,
    h("summary", null, num(changes.length)),
    h(
      "ul",
      { class: "cc-plain" },
      changes.map((x) =>
        h("li", null, `${String(x[0] ?? "")} · ${String(x[2] ?? x[1] ?? "")} · ${String(x[4] ?? "")}`),
      ),
    ),
  );
}

function actions(c: Console, d: SchedulesData, s: AdminSchedule): HTMLElement {
  const others = d.users.filter((u) => u !== s.owner);
  const to = select(
    `transfer-to-${s.id}`,
    others.map((u) => ({ value: u, label: u })),
    others[0] ?? "",
  );
  to.setAttribute("aria-label", `${t(c, "transferTo")} (${s.name})`);
  return h(
    "div",
    { class: "cd-actions" },
    button(c, `run-${s.id}`, t(c, "runNow"), () => {
      c.data.runAsk = { id: s.id, price: null } satisfies Asked;
      void act(c, async () => {
        const price = await api<RunPrice>(c, `/console/api/admin/schedules/${s.id}/price`);
        c.data.runAsk = { id: s.id, price } satisfies Asked;
      }).then(() => document.getElementById("run-confirm")?.focus());
    }),
    button(
      c,
      `${s.paused ? "resume" : "pause"}-${s.id}`,
      t(c, s.paused ? "resume" : "pause"),
      () =>
        void act(c, async () => {
          await api(c, `/console/api/admin/schedules/${s.id}/${s.paused ? "resume" : "pause"}`, {});
          await reload(c);
        }),
    ),
    others.length
      ? h(
          "span",
          { class: "cc-transfer" },
          to,
          button(
            c,
            `transfer-${s.id}`,
            t(c, "transfer"),
            () =>
              void act(c, async () => {
                await api(c, `/console/api/admin/schedules/${s.id}/transfer`, { to: to.value });
                await reload(c);
                return t(c, "transferred", { name: s.name, user: to.value });
              }),
          ),
        )
      : null,
  );
}

function priceBox(c: Console, d: SchedulesData, asked: Asked): HTMLElement {
  const s = d.schedules.find((x) => x.id === asked.id);
  const p = asked.price;
  return h(
    "section",
    {
      class: "cc-card cc-price",
      id: "run-price",
      role: "region",
      attrs: { "aria-live": "polite", "aria-label": t(c, "runNow") },
    },
    p
      ? h(
          "p",
          { id: "run-price-text" },
          t(c, "runPrice", {
            name: s?.name ?? "?",
            credits: num(p.credits),
            companies: num(p.companies),
            unpriced: p.unpriced ? t(c, "runUnpriced", { n: num(p.unpriced) }) : "",
          }),
        )
      : h("p", { class: "cd-note" }, t(c, "pricing")),
    h(
      "div",
      { class: "cd-actions" },
      p
        ? button(
            c,
            "run-confirm",
            t(c, "runConfirm", { credits: num(p.credits) }),
            () =>
              void act(c, async () => {
                await api(c, `/console/api/admin/schedules/${asked.id}/run`, { price: p.credits });
                c.data.runAsk = undefined;
                await reload(c);
                return t(c, "runQueued", { name: s?.name ?? "?" });
              }),
            { primary: true },
          )
        : null,
      button(c, "run-cancel", t(c, "cancel"), () => {
        c.data.runAsk = undefined;
        c.render();
      }),
    ),
  );
}
