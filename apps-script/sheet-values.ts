/**
 * A whole sheet's values in one Spreadsheet call.
 *
 * Spreadsheet calls are the slow part of an Apps Script execution ("Minimize
 * calls to other services", https://developers.google.com/apps-script/guides/support/best-practices).
 * `getDataRange().getValues()` is two of them; `Sheet.getSheetValues(1, 1, -1, -1)`
 * is one: "Returns the rectangular grid of values for this range starting at
 * the given coordinates. A -1 value given as the row or column position is
 * equivalent to getting the very last row or column that has data in the
 * sheet" (https://developers.google.com/apps-script/reference/spreadsheet/sheet#getSheetValues(Integer,Integer,Integer,Integer)),
 * and it answers what `Range.getValues()` of the same cells does (the
 * reference's own example compares the two).
 *
 * What it answers for a sheet without data is not documented (the data range
 * of an empty sheet is A1): when it throws, the data range is read the
 * two-call way, which answers that case or fails as it always did.
 */
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export function sheetValues(sheet: Sheet): unknown[][] {
  try {
    return sheet.getSheetValues(1, 1, -1, -1);
  } catch {
    return sheet.getDataRange().getValues();
  }
}
