/**
 * What the "Keep current" section keeps: the saved status, the settings as
 * typed (a draft until saved), the estimate shown and the last run; and the
 * settings the draft stands for once its numbers are whole and in range.
 */
import type { EnrichConfig, RefreshStatusView } from "../../../../app/index.ts";
import type { RefreshEstimate, RefreshSettings, RefreshSummary, RefreshTable } from "../../../../refresh/index.ts";
import type { ColumnMapping } from "../../../../enrich/index.ts";
import type { Ui } from "../../../panel.ts";

export interface Draft {
  days: string;
  frequency: RefreshSettings["frequency"];
  hour: string;
  ceiling: string;
}

/** The draft's fields typed as numbers. */
export type NumberKey = "days" | "hour" | "ceiling";

export interface RefreshSectionState {
  status?: RefreshStatusView | null;
  draft?: Draft;
  estimate?: RefreshEstimate;
  last?: RefreshSummary;
}

/** The refresh's table from the Enrich panel's current table (header row + data rows, as the job reads it). */
export function refreshTableOf(c: EnrichConfig): RefreshTable {
  const mapping: ColumnMapping = {};
  for (const [role, col] of Object.entries(c.mapping)) if (col !== null) mapping[role as keyof ColumnMapping] = col;
  return {
    sheet: c.sheet,
    row: c.headerRow,
    col: c.col,
    rows: c.rows + 1,
    cols: c.cols,
    mapping,
    fields: c.fields,
    mode: c.mode,
  };
}

const wholeIn = (v: string, min: number, max: number): number | null => {
  const n = Number(v.trim());
  return v.trim() !== "" && Number.isInteger(n) && n >= min && n <= max ? n : null;
};

/** The draft's numbers, each null while not a whole number in its range. */
export interface DraftNumbers {
  days: number | null;
  hour: number | null;
  ceiling: number | null;
  valid: boolean;
}

export function draftNumbers(d: Draft): DraftNumbers {
  const days = wholeIn(d.days, 1, 3650);
  const hour = wholeIn(d.hour, 0, 23);
  const ceiling = wholeIn(d.ceiling, 1, 10_000_000);
  return { days, hour, ceiling, valid: days !== null && hour !== null && ceiling !== null };
}

/** The settings to estimate or save: the table and the draft's numbers (the defaults where one is not valid). */
export function settingsOf(table: RefreshTable | null, d: Draft, n: DraftNumbers): Partial<RefreshSettings> {
  return {
    table,
    olderThanDays: n.days ?? 30,
    frequency: d.frequency,
    hour: n.hour ?? 6,
    monthCeiling: n.ceiling ?? 100,
  };
}

/** Ask once for the saved settings and status; the draft starts from the saved settings. */
export function loadStatus(ui: Ui, r: RefreshSectionState): void {
  if (r.status !== undefined) return;
  r.status = null;
  ui.call("refreshStatus", {}).then(
    (v) => {
      r.status = v;
      const s = r.status.settings;
      r.draft ??= {
        days: String(s.olderThanDays),
        frequency: s.frequency,
        hour: String(s.hour),
        ceiling: String(s.monthCeiling),
      };
      ui.rerender();
    },
    () => undefined, // no key yet: the section works with the defaults and says what fails when the user acts
  );
}
