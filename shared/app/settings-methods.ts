/** getSettings, saveSettings, testConnection. */
import { call, missingKey, type ClientConfig } from "../api/index.ts";
import { checkBaseUrl } from "../api/index.ts";
import type { AccountResponse } from "../api/index.ts";
import type { Operation } from "../core/index.ts";
import { toLanguage } from "../i18n/index.ts";
import {
  CONNECTION_MODES,
  LIMITS,
  activeConnection,
  loadSettings,
  normaliseBaseUrl,
  saveSettings,
  settingsView,
  type SettingsPatch,
} from "./settings.ts";
import { oneOf, optNum, optText, record, text } from "./input.ts";
import type { AppDeps, ConnectionResult, SettingsView } from "./protocol.ts";

export function* getSettingsMethod(deps: AppDeps, _input: unknown): Operation<SettingsView> {
  return settingsView(yield* loadSettings(), deps.host);
}

export function* saveSettingsMethod(deps: AppDeps, input: unknown): Operation<SettingsView> {
  const o = record(input);
  const patch: SettingsPatch = {};
  if (o.apiKey === null || o.apiKey === "") patch.apiKey = null;
  else if (o.apiKey !== undefined) patch.apiKey = text(o, "apiKey", { min: 1, max: LIMITS.apiKey.max });
  if (o.baseUrl !== undefined)
    patch.baseUrl = normaliseBaseUrl(typeof o.baseUrl === "string" ? o.baseUrl : text(o, "baseUrl"));
  if (o.language !== undefined) patch.language = toLanguage(oneOf(o, "language", ["de", "en"] as const));
  const budget = optNum(o, "formulaDailyBudget", LIMITS.formulaDailyBudget.min, LIMITS.formulaDailyBudget.max, {
    integer: true,
  });
  if (budget !== undefined) patch.formulaDailyBudget = budget;
  const hours = optNum(o, "cacheHours", LIMITS.cacheHours.min, LIMITS.cacheHours.max);
  if (hours !== undefined) patch.cacheHours = hours;
  const floor = optNum(o, "matchFloor", LIMITS.matchFloor.min, LIMITS.matchFloor.max);
  if (floor !== undefined) patch.matchFloor = floor;
  if (o.connection !== undefined) patch.connection = oneOf(o, "connection", CONNECTION_MODES);
  if (o.serverUrl !== undefined)
    patch.serverUrl = typeof o.serverUrl === "string" ? serverUrlOf(o.serverUrl) : text(o, "serverUrl");
  if (o.serverToken === null || o.serverToken === "") patch.serverToken = null;
  else if (o.serverToken !== undefined)
    patch.serverToken = text(o, "serverToken", { min: 1, max: LIMITS.serverToken.max });
  return settingsView(yield* saveSettings(patch), deps.host);
}

/** "" (none) or a URL under the base-URL rule (https, http to loopback only): a token travels to it. */
function serverUrlOf(v: string): string {
  return v.trim() ? checkBaseUrl(v, "serverUrl") : "";
}

/**
 * The client for a connection test: the saved settings, or what the user is
 * about to save (a mode, key and base URL, or server URL and token), so a
 * typo is caught before saving. Through a team server the same endpoints
 * answer for the team's key. The doctor (shared/app/doctor.ts) tests the
 * same connection.
 */
export function* connectionClient(deps: AppDeps, input: unknown): Operation<ClientConfig> {
  const o = record(input);
  const settings = yield* loadSettings();
  const saved = activeConnection(settings);
  const mode = o.connection !== undefined ? oneOf(o, "connection", CONNECTION_MODES) : saved.mode;
  const reuse = mode === saved.mode;
  const typedUrl = mode === "server" ? o.serverUrl : o.baseUrl;
  const baseUrl =
    typeof typedUrl === "string" && typedUrl.trim() !== ""
      ? mode === "server"
        ? serverUrlOf(typedUrl)
        : normaliseBaseUrl(typedUrl)
      : reuse
        ? saved.baseUrl
        : "";
  const secret =
    (mode === "server"
      ? optText(o, "serverToken", { max: LIMITS.serverToken.max })
      : optText(o, "apiKey", { max: LIMITS.apiKey.max })) ?? (reuse ? saved.secret : null);
  const credential = mode === "server" ? "serverToken" : "apiKey";
  if (!secret || !baseUrl) throw missingKey({ credential });
  return {
    apiKey: secret,
    baseUrl,
    credential,
    language: settings.language,
    now: deps.now,
    random: deps.random,
    deadline: deps.deadline,
    // One quick answer is what a connection test wants, not five patient retries.
    retry: { maxAttempts: 2 },
    onRequest: deps.onRequest,
    pacer: deps.pacer,
  };
}

/** Ask the free account endpoint with the connection under test. */
export function* testConnectionMethod(deps: AppDeps, input: unknown): Operation<ConnectionResult> {
  const cfg = yield* connectionClient(deps, input);
  const account = yield* call<AccountResponse>(cfg, { endpoint: "account" });
  return {
    credits: account.credits,
    plan: account.plan ?? null,
    baseUrl: cfg.baseUrl,
    connection: cfg.credential === "serverToken" ? "server" : "direct",
    user: account.user ?? null,
  };
}
