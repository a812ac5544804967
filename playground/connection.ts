/**
 * The playground's header line names the connection the page uses, the
 * saved one: the emulator (with the demo key), another API address, or a
 * team server with its address and the user whose token is saved. It
 * follows the UI's calls (getSettings and saveSettings answer the saved
 * connection, account names the team server's user), so it changes on Save,
 * not while a form is being typed, as the panels do; and the page's
 * language (the UI sets <html lang>).
 */
import type { AccountView, AppInput, AppMethodName, AppOutput, SettingsView } from "../shared/app/index.ts";
import type { UiHost } from "../shared/ui/index.ts";
import type { Bilingual, Language } from "../shared/i18n/index.ts";

const TEXT = {
  connection: { de: "Verbindung", en: "Connection" },
  emulator: { de: "Emulator", en: "Emulator" },
  direct: { de: "API (eigener Schlüssel)", en: "API (own key)" },
  server: { de: "Team-Server", en: "Team server" },
  user: { de: "Benutzer", en: "user" },
  noToken: { de: "kein Token gespeichert", en: "no token saved" },
  grid: { de: "Tabelle", en: "Sheet" },
  side: { de: "Firmendaten", en: "Company data" },
} satisfies Record<string, Bilingual>;

interface Shown {
  kind: "emulator" | "direct" | "server";
  url: string;
  user: string | null;
  tokenSet: boolean;
}

/** `host` with its answers followed: the line in #pg-connection (and the page's region labels) kept up to date. */
export function connectionLine(host: UiHost, emulatorUrl: string): { host: UiHost } {
  const shown: Shown = { kind: "emulator", url: emulatorUrl, user: null, tokenSet: false };
  const draw = () => render(shown, pageLanguage());
  const fromSettings = (v: SettingsView) => {
    const server = v.connection === "server";
    const url = server ? v.serverUrl : v.baseUrl;
    const kind = server ? "server" : url === emulatorUrl ? "emulator" : "direct";
    // Another connection: its user is known once its account answers.
    if (kind !== shown.kind || url !== shown.url) shown.user = null;
    shown.kind = kind;
    shown.url = url;
    shown.tokenSet = v.serverTokenSet;
  };
  const fromAccount = (a: AccountView) => {
    if (shown.kind === "server") shown.user = a.user;
  };
  new MutationObserver(draw).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
  draw();
  const call = async <M extends AppMethodName>(method: M, input: AppInput<M>): Promise<AppOutput<M>> => {
    const out = await host.call(method, input);
    if (method === "getSettings" || method === "saveSettings") fromSettings(out as SettingsView);
    if (method === "account") fromAccount(out as AccountView);
    if (method === "getSettings" || method === "saveSettings" || method === "account") draw();
    return out;
  };
  return { host: { ...host, call } };
}

function pageLanguage(): Language {
  return document.documentElement.lang === "en" ? "en" : "de";
}

function render(s: Shown, lang: Language): void {
  const set = (id: string, text: string) => {
    const el = document.getElementById(id);
    if (el) el.textContent = text;
  };
  set("pg-connection-label", TEXT.connection[lang]);
  set("pg-connection-kind", TEXT[s.kind][lang]);
  set("pg-connection-url", s.url);
  const who =
    s.kind !== "server"
      ? ""
      : s.user
        ? ` · ${TEXT.user[lang]} ${s.user}`
        : s.tokenSet
          ? ""
          : ` · ${TEXT.noToken[lang]}`;
  set("pg-connection-user", who);
  document.getElementById("pg-grid-box")?.setAttribute("aria-label", TEXT.grid[lang]);
  document.getElementById("pg-side")?.setAttribute("aria-label", TEXT.side[lang]);
}
