/** Settings: connection (API key and base URL, or team server and token; masked), connection test, language, formula budget, cache, balance and spend log. */
import type { AccountView, ConnectionResult, SaveSettingsInput, SettingsView } from "../../app/index.ts";
import type { PanelState, Ui } from "../panel.ts";
import { formatNumber } from "../panel.ts";
import { h, field } from "../dom.ts";
import { definePanel } from "../panel.ts";
import { button, creditsText } from "./common.ts";
import type { Bilingual, Language } from "../../i18n/index.ts";
import { STRINGS } from "../strings.ts";
import { doctorReportView, withServiceCheck, type DoctorState } from "./doctor-report.ts";
import {
  connectionDraft,
  connectionFields,
  connectionInput,
  connectionTestInput,
  connectionWorks,
  credentialSet,
  draftUnsaved,
  explainNetworkFailure,
  removeTokenButton,
  type ConnectionDraft,
} from "./settings-connection.ts";

/** The form as typed: numbers as text until saved. */
type Draft = ConnectionDraft & {
  language?: Language;
  formulaDailyBudget: string;
  cacheHours: string;
  matchFloor: string;
};

interface SettingsState extends PanelState, DoctorState {
  view?: SettingsView | null;
  /** `language` is set only once the user changes the field here; until then the field shows the UI's language (the header toggle's). */
  draft?: Draft;
  connection?: ConnectionResult;
  account?: AccountView | null;
}

function load(ui: Ui, s: SettingsState) {
  if (s.view !== undefined) return;
  s.view = null;
  ui.call("getSettings", {}).then(
    (v) => {
      s.view = v;
      s.draft = {
        ...connectionDraft(v),
        formulaDailyBudget: String(v.formulaDailyBudget),
        cacheHours: String(v.cacheHours),
        matchFloor: String(v.matchFloor),
      };
      ui.rerender();
      if (credentialSet(v)) void ui.refreshAccount().then(() => ui.rerender());
    },
    (e) => {
      s.message = ui.errorMessage(e);
      ui.rerender();
    },
  );
}

/** What the spend log calls an operation: its name in the panel's words, never the internal id ("monitor"). */
const OPERATIONS: Record<string, Bilingual> = {
  search: { de: "Suche", en: "Search" },
  enrich: { de: "Anreichern", en: "Enrichment" },
  monitor: { de: "Überwachung", en: "Monitoring" },
  account: { de: "Konto", en: "Account" },
  similar: { de: "Ähnliche Firmen", en: "Similar companies" },
  peers: { de: "Vergleichsfirmen", en: "Peer companies" },
};

export function operationLabel(ui: Ui, operation: string): string {
  const known = OPERATIONS[operation];
  if (known) return ui.pick(known);
  const formula = /^formula:(.+)$/.exec(operation);
  if (formula) return `${ui.lang === "de" ? "Formel" : "Formula"} ${formula[1]}`;
  return operation;
}

/**
 * A number the browser refuses (out of its min/max) stops the save before it
 * is sent: say so with the field's label, instead of leaving the last
 * "Gespeichert." beside a value that was not saved.
 */
function refusedField(ui: Ui, s: SettingsState, label: Bilingual, min: string, max: string) {
  return () => {
    s.message = {
      kind: "error",
      text: {
        de: `${label.de}: bitte eine ganze Zahl von ${min} bis ${max} eingeben. Nicht gespeichert.`,
        en: `${label.en}: please enter a whole number from ${min} to ${max}. Not saved.`,
      },
    };
    // After the browser's validation round, not inside it.
    setTimeout(() => ui.rerender(), 0);
  };
}

export const settingsPanel = definePanel<SettingsState>({
  id: "settings",
  title: { de: "Einstellungen", en: "Settings" },
  initial: () => ({}),
  render(ui, s) {
    load(ui, s);
    const v = s.view;
    if (!v || !s.draft) return h("p", { class: "cd-note" }, ui.t("loading"));
    const d = s.draft;
    const text = (
      id: string,
      key: Exclude<keyof Draft, "connection" | "language">,
      type = "text",
      extra: Record<string, string> = {},
    ) => textInput(ui, s, d, id, key, type, extra);
    const lang = languageSelect(ui, d);

    const doSave = (b: HTMLButtonElement) => ui.run(s, b, () => saveAll(ui, s, d));
    const save = button("settings-save", ui.t("save"), (b) => void doSave(b), { primary: true, submit: true });
    const test = testButton(ui, s, d, v);
    const removeKey = removeKeyButton(ui, s, v);
    const removeToken = removeTokenButton(
      ui,
      v,
      (b, f) => void ui.run(s, b, f),
      (saved, text) => {
        s.view = saved;
        s.message = { kind: "info", text };
      },
    );
    const production = button("settings-production", ui.t("useProduction"), () => {
      d.baseUrl = "";
      ui.rerender();
    });

    return h(
      "div",
      { class: "cd-settings" },
      h(
        "form",
        { class: "cd-form", on: { submit: (ev) => (ev.preventDefault(), void doSave(save)) } },
        connectionFields(ui, v, d, (id, key, type, placeholder) => text(id, key, type, { placeholder }), {
          test,
          removeKey,
          removeToken,
          production,
        }),
        doctorReportView(ui, s),
        field(ui.t("language"), lang),
        field(
          ui.t("formulaBudget"),
          text("settings-budget", "formulaDailyBudget", "number", {
            min: "0",
            max: "100000",
            step: "1",
            label: "formulaBudget",
          }),
          ui.t("formulaBudgetHint"),
        ),
        field(
          ui.t("cacheHours"),
          text("settings-cache", "cacheHours", "number", { min: "0", max: "720", step: "1", label: "cacheHours" }),
          ui.t("cacheHoursHint"),
        ),
        field(
          ui.t("matchFloor"),
          text("settings-match-floor", "matchFloor", "number", {
            min: "0",
            max: "1",
            step: "0.01",
            label: "matchFloor",
          }),
          ui.t("matchFloorHint"),
        ),
        h("p", { class: "cd-note", id: "settings-key-note" }, ui.pick(v.functionsKeyNote)),
        h("div", { class: "cd-actions cd-sticky-actions" }, save),
      ),
      accountSection(ui, s, v),
    );
  },
});

/** The balance, today's formula budget and the spend log, with "Refresh". */
function accountSection(ui: Ui, s: SettingsState, v: SettingsView): HTMLElement {
  const account = ui.account;
  return h(
    "section",
    { class: "cd-account", attrs: { "aria-labelledby": "settings-h-account" } },
    h("h2", { id: "settings-h-account" }, ui.t("accountTitle")),
    account
      ? h(
          "div",
          null,
          h(
            "p",
            { id: "settings-balance" },
            ui.t("balance", { credits: formatNumber(account.credits, ui.lang) }),
            account.plan ? ` · ${account.plan}` : "",
          ),
          h(
            "p",
            { class: "cd-note" },
            ui.t("budgetToday", { used: account.budget.usedToday, limit: account.budget.limit }),
          ),
          account.ledger.length
            ? h(
                "table",
                { class: "cd-table", id: "settings-ledger" },
                h("caption", null, ui.t("ledgerTitle")),
                h(
                  "thead",
                  null,
                  h(
                    "tr",
                    null,
                    h("th", { attrs: { scope: "col" } }, ui.t("ledgerDay")),
                    h("th", { attrs: { scope: "col" } }, ui.t("ledgerOperation")),
                    h("th", { attrs: { scope: "col" } }, ui.t("ledgerCredits")),
                    h("th", { attrs: { scope: "col" } }, ui.t("ledgerRequests")),
                  ),
                ),
                h(
                  "tbody",
                  null,
                  account.ledger.map((e) =>
                    h(
                      "tr",
                      null,
                      h("td", null, e.day),
                      h("td", null, operationLabel(ui, e.operation)),
                      h("td", { class: "cd-num" }, creditsText(ui, e.credits)),
                      h("td", { class: "cd-num" }, e.requests),
                    ),
                  ),
                ),
              )
            : h("p", { class: "cd-note" }, ui.t("ledgerEmpty")),
        )
      : h("p", { class: "cd-note" }, credentialSet(v) ? ui.t("balanceUnknown") : ui.t("keyNotSet")),
    h(
      "div",
      { class: "cd-actions" },
      button(
        "settings-refresh",
        ui.t("refresh"),
        (b) =>
          void ui.run(s, b, async () => {
            const a = await ui.refreshAccount();
            if (!a)
              s.message = {
                kind: "error",
                text: { de: "Guthaben konnte nicht gelesen werden.", en: "Could not read the balance." },
              };
          }),
        { disabled: !credentialSet(v) },
      ),
    ),
  );
}

/** Save what the form holds; a secret only when one was typed, then clear the typed secrets. */
async function saveAll(ui: Ui, s: SettingsState, d: Draft): Promise<void> {
  const input: SaveSettingsInput = {
    ...connectionInput(d),
    // One language: the UI's, unless the user picked another in this field.
    language: d.language ?? ui.lang,
    formulaDailyBudget: Number(d.formulaDailyBudget),
    cacheHours: Number(d.cacheHours),
    matchFloor: Number(d.matchFloor.replace(",", ".")),
  };
  const saved = await ui.call("saveSettings", input);
  s.view = saved;
  d.apiKey = "";
  d.serverToken = "";
  d.language = undefined;
  s.message = { kind: "success", text: { de: "Gespeichert.", en: "Saved." } };
  if (saved.language !== ui.lang) await ui.setLanguage(saved.language);
  if (credentialSet(saved)) await ui.refreshAccount();
}

/** "Test connection": what is typed, else what is saved; then the free self-test of the service. */
function testButton(ui: Ui, s: SettingsState, d: Draft, v: SettingsView): HTMLElement {
  return button(
    "settings-test",
    ui.t("testConnection"),
    (b) =>
      void ui.run(s, b, async () => {
        // Test what is typed (the mode, an unsaved key, token or URL), falling back to what is saved.
        const typed = connectionTestInput(d);
        try {
          // Then the free self-test (doctor-report.ts): does the service answer the way the client reads it?
          s.connection = await withServiceCheck(ui, s, typed, async () => await ui.call("testConnection", typed));
        } catch (e) {
          throw await explainNetworkFailure(ui, e, d, v);
        }
        s.message = { kind: "success", text: connectionWorks(s.connection, draftUnsaved(d, v)) };
      }),
  );
}

/** A text or number field of the draft; a number outside its range says so (refusedField). */
function textInput(
  ui: Ui,
  s: SettingsState,
  d: Draft,
  id: string,
  key: Exclude<keyof Draft, "connection" | "language">,
  type = "text",
  extra: Record<string, string> = {},
): HTMLInputElement {
  return h("input", {
    id,
    type,
    value: String(d[key]),
    min: extra.min,
    max: extra.max,
    step: extra.step,
    placeholder: extra.placeholder,
    attrs: { autocomplete: type === "password" ? "off" : undefined, spellcheck: "false" },
    on: {
      input: (ev) => ((d as unknown as Record<string, string>)[key] = (ev.target as HTMLInputElement).value),
      ...(extra.label && extra.min && extra.max
        ? { invalid: refusedField(ui, s, STRINGS[extra.label as "cacheHours"], extra.min, extra.max) }
        : {}),
    },
  });
}

function languageSelect(ui: Ui, d: Draft): HTMLSelectElement {
  const lang = h(
    "select",
    {
      id: "settings-language",
      on: { change: (ev) => (d.language = (ev.target as HTMLSelectElement).value as Language) },
    },
    h("option", { value: "de" }, "Deutsch"),
    h("option", { value: "en" }, "English"),
  );
  lang.value = d.language ?? ui.lang;
  return lang;
}

/** "Remove key", when a key is saved. */
function removeKeyButton(ui: Ui, s: SettingsState, v: SettingsView): HTMLElement | null {
  return v.apiKeySet
    ? button(
        "settings-remove-key",
        ui.t("removeKey"),
        (b) =>
          void ui.run(s, b, async () => {
            s.view = await ui.call("saveSettings", { apiKey: null });
            s.message = { kind: "info", text: { de: "Schlüssel entfernt.", en: "Key removed." } };
          }),
      )
    : null;
}
