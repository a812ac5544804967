/**
 * The language a host starts in while the user has saved none: the host's
 * own (Excel's display language, the browser's languages) instead of the
 * settings' fixed default. Without it the task pane opened in the display
 * language and then switched to German once the settings answered, and the
 * app service wrote German status words into an English user's sheet.
 * Read as the saved setting `user:language`, so the UI, the sheets it writes
 * and the API's Accept-Language agree; a language the user saves wins.
 */
import type { AsyncDriver } from "../core/index.ts";
import type { Language } from "../i18n/index.ts";
import { SETTINGS_KEYS } from "./settings.ts";

/** `driver` whose settings read `start()` for the language while none is saved. */
export function withStartLanguage<D extends AsyncDriver>(driver: D, start: () => Language): D {
  const key = SETTINGS_KEYS.language;
  return {
    ...driver,
    storeGet: async (keys: string[]) => {
      const values = await driver.storeGet(keys);
      return keys.map((k, i) => (k === key ? (values[i] ?? start()) : (values[i] ?? null)));
    },
  };
}
