/**
 * The user's settings and how an operation context is built from them.
 * Every host (sidebar, task pane, custom functions, playground) reads the
 * same keys through storeGet, so a setting saved in the UI is what the next
 * formula uses. The API key lives only under `user:apiKey`, a team server's
 * personal token only under `user:serverToken`; nothing here ever returns
 * either, only whether it is set and a masked hint.
 *
 * Two connection modes, one setting (`user:connection`): "direct" sends the
 * API key to the base URL; "server" sends the personal token to the team
 * server's URL (company-data server, the same REST v2 surface). Both are
 * kept, so switching back and forth loses nothing; `activeConnection` is the
 * one place that picks what the client sends where.
 */
import { storeGet, storePut, type Operation } from "../core/index.ts";
import { PRODUCTION_BASE_URL, type ClientConfig } from "../api/index.ts";
import type { Pacer } from "../api/index.ts";
import { MAX_BATCH } from "../api/index.ts";
import type { OpContext } from "../operations/index.ts";
import { toLanguage, type Bilingual, type Language } from "../i18n/index.ts";
import { checkBaseUrl } from "../api/index.ts";
import { DEFAULT_MATCH_FLOOR, MATCH_FLOOR_LIMITS } from "../operations/index.ts";

export const SETTINGS_KEYS = {
  apiKey: "user:apiKey",
  baseUrl: "user:baseUrl",
  language: "user:language",
  formulaDailyBudget: "user:formulaDailyBudget",
  cacheHours: "user:cacheHours",
  matchFloor: "user:matchFloor",
  connection: "user:connection",
  serverUrl: "user:serverUrl",
  serverToken: "user:serverToken",
} as const;

/** "direct": the API key, straight to the API; "server": a personal token, to the team server. */
export type ConnectionMode = "direct" | "server";
export const CONNECTION_MODES: readonly ConnectionMode[] = ["direct", "server"];

export interface Settings {
  apiKey: string | null;
  baseUrl: string;
  language: Language;
  /** Credits custom functions may spend per day and document; 0 blocks paid formulas. */
  formulaDailyBudget: number;
  /** How long answers are cached; 0 turns the cache off. */
  cacheHours: number;
  /** Matches the service rates below this are reviews (operations/contradiction.ts). */
  matchFloor: number;
  connection: ConnectionMode;
  /** The team server's base URL (the same https / loopback rule as the base URL); null = none set. */
  serverUrl: string | null;
  /** The personal token for the team server (`company-data server token create`); a secret like the key. */
  serverToken: string | null;
}

export const DEFAULT_SETTINGS: Settings = {
  apiKey: null,
  baseUrl: PRODUCTION_BASE_URL,
  connection: "direct",
  serverUrl: null,
  serverToken: null,
  language: "de",
  formulaDailyBudget: 50,
  cacheHours: 6,
  matchFloor: DEFAULT_MATCH_FLOOR,
};

export const LIMITS = {
  formulaDailyBudget: { min: 0, max: 100_000 },
  // Apps Script's CacheService keeps values 6 h at most; longer lifetimes rely on the host's durable layer.
  cacheHours: { min: 0, max: 720 },
  matchFloor: MATCH_FLOOR_LIMITS,
  apiKey: { max: 500 },
  serverToken: { max: 500 },
} as const;

/** Which hosts run the app service; the settings view explains key use per host. */
export type HostKind = "sheets" | "excel" | "playground" | "test";

export interface SettingsView {
  apiKeySet: boolean;
  /** e.g. "••••3f9a"; null when no key is set. Never the key. */
  apiKeyHint: string | null;
  baseUrl: string;
  baseUrlIsProduction: boolean;
  language: Language;
  formulaDailyBudget: number;
  cacheHours: number;
  matchFloor: number;
  /** Whose key custom functions use when the spreadsheet is shared. */
  functionsKeyNote: Bilingual;
  connection: ConnectionMode;
  /** "" when none is set. */
  serverUrl: string;
  serverTokenSet: boolean;
  /** e.g. "••••3f9a"; null when no token is set. Never the token. */
  serverTokenHint: string | null;
}

/**
 * What the client sends where: the credential (API key or personal token)
 * and the base URL it goes to. `credential` names the setting, so a missing
 * or refused one is named in the message ("personal token", not "API key").
 */
export interface ActiveConnection {
  mode: ConnectionMode;
  secret: string | null;
  baseUrl: string;
  credential: "apiKey" | "serverToken";
}

export function activeConnection(s: Settings): ActiveConnection {
  return s.connection === "server"
    ? {
        mode: "server",
        secret: s.serverUrl ? s.serverToken : null,
        baseUrl: s.serverUrl ?? "",
        credential: "serverToken",
      }
    : { mode: "direct", secret: s.apiKey, baseUrl: s.baseUrl, credential: "apiKey" };
}

export function* loadSettings(): Operation<Settings> {
  const k = SETTINGS_KEYS;
  const [apiKey, baseUrl, language, budget, cache, floor, connection, serverUrl, serverToken] = yield* storeGet([
    k.apiKey,
    k.baseUrl,
    k.language,
    k.formulaDailyBudget,
    k.cacheHours,
    k.matchFloor,
    k.connection,
    k.serverUrl,
    k.serverToken,
  ]);
  const number = (v: string | null, fallback: number, lim: { min: number; max: number }) => {
    const n = v === null ? NaN : Number(v);
    return Number.isFinite(n) && n >= lim.min && n <= lim.max ? n : fallback;
  };
  return {
    apiKey: apiKey && apiKey.trim() ? apiKey.trim() : null,
    baseUrl: baseUrl && isHttpUrl(baseUrl) ? baseUrl : DEFAULT_SETTINGS.baseUrl,
    language: toLanguage(language, DEFAULT_SETTINGS.language),
    formulaDailyBudget: number(budget, DEFAULT_SETTINGS.formulaDailyBudget, LIMITS.formulaDailyBudget),
    cacheHours: number(cache, DEFAULT_SETTINGS.cacheHours, LIMITS.cacheHours),
    matchFloor: number(floor, DEFAULT_SETTINGS.matchFloor, LIMITS.matchFloor),
    connection: connection === "server" ? "server" : "direct",
    serverUrl: serverUrl && isHttpUrl(serverUrl) ? serverUrl : null,
    serverToken: serverToken && serverToken.trim() ? serverToken.trim() : null,
  };
}

export interface SettingsPatch {
  /** A new key; "" or null removes it; absent keeps it. */
  apiKey?: string | null;
  baseUrl?: string;
  language?: Language;
  formulaDailyBudget?: number;
  cacheHours?: number;
  matchFloor?: number;
  connection?: ConnectionMode;
  /** A team server's URL; "" removes it. */
  serverUrl?: string;
  /** A new personal token; "" or null removes it; absent keeps it. */
  serverToken?: string | null;
}

export function* saveSettings(patch: SettingsPatch): Operation<Settings> {
  const entries: Record<string, string | null> = {};
  const k = SETTINGS_KEYS;
  if (patch.apiKey !== undefined) entries[k.apiKey] = patch.apiKey && patch.apiKey.trim() ? patch.apiKey.trim() : null;
  if (patch.baseUrl !== undefined) {
    const url = normaliseBaseUrl(patch.baseUrl);
    entries[k.baseUrl] = url === PRODUCTION_BASE_URL ? null : url;
  }
  if (patch.language !== undefined) entries[k.language] = patch.language;
  if (patch.formulaDailyBudget !== undefined) entries[k.formulaDailyBudget] = String(patch.formulaDailyBudget);
  if (patch.cacheHours !== undefined) entries[k.cacheHours] = String(patch.cacheHours);
  if (patch.matchFloor !== undefined) entries[k.matchFloor] = String(patch.matchFloor);
  if (patch.connection !== undefined) entries[k.connection] = patch.connection === "server" ? "server" : null;
  if (patch.serverUrl !== undefined)
    entries[k.serverUrl] = patch.serverUrl.trim() ? checkBaseUrl(patch.serverUrl, "serverUrl") : null;
  if (patch.serverToken !== undefined)
    entries[k.serverToken] = patch.serverToken && patch.serverToken.trim() ? patch.serverToken.trim() : null;
  yield* storePut(entries);
  return yield* loadSettings();
}

/** A base URL the key may travel to (shared/api/base-url.ts: https, or http to this machine only). */
export function isHttpUrl(value: string): boolean {
  try {
    checkBaseUrl(value);
    return true;
  } catch {
    return false;
  }
}

/** "" means production; anything else must pass the shared base-URL rule (shared/api/base-url.ts). */
export function normaliseBaseUrl(value: string): string {
  const v = value.trim();
  if (v === "") return PRODUCTION_BASE_URL;
  return checkBaseUrl(v, "baseUrl");
}

/** Shows the last four characters only for keys long enough that four do not give it away. */
export function maskKey(key: string | null): string | null {
  if (!key) return null;
  return key.length >= 16 ? "••••" + key.slice(-4) : "••••";
}

const KEY_NOTES: Record<HostKind, Bilingual> = {
  sheets: {
    de: "Formeln (Custom Functions) laufen ohne Ihre Anmeldung und nutzen den Schlüssel, den der Eigentümer der Tabelle hinterlegt hat: in einer geteilten Tabelle verbrauchen die Formeln aller Bearbeiter dessen Credits, begrenzt durch das Tagesbudget. Aktionen in dieser Seitenleiste nutzen Ihren eigenen Schlüssel.",
    en: "Formulas (custom functions) run without your sign-in and use the key stored by the spreadsheet's owner: in a shared spreadsheet every editor's formulas spend the owner's credits, capped by the daily budget. Actions in this sidebar use your own key.",
  },
  excel: {
    de: "Der Schlüssel wird nur auf diesem Gerät für Sie gespeichert. Wer die Arbeitsmappe öffnet, rechnet die Formeln mit dem eigenen Schlüssel.",
    en: "The key is stored for you on this device only. Anyone who opens the workbook computes its formulas with their own key.",
  },
  playground: {
    de: "Im Playground wird der Demo-Schlüssel des lokalen Emulators verwendet; es fallen keine echten Kosten an.",
    en: "The playground uses the local emulator's demo key; nothing is charged for real.",
  },
  test: { de: "Testumgebung.", en: "Test environment." },
};

const SERVER_NOTE: Bilingual = {
  de: "Mit einem Team-Server gehen alle Abfragen (Formeln und dieser Bereich) an den Server Ihres Teams; der API-Schlüssel liegt nur dort. Ihr persönliches Token wird nur auf diesem Gerät für Sie gespeichert; Budget und Verbrauch führt der Server.",
  en: "With a team server every request (formulas and this panel) goes to your team's server; the API key is kept there only. Your personal token is stored for you on this device only; the server keeps your budget and spend.",
};

export function settingsView(s: Settings, host: HostKind): SettingsView {
  return {
    apiKeySet: s.apiKey !== null,
    apiKeyHint: maskKey(s.apiKey),
    baseUrl: s.baseUrl,
    baseUrlIsProduction: s.baseUrl === PRODUCTION_BASE_URL,
    language: s.language,
    formulaDailyBudget: s.formulaDailyBudget,
    cacheHours: s.cacheHours,
    matchFloor: s.matchFloor,
    functionsKeyNote: s.connection === "server" ? SERVER_NOTE : KEY_NOTES[host],
    connection: s.connection,
    serverUrl: s.serverUrl ?? "",
    serverTokenSet: s.serverToken !== null,
    serverTokenHint: maskKey(s.serverToken),
  };
}

/** FNV-1a, enough to keep answers of two base URLs or documents apart in one cache. */
export function scopeOf(...parts: string[]): string {
  let h = 0x811c9dc5;
  for (const ch of parts.join("\u0000")) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

export interface ContextInputs {
  now: () => number;
  random: () => number;
  deadline?: number;
  /** Identifies the document (Sheets file id, workbook url); "" when the host has none. */
  documentId?: string;
  onSpend?: ClientConfig["onSpend"];
  onRequest?: ClientConfig["onRequest"];
  /** The host's one pacer (shared/api/pacing.ts), created where it builds these inputs. */
  pacer: Pacer;
}

export function contextFromSettings(s: Settings, inputs: ContextInputs): OpContext {
  const c = activeConnection(s);
  return {
    client: {
      apiKey: c.secret,
      baseUrl: c.baseUrl,
      credential: c.credential,
      language: s.language,
      now: inputs.now,
      random: inputs.random,
      deadline: inputs.deadline,
      onSpend: inputs.onSpend,
      onRequest: inputs.onRequest,
      pacer: inputs.pacer,
    },
    cacheTtlSeconds: Math.round(s.cacheHours * 3600),
    maxBatch: MAX_BATCH,
    matchFloor: s.matchFloor,
    scope: scopeOf(c.baseUrl, inputs.documentId ?? ""),
  };
}
