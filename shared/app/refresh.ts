/**
 * The scheduled refresh of an enriched list, for the Enrich panel's refresh
 * section and the hosts' triggers and timers:
 *
 *   refreshStatus                 settings, last run, month spent / ceiling, paused, host note
 *   refreshEstimate {refresh}     next run and 30 days at most, the ceiling (free: reads the table)
 *   refreshSaveSettings {refresh} store them (Sheets then sets its trigger, Excel its timer)
 *   refreshRun                    one step under the host's deadline; "paused" → call again
 */
import type { Operation } from "../core/index.ts";
import { estimateRefresh, readTable, type RefreshEstimate } from "../refresh/index.ts";
import { monthSpend } from "../refresh/index.ts";
import { lastRefresh, refreshStep, type RefreshSummary } from "../refresh/index.ts";
import { loadRefreshSettings, refreshSettings, saveRefreshSettings, type RefreshSettings } from "../refresh/index.ts";
import { invalid } from "../core/index.ts";
import { hostNote } from "../schedule/index.ts";
import { record } from "./input.ts";
import type { AppDeps, RefreshStatusView } from "./protocol.ts";
import { REFRESH_JOB } from "./scheduled-jobs.ts";
import { withSession } from "./session.ts";
import { contextFromSettings, loadSettings } from "./settings.ts";

export function* refreshStatusMethod(deps: AppDeps, _input: unknown): Operation<RefreshStatusView> {
  const settings = yield* loadRefreshSettings();
  const ctx = contextFromSettings(yield* loadSettings(), deps);
  const last = yield* lastRefresh(ctx);
  return {
    settings,
    last,
    paused: last?.status === "paused",
    month: yield* monthSpend(ctx, settings.monthCeiling),
    hostNote: hostNote(REFRESH_JOB.hostNotes, deps.host),
  };
}

function* merged(input: unknown): Operation<RefreshSettings> {
  const i = record(input);
  return refreshSettings({ ...(yield* loadRefreshSettings()), ...record(i.refresh ?? {}, "refresh") });
}

export function* refreshEstimateMethod(deps: AppDeps, input: unknown): Operation<RefreshEstimate> {
  const s = yield* merged(input);
  const table = s.table;
  if (!table)
    throw invalid("table", {
      de: "bitte zuerst im Bereich Anreichern die angereicherte Tabelle markieren",
      en: "please select the enriched table in the Enrich panel first",
    });
  const ctx = contextFromSettings(yield* loadSettings(), deps);
  const { input: rows, previous } = yield* readTable(table);
  return estimateRefresh(rows, previous, { ...s, table }, yield* monthSpend(ctx, s.monthCeiling), deps.now());
}

export function* refreshSaveSettingsMethod(deps: AppDeps, input: unknown): Operation<RefreshStatusView> {
  yield* saveRefreshSettings(yield* merged(input));
  return yield* refreshStatusMethod(deps, {});
}

/** One step of a refresh now (the panel's button, a tick, a timer), under the host's deadline. */
export function* refreshRunMethod(deps: AppDeps, _input: unknown): Operation<RefreshSummary> {
  const s = yield* loadRefreshSettings();
  return yield* withSession(deps, "refresh", function* ({ ctx }) {
    return yield* refreshStep(ctx, s, { deadline: deps.deadline, who: deps.who });
  });
}
