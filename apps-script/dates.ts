/**
 * Dates between Sheets and the core, in the spreadsheet's time zone.
 *
 * A date cell reaches a script as a Date at midnight in the spreadsheet's
 * time zone (Spreadsheet.getSpreadsheetTimeZone()), and a Date written with
 * setValues is shown in that zone; the script's own time zone (the
 * manifest's, which Date's getters use) may differ, and then getDate() is a
 * day off. So dates are read and made with Utilities.formatDate in the
 * spreadsheet's zone (https://developers.google.com/apps-script/reference/utilities/utilities#formatDate(Date,String,String)).
 */
type Utilities = Pick<GoogleAppsScript.Utilities.Utilities, "formatDate">;

export const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export const isDate = (v: unknown): v is Date =>
  Object.prototype.toString.call(v) === "[object Date]" && !Number.isNaN((v as Date).getTime());

/** A date cell as YYYY-MM-DD, in the spreadsheet's time zone. */
export function isoDateOf(d: Date, tz: string, u: Utilities): string {
  return u.formatDate(d, tz, "yyyy-MM-dd");
}

/** Minutes east of UTC in `tz` at `ms` ("+0130" → 90). */
function offsetMinutes(ms: number, tz: string, u: Utilities): number {
  const z = u.formatDate(new Date(ms), tz, "Z");
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(z);
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** The Date for midnight of an ISO date in `tz`: what a date cell of that day holds. Null for an impossible date. */
export function dateInZone(iso: string, tz: string, u: Utilities): Date | null {
  const m = ISO_DATE.exec(iso);
  if (!m) return null;
  const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const back = new Date(utc);
  if (
    back.getUTCFullYear() !== Number(m[1]) ||
    back.getUTCMonth() !== Number(m[2]) - 1 ||
    back.getUTCDate() !== Number(m[3])
  )
    return null;
  let ms = utc - offsetMinutes(utc, tz, u) * 60_000;
  ms = utc - offsetMinutes(ms, tz, u) * 60_000; // the offset at that midnight (DST)
  return new Date(ms);
}
