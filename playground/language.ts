/**
 * The playground's first language, by the one rule (shared/i18n/locale.ts
 * `pageLanguage`): the language the user saved (the header's DE/EN or
 * Settings; kept in this browser's localStorage, since the playground's
 * store lives only as long as the page) wins, else the browser's languages
 * (de* German, anything else English). The app service reads it as the
 * saved setting `user:language` (so the UI, the sheets it writes and the
 * API's Accept-Language agree), and a save of it is kept for the next visit.
 */
import { SETTINGS_KEYS, withStartLanguage } from "../shared/app/index.ts";
import type { AsyncDriver } from "../shared/core/index.ts";
import { pageLanguage, type Language } from "../shared/i18n/index.ts";

/** Where the playground keeps the language the user chose (nothing else is kept). */
export const LANGUAGE_ITEM = "companyData.playground.language";

/** What the page offers: its localStorage (absent or refused: nothing is kept) and navigator.languages. */
export interface LanguagePlace {
  storage?: Pick<Storage, "getItem" | "setItem"> | undefined;
  languages: readonly string[];
}

function savedItem(place: LanguagePlace): string | null {
  try {
    return place.storage?.getItem(LANGUAGE_ITEM) ?? null;
  } catch {
    return null; // storage refused (a privacy mode): the browser's languages decide
  }
}

/** This page's place: its localStorage (when the browser lets the page have it) and its languages. */
export function browserPlace(): LanguagePlace {
  let storage: Storage | undefined;
  try {
    storage = window.localStorage;
  } catch {
    storage = undefined;
  }
  return { storage, languages: navigator.languages?.length ? navigator.languages : [navigator.language] };
}

/** The language the playground starts in. */
export const startLanguage = (place: LanguagePlace): Language => pageLanguage(savedItem(place), place.languages);

/** The driver whose settings read the start language while none is saved, and keep a saved one for the next visit. */
export function withPageLanguage<D extends AsyncDriver>(driver: D, place: LanguagePlace): D {
  const key = SETTINGS_KEYS.language;
  return {
    ...withStartLanguage(driver, () => startLanguage(place)),
    storePut: async (entries) => {
      await driver.storePut(entries);
      const lang = entries[key];
      if (lang !== undefined)
        try {
          place.storage?.setItem(LANGUAGE_ITEM, lang ?? "");
        } catch {
          /* not kept: the next visit starts by the browser's languages */
        }
    },
  };
}
