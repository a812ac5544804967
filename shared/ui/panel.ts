/**
 * What a panel sees of the shell (app.ts): the Ui it renders with, the state
 * the shell keeps for it, and its definition. Apart from app.ts so panels
 * import this and the shell imports the panels, never the other way round.
 */
import type { Bilingual, Language } from "../i18n/index.ts";
import type { AccountView, AppInput, AppMethodName, AppOutput } from "../app/index.ts";
import type { UiHost } from "./host.ts";
import type { StringKey } from "./strings.ts";

export type PanelId = string;

export interface PanelDef {
  id: PanelId;
  title: Bilingual;
  render(ui: Ui, state: PanelState): HTMLElement;
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
  call<M extends AppMethodName>(method: M, input: AppInput<M>): Promise<AppOutput<M>>;
  call(method: string, input: unknown): Promise<unknown>;
  setLanguage(lang: Language): Promise<void>;
  /** Ask for the balance again (after anything that spent credits). */
  refreshAccount(): Promise<AccountView | null>;
  /** The last account answer, for the header and the settings panel. */
  readonly account: AccountView | null;
  /** Switch to a panel, optionally handing it data (e.g. selected ids). */
  show(panel: PanelId, handoff?: unknown): void;
  /** Re-render the active panel from its state. */
  rerender(): void;
  /** Bilingual message for a failure of any kind. */
  errorMessage(e: unknown): Message;
  /** Run an action with a busy button and a status message for failures. */
  run(state: PanelState, button: HTMLButtonElement | null, action: () => Promise<void>): Promise<void>;
}

export interface PanelState {
  message?: Message;
  busy?: boolean;
  handoff?: unknown;
  [k: string]: unknown;
}

export function formatNumber(n: number, lang: Language): string {
  return n.toLocaleString(lang === "de" ? "de-DE" : "en-GB", { maximumFractionDigits: 2 });
}
