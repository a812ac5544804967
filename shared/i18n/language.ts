/** The two languages of the product and of the API's labels (Accept-Language: DE|EN). */
export type Language = "de" | "en";

export function toLanguage(value: unknown, fallback: Language = "de"): Language {
  const v = String(value ?? "").trim().toLowerCase();
  if (v.startsWith("de")) return "de";
  if (v.startsWith("en")) return "en";
  return fallback;
}

/** The header value the API takes. */
export const acceptLanguage = (lang: Language) => (lang === "de" ? "DE" : "EN");

/** A text in both languages. */
export type Bilingual = { de: string; en: string };
