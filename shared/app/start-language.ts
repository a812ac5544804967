/**
 * The language a host starts in while the user has saved none: the host's
 * own (Excel's display language, the Google account's language, the
 * browser's languages) instead of the settings' fixed default. Without it
 * the task pane opened in the display language and switched to German once
 * the settings answered, and the app service wrote German status words into
 * an English user's sheet. Read as the saved setting `user:language`, so the
 * UI, the sheets it writes and the API's Accept-Language agree; a language
 * the user saves wins.
 */
import type { Language } from "../i18n/index.ts";
import { SETTINGS_KEYS } from "./settings.ts";

type Values = (string | null)[];
/** A driver's store, synchronous (Apps Script) or not (Excel, the playground). */
interface StoreReader {
  storeGet(keys: string[]): Values | Promise<Values>;
}

/** `driver` whose settings read `start()` for the language while none is saved. */
export function withStartLanguage<D extends StoreReader>(driver: D, start: () => Language): D {
  const key = SETTINGS_KEYS.language;
  const fill = (keys: string[], values: Values): Values =>
    keys.map((k, i) => (k === key ? (values[i] ?? start()) : (values[i] ?? null)));
  const storeGet = (keys: string[]) => {
    const values = driver.storeGet(keys);
    return values instanceof Promise ? values.then((v) => fill(keys, v)) : fill(keys, values);
  };
  return { ...driver, storeGet };
}
