/**
 * The shell of the one UI: header (balance, language), a tab list over the
 * registered panels, and the active panel. Panels keep their state in a
 * plain object the shell holds, so switching language re-renders everything
 * without losing what the user typed.
 */
import type { Bilingual, Language } from "../i18n/index.ts";
import type { AccountView, AppError } from "../app/index.ts";
import { h, replace } from "./dom.ts";
import { UiCallError, type UiHost } from "./host.ts";
import { credentialSet } from "./panels/settings-connection.ts";
import { STRINGS, lookup } from "./strings.ts";
import { PANELS } from "./panels/registry.ts";
import { formatNumber, type OpenPanel, type Panel, type PanelId, type PanelState, type Ui } from "./panel.ts";

export interface MountOptions {
  /** Panels to show, in order; default: all registered. One panel = no tab list (a Sheets sidebar). */
  panels?: PanelId[];
  initial?: PanelId;
  /** Language before the settings have answered. */
  language?: Language;
  /**
   * The UI is a part of a page that has its own main content and level-one
   * heading (the playground, beside its grid): no `main` landmark and no
   * `h1` of its own then. Default: the UI is the page (sidebar, task pane).
   */
  embedded?: boolean;
}

export interface MountedUi {
  ui: Ui;
  ready: Promise<void>;
  destroy(): void;
}

const ERROR_FALLBACK: Bilingual = {
  de: "Interner Fehler des Add-ons. Bitte erneut versuchen.",
  en: "Internal error in the add-on. Please try again.",
};

/** What the shell's parts share: the panels, which is active, the language and the last balance. */
interface ShellState {
  readonly host: UiHost;
  readonly panels: readonly Panel[];
  readonly opened: Map<PanelId, OpenPanel>;
  active: Panel;
  lang: Language;
  account: AccountView | null;
}

/** The shell's fixed elements: header, tab list (several panels only), the active panel's box. */
interface ShellView {
  shell: HTMLElement;
  header: HTMLElement;
  tabs: HTMLElement;
  panelBox: HTMLElement;
}

export function mountApp(root: HTMLElement, host: UiHost, opts: MountOptions = {}): MountedUi {
  const panels = choosePanels(opts);
  const firstPanel = panels[0];
  if (!firstPanel) throw new Error("no panels to show");
  const st: ShellState = {
    host,
    panels,
    opened: new Map(panels.map((p) => [p.id, p.open()])),
    active: panels.find((p) => p.id === opts.initial) ?? firstPanel,
    lang: opts.language ?? "de",
    account: null,
  };
  const view = shellView(root, panels.length, opts.embedded ?? false);
  const presses = holdRendersDuringPress(view.shell, () => renderPanel(st, view, ui));
  const draw = {
    all: () => render(st, view, ui),
    header: () => renderHeader(st, view, ui),
    panel: presses.request,
  };
  const ui = makeUi(st, view, draw);
  draw.all();
  return { ui, ready: applySavedSettings(st, ui, draw.all), destroy: () => (presses.stop(), view.shell.remove()) };
}

function choosePanels(opts: MountOptions): Panel[] {
  return (opts.panels ?? PANELS.map((p) => p.id)).map((id) => {
    const p = PANELS.find((x) => x.id === id);
    if (!p) throw new Error(`unknown panel ${id}`);
    return p;
  });
}

/**
 * The page's landmarks: the UI is the page's `main` (a sidebar, a task pane)
 * unless it is `embedded` in a page that has its own; the active panel is the
 * tab list's tabpanel, a `div` (a `main` may not take the tabpanel role).
 */
function shellView(root: HTMLElement, panelCount: number, embedded: boolean): ShellView {
  const shell = h(embedded ? "div" : "main", { class: "cd-app" });
  root.appendChild(shell);
  const header = h("header", { class: "cd-header" });
  const tabs = h("div", { class: "cd-tabs", role: "tablist" });
  const panelBox = h("div", {
    class: "cd-panel",
    role: panelCount > 1 ? "tabpanel" : undefined,
    id: "cd-panel",
    attrs: { tabindex: "-1" },
  });
  shell.append(header, panelCount > 1 ? tabs : "", panelBox);
  shell.dataset.embedded = String(embedded);
  return { shell, header, tabs, panelBox };
}

/** The Ui the panels get: calls, texts, the balance, switching panels, running an action with a busy button. */
function makeUi(st: ShellState, view: ShellView, draw: { all: () => void; header: () => void; panel: () => void }): Ui {
  const { host } = st;
  const ui: Ui = {
    host,
    get lang() {
      return st.lang;
    },
    get account() {
      return st.account;
    },
    t: (key, vars) => lookup(STRINGS, key, st.lang, vars),
    pick: (text) => text[st.lang],
    call: (method, input) => host.call(method, input),
    async setLanguage(next) {
      if (next === st.lang) return;
      st.lang = next;
      draw.all();
      try {
        await host.call("saveSettings", { language: next });
      } catch {
        /* the switch still holds for this session; Settings shows the saved value */
      }
    },
    async refreshAccount() {
      try {
        st.account = await host.call("account", {});
      } catch {
        st.account = null;
      }
      draw.header();
      return st.account;
    },
    show(id, handoff) {
      const p = st.panels.find((x) => x.id === id);
      if (!p) return;
      st.active = p;
      if (handoff !== undefined) st.opened.get(id)!.state.handoff = handoff;
      draw.all();
      view.shell.querySelector<HTMLElement>(`#cd-tab-${id}`)?.focus();
    },
    rerender: () => draw.panel(),
    errorMessage(e) {
      if (e instanceof UiCallError) return { kind: "error", text: messageOf(e.error) };
      return { kind: "error", text: ERROR_FALLBACK };
    },
    run: (state, button, action) => runAction(ui, draw.panel, state, button, action),
  };
  return ui;
}

/** One action of a panel: its button busy, a failure as the panel's message, the panel drawn again after. */
async function runAction(
  ui: Ui,
  requestRender: () => void,
  state: PanelState,
  button: HTMLButtonElement | null,
  action: () => Promise<void>,
): Promise<void> {
  if (state.busy) return;
  state.busy = true;
  state.message = undefined;
  if (button) {
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
  }
  try {
    await action();
  } catch (e) {
    state.message = ui.errorMessage(e);
    // The header's balance was from before; out of credits means it is (near) zero now.
    if (e instanceof UiCallError && e.error.code === "OUT_OF_CREDITS") void ui.refreshAccount();
  } finally {
    state.busy = false;
    requestRender();
  }
}

function renderHeader(st: ShellState, view: ShellView, ui: Ui): void {
  const { lang, account } = st;
  const header = view.header;
  const langButton = (l: Language, label: string) =>
    h(
      "button",
      {
        type: "button",
        class: "cd-lang" + (l === lang ? " is-active" : ""),
        id: `cd-lang-${l}`,
        // The visible "DE" / "EN" begins the accessible name (WCAG 2.5.3, label in name); the language's own name follows.
        attrs: {
          "aria-pressed": String(l === lang),
          lang: l,
          "aria-label": l === "de" ? "DE – Deutsch" : "EN – English",
        },
        on: { click: () => void ui.setLanguage(l) },
      },
      label,
    );
  const balance = account ? ui.t("balance", { credits: formatNumber(account.credits, lang) }) : ui.t("balanceUnknown");
  replace(
    header,
    // The page's level-one heading, where the UI is the page with several panels (a task pane); a
    // single panel's title is the h1 (renderPanel), and an embedded UI's page has its own.
    h(
      st.panels.length > 1 && view.shell.dataset.embedded !== "true" ? "h1" : "div",
      { class: "cd-title" },
      ui.t("appTitle"),
    ),
    h("div", { class: "cd-balance", id: "cd-balance", role: "status", attrs: { "aria-live": "polite" } }, balance),
    h(
      "div",
      { class: "cd-langs", role: "group", attrs: { "aria-label": ui.t("language") } },
      langButton("de", "DE"),
      langButton("en", "EN"),
    ),
  );
}

function renderTabs(st: ShellState, view: ShellView, ui: Ui): void {
  const { panels, active, lang } = st;
  const { tabs, panelBox } = view;
  if (panels.length <= 1) return;
  replace(
    tabs,
    panels.map((p, i) =>
      h(
        "button",
        {
          type: "button",
          role: "tab",
          id: `cd-tab-${p.id}`,
          class: "cd-tab" + (p === active ? " is-active" : ""),
          attrs: {
            "aria-selected": String(p === active),
            "aria-controls": "cd-panel",
            tabindex: p === active ? "0" : "-1",
          },
          on: {
            click: () => ui.show(p.id),
            keydown: (ev) => {
              // Arrow keys move between tabs (WAI-ARIA tabs pattern); Tab leaves the list.
              const step = ev.key === "ArrowRight" ? 1 : ev.key === "ArrowLeft" ? -1 : 0;
              if (ev.key === "Home" || ev.key === "End") {
                ev.preventDefault();
                const to = ev.key === "Home" ? panels[0] : panels.at(-1);
                if (to) ui.show(to.id);
              } else if (step) {
                ev.preventDefault();
                const to = panels[(i + step + panels.length) % panels.length];
                if (to) ui.show(to.id);
              }
            },
          },
        },
        p.title[lang],
      ),
    ),
  );
  panelBox.setAttribute("aria-labelledby", `cd-tab-${active.id}`);
}

// A re-render between a press and its release replaces the button under the pointer (or the key): the
// browser then fires no click, because press and release landed on different elements, and the user's
// click is lost (seen when an automatic price arrived just as "Check now" was clicked). So a re-render
// asked for during a press waits for the release and its click; a press held for a second does not hold it longer.
function holdRendersDuringPress(
  shell: HTMLElement,
  renderPanel: () => void,
): { request: () => void; stop: () => void } {
  let pressedAt: number | null = null;
  let renderWaiting = false;
  let releaseTimer: ReturnType<typeof setTimeout> | undefined;
  function request() {
    if (pressedAt === null) return renderPanel();
    renderWaiting = true;
  }
  function pressed() {
    pressedAt = Date.now();
    clearTimeout(releaseTimer);
    releaseTimer = setTimeout(released, 1000);
  }
  function released() {
    if (pressedAt === null) return;
    pressedAt = null;
    clearTimeout(releaseTimer);
    if (!renderWaiting) return;
    renderWaiting = false;
    // After the click this release is part of has been dispatched (it follows in the same input task).
    setTimeout(renderPanel, 0);
  }
  shell.addEventListener("pointerdown", pressed, true);
  shell.addEventListener(
    "keydown",
    (ev) => {
      if (ev.key === " " || ev.key === "Enter") pressed();
    },
    true,
  );
  for (const type of ["pointerup", "pointercancel", "keyup"] as const) window.addEventListener(type, released, true);
  const stop = () => {
    for (const type of ["pointerup", "pointercancel", "keyup"] as const)
      window.removeEventListener(type, released, true);
    clearTimeout(releaseTimer);
  };
  return { request, stop };
}

function renderPanel(st: ShellState, view: ShellView, ui: Ui): void {
  const { panels, active, lang } = st;
  const { shell, panelBox } = view;
  const focusedId = (document.activeElement as HTMLElement | null)?.id;
  const open = st.opened.get(active.id)!;
  const body = open.render(ui);
  const msg = open.state.message;
  const status = h(
    "div",
    {
      class: "cd-status" + (msg ? ` is-${msg.kind}` : ""),
      id: `cd-status-${active.id}`,
      role: msg?.kind === "error" ? "alert" : "status",
      attrs: { "aria-live": "polite" },
    },
    msg ? msg.text[lang] : "",
  );
  replace(panelBox, panels.length <= 1 ? h("h1", { class: "cd-panel-title" }, active.title[lang]) : null, body, status);
  panelBox.setAttribute("lang", lang);
  // What a sticky action row keeps free below itself for the status (styles.css, .cd-sticky-actions).
  panelBox.style.setProperty("--cd-status-h", `${status.offsetHeight}px`);
  if (focusedId) {
    const again = document.getElementById(focusedId);
    if (again && shell.contains(again) && again !== document.activeElement) again.focus();
  }
}

function render(st: ShellState, view: ShellView, ui: Ui): void {
  view.shell.setAttribute("lang", st.lang);
  // The page is the UI (sidebar, task pane, playground): its language is the UI's, for screen readers and hyphenation.
  document.documentElement.lang = st.lang;
  renderHeader(st, view, ui);
  renderTabs(st, view, ui);
  renderPanel(st, view, ui);
}

/** The saved language (and, with a credential, the balance) once the settings answer. */
async function applySavedSettings(st: ShellState, ui: Ui, renderAll: () => void): Promise<void> {
  try {
    const s = await st.host.call("getSettings", {});
    if (s.language !== st.lang) {
      st.lang = s.language;
      renderAll();
    }
    if (credentialSet(s)) await ui.refreshAccount();
  } catch {
    /* the panels show their own errors when used */
  }
}

export function messageOf(error: AppError): Bilingual {
  return error.message ?? ERROR_FALLBACK;
}
