/** Budgets (admin): team and user budgets, soft limits, temporary increases, and every change with who and when. */
import type { BudgetChange, BudgetLine } from "../../server/ledger/budget-admin.ts";
import { act, api, load, num, t, when, type Console } from "../app.ts";
import { button, empty, field, h, input, select, table, titled } from "../widgets.ts";

interface BudgetsData {
  now: string;
  budgets: BudgetLine[];
  history: BudgetChange[];
}

const fetchBudgets = (c: Console) => api<BudgetsData>(c, "/console/api/admin/budgets");
const reload = async (c: Console) => void (c.data.budgets = await fetchBudgets(c));

/** Who a form acts on: "" is the team. */
function whoSelect(c: Console, id: string, d: BudgetsData): HTMLSelectElement {
  return select(
    id,
    d.budgets.map((b) => ({ value: b.user ?? "", label: b.user ?? t(c, "team") })),
    "",
  );
}

const userOrTeam = (v: string) => (v === "" ? null : v);

export function budgetsView(c: Console): HTMLElement {
  const d = load(c, "budgets", () => fetchBudgets(c));
  if (!d) return h("p", { class: "cd-note" }, t(c, "loading"));
  return h(
    "div",
    { class: "cc-view" },
    h("h2", { class: "cd-panel-title" }, t(c, "budgetsTitle")),
    table(
      "budgets-table",
      t(c, "budgetsTitle"),
      [
        t(c, "budgetFor"),
        t(c, "colBudget"),
        t(c, "colEffective"),
        t(c, "colSpent"),
        t(c, "colIncreases"),
        t(c, "colSoftLimit"),
        t(c, "colAlert"),
      ],
      d.budgets.map((b) => ({
        cells: [
          b.user ?? t(c, "team"),
          b.budget === null ? t(c, "none") : b.budget,
          b.effective === null ? t(c, "none") : b.effective,
          b.spent,
          b.increases.length
            ? h(
                "ul",
                { class: "cc-plain" },
                b.increases.map((i) =>
                  h(
                    "li",
                    null,
                    t(c, "increaseUntil", { credits: num(i.credits), date: when(i.endsAt) }),
                    " ",
                    button(
                      c,
                      `increase-end-${i.id}`,
                      t(c, "increaseEndNow"),
                      () =>
                        void act(c, async () => {
                          await api(c, `/console/api/admin/increases/${i.id}/revoke`, {});
                          await reload(c);
                        }),
                    ),
                  ),
                ),
              )
            : "–",
          b.softLimit
            ? `${b.softLimit.percent} % → ${[...b.softLimit.webhooks, ...b.softLimit.emails].join(", ")}`
            : "–",
          b.alert
            ? `${t(c, b.alert.status === "sent" ? "alertSent" : b.alert.status === "failed" ? "alertFailed" : "alertSending")} (${when(b.alert.at)})`
            : "–",
        ],
        attrs: { "data-budget": b.user ?? "team", "data-effective": String(b.effective ?? "") },
      })),
    ),
    h("div", { class: "cc-forms" }, budgetForm(c, d), softForm(c, d), increaseForm(c, d)),
    historyTable(c, d),
  );
}

function budgetForm(c: Console, d: BudgetsData): HTMLElement {
  const who = whoSelect(c, "budget-who", d);
  const value = input("budget-value", "number", "", { min: "0", step: "1", inputmode: "numeric" });
  const save = () =>
    void act(c, async () => {
      await api(c, "/console/api/admin/budgets", { user: userOrTeam(who.value), budget: value.value.trim() || null });
      await reload(c);
      return t(c, "saved");
    });
  return h(
    "form",
    { class: "cd-form cc-card", on: { submit: (e) => (e.preventDefault(), save()) } },
    h("h3", null, t(c, "setBudget")),
    field(t(c, "budgetFor"), who),
    field(t(c, "monthBudget"), value),
    h(
      "div",
      { class: "cd-actions" },
      button(c, "budget-save", t(c, "setBudget"), save, { primary: true, submit: true }),
    ),
  );
}

function softForm(c: Console, d: BudgetsData): HTMLElement {
  const who = whoSelect(c, "soft-who", d);
  const percent = input("soft-percent", "number", "80", { min: "1", max: "100", step: "1" });
  const hooks = h("textarea", { id: "soft-webhooks", attrs: { rows: 2, spellcheck: "false" } });
  const emails = input("soft-emails", "text", "", { autocomplete: "off" });
  const save = () =>
    void act(c, async () => {
      await api(c, "/console/api/admin/soft-limit", {
        user: userOrTeam(who.value),
        percent: percent.value,
        webhooks: hooks.value,
        emails: emails.value,
        language: c.lang,
      });
      hooks.value = "";
      await reload(c);
      return t(c, "saved");
    });
  const remove = () =>
    void act(c, async () => {
      await api(c, "/console/api/admin/soft-limit", { user: userOrTeam(who.value), remove: true });
      await reload(c);
      return t(c, "saved");
    });
  return h(
    "form",
    { class: "cd-form cc-card", on: { submit: (e) => (e.preventDefault(), save()) } },
    h("h3", null, t(c, "softTitle")),
    field(t(c, "budgetFor"), who),
    field(t(c, "softPercent"), percent, t(c, "softHint")),
    field(t(c, "softWebhooks"), hooks),
    field(t(c, "softEmails"), emails),
    h(
      "div",
      { class: "cd-actions" },
      button(c, "soft-save", t(c, "softSave"), save, { primary: true, submit: true }),
      button(c, "soft-remove", t(c, "softRemove"), remove),
    ),
  );
}

function increaseForm(c: Console, d: BudgetsData): HTMLElement {
  const who = whoSelect(c, "increase-who", d);
  const credits = input("increase-credits", "number", "", { min: "1", step: "1" });
  const end = input("increase-end", "date", "", { min: d.now.slice(0, 10) });
  const grant = () =>
    void act(c, async () => {
      await api(c, "/console/api/admin/increases", {
        user: userOrTeam(who.value),
        credits: credits.value,
        endsAt: end.value,
      });
      await reload(c);
      return t(c, "saved");
    });
  return h(
    "form",
    { class: "cd-form cc-card", on: { submit: (e) => (e.preventDefault(), grant()) } },
    h("h3", null, t(c, "increaseTitle")),
    field(t(c, "budgetFor"), who),
    field(t(c, "increaseCredits"), credits),
    field(t(c, "increaseEnd"), end),
    h(
      "div",
      { class: "cd-actions" },
      button(c, "increase-grant", t(c, "increaseGrant"), grant, { primary: true, submit: true }),
    ),
  );
}

const shown = (v: unknown): string => {
  if (v === null || v === undefined) return "–";
  if (typeof v === "number") return num(v);
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    if ("percent" in o)
      return `${String(o.percent)} % → ${[...(o.webhooks as string[]), ...(o.emails as string[])].join(", ")}`;
    if ("credits" in o) return `+${num(Number(o.credits))}${o.endsAt ? " → " + when(String(o.endsAt)) : ""}`;
  }
  return JSON.stringify(v);
};

function historyTable(c: Console, d: BudgetsData): HTMLElement {
  return titled(
    "history-h",
    t(c, "historyTitle"),
    d.history.length
      ? table(
          "budget-history",
          t(c, "historyTitle"),
          [t(c, "when"), t(c, "who"), t(c, "budgetFor"), t(c, "colWhat"), t(c, "colFrom"), t(c, "colTo")],
          d.history.map((x) => ({
            cells: [
              when(x.at),
              x.by,
              x.user ?? t(c, "team"),
              t(c, `kind_${x.kind}` as "kind_budget"),
              shown(x.oldValue),
              shown(x.newValue),
            ],
          })),
        )
      : empty("history-none", t(c, "historyNone")),
  );
}
