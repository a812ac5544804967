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
import type { Bilingual } from "../i18n/index.ts";
import { estimateRefresh, readTable, type RefreshEstimate } from "../refresh/index.ts";
import { monthSpend } from "../refresh/index.ts";
import { lastRefresh, refreshStep, type RefreshSummary } from "../refresh/index.ts";
import { loadRefreshSettings, refreshSettings, saveRefreshSettings, type RefreshSettings } from "../refresh/index.ts";
import { invalid } from "../core/index.ts";
import { record } from "./input.ts";
import type { AppDeps, RefreshStatusView } from "./protocol.ts";
import { withSession } from "./session.ts";
import { contextFromSettings, loadSettings } from "./settings.ts";

const HOST_NOTE: Record<string, Bilingual> = {
  sheets: {
    de: "Google Sheets aktualisiert nach Zeitplan auch bei geschlossener Tabelle (derselbe Zeit-Trigger wie die Portfolio-Prüfung).",
    en: "Google Sheets refreshes on schedule even while the spreadsheet is closed (the same time-driven trigger as the portfolio check).",
  },
  excel: {
    de: "Excel aktualisiert nur, solange die Arbeitsmappe geöffnet ist: beim Öffnen, wenn ein Lauf fällig ist, und danach per Timer. Bei geschlossener Mappe wird nichts aktualisiert.",
    en: "Excel refreshes only while the workbook is open: on opening when a run is due, then on a timer. Nothing is refreshed while the workbook is closed.",
  },
  playground: {
    de: "Im Playground läuft nichts nach Zeitplan: Einstellungen und Schätzung werden gespeichert; „Jetzt aktualisieren“ führt einen Lauf aus. Stellen Sie die Uhr des Emulators vor, damit Zeilen fällig werden.",
    en: 'Nothing runs on a schedule in the playground: settings and estimate are stored; "Refresh now" runs one. Move the emulator\'s clock forward so that rows fall due.',
  },
};
const TEST_NOTE: Bilingual = {
  de: "Testumgebung: nichts läuft nach Zeitplan.",
  en: "Test environment: nothing runs on a schedule.",
};

export function* refreshStatusMethod(deps: AppDeps, _input: unknown): Operation<RefreshStatusView> {
  const settings = yield* loadRefreshSettings();
  const ctx = contextFromSettings(yield* loadSettings(), deps);
  const last = yield* lastRefresh(ctx);
  return {
    settings,
    last,
    paused: last?.status === "paused",
    month: yield* monthSpend(ctx, settings.monthCeiling),
    hostNote: HOST_NOTE[deps.host] ?? TEST_NOTE,
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
    return yield* refreshStep(ctx, s, { deadline: deps.deadline });
  });
}
