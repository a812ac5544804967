/**
 * What the "Keep current" section keeps: the saved status, the settings as
 * typed (a draft until saved), the estimate shown and the last run; and the
 * settings the draft stands for once its numbers are whole and in range.
 */
import type { RefreshStatusView } from "../../../../app/index.ts";
import type { RefreshEstimate, RefreshSettings, RefreshSummary, RefreshTable } from "../../../../refresh/index.ts";
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
  /** The form as typed; the saved settings until the user changes it. */
  draft?: Draft;
  /** The user changed the form: saved settings read later (they arrive after the first render) do not overwrite it. */
  edited?: boolean;
  estimate?: RefreshEstimate;
  last?: RefreshSummary;
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

/** The form before the saved settings are known (the defaults of shared/refresh/settings.ts). */
export const DEFAULT_DRAFT: Draft = { days: "30", frequency: "weekly", hour: "6", ceiling: "100" };

/**
 * Ask once for the saved settings and status; the form shows the saved
 * settings unless the user has changed it meanwhile. (The answer comes after
 * the first render has put the defaults in the form: were they kept, the
 * form would show 30 days and 100 credits over a schedule saved with others,
 * and "Switch off" or "Refresh now" would save those defaults over the user's.)
 */
export function loadStatus(ui: Ui, r: RefreshSectionState): void {
  if (r.status !== undefined) return;
  r.status = null;
  ui.call("refreshStatus", {}).then(
    (v) => {
      r.status = v;
      const s = r.status.settings;
      if (!r.edited) {
        r.draft = {
          days: String(s.olderThanDays),
          frequency: s.frequency,
          hour: String(s.hour),
          ceiling: String(s.monthCeiling),
        };
        r.estimate = undefined; // it was for the figures the form showed before
      }
      ui.rerender();
    },
    () => undefined, // no key yet: the section works with the defaults and says what fails when the user acts
  );
}
