/**
 * The team console's page (GET /console on the team server): sign-in, then
 * the admin's views (spend, budgets, tokens, schedules, health) or a user's
 * own page. Built into one HTML file by scripts/build-ui.ts with the
 * add-ins' stylesheet (shared/ui/styles.css) and console.css.
 */
import { replace } from "../shared/ui/index.ts";
import { act, storedLang, storedToken, storeLang, storeToken, t, type Console } from "./app.ts";
import type { TextKey } from "./texts.ts";
import { budgetsView } from "./views/budgets.ts";
import { healthView } from "./views/health.ts";
import { fetchMe, meView } from "./views/me.ts";
import { schedulesView } from "./views/schedules.ts";
import { spendView } from "./views/spend.ts";
import { tokensView } from "./views/tokens.ts";
import { button, field, h, input } from "./widgets.ts";

const ADMIN_VIEWS: { id: string; label: TextKey; view: (c: Console) => HTMLElement }[] = [
  { id: "spend", label: "tabSpend", view: spendView },
  { id: "budgets", label: "tabBudgets", view: budgetsView },
  { id: "tokens", label: "tabTokens", view: tokensView },
  { id: "schedules", label: "tabSchedules", view: schedulesView },
  { id: "health", label: "tabHealth", view: healthView },
  { id: "me", label: "tabMe", view: meView },
];

const root = document.getElementById("app")!;
const browserLang = (navigator.language || "de").toLowerCase().startsWith("de") ? "de" : "en";

const c: Console = {
  lang: storedLang() ?? browserLang,
  token: storedToken(),
  who: null,
  view: location.hash.slice(1) || "spend",
  data: {},
  message: null,
  busy: false,
  render,
};

function views() {
  return c.who?.admin ? ADMIN_VIEWS : ADMIN_VIEWS.filter((v) => v.id === "me");
}

function header(): HTMLElement {
  const langs = h(
    "div",
    { class: "cd-langs", role: "group", attrs: { "aria-label": t(c, "language") } },
    (["de", "en"] as const).map((l) =>
      h(
        "button",
        {
          type: "button",
          id: `lang-${l}`,
          class: `cd-lang${c.lang === l ? " is-active" : ""}`,
          attrs: { "aria-pressed": c.lang === l, lang: l },
          on: {
            click: () => {
              c.lang = l;
              storeLang(l);
              document.documentElement.lang = l;
              c.data = { freshToken: c.data.freshToken };
              render();
            },
          },
        },
        l.toUpperCase(),
      ),
    ),
  );
  return h(
    "header",
    { class: "cd-header" },
    h("h1", { class: "cd-title" }, t(c, "title")),
    c.who
      ? h(
          "span",
          { class: "cd-balance", id: "who" },
          t(c, "signedInAs", { user: c.who.user }),
          c.who.admin ? ` · ${t(c, "adminBadge")}` : "",
        )
      : null,
    langs,
    c.who ? button(c, "sign-out", t(c, "signOut"), signOut) : null,
  );
}

function signOut() {
  storeToken(null);
  c.token = null;
  c.who = null;
  c.data = {};
  c.message = null;
  render();
}

function signIn(): HTMLElement {
  const tok = input("signin-token", "password", "", { autocomplete: "off", spellcheck: "false" });
  const go = () =>
    void act(c, async () => {
      c.token = tok.value.trim();
      tok.value = "";
      const me = await fetchMe(c);
      storeToken(c.token);
      c.who = { user: me.user, admin: me.admin };
      c.data = { me };
      c.view = me.admin ? "spend" : "me";
      history.replaceState(null, "", `#${c.view}`);
    });
  return h(
    "form",
    { class: "cd-form cc-signin", id: "signin", on: { submit: (e) => (e.preventDefault(), go()) } },
    h("h2", { class: "cd-panel-title" }, t(c, "signInTitle")),
    h("p", { class: "cd-note" }, t(c, "signInIntro")),
    field(t(c, "token"), tok, t(c, "tokenHint")),
    h("div", { class: "cd-actions" }, button(c, "signin-go", t(c, "signIn"), go, { primary: true, submit: true })),
  );
}

function tabs(): HTMLElement {
  return h(
    "nav",
    { class: "cd-tabs", attrs: { "aria-label": t(c, "title") } },
    views().map((v) =>
      h(
        "button",
        {
          type: "button",
          id: `tab-${v.id}`,
          class: `cd-tab${c.view === v.id ? " is-active" : ""}`,
          attrs: { "aria-current": c.view === v.id ? "page" : undefined },
          on: {
            click: () => {
              c.view = v.id;
              c.message = null;
              // Each visit shows fresh figures; a token just made is forgotten when its view is left.
              c.data = { me: c.data.me };
              history.replaceState(null, "", `#${v.id}`);
              render();
            },
          },
        },
        t(c, v.label),
      ),
    ),
  );
}

function status(): HTMLElement {
  const m = c.message;
  return h(
    "div",
    {
      id: "status",
      class: `cd-status${m ? ` is-${m.kind}` : ""}`,
      role: m?.kind === "error" ? "alert" : "status",
      attrs: { "aria-live": "polite" },
    },
    m?.text ?? "",
  );
}

function render() {
  const focused = (document.activeElement as HTMLElement | null)?.id;
  document.documentElement.lang = c.lang;
  document.title = t(c, "title");
  let body: HTMLElement;
  if (!c.token || !c.who) body = signIn();
  else {
    const v = views().find((x) => x.id === c.view) ?? views()[0]!;
    c.view = v.id;
    body = v.view(c);
  }
  replace(
    root,
    h(
      "div",
      { class: "cd-app cc-app", attrs: { "aria-busy": c.busy } },
      header(),
      c.who ? tabs() : null,
      h("main", { class: "cd-panel", id: "main" }, status(), body),
    ),
  );
  if (focused) document.getElementById(focused)?.focus();
}

/** A token kept in this tab: who is it (it may have been revoked meanwhile). */
async function resume() {
  if (!c.token) return render();
  await act(c, async () => {
    const me = await fetchMe(c);
    c.who = { user: me.user, admin: me.admin };
    c.data.me = me;
  });
}

window.addEventListener("hashchange", () => {
  c.view = location.hash.slice(1) || c.view;
  render();
});
void resume();
