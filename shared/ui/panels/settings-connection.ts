/**
 * The connection part of Settings: "API key" (direct to the API) or "Team
 * server" (the team's company-data server, a URL and a personal token), the
 * fields of the mode picked, and what Test connection says when it fails.
 * Secrets are typed into password fields, sent once on save or test, and
 * never shown again (only a masked hint).
 */
import type { SettingsView } from "../../app/index.ts";
import type { ConnectionInput, ConnectionMode, ConnectionResult, SaveSettingsInput } from "../../app/index.ts";
import { formatNumber } from "../panel.ts";
import type { Ui } from "../panel.ts";
import { h, field } from "../dom.ts";
import { button } from "./common.ts";
import { catalogue, type Bilingual } from "../../i18n/index.ts";
import { UiCallError } from "../host.ts";
import { diagnoseFailure, networkFailureMessage } from "../../web/index.ts";

/** What the user has typed in the connection part, before saving. */
export interface ConnectionDraft {
  connection: ConnectionMode;
  apiKey: string;
  baseUrl: string;
  serverUrl: string;
  serverToken: string;
}

export function connectionDraft(v: SettingsView): ConnectionDraft {
  return { connection: v.connection, apiKey: "", baseUrl: v.baseUrl, serverUrl: v.serverUrl, serverToken: "" };
}

/** The saveSettings fields of the connection part; a secret only when one was typed. */
export function connectionInput(d: ConnectionDraft): SaveSettingsInput {
  const input: SaveSettingsInput = { connection: d.connection, baseUrl: d.baseUrl };
  // Only the mode in use needs a valid server URL; a half-typed one in the other mode is not saved.
  if (d.connection === "server" || d.serverUrl.trim() === "") input.serverUrl = d.serverUrl;
  if (d.apiKey.trim()) input.apiKey = d.apiKey.trim();
  if (d.serverToken.trim()) input.serverToken = d.serverToken.trim();
  return input;
}

/** The testConnection input: the mode and what is typed for it (falling back to what is saved). */
export function connectionTestInput(d: ConnectionDraft): ConnectionInput {
  return d.connection === "server"
    ? {
        connection: "server",
        serverUrl: d.serverUrl.trim() || undefined,
        serverToken: d.serverToken.trim() || undefined,
      }
    : { connection: "direct", apiKey: d.apiKey.trim() || undefined, baseUrl: d.baseUrl.trim() || undefined };
}

/** Whether what is typed is another connection than the saved one (a mode, address or secret not saved yet). */
export function draftUnsaved(d: ConnectionDraft, v: SettingsView): boolean {
  if (d.connection !== v.connection) return true;
  if (d.connection === "server") return d.serverToken.trim() !== "" || d.serverUrl.trim() !== v.serverUrl;
  return d.apiKey.trim() !== "" || (d.baseUrl.trim() !== "" && d.baseUrl.trim() !== v.baseUrl);
}

/**
 * What a passed Test connection says: the balance of the connection tested
 * (through a team server: whose token, and what that user may still spend),
 * and, when that is not the saved connection, that the page keeps using the
 * saved one (and its balance in the header) until Save.
 */
export function connectionWorks(r: ConnectionResult, unsaved: boolean): Bilingual {
  const n = { de: formatNumber(r.credits, "de"), en: formatNumber(r.credits, "en") };
  const who = r.user ? { de: ` Benutzer: ${r.user}.`, en: ` User: ${r.user}.` } : { de: "", en: "" };
  const later = unsaved
    ? {
        de: " Noch nicht gespeichert: bis „Speichern“ gilt die gespeicherte Verbindung (auch das Guthaben oben).",
        en: " Not saved yet: until Save, the saved connection is used (and the balance above is its).",
      }
    : { de: "", en: "" };
  return {
    de: `Verbindung in Ordnung.${who.de} Guthaben: ${n.de} Credits.${later.de}`,
    en: `Connection works.${who.en} Balance: ${n.en} credits.${later.en}`,
  };
}

/** Whether a credential for the saved mode is there (the balance can be read). */
export function credentialSet(v: SettingsView): boolean {
  return v.connection === "server" ? v.serverTokenSet && v.serverUrl !== "" : v.apiKeySet;
}

const T = catalogue({
  legend: { de: "Verbindung", en: "Connection" },
  direct: { de: "API-Schlüssel (direkt)", en: "API key (direct)" },
  server: { de: "Team-Server", en: "Team server" },
  serverUrl: { de: "Adresse des Team-Servers", en: "Team server address" },
  serverUrlHint: {
    de: "Die Adresse, die Ihr Team-Administrator nennt (company-data server): https://… unter einem öffentlichen Namen erreicht jedes Excel. http:// nur zu diesem Rechner (localhost, 127.0.0.1): ein Server auf Ihrem eigenen Computer, den nur Sie erreichen; von einer Add-in-Seite im Internet fragt der Browser dafür erst um Erlaubnis (Local Network Access), Excel im Web kann sie verweigern.",
    en: "The address your team's administrator gives you (company-data server): https://… under a public name reaches every Excel. http:// only to this computer (localhost, 127.0.0.1): a server on your own computer that only you reach; from an add-in page on the internet the browser asks for permission first (Local Network Access), and Excel on the web may refuse it.",
  },
  serverUrlHintSheets: {
    de: "Die Adresse, die Ihr Team-Administrator nennt (company-data server): https://… unter einem öffentlichen Namen. Google Sheets ruft sie von Googles Servern auf: eine Adresse nur auf Ihrem Rechner (localhost) oder im Firmennetz erreicht es nicht.",
    en: "The address your team's administrator gives you (company-data server): https://… under a public name. Google Sheets calls it from Google's servers: an address only on your computer (localhost) or on the company network is out of its reach.",
  },
  token: { de: "Persönliches Token", en: "Personal token" },
  tokenSet: {
    de: "Ein Token ist gespeichert ({hint}). Leer lassen, um es zu behalten.",
    en: "A token is saved ({hint}). Leave empty to keep it.",
  },
  tokenNotSet: { de: "Kein Token gespeichert.", en: "No token saved." },
  tokenTyped: {
    de: "Token eingegeben, noch nicht gespeichert: „Verbindung testen“ prüft es, „Speichern“ speichert es.",
    en: "Token typed, not saved yet: Test connection checks it, Save keeps it.",
  },
  tokenTypedOverSaved: {
    de: "Neues Token eingegeben, noch nicht gespeichert: „Speichern“ ersetzt das gespeicherte ({hint}).",
    en: "New token typed, not saved yet: Save replaces the saved one ({hint}).",
  },
  keyTyped: {
    de: "Schlüssel eingegeben, noch nicht gespeichert: „Verbindung testen“ prüft ihn, „Speichern“ speichert ihn.",
    en: "Key typed, not saved yet: Test connection checks it, Save keeps it.",
  },
  keyTypedOverSaved: {
    de: "Neuer Schlüssel eingegeben, noch nicht gespeichert: „Speichern“ ersetzt den gespeicherten ({hint}).",
    en: "New key typed, not saved yet: Save replaces the saved one ({hint}).",
  },
  removeToken: { de: "Token entfernen", en: "Remove token" },
  tokenRemoved: { de: "Token entfernt.", en: "Token removed." },
  myUsage: { de: "Mein Verbrauch", en: "My usage" },
  myUsageHint: {
    de: "Öffnet die Konsole des Team-Servers: Ihr Verbrauch diesen Monat, Ihr Budget, Ihre letzten Anfragen und Zeitpläne. Dort mit Ihrem Token anmelden.",
    en: "Opens the team server's console: your spend this month, your budget, your recent requests and schedules. Sign in there with your token.",
  },
});

/**
 * A secret's field with a hint that says what holds now, as it is typed: a
 * secret saved (masked) or none, and whether what is typed is not saved yet
 * (a filled field never stands above "no token saved").
 */
function secretField(
  label: string,
  input: HTMLInputElement,
  hints: { saved: string | null; none: string; typed: string; typedOverSaved: string },
): HTMLElement {
  const text = () =>
    input.value.trim() ? (hints.saved !== null ? hints.typedOverSaved : hints.typed) : (hints.saved ?? hints.none);
  const row = field(label, input, text());
  const hint = row.querySelector(".hint");
  input.addEventListener("input", () => {
    if (hint) hint.textContent = text();
  });
  return row;
}

/** The team server's console, a user's own page (issue 39): linked when a team server is saved; the token never goes into the link. */
export function myUsageLink(ui: Ui, v: SettingsView): HTMLElement | null {
  if (v.connection !== "server" || !/^https?:\/\//i.test(v.serverUrl)) return null;
  const href = `${v.serverUrl.replace(/\/+$/, "")}/console#me`;
  return h(
    "p",
    { class: "cd-note", id: "settings-my-usage" },
    h(
      "a",
      { id: "settings-my-usage-link", attrs: { href, target: "_blank", rel: "noopener noreferrer" } },
      ui.pick(T.myUsage),
    ),
    " – ",
    ui.pick(T.myUsageHint),
  );
}

/**
 * The mode switch and the fields of the picked mode. `actions` are the
 * buttons that sit under the secret (remove, test connection).
 */
export function connectionFields(
  ui: Ui,
  v: SettingsView,
  d: ConnectionDraft,
  input: (
    id: string,
    key: Exclude<keyof ConnectionDraft, "connection">,
    type: string,
    placeholder: string,
  ) => HTMLInputElement,
  actions: {
    test: HTMLElement;
    removeKey: HTMLElement | null;
    removeToken: HTMLElement | null;
    production: HTMLElement;
  },
): HTMLElement {
  const radio = (mode: ConnectionMode, label: Bilingual) =>
    h(
      "label",
      { class: "cd-choice" },
      h("input", {
        type: "radio",
        name: "settings-connection",
        id: `settings-connection-${mode}`,
        value: mode,
        checked: d.connection === mode,
        on: { change: () => ((d.connection = mode), ui.rerender()) },
      }),
      " ",
      ui.pick(label),
    );
  const fields =
    d.connection === "server"
      ? [
          field(
            ui.pick(T.serverUrl),
            input("settings-server-url", "serverUrl", "url", "https://company-data.example.com"),
            ui.pick(ui.host.kind === "sheets" ? T.serverUrlHintSheets : T.serverUrlHint),
          ),
          secretField(ui.pick(T.token), input("settings-token", "serverToken", "password", v.serverTokenHint ?? ""), {
            saved: v.serverTokenSet ? ui.pick(T.tokenSet).replace("{hint}", v.serverTokenHint ?? "") : null,
            none: ui.pick(T.tokenNotSet),
            typed: ui.pick(T.tokenTyped),
            typedOverSaved: ui.pick(T.tokenTypedOverSaved).replace("{hint}", v.serverTokenHint ?? ""),
          }),
          h("div", { class: "cd-actions" }, actions.removeToken, actions.test),
          myUsageLink(ui, v),
        ]
      : [
          secretField(ui.t("apiKey"), input("settings-key", "apiKey", "password", v.apiKeyHint ?? ""), {
            saved: v.apiKeySet ? ui.t("keySet", { hint: v.apiKeyHint ?? "" }) : null,
            none: ui.t("keyNotSet"),
            typed: ui.pick(T.keyTyped),
            typedOverSaved: ui.pick(T.keyTypedOverSaved).replace("{hint}", v.apiKeyHint ?? ""),
          }),
          h("div", { class: "cd-actions" }, actions.removeKey, actions.test),
          field(
            ui.t("baseUrl"),
            input("settings-base-url", "baseUrl", "url", "https://api.implisense.com"),
            v.baseUrlIsProduction ? ui.t("baseUrlProduction") : ui.t("baseUrlOther"),
          ),
          h("div", { class: "cd-actions" }, actions.production),
        ];
  return h(
    "fieldset",
    { class: "cd-fieldset", id: "settings-connection" },
    h("legend", null, ui.pick(T.legend)),
    h("div", { role: "radiogroup" }, radio("direct", T.direct), " ", radio("server", T.server)),
    fields,
  );
}

/** The "remove token" button (server mode), or null when none is saved. */
export function removeTokenButton(
  ui: Ui,
  v: SettingsView,
  run: (b: HTMLButtonElement, f: () => Promise<void>) => void,
  done: (saved: SettingsView, text: Bilingual) => void,
): HTMLElement | null {
  if (!v.serverTokenSet) return null;
  return button("settings-remove-token", ui.pick(T.removeToken), (b) =>
    run(b, async () => done(await ui.call("saveSettings", { serverToken: null }), T.tokenRemoved)),
  );
}

/**
 * Where the page itself makes the calls (Excel, the playground), "no
 * connection" has three causes a user must tell apart: the browser's Local
 * Network Access blocked a private or loopback address, the service answers
 * but refuses this page's origin (CORS), or nothing answers. Worked out
 * after the failure (shared/web/local-network.ts) and said with what to do.
 * Sheets calls from Google's servers, where neither LNA nor CORS applies.
 */
export async function explainNetworkFailure(
  ui: Ui,
  e: unknown,
  d: ConnectionDraft,
  saved: { baseUrl: string; serverUrl: string },
): Promise<unknown> {
  if (
    ui.host.kind === "sheets" ||
    !(e instanceof UiCallError) ||
    e.error.code !== "NETWORK" ||
    typeof location === "undefined"
  )
    return e;
  const server = d.connection === "server";
  const url = ((server ? d.serverUrl : d.baseUrl).trim() || (server ? saved.serverUrl : saved.baseUrl)).replace(
    /\/+$/,
    "",
  );
  if (!/^https?:\/\//i.test(url)) return e;
  const diagnosis = await diagnoseFailure(`${url}/v2/account`, { pageHost: location.hostname });
  const message = networkFailureMessage(diagnosis, {
    url,
    origin: location.origin,
    mode: server ? "server" : "direct",
    from: ui.host.kind === "excel" ? "excel" : "page",
  });
  return message ? new UiCallError({ code: "NETWORK", message }) : e;
}
