/**
 * Whose API key the document's custom functions use.
 *
 * Custom functions run with the spreadsheet owner's settings: in them
 * PropertiesService.getUserProperties() "only gets the properties of the
 * spreadsheet owner" and editors cannot set user properties
 * (https://developers.google.com/apps-script/guides/sheets/functions#using_apps_script_services).
 * So an editor's own key (Settings) never reaches their formulas, and in a
 * spreadsheet on a shared drive, which has no personal owner, no user store
 * may answer at all (documented only; see apps-script/README.md).
 *
 * "Use my key for this document's formulas" (add-on menu) copies the
 * clicking user's key into the document's store, where only the script can
 * read it: never into a cell, the settings view, a log or a message. Its
 * formulas then spend that user's credits, within the document's daily
 * formula budget. "Formulas: stop using my key" removes it.
 */
import { SETTINGS_KEYS, maskKey } from "../shared/app/index.ts";
import type { Bilingual } from "../shared/i18n/index.ts";

type Props = GoogleAppsScript.Properties.Properties;

export const FORMULA_KEY_PROP = "companyData.formulaKey";

/** The key set for this document's formulas, or null. */
export function documentFormulaKey(doc: Props | null): string | null {
  if (!doc) return null;
  try {
    const v = doc.getProperty(FORMULA_KEY_PROP);
    return v && v.trim() ? v : null;
  } catch {
    return null;
  }
}

/** Copy the user's own key to the document's formulas; answers what to tell them. */
export function useMyKeyForFormulas(user: Props, doc: Props | null): Bilingual {
  if (!doc) return NO_DOCUMENT;
  const key = user.getProperty(SETTINGS_KEYS.apiKey);
  if (!key) return NO_OWN_KEY;
  doc.setProperty(FORMULA_KEY_PROP, key);
  const hint = maskKey(key) ?? "";
  return {
    de: `Die Formeln dieses Dokuments verwenden jetzt Ihren API-Schlüssel (${hint}) und Ihr Guthaben, für alle Bearbeiter, bis zum Tageslimit für Formeln (Einstellungen).`,
    en: `This document's formulas now use your API key (${hint}) and your credits, for every editor, up to the daily formula budget (Settings).`,
  };
}

export function stopUsingFormulaKey(doc: Props | null): Bilingual {
  if (!doc) return NO_DOCUMENT;
  doc.deleteProperty(FORMULA_KEY_PROP);
  return {
    de: "Die Formeln dieses Dokuments verwenden wieder den Schlüssel des Tabelleneigentümers.",
    en: "This document's formulas use the spreadsheet owner's key again.",
  };
}

const NO_DOCUMENT: Bilingual = {
  de: "Das geht nur in einer geöffneten Tabelle.",
  en: "This only works in an open spreadsheet.",
};
const NO_OWN_KEY: Bilingual = {
  de: "Sie haben noch keinen API-Schlüssel hinterlegt. Bitte zuerst unter Firmendaten › Einstellungen eintragen.",
  en: "You have not entered an API key yet. Please enter it under Company data › Settings first.",
};

/** What a formula says when no key is there: whose key is missing, and the two ways to fix it. */
export const FORMULA_KEY_MISSING: Bilingual = {
  de: "Kein API-Schlüssel für die Formeln dieses Dokuments. Google führt Formeln mit den Einstellungen des Tabelleneigentümers aus: Der Eigentümer trägt seinen Schlüssel unter Firmendaten › Einstellungen ein, oder ein Bearbeiter wählt Firmendaten › „Meinen Schlüssel für Formeln verwenden“.",
  en: "No API key for this document's formulas. Google runs formulas with the spreadsheet owner's settings: the owner enters their key under Company data › Settings, or an editor chooses Company data › \"Use my key for formulas\".",
};
