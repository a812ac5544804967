/**
 * One purchase, every language (issue 37, item 2): a shared answer is stored
 * as its buyer's language gave it; a reader of another language gets the
 * labels of its coded values in theirs, from the shared core's tables
 * (shared/api/labels.ts). Nothing is bought again for a language.
 */
import { relabel } from "../shared/api/index.ts";
import type { Language } from "../shared/i18n/index.ts";

/** The stored answer as `reader` reads it (`bought`: its language; null: not recorded, relabelled to be sure). */
export function inLanguage(body: string, bought: string | null, reader: Language): string {
  if (bought === reader) return body;
  try {
    return JSON.stringify(relabel(JSON.parse(body), reader));
  } catch {
    return body;
  }
}
