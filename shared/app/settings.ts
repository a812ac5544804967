/**
 * The user's settings and how an operation context is built from them.
 * Every host (sidebar, task pane, custom functions, playground) reads the
 * same keys through storeGet, so a setting saved in the UI is what the next
 * formula uses. The API key lives only under `user:apiKey`; nothing here
 * ever returns it, only whether it is set and a masked hint.
 */
import { storeGet, storePut, type Operation } from "../core/effects.ts";
import { PRODUCTION_BASE_URL, type ClientConfig } from "../api/client.ts";
import type { Pacer } from "../api/pacing.ts";
import { MAX_BATCH } from "../api/schemas.ts";
import type { OpContext } from "../operations/context.ts";
import { toLanguage, type Bilingual, type Language } from "../i18n/language.ts";
import { checkBaseUrl } from "../api/base-url.ts";
import { DEFAULT_MATCH_FLOOR, MATCH_FLOOR_LIMITS } from "../operations/contradiction.ts";

export const SETTINGS_KEYS = {
  apiKey: "user:apiKey",
  baseUrl: "user:baseUrl",
  language: "user:language",
  formulaDailyBudget: "user:formulaDailyBudget",
  cacheHours: "user:cacheHours",
  matchFloor: "user:matchFloor",
} as const;

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
}

export const DEFAULT_SETTINGS: Settings = {
  apiKey: null,
  baseUrl: PRODUCTION_BASE_URL,
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
}

export function* loadSettings(): Operation<Settings> {
  const k = SETTINGS_KEYS;
  const [apiKey, baseUrl, language, budget, cache, floor] = yield* storeGet([k.apiKey, k.baseUrl, k.language, k.formulaDailyBudget, k.cacheHours, k.matchFloor]);
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
    functionsKeyNote: KEY_NOTES[host],
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
  return {
    client: {
      apiKey: s.apiKey,
      baseUrl: s.baseUrl,
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
    scope: scopeOf(s.baseUrl, inputs.documentId ?? ""),
    matchFloor: s.matchFloor,
  };
}
