/** Tokens (admin): users with their spend, budget and tokens; create (shown once, with a copy button), rotate, revoke. */
import { act, api, load, num, t, when, type Console } from "../app.ts";
import { button, empty, field, h, input, select, table } from "../widgets.ts";

/** As server/auth/tokens.ts lists them: times in UTC to the minute ("YYYY-MM-DD HH:MI"). */
interface TokenInfo {
  hint: string;
  created: string;
  revoked: string | null;
  admin: boolean;
  expires: string | null;
  lastUsed: string | null;
  state: "live" | "grace" | "expired" | "revoked";
}
interface UsersData {
  users: {
    name: string;
    monthBudget: number | null;
    spent: number;
    effectiveBudget: number | null;
    tokens: TokenInfo[];
  }[];
}

const fetchUsers = (c: Console) => api<UsersData>(c, "/console/api/admin/users");
const reload = async (c: Console) => void (c.data.tokens = await fetchUsers(c));

/** The token just made: in page memory only, until hidden or the view changes. */
interface Fresh {
  user: string;
  token: string;
}

/** A time as the token list gives it (UTC, to the minute), in the user's format. */
const utc = (s: string) => when(s.replace(" ", "T") + ":00Z");

function tokenText(c: Console, k: TokenInfo): string {
  const parts = [t(c, "tokenLive", { hint: k.hint, created: utc(k.created) })];
  if (k.admin) parts.push(t(c, "tokenAdmin"));
  if (k.state === "grace" && k.revoked) parts.push(t(c, "tokenGrace", { date: utc(k.revoked) }));
  if (k.expires) parts.push(t(c, "tokenExpires", { date: utc(k.expires) }));
  parts.push(k.lastUsed ? t(c, "tokenUsed", { date: utc(k.lastUsed) }) : t(c, "tokenNeverUsed"));
  return parts.join(" · ");
}

export function tokensView(c: Console): HTMLElement {
  const d = load(c, "tokens", () => fetchUsers(c));
  if (!d) return h("p", { class: "cd-note" }, t(c, "loading"));
  const fresh = c.data.freshToken as Fresh | undefined;
  return h(
    "div",
    { class: "cc-view" },
    h("h2", { class: "cd-panel-title" }, t(c, "tokensTitle")),
    fresh ? freshBox(c, fresh) : null,
    graceChoice(c),
    d.users.length ? usersTable(c, d.users) : empty("tokens-none", t(c, "noUsers")),
    createForm(c),
  );
}

type User = UsersData["users"][number];

/** How long a rotated token keeps working; kept in the console's data so a re-render keeps the choice. */
function graceChoice(c: Console): HTMLElement {
  return h(
    "div",
    { class: "cd-row cc-inline" },
    field(
      t(c, "rotateGrace"),
      select(
        "rotate-grace",
        [
          { value: "24", label: t(c, "graceHours", { n: 24 }) },
          { value: "1", label: t(c, "graceHours", { n: 1 }) },
          { value: "0", label: t(c, "graceNone") },
        ],
        (c.data.rotateGrace as string | undefined) ?? "24",
        (v) => (c.data.rotateGrace = v),
      ),
    ),
  );
}

/** The users, one row each: spend, budget, the tokens that still work, and rotate and revoke. */
function usersTable(c: Console, users: User[]): HTMLElement {
  const asking = c.data.revokeAsk as string | undefined;
  return table(
    "tokens-users",
    t(c, "tokensTitle"),
    [t(c, "user"), t(c, "colSpent"), t(c, "colBudget"), t(c, "colTokens"), t(c, "colActions")],
    users.map((u) => {
      const live = u.tokens.filter((k) => k.state === "live" || k.state === "grace");
      return {
        cells: [
          u.name,
          u.spent,
          u.effectiveBudget === null ? t(c, "none") : u.effectiveBudget,
          live.length
            ? h(
                "ul",
                { class: "cc-plain" },
                live.map((k) => h("li", { attrs: { "data-hint": k.hint } }, tokenText(c, k))),
              )
            : t(c, "noTokens"),
          h(
            "div",
            { class: "cd-actions" },
            rotateButton(c, u),
            asking === u.name ? revokeAsk(c, u) : revokeButton(c, u, live.length),
          ),
        ],
        attrs: { "data-user": u.name },
      };
    }),
  );
}

/** Rotate a user's tokens with the grace chosen above; the new token is shown once. */
function rotateButton(c: Console, u: User): HTMLElement {
  return button(
    c,
    `rotate-${u.name}`,
    t(c, "rotate"),
    () =>
      void act(c, async () => {
        const grace = (document.getElementById("rotate-grace") as HTMLSelectElement | null)?.value ?? "24";
        const r = await api<Fresh>(c, "/console/api/admin/tokens/rotate", {
          user: u.name,
          graceHours: Number(grace),
        });
        c.data.freshToken = r;
        await reload(c);
      }),
  );
}

/** Revoke asks first: this button only opens the question (revokeAsk), so one click cannot cut a user off. */
function revokeButton(c: Console, u: User, live: number): HTMLElement {
  return button(
    c,
    `revoke-${u.name}`,
    t(c, "revoke"),
    () => {
      c.data.revokeAsk = u.name;
      c.render();
      document.getElementById(`revoke-yes-${u.name}`)?.focus();
    },
    { disabled: live === 0 },
  );
}

/** The question before revoking a user's tokens: confirm or cancel. */
function revokeAsk(c: Console, u: User): HTMLElement {
  return h(
    "span",
    {
      class: "cc-ask",
      role: "group",
      attrs: { "aria-label": t(c, "revokeAsk", { user: u.name }) },
    },
    t(c, "revokeAsk", { user: u.name }),
    " ",
    button(
      c,
      `revoke-yes-${u.name}`,
      t(c, "confirmRevoke"),
      () =>
        void act(c, async () => {
          const r = await api<{ revoked: number }>(c, "/console/api/admin/tokens/revoke", {
            user: u.name,
          });
          c.data.revokeAsk = undefined;
          await reload(c);
          return t(c, "revoked", { n: num(r.revoked), user: u.name });
        }),
      { primary: true },
    ),
    button(c, `revoke-no-${u.name}`, t(c, "cancel"), () => {
      c.data.revokeAsk = undefined;
      c.render();
    }),
  );
}

function freshBox(c: Console, f: Fresh): HTMLElement {
  const box = input("fresh-token", "text", f.token, { readonly: "true", autocomplete: "off", spellcheck: "false" });
  const status = h("span", { class: "cd-note", id: "fresh-copied", role: "status" });
  return h(
    "section",
    { class: "cc-card cc-fresh", attrs: { "aria-labelledby": "fresh-h" } },
    h("h3", { id: "fresh-h" }, t(c, "newToken", { user: f.user })),
    h("p", { class: "cd-note" }, t(c, "newTokenNote")),
    field(t(c, "token"), box),
    h(
      "div",
      { class: "cd-actions" },
      button(
        c,
        "fresh-copy",
        t(c, "copy"),
        () => {
          box.select();
          void navigator.clipboard?.writeText(f.token).then(
            () => (status.textContent = t(c, "copied")),
            () => (status.textContent = ""),
          );
        },
        { primary: true },
      ),
      button(c, "fresh-hide", t(c, "hide"), () => {
        c.data.freshToken = undefined;
        c.render();
      }),
      status,
    ),
  );
}

function createForm(c: Console): HTMLElement {
  const user = input("create-user", "text", "", { autocomplete: "off", spellcheck: "false" });
  const budget = input("create-budget", "number", "", { min: "0", step: "1" });
  const expires = input("create-expires", "number", "", { min: "1", max: "3650", step: "1" });
  const admin = input("create-admin", "checkbox");
  const create = () =>
    void act(c, async () => {
      const r = await api<Fresh>(c, "/console/api/admin/tokens", {
        user: user.value.trim(),
        admin: admin.checked,
        ...(budget.value.trim() ? { monthBudget: budget.value.trim() } : {}),
        ...(expires.value.trim() ? { expiresInDays: expires.value.trim() } : {}),
      });
      c.data.freshToken = r;
      await reload(c);
    });
  return h(
    "form",
    { class: "cd-form cc-card", on: { submit: (e) => (e.preventDefault(), create()) } },
    h("h3", null, t(c, "createTitle")),
    field(t(c, "newUser"), user, t(c, "newUserHint")),
    field(t(c, "monthBudget"), budget),
    field(t(c, "expiresDays"), expires),
    h("div", { class: "cd-choice" }, admin, h("label", { for: "create-admin" }, t(c, "newAdmin"))),
    h(
      "div",
      { class: "cd-actions" },
      button(c, "create-token", t(c, "create"), create, { primary: true, submit: true }),
    ),
  );
}
