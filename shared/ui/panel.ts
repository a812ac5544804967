/**
 * What a panel sees of the shell (app.ts): the Ui it renders with, the state
 * the shell keeps for it, and its definition. Apart from app.ts so panels
 * import this and the shell imports the panels, never the other way round.
 */
import type { Bilingual, Language } from "../i18n/index.ts";
import type { AccountView } from "../app/index.ts";
import type { AppCall, UiHost } from "./host.ts";
import type { StringKey } from "./strings.ts";

export type PanelId = string;

/** A panel as its module writes it: typed over its own state. */
export interface PanelDef<S extends PanelState> {
  id: PanelId;
  title: Bilingual;
  /** The state before the first render (what the user has not typed yet). */
  initial(): S;
  render(ui: Ui, state: S): HTMLElement;
}

/** A panel as the shell holds it: its state's type is the panel's own business. */
export interface Panel {
  readonly id: PanelId;
  readonly title: Bilingual;
  /** The panel with its state, made once per mounted UI: the state lives as long as the UI. */
  open(): OpenPanel;
}

export interface OpenPanel {
  /** What the shell reads and writes of every panel's state (message, busy, handoff). */
  readonly state: PanelState;
  render(ui: Ui): HTMLElement;
}

/** A panel for the registry: the state `initial` makes is the state `render` gets, so no cast is needed. */
export function definePanel<S extends PanelState>(def: PanelDef<S>): Panel {
  return {
    id: def.id,
    title: def.title,
    open() {
      const state = def.initial();
      return { state, render: (ui) => def.render(ui, state) };
    },
  };
}

export interface Message {
  kind: "info" | "error" | "success";
  text: Bilingual;
}

export interface Ui {
  readonly host: UiHost;
  readonly lang: Language;
  t(key: StringKey, vars?: Record<string, string | number>): string;
  pick(text: Bilingual): string;
  /** A method of the protocol (AppApi): its input in, its output out. */
  readonly call: AppCall;
  setLanguage(lang: Language): Promise<void>;
  /** Ask for the balance again (after anything that spent credits). */
  refreshAccount(): Promise<AccountView | null>;
  /** The last account answer, for the header and the settings panel. */
  readonly account: AccountView | null;
  /** Switch to a panel, optionally handing it data (e.g. selected ids). */
  show(panel: PanelId, handoff?: Handoff): void;
  /** Re-render the active panel from its state. */
  rerender(): void;
  /** Bilingual message for a failure of any kind. */
  errorMessage(e: unknown): Message;
  /** Run an action with a busy button and a status message for failures. */
  run(state: PanelState, button: HTMLButtonElement | null, action: () => Promise<void>): Promise<void>;
}

/** What one panel hands another when it switches to it (Search → Find similar: the selected ids). */
export interface Handoff {
  ids: string[];
}

/** What the shell keeps of every panel's state; each panel's own state extends it. */
export interface PanelState {
  message?: Message;
  busy?: boolean;
  handoff?: Handoff;
}

export function formatNumber(n: number, lang: Language): string {
  return n.toLocaleString(lang === "de" ? "de-DE" : "en-GB", { maximumFractionDigits: 2 });
}
