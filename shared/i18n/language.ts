/** The two languages of the product and of the API's labels (Accept-Language: DE|EN). */
export type Language = "de" | "en";

export function toLanguage(value: unknown, fallback: Language = "de"): Language {
  const v = String(value ?? "")
    .trim()
    .toLowerCase();
  if (v.startsWith("de")) return "de";
  if (v.startsWith("en")) return "en";
  return fallback;
}

/** The header value the API takes. */
export const acceptLanguage = (lang: Language) => (lang === "de" ? "DE" : "EN");

/** A text in both languages. */
export type Bilingual = { de: string; en: string };

/**
 * One entry of a catalogue: the same text in both languages, either a
 * template (placeholders such as "{credits}", filled by shared/ui/strings.ts's
 * `format`) or a function taking the same arguments in each language.
 */
export type Texts =
  | { readonly de: string; readonly en: string }
  | { readonly de: (...args: never[]) => string; readonly en: (...args: never[]) => string };

/** A template's German version is any text; a function's takes the English one's arguments. */
type SameKind<En> = En extends string ? string : En;

/**
 * A domain's keyed catalogue of texts (the UI's STRINGS, the CLI's msg, the
 * field labels, …): every key has both languages, or it does not compile, and
 * a function's German version takes what its English one takes.
 * test/unit/bilingual-catalogues.test.ts checks every key of every catalogue
 * for non-empty text and the same placeholders in both languages.
 */
export function catalogue<T extends Record<string, Texts>>(
  texts: T & { readonly [K in keyof T]: { readonly de: SameKind<T[K]["en"]> } },
): T {
  return texts;
}
