/**
 * The scheduled refresh of an enriched list, per document: which table (as
 * the Enrich panel selected it), rows older than how many days, when
 * (daily or weekly at an hour) and the monthly credit ceiling. Like the
 * portfolio's schedule (../monitor/schedule.ts), it is a scheduled job
 * (shared/schedule/, shared/app/scheduled-jobs.ts): a weekly refresh runs
 * every seven days at its hour. The CLI takes the same figures as flags.
 */
import * as z from "zod/mini";
import { invalid } from "../core/index.ts";
import { got, rule } from "../i18n/index.ts";
import { validate as V } from "../api/index.ts";
import { selectFields } from "../enrich/index.ts";
import { INPUT_ROLES, type ColumnMapping } from "../enrich/index.ts";
import { formNumber as n, settingsStore, slotFields, slotShape, type Slot } from "../schedule/index.ts";

export type RefreshFrequency = "daily" | "weekly";
const FREQUENCIES = ["daily", "weekly"] as const;

/** The enriched table: header row at `row`, `rows` counting the header, the input's `cols` (the output block stands right of it). */
export interface RefreshTable {
  sheet: string;
  row: number;
  col: number;
  rows: number;
  cols: number;
  mapping: ColumnMapping;
  fields: string[];
  mode: "batch" | "free";
}

export interface RefreshSettings {
  enabled: boolean;
  /** null until a table was chosen in the Enrich panel. */
  table: RefreshTable | null;
  /** Rows whose as-of date is older than this many days are refreshed. */
  olderThanDays: number;
  frequency: RefreshFrequency;
  /** Hour of day (0–23, the document's time zone). */
  hour: number;
  /** Credits the refresh may spend per calendar month, never more. */
  monthCeiling: number;
}

export const DEFAULT_REFRESH: RefreshSettings = {
  enabled: false,
  table: null,
  olderThanDays: 30,
  frequency: "weekly",
  hour: 6,
  monthCeiling: 100,
};

/** Per document: the schedule belongs to the workbook. */
export const REFRESH_SETTINGS_KEY = "doc:refresh:settings";

function tableOf(value: unknown): RefreshTable | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== "object")
    throw invalid("table", { de: "erwartet eine angereicherte Tabelle", en: "expected an enriched table" });
  const t = value as Record<string, unknown>;
  const fields = Array.isArray(t.fields) ? t.fields.map(String) : [];
  selectFields(fields); // unknown ids → INVALID_INPUT naming "fields"
  const cols = V.integer(n(t.cols), "cols", 1, 500);
  const mapping: ColumnMapping = {};
  const m = (t.mapping && typeof t.mapping === "object" ? t.mapping : {}) as Record<string, unknown>;
  for (const role of INPUT_ROLES) {
    const v = m[role];
    if (v !== null && v !== undefined) mapping[role] = V.integer(n(v), role, 0, cols - 1);
  }
  const mode = t.mode ?? "batch";
  if (mode !== "batch" && mode !== "free") throw invalid("mode", got(rule.oneOf(["batch", "free"]), mode));
  return {
    sheet: V.nonEmpty(t.sheet, "sheet", 200),
    row: V.integer(n(t.row), "row", 1, 1_000_000),
    col: V.integer(n(t.col), "col", 1, 18_278),
    rows: V.integer(n(t.rows), "rows", 2, 100_001),
    cols,
    mapping,
    fields,
    mode,
  };
}

/** Validate settings from the UI (form fields arrive as text); INVALID_INPUT names the field. */
export function refreshSettings(value: unknown): RefreshSettings {
  if (typeof value !== "object" || value === null)
    throw invalid("refresh", { de: "erwartet Einstellungen für die Aktualisierung", en: "expected refresh settings" });
  const v = value as Record<string, unknown>;
  const slot = slotFields(v, FREQUENCIES, DEFAULT_REFRESH);
  const table = tableOf(v.table);
  if (slot.enabled && !table)
    throw invalid("table", {
      de: "bitte zuerst im Bereich Anreichern die angereicherte Tabelle markieren",
      en: "please select the enriched table in the Enrich panel first",
    });
  return {
    ...slot,
    table,
    olderThanDays: V.integer(n(v.olderThanDays ?? DEFAULT_REFRESH.olderThanDays), "olderThanDays", 1, 3650),
    monthCeiling: V.integer(n(v.monthCeiling ?? DEFAULT_REFRESH.monthCeiling), "monthCeiling", 1, 10_000_000),
  };
}

const store = settingsStore<RefreshSettings>({
  key: REFRESH_SETTINGS_KEY,
  shape: z.object({
    ...slotShape(FREQUENCIES),
    table: z.nullable(
      z.object({
        sheet: z.string(),
        row: z.number(),
        col: z.number(),
        rows: z.number(),
        cols: z.number(),
        mapping: z.record(z.string(), z.number()),
        fields: z.array(z.string()),
        mode: z.enum(["batch", "free"]),
      }),
    ),
    olderThanDays: z.number(),
    monthCeiling: z.number(),
  }),
  validate: refreshSettings,
  defaults: DEFAULT_REFRESH,
});
export const SAVED_REFRESH = store.kind;
export const loadRefreshSettings = store.load;
export const saveRefreshSettings = store.save;

export const refreshIntervalDays = (s: Pick<RefreshSettings, "frequency">) => (s.frequency === "weekly" ? 7 : 1);

/** The refresh's schedule as a scheduled job's slot; null while it is off or has no table. */
export const refreshSlot = (s: RefreshSettings): Slot | null =>
  s.enabled && s.table ? { frequency: s.frequency, hour: s.hour } : null;
