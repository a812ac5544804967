/** getSettings, saveSettings, testConnection. */
import { call, type ClientConfig } from "../api/client.ts";
import type { AccountResponse } from "../api/schemas.ts";
import { CompanyDataError } from "../core/errors.ts";
import type { Operation } from "../core/effects.ts";
import { toLanguage } from "../i18n/language.ts";
import { LIMITS, loadSettings, normaliseBaseUrl, saveSettings, settingsView, type SettingsPatch } from "./settings.ts";
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
  if (o.baseUrl !== undefined) patch.baseUrl = normaliseBaseUrl(typeof o.baseUrl === "string" ? o.baseUrl : text(o, "baseUrl"));
  if (o.language !== undefined) patch.language = toLanguage(oneOf(o, "language", ["de", "en"] as const));
  const budget = optNum(o, "formulaDailyBudget", LIMITS.formulaDailyBudget.min, LIMITS.formulaDailyBudget.max, { integer: true });
  if (budget !== undefined) patch.formulaDailyBudget = budget;
  const hours = optNum(o, "cacheHours", LIMITS.cacheHours.min, LIMITS.cacheHours.max);
  if (hours !== undefined) patch.cacheHours = hours;
  const floor = optNum(o, "matchFloor", LIMITS.matchFloor.min, LIMITS.matchFloor.max);
  if (floor !== undefined) patch.matchFloor = floor;
  return settingsView(yield* saveSettings(patch), deps.host);
}

/**
 * The client for a connection test: the saved settings, or a key and base
 * URL the user is about to save (so a typo is caught before saving). The
 * doctor (shared/app/doctor.ts) tests the same connection.
 */
export function* connectionClient(deps: AppDeps, input: unknown): Operation<ClientConfig> {
  const o = record(input);
  const saved = yield* loadSettings();
  const apiKey = optText(o, "apiKey", { max: LIMITS.apiKey.max }) ?? saved.apiKey;
  const baseUrl = o.baseUrl !== undefined && o.baseUrl !== "" ? normaliseBaseUrl(text(o, "baseUrl")) : saved.baseUrl;
  if (!apiKey) throw new CompanyDataError("MISSING_KEY");
  return {
    apiKey,
    baseUrl,
    language: saved.language,
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
  return { credits: account.credits, plan: account.plan ?? null, baseUrl: cfg.baseUrl };
}
