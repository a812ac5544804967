/**
 * The Apps Script services, looked up when first needed (never while the
 * script file is evaluated), so tests can hand in fakes as globals.
 */
export interface Services {
  SpreadsheetApp: GoogleAppsScript.Spreadsheet.SpreadsheetApp;
  UrlFetchApp: GoogleAppsScript.URL_Fetch.UrlFetchApp;
  CacheService: GoogleAppsScript.Cache.CacheService;
  PropertiesService: GoogleAppsScript.Properties.PropertiesService;
  LockService: GoogleAppsScript.Lock.LockService;
  HtmlService: GoogleAppsScript.HTML.HtmlService;
  ScriptApp: GoogleAppsScript.Script.ScriptApp;
  Utilities: GoogleAppsScript.Utilities.Utilities;
  Session: GoogleAppsScript.Base.Session | undefined;
  MailApp: GoogleAppsScript.Mail.MailApp;
}

export function gas(): Services {
  const g = globalThis as unknown as Services;
  return {
    SpreadsheetApp: g.SpreadsheetApp,
    UrlFetchApp: g.UrlFetchApp,
    CacheService: g.CacheService,
    PropertiesService: g.PropertiesService,
    LockService: g.LockService,
    HtmlService: g.HtmlService,
    ScriptApp: g.ScriptApp,
    Utilities: g.Utilities,
    Session: g.Session,
    MailApp: g.MailApp,
  };
}
